// BlackScholes (CUDA SDK style): European call and put prices of optN options in float, with
// the cumulative normal distribution by the Abramowitz-Stegun 26.2.17 polynomial (5 terms).
// Written for gtlm from the published formulas.
//
// Launch as the SDK of the GPGPU-Sim era: grid 480, block 128, a grid-stride loop over the
// options (thread t handles t, t + 61440, ...), repeated for the timing loop. Five float
// streams per option (S, X, T in; call, put out), all coalesced. Fast intrinsics as the SDK:
// __logf, __expf (ex2.approx / lg2.approx), the rest IEEE float (sqrtf, division).
// Riskless rate R and volatility V are kernel arguments (the SDK's 0.02 and 0.30). No bugs to fix.

__device__ inline float cnd(float d)
{
    const float a1 = 0.31938153f, a2 = -0.356563782f, a3 = 1.781477937f, a4 = -1.821255978f, a5 = 1.330274429f;
    const float rsqrt2pi = 0.39894228040143267794f;
    float k = 1.0f / (1.0f + 0.2316419f * fabsf(d));
    float c = rsqrt2pi * __expf(-0.5f * d * d) * (k * (a1 + k * (a2 + k * (a3 + k * (a4 + k * a5)))));
    return d > 0.0f ? 1.0f - c : c;
}

extern "C" __global__ void black_scholes(float *call, float *put, const float *S, const float *X, const float *T,
                                         float R, float V, int optN)
{
    int n = blockDim.x * gridDim.x;
    for (int i = blockDim.x * blockIdx.x + threadIdx.x; i < optN; i += n) {
        float s = S[i], x = X[i], t = T[i];
        float sqrtT = sqrtf(t);
        float d1 = (__logf(s / x) + (R + 0.5f * V * V) * t) / (V * sqrtT);
        float d2 = d1 - V * sqrtT;
        float n1 = cnd(d1), n2 = cnd(d2);
        float xe = x * __expf(-R * t);
        call[i] = s * n1 - xe * n2;
        put[i] = xe * (1.0f - n2) - s * (1.0f - n1);
    }
}
