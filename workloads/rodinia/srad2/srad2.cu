// SRAD v2 (Rodinia): speckle-reducing anisotropic diffusion of a rows x cols float image J
// (row major). Per iteration the host computes q0^2 from a region of interest, then srad_cuda_1
// computes the four directional differences and the diffusion coefficient c of every pixel and
// srad_cuda_2 updates J += 0.25 * lambda * (div of c * grad). Image borders replicate the edge
// pixel. Written for gtlm from the algorithm's description.
//
// Original launch shapes, kept: block (16,16), grid (cols/16, rows/16), thread = pixel.
// srad_cuda_1 stages the tile and its north/south/west/east halos in six __shared__ float[16][16]
// arrays; every thread of a CTA loads the halo row above and below (the same 16 addresses for
// all 16 thread rows) and its row's west/east neighbour, then the CTAs on the image border load
// the replicated edge values over them; writes N_C, S_C, W_C, E_C and C. srad_cuda_2 stages C
// with its south/east halos the same way and reads the four differences and J.
// The float expressions with double literals (0.5, 1.0/16.0, 0.25, 1.0) are kept: f64 ops.
//
// Bug fixed: the original's halo loads run outside the image before the border CTAs overwrite
// them: the north load of the first CTA row reads up to `cols` floats before J, the south loads
// of the last CTA row up to `cols` floats past its end, the west load of CTA (0,0) J[-1] and the
// east load of the last CTA J[rows*cols]. Here an index before the image moves down one row and
// an index past its end moves up one row (for the north/south halos these are the addresses the
// border fix-up reads next; west/east become J[cols-1] and J[(rows-1)*cols]): the same loads are
// issued, every value they bring is overwritten as before, and none leaves the buffer.
#define B 16

__device__ __forceinline__ int clamp_index(int i, int cols, int n)
{
    if (i < 0) i = i + cols < 0 ? 0 : i + cols;
    if (i >= n) i = i - cols >= n ? n - 1 : i - cols;
    return i;
}

extern "C" __global__ void srad_cuda_1(float *E_C, float *W_C, float *N_C, float *S_C, const float *J, float *C,
                                       int cols, int rows, float q0sqr)
{
    __shared__ float temp[B][B];
    __shared__ float temp_result[B][B];
    __shared__ float north[B][B];
    __shared__ float south[B][B];
    __shared__ float east[B][B];
    __shared__ float west[B][B];
    int bx = blockIdx.x, by = blockIdx.y, tx = threadIdx.x, ty = threadIdx.y;
    int n = rows * cols;
    int tile = cols * B * by + B * bx;
    int index = tile + cols * ty + tx;
    int index_n = clamp_index(tile + tx - cols, cols, n);
    int index_s = clamp_index(tile + cols * B + tx, cols, n);
    int index_w = clamp_index(tile + cols * ty - 1, cols, n);
    int index_e = clamp_index(tile + cols * ty + B, cols, n);

    north[ty][tx] = J[index_n];
    south[ty][tx] = J[index_s];
    if (by == 0)
        north[ty][tx] = J[B * bx + tx];
    else if (by == gridDim.y - 1)
        south[ty][tx] = J[cols * B * (gridDim.y - 1) + B * bx + cols * (B - 1) + tx];
    __syncthreads();
    west[ty][tx] = J[index_w];
    east[ty][tx] = J[index_e];
    if (bx == 0)
        west[ty][tx] = J[cols * B * by + cols * ty];
    else if (bx == gridDim.x - 1)
        east[ty][tx] = J[cols * B * by + B * (gridDim.x - 1) + cols * ty + B - 1];
    __syncthreads();
    temp[ty][tx] = J[index];
    __syncthreads();

    // Neighbours from the tile or, on the tile's edge, from the halo: one branch per case of
    // the position in the tile (corners, edges, interior), as the original.
    float jc = temp[ty][tx];
    float dn, ds, dw, de;
    if (ty == 0 && tx == 0) {
        dn = north[ty][tx] - jc, ds = temp[ty + 1][tx] - jc, dw = west[ty][tx] - jc, de = temp[ty][tx + 1] - jc;
    } else if (ty == 0 && tx == B - 1) {
        dn = north[ty][tx] - jc, ds = temp[ty + 1][tx] - jc, dw = temp[ty][tx - 1] - jc, de = east[ty][tx] - jc;
    } else if (ty == B - 1 && tx == B - 1) {
        dn = temp[ty - 1][tx] - jc, ds = south[ty][tx] - jc, dw = temp[ty][tx - 1] - jc, de = east[ty][tx] - jc;
    } else if (ty == B - 1 && tx == 0) {
        dn = temp[ty - 1][tx] - jc, ds = south[ty][tx] - jc, dw = west[ty][tx] - jc, de = temp[ty][tx + 1] - jc;
    } else if (ty == 0) {
        dn = north[ty][tx] - jc, ds = temp[ty + 1][tx] - jc, dw = temp[ty][tx - 1] - jc, de = temp[ty][tx + 1] - jc;
    } else if (tx == B - 1) {
        dn = temp[ty - 1][tx] - jc, ds = temp[ty + 1][tx] - jc, dw = temp[ty][tx - 1] - jc, de = east[ty][tx] - jc;
    } else if (ty == B - 1) {
        dn = temp[ty - 1][tx] - jc, ds = south[ty][tx] - jc, dw = temp[ty][tx - 1] - jc, de = temp[ty][tx + 1] - jc;
    } else if (tx == 0) {
        dn = temp[ty - 1][tx] - jc, ds = temp[ty + 1][tx] - jc, dw = west[ty][tx] - jc, de = temp[ty][tx + 1] - jc;
    } else {
        dn = temp[ty - 1][tx] - jc, ds = temp[ty + 1][tx] - jc, dw = temp[ty][tx - 1] - jc, de = temp[ty][tx + 1] - jc;
    }

    float g2 = (dn * dn + ds * ds + dw * dw + de * de) / (jc * jc);
    float l = (dn + ds + dw + de) / jc;
    float num = (0.5 * g2) - ((1.0 / 16.0) * (l * l));
    float den = 1 + (.25 * l);
    float qsqr = num / (den * den);
    den = (qsqr - q0sqr) / (q0sqr * (1 + q0sqr));
    float c = 1.0 / (1.0 + den);
    if (c < 0)
        temp_result[ty][tx] = 0;
    else if (c > 1)
        temp_result[ty][tx] = 1;
    else
        temp_result[ty][tx] = c;
    __syncthreads();

    C[index] = temp_result[ty][tx];
    E_C[index] = de;
    W_C[index] = dw;
    S_C[index] = ds;
    N_C[index] = dn;
}

extern "C" __global__ void srad_cuda_2(const float *E_C, const float *W_C, const float *N_C, const float *S_C,
                                       float *J, const float *C, int cols, int rows, float lambda, float q0sqr)
{
    __shared__ float south_c[B][B];
    __shared__ float east_c[B][B];
    __shared__ float c_tile[B][B];
    __shared__ float c_result[B][B];
    __shared__ float temp[B][B];
    (void)q0sqr;
    int bx = blockIdx.x, by = blockIdx.y, tx = threadIdx.x, ty = threadIdx.y;
    int n = rows * cols;
    int tile = cols * B * by + B * bx;
    int index = tile + cols * ty + tx;
    int index_s = clamp_index(tile + cols * B + tx, cols, n);
    int index_e = clamp_index(tile + cols * ty + B, cols, n);

    south_c[ty][tx] = C[index_s];
    if (by == gridDim.y - 1) south_c[ty][tx] = C[cols * B * (gridDim.y - 1) + B * bx + cols * (B - 1) + tx];
    __syncthreads();
    east_c[ty][tx] = C[index_e];
    if (bx == gridDim.x - 1) east_c[ty][tx] = C[cols * B * by + B * (gridDim.x - 1) + cols * ty + B - 1];
    __syncthreads();
    c_tile[ty][tx] = C[index];
    __syncthreads();

    float cc = c_tile[ty][tx];
    float cn = cc, cw = cc;
    float cs, ce;
    if (ty == B - 1 && tx == B - 1) {
        cs = south_c[ty][tx], ce = east_c[ty][tx];
    } else if (tx == B - 1) {
        cs = c_tile[ty + 1][tx], ce = east_c[ty][tx];
    } else if (ty == B - 1) {
        cs = south_c[ty][tx], ce = c_tile[ty][tx + 1];
    } else {
        cs = c_tile[ty + 1][tx], ce = c_tile[ty][tx + 1];
    }
    float d_sum = cn * N_C[index] + cs * S_C[index] + cw * W_C[index] + ce * E_C[index];
    float value = 0.25 * lambda * d_sum;

    temp[ty][tx] = J[index];
    __syncthreads();
    c_result[ty][tx] = temp[ty][tx] + value;
    __syncthreads();
    J[index] = c_result[ty][tx];
}
