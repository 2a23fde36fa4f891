// Gaussian (Rodinia "GA"): forward elimination without pivoting of a Size x Size system
// a x = b, two kernels per pivot step t = 0 .. Size-2. Written for gtlm from the algorithm's
// description.
//
//   gauss_fan1 <<<ceil(Size/512), 512>>>: thread i < Size-1-t computes the multiplier of row
//       r = t+1+i: m[r][t] = a[r][t] / a[t][t] (a column walk: lanes are Size floats apart).
//   gauss_fan2 <<<(ceil(Size/4), ceil(Size/4)), (4,4)>>>: x = row offset, y = column offset;
//       for x < Size-1-t and y < Size-t: a[t+1+x][t+y] -= m[t+1+x][t] * a[t][t+y]; the threads
//       with y == 0 also update b[t+1+x] -= m[t+1+x][t] * b[t].
// Quirks kept: the x thread index selects the row, so the 4 lanes of a row group are Size
// floats apart (uncoalesced), 16-thread CTAs (half-empty warps), 2(Size-1) launches, most
// threads of the late launches exit at once. No bugs of the original needed fixing.

extern "C" __global__ void gauss_fan1(float *m, const float *a, int size, int t)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= size - 1 - t) return;
    int r = t + 1 + i;
    m[size * r + t] = a[size * r + t] / a[size * t + t];
}

extern "C" __global__ void gauss_fan2(const float *m, float *a, float *b, int size, int t)
{
    int x = blockIdx.x * blockDim.x + threadIdx.x;
    int y = blockIdx.y * blockDim.y + threadIdx.y;
    if (x >= size - 1 - t || y >= size - t) return;
    int r = t + 1 + x;
    a[size * r + t + y] -= m[size * r + t] * a[size * t + t + y];
    if (y == 0) b[r] -= m[size * r + t] * b[t];
}
