// VectorAdd (CUDA SDK style): C = A + B, one thread per element, blocks of 256.
// Written for gtlm from the algorithm's description.
extern "C" __global__ void vector_add(const float *a, const float *b, float *c, int n)
{
    int i = blockDim.x * blockIdx.x + threadIdx.x;
    if (i < n) c[i] = a[i] + b[i];
}
