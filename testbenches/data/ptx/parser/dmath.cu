// Parser test input: double-precision math that nvcc does not inline (pow calls
// __internal_accurate_pow; sin/cos have a slow path with a .local depot and a global table).
// Regenerate: nvcc -ptx -arch=compute_75 -o dmath.ptx dmath.cu

__global__ void dpow(const double *x, double *y, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) y[i] = pow(x[i], 2.5) + pow(x[i], 0.5);
}

__global__ void dtrig(const double *x, double *y)
{
    int i = threadIdx.x;
    y[i] = sin(x[i]) * cos(x[i] * 0.5);
}

__global__ void ftrig(const float *x, float *y)
{
    int i = threadIdx.x;
    y[i] = sinf(x[i]) + expf(x[i]) / sqrtf(x[i] + 1.0f);
}
