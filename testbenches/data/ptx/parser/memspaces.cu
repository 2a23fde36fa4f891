// Parser test input: every state space, vectors, generic pointers, shared memory with
// barriers, dynamic shared memory, initialised constant and global tables, 3-D indices.
// Regenerate: nvcc -ptx -arch=compute_75 -o memspaces.ptx memspaces.cu

__constant__ float c_weights[4] = {0.25f, 0.5f, 1.0f, 2.0f};
__constant__ int c_table[3] = {7, -1, 258};
__device__ int g_counter;
__device__ float g_scale[2] = {1.5f, -3.0f};

__global__ void tiled_sum(const float *__restrict__ in, float *out, int n)
{
    __shared__ float tile[256];
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    tile[threadIdx.x] = i < n ? in[i] * c_weights[i & 3] : 0.0f;
    __syncthreads();
    for (int s = blockDim.x / 2; s > 0; s >>= 1) {
        if (threadIdx.x < s) tile[threadIdx.x] += tile[threadIdx.x + s];
        __syncthreads();
    }
    if (threadIdx.x == 0) out[blockIdx.x] = tile[0] * g_scale[blockIdx.x & 1];
}

__global__ void dyn_reduce(const int *in, int *out)
{
    extern __shared__ int dyn[];
    dyn[threadIdx.x] = in[blockIdx.x * blockDim.x + threadIdx.x] + c_table[threadIdx.x % 3];
    __syncthreads();
    if (threadIdx.x == 0) {
        int s = 0;
        for (int k = 0; k < blockDim.x; ++k) s += dyn[k];
        out[blockIdx.x] = s;
        atomicAdd(&g_counter, 1);
    }
}

__global__ void vec_copy(float4 *dst, const float4 *src, int2 *pairs, double2 *d2, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= n) return;
    float4 v = src[i];
    v.x += 1.0f;
    dst[i] = v;
    int2 p = pairs[i];
    pairs[i] = make_int2(p.y, p.x);
    double2 d = d2[i];
    d2[i] = make_double2(d.y * 0.5, d.x);
}

// A pointer that may point to shared or global memory is generic: ld/st without a state
// space in the callee, cvta.shared in the caller.
__device__ __noinline__ void bump(float *p, unsigned char *b, int n)
{
    p[0] = p[1] + 2.0f;
    b[0] = b[n] + 1;
}

__global__ void generic_ptrs(float **ptrs, unsigned char *bytes, int n)
{
    __shared__ float s[64];
    s[threadIdx.x] = 0.0f;
    __syncthreads();
    bump(threadIdx.x & 1 ? ptrs[threadIdx.x] : &s[threadIdx.x], bytes, n);
}

// A per-thread array indexed dynamically lives in .local memory.
__global__ void local_array(const int *idx, float *out)
{
    float a[16];
    for (int k = 0; k < 16; ++k) a[k] = k * out[k];
    out[threadIdx.x] = a[idx[threadIdx.x] & 15];
}

__global__ void index3d(int *out, int nx, int ny)
{
    int x = blockIdx.x * blockDim.x + threadIdx.x;
    int y = blockIdx.y * blockDim.y + threadIdx.y;
    int z = blockIdx.z * blockDim.z + threadIdx.z;
    out[(z * ny + y) * nx + x] = gridDim.x + gridDim.y * 3 + gridDim.z * 5;
}
