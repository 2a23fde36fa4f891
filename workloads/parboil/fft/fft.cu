// FFT (Parboil): batched 1-D complex FFTs by the radix-2 Stockham algorithm of Govindaraju et
// al. ("High performance discrete Fourier transforms on graphics processors", SC 2008), one
// global-memory pass per launch, written for gtlm from the algorithm's description.
// Pass Ns (1, 2, 4, ..., N/2), thread j of transform b (b = blockIdx.y):
//   reads x[j] and x[j + N/2], multiplies the second by the twiddle exp(-2 pi i (j mod Ns) /
//   (2 Ns)), does the 2-point butterfly, writes to (j / Ns) * 2 Ns + (j mod Ns) and that + Ns
//   of the other buffer (out of place; the host swaps the buffers).
// Reads are unit-stride (coalesced); writes are unit-stride in runs of Ns, scattered in pairs for
// the first passes. Twiddles with the fast __sinf/__cosf as the paper's code.
extern "C" __global__ void GPU_FFT_Global(const float2 *in, float2 *out, int n, int ns)
{
    int j = blockIdx.x * blockDim.x + threadIdx.x;
    int half = n / 2;
    if (j >= half) return;
    const float2 *x = in + (size_t)blockIdx.y * n;
    float2 *y = out + (size_t)blockIdx.y * n;
    float2 v0 = x[j], v1 = x[j + half];
    int k = j % ns;
    float angle = -3.14159265358979f * (float)k / (float)ns;
    float c = __cosf(angle), s = __sinf(angle);
    float2 t = make_float2(v1.x * c - v1.y * s, v1.x * s + v1.y * c);
    int d = (j / ns) * 2 * ns + k;
    y[d] = make_float2(v0.x + t.x, v0.y + t.y);
    y[d + ns] = make_float2(v0.x - t.x, v0.y - t.y);
}
