// Backprop (Rodinia): one training step of a 3-layer perceptron (in -> 16 hidden -> 1 output);
// the input->hidden layer runs on the GPU, the rest on the host. Written for gtlm from the
// algorithm's description.
//
// Weights w are (in+1) x (hid+1) floats, row-major, row 0 / column 0 being the bias entries.
// Both kernels: grid (1, in/16), block (16,16); CTA by covers input rows 16*by+1 .. 16*by+16,
// thread (tx,ty) the weight w[16*by+ty+1][tx+1] (rows are hid+1 = 17 floats apart, so a
// half-warp reads 64 contiguous bytes).
//   bp_layer_forward: stage the CTA's 16 inputs (threads tx == 0) and its 16x16 weights in
//       shared memory, multiply, sum over ty by a log2 tree whose bounds and strides come from
//       __log2f/__powf (lg2.approx / ex2.approx, as the original), write the partly reduced
//       tile back over the weights (the original does; the host re-uploads them before the
//       update) and the 16 column sums to partial[by*hid + j] (threads tx == 0).
//   bp_adjust_weights: w += 0.3*delta[j]*x[i] + 0.3*oldw, oldw = that step (0.3 is a double
//       literal, so the update is computed in f64); CTA 0's row ty == 0 also updates the bias
//       row 0.
// Quirks kept: the write-back of the reduced tile, f64 arithmetic, 16-wide rows of a 17-wide
// matrix. No bugs of the original needed fixing.

#define BP_ROWS 16
#define BP_COLS 16
#define BP_ETA 0.3
#define BP_MOMENTUM 0.3

extern "C" __global__ void bp_layer_forward(const float *x, float *w, float *partial, int in, int hid)
{
    __shared__ float xs[BP_ROWS];
    __shared__ float prod[BP_ROWS][BP_COLS];
    int by = blockIdx.y, tx = threadIdx.x, ty = threadIdx.y;
    int stride = hid + 1;
    int wi = stride * BP_ROWS * by + stride * ty + tx + 1 + stride; // w[16*by+ty+1][tx+1]
    int xi = BP_ROWS * by + ty + 1;

    if (tx == 0) xs[ty] = x[xi];
    __syncthreads();
    prod[ty][tx] = w[wi];
    __syncthreads();
    prod[ty][tx] = prod[ty][tx] * xs[ty];
    __syncthreads();
    for (int level = 1; level <= __log2f(BP_ROWS); level++) {
        int span = __powf(2, level);
        if (ty % span == 0) prod[ty][tx] = prod[ty][tx] + prod[ty + span / 2][tx];
        __syncthreads();
    }
    w[wi] = prod[ty][tx];
    __syncthreads();
    if (tx == 0) partial[by * hid + ty] = prod[tx][ty];
}

extern "C" __global__ void bp_adjust_weights(const float *delta, int hid, const float *x, int in, float *w, float *oldw)
{
    int by = blockIdx.y, tx = threadIdx.x, ty = threadIdx.y;
    int stride = hid + 1;
    int wi = stride * BP_ROWS * by + stride * ty + tx + 1 + stride;
    int xi = BP_ROWS * by + ty + 1;
    int j = tx + 1;

    w[wi] += BP_ETA * delta[j] * x[xi] + BP_MOMENTUM * oldw[wi];
    oldw[wi] = BP_ETA * delta[j] * x[xi] + BP_MOMENTUM * oldw[wi];
    __syncthreads();
    if (ty == 0 && by == 0) {
        w[j] += BP_ETA * delta[j] + BP_MOMENTUM * oldw[j];
        oldw[j] = BP_ETA * delta[j] + BP_MOMENTUM * oldw[j];
    }
}
