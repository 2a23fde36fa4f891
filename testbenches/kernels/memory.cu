// Memory-space and access-width kernels for the functional-execution tests
// (testbenches/api/test_kernels.cpp): constant and global module variables, local arrays,
// narrow and vector accesses, generic pointers, 3-D indices, and two kernels that fault.

#define GTID() (blockIdx.x * blockDim.x + threadIdx.x)

// Set by the host with gtlm_memcpy_to_symbol before the launch.
__constant__ int c_table[64];
__constant__ float c_scale[4];

// Initialised in the module; the test knows these eight values.
__device__ int g_init[8] = {3, -1, 4, 1, -5, 9, 2, -6};
// Accumulated by mem_global_var; the host reads it through gtlm_symbol_address.
__device__ unsigned g_sum;

// Reads the constant table at a data-dependent index and at a thread-dependent index, and the
// float constants. Two words per element.
extern "C" __global__ void mem_const(const int *in, int *out, float *fout, int n)
{
    int i = GTID();
    if (i >= n)
        return;
    int v = in[i];
    out[i] = c_table[v & 63] * 3 + c_table[i & 63];
    fout[i] = c_scale[v & 3] * (float)v;
}

// Reads the initialised __device__ array and adds into a __device__ scalar.
extern "C" __global__ void mem_global_var(const int *in, int *out, int n)
{
    int i = GTID();
    if (i >= n)
        return;
    out[i] = g_init[i & 7] * in[i] + g_init[(i + 3) & 7];
    atomicAdd(&g_sum, (unsigned)in[i]);
}

// A per-thread array indexed by data-dependent values, which nvcc must place in .local memory.
extern "C" __global__ void mem_local(const int *in, int *out, int n)
{
    int i = GTID();
    if (i >= n)
        return;
    int a[24];
    int v = in[i];
    for (int k = 0; k < 24; k++)
        a[k] = v * (k + 1) - k * k;
    for (int k = 0; k < 8; k++) {
        int idx = (v + k * 5) % 24;
        if (idx < 0)
            idx += 24;
        a[idx] += k;
    }
    int j = (v >> 4) & 15;
    out[2 * i + 0] = a[j] + a[(j + 7) % 24];
    out[2 * i + 1] = a[(i * 13) % 24];
}

struct narrow {
    signed char c;
    unsigned char uc;
    short s;
    unsigned short us;
};

// 8-, 16- and 64-bit scalar accesses and 16-byte vector accesses (float4, int4, double2).
extern "C" __global__ void mem_types(const signed char *c, const unsigned char *uc, const short *s,
                                     const unsigned short *us, const long long *ll, const float4 *f4,
                                     const int4 *i4, const double2 *d2, narrow *onar, int *owide, long long *oll,
                                     float4 *of4, int4 *oi4, double2 *od2, int n)
{
    int i = GTID();
    if (i >= n)
        return;
    signed char vc = c[i];
    unsigned char vuc = uc[i];
    short vs = s[i];
    unsigned short vus = us[i];
    narrow r;
    r.c = (signed char)(vc * 3 - 1);
    r.uc = (unsigned char)(vuc + 200);
    r.s = (short)(vs * 7 + vc);
    r.us = (unsigned short)(vus ^ 0xa5a5u);
    onar[i] = r;
    owide[4 * i + 0] = vc; // sign extension
    owide[4 * i + 1] = vuc;
    owide[4 * i + 2] = vs;
    owide[4 * i + 3] = vus;
    long long L = ll[i];
    oll[i] = (L >> 3) ^ (long long)((unsigned long long)L << 17);
    float4 f = f4[i];
    of4[i] = make_float4(f.y, f.x + f.w, f.z * 2.0f, -f.w);
    int4 q = i4[i];
    oi4[i] = make_int4(q.w, q.x ^ q.y, q.z - q.x, q.y >> 2);
    double2 d = d2[i];
    od2[i] = make_double2(d.y - d.x, d.x * 0.25);
}

// A non-inlined function taking a generic pointer, called with a shared and a global pointer.
__device__ __noinline__ int bump(int *p, int v)
{
    int old = *p;
    *p = old * 2 + v;
    return old;
}

extern "C" __global__ void mem_generic(const int *in, int *out, int n)
{
    __shared__ int sh[256];
    int i = GTID();
    unsigned t = threadIdx.x;
    sh[t] = i < n ? in[i] : 0;
    __syncthreads();
    if (i >= n)
        return;
    int r = bump(&sh[t], (int)t);                // generic -> shared
    out[2 * i + 0] = in[i] + 1;
    int g = bump(&out[2 * i + 0], sh[t]);        // generic -> global
    out[2 * i + 1] = r + g;
}

// Writes a code of its 3-D block and thread indices at its linear id.
extern "C" __global__ void mem_3d(unsigned *out, unsigned *dims)
{
    unsigned block_linear = (blockIdx.z * gridDim.y + blockIdx.y) * gridDim.x + blockIdx.x;
    unsigned threads = blockDim.x * blockDim.y * blockDim.z;
    unsigned thread_linear = (threadIdx.z * blockDim.y + threadIdx.y) * blockDim.x + threadIdx.x;
    unsigned id = block_linear * threads + thread_linear;
    out[id] = (blockIdx.z << 24) | (blockIdx.y << 20) | (blockIdx.x << 16) | (threadIdx.z << 8) |
              (threadIdx.y << 4) | threadIdx.x;
    if (id == 0) {
        dims[0] = gridDim.x;
        dims[1] = gridDim.y;
        dims[2] = gridDim.z;
        dims[3] = blockDim.x;
        dims[4] = blockDim.y;
        dims[5] = blockDim.z;
    }
}

// Reads in[idx + n]: with in holding fewer than idx + n + 1 elements the last threads read past
// the allocation and the launch must fail.
extern "C" __global__ void mem_oob(int *out, const int *in, int n)
{
    int idx = GTID();
    out[idx] = in[idx + n];
}

// Thread `bad` loads an int from one byte past an aligned address: a misaligned access.
extern "C" __global__ void mem_misaligned(int *out, const int *p, int bad)
{
    int idx = GTID();
    const char *b = (const char *)(p + idx) + (idx == bad ? 1 : 0);
    out[idx] = *(const int *)b;
}
