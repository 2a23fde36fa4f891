// LIBOR (GPGPU-Sim ISPASS-2009 suite): Monte Carlo of the LIBOR market model (Giles), one path
// per thread: forward rates L[0..N) evolved over Nmat time steps, then a portfolio of Nopt
// swaptions valued on the final rates; the greeks kernel also computes the pathwise adjoint
// sensitivities dV/dL0 (forward pass storing every step's rates, adjoint portfolio, adjoint
// path backwards). Written for gtlm from the published algorithm and the suite's description.
//
// Launch as the original: grid NPATH/64 (64 for the suite's 4096 paths), block 64; one launch
// of libor_greeks, then one of libor_value. Kept on purpose (they decide the memory behaviour):
// - the model constants (N = 80, Nmat = 40, Nopt = 15, maturities, swaprates, delta, lambda)
//   live in __constant__ memory and are loop bounds/operands read at run time (broadcast);
// - per-thread arrays L[80] and z[80] (initialised to 0.05 and 0.3, so every path is the
//   same), B/S[40] and their adjoints, and in the greeks kernel L2[80*41] (13 KB per thread):
//   all dynamically indexed, hence local memory (the same offset across a warp is contiguous);
// - the path and portfolio computations as separate __device__ functions working on those
//   arrays through pointers, kept out of line with __noinline__ (5 call.uni per thread; nvcc 13
//   still proves the pointers local, so every array access stays ld/st.local as in the
//   original, which its compilers inlined: the only difference is the call/param overhead);
// - __fdividef / __expf intrinsics, and unsuffixed double literals (1.0, 0.5, -100.0) that
//   promote parts of the float arithmetic to f64 as in the original source.
// No bugs to fix. Each thread writes its path's value (and one sensitivity, dV/dL0[N-1]).
#define NN 80
#define NMAT 40
#define NOPT 15
#define L2_SIZE (NN * (NMAT + 1))

__constant__ int N, Nmat, Nopt, maturities[NOPT];
__constant__ float delta, swaprates[NOPT], lambda[NN];

// Evolves L over Nmat steps with the (constant) normals z.
__device__ __noinline__ void path_calc(float *L, const float *z)
{
    for (int n = 0; n < Nmat; n++) {
        float sqez = sqrtf(delta) * z[n], v = 0.0f;
        for (int i = n + 1; i < N; i++) {
            float lam = lambda[i - n - 1], con1 = delta * lam;
            v += __fdividef(con1 * L[i], 1.0 + delta * L[i]);
            float vrat = __expf(con1 * v + lam * (sqez - 0.5 * con1));
            L[i] = L[i] * vrat;
        }
    }
}

// As path_calc, also keeping the rates after every step in L2 (row n+1 = after step n).
__device__ __noinline__ void path_calc_b1(float *L, const float *z, float *L2)
{
    for (int i = 0; i < N; i++) L2[i] = L[i];
    for (int n = 0; n < Nmat; n++) {
        float sqez = sqrtf(delta) * z[n], v = 0.0f;
        for (int i = n + 1; i < N; i++) {
            float lam = lambda[i - n - 1], con1 = delta * lam;
            v += __fdividef(con1 * L[i], 1.0 + delta * L[i]);
            float vrat = __expf(con1 * v + lam * (sqez - 0.5 * con1));
            L[i] = L[i] * vrat;
            L2[i + (n + 1) * N] = L[i];
        }
    }
}

// Adjoint of path_calc: turns dV/dL(final) in L_b into dV/dL(initial), using the stored rates.
__device__ __noinline__ void path_calc_b2(float *L_b, const float *z, const float *L2)
{
    for (int n = Nmat - 1; n >= 0; n--) {
        float v_b = 0.0f;
        for (int i = N - 1; i > n; i--) {
            float lam = lambda[i - n - 1], con1 = delta * lam;
            float lold = L2[i + n * N], lnew = L2[i + (n + 1) * N];
            v_b += con1 * lnew * L_b[i];
            float faci = __fdividef(1.0f, 1.0 + delta * lold);
            L_b[i] = L_b[i] * __fdividef(lnew, lold) + v_b * con1 * faci * faci;
        }
    }
    (void)z;
}

// Discounted payoff of the swaption portfolio on the final rates L.
__device__ __noinline__ float portfolio(const float *L)
{
    float B[NMAT], S[NMAT], b = 1.0, s = 0.0, v = 0.0;
    for (int n = Nmat; n < N; n++) {
        b = __fdividef(b, 1.0 + delta * L[n]);
        s = s + delta * b;
        B[n - Nmat] = b;
        S[n - Nmat] = s;
    }
    for (int i = 0; i < Nopt; i++) {
        int m = maturities[i] - 1;
        float swapval = B[m] + swaprates[i] * S[m] - 1.0;
        if (swapval < 0) v += -100.0 * swapval;
    }
    for (int n = 0; n < Nmat; n++) v = __fdividef(v, 1.0 + delta * L[n]);
    return v;
}

// portfolio() and its adjoint: returns the value, writes dV/dL into L_b.
__device__ __noinline__ float portfolio_b(const float *L, float *L_b)
{
    float B[NMAT], S[NMAT], B_b[NMAT], S_b[NMAT], b = 1.0, s = 0.0, v = 0.0;
    for (int m = 0; m < N - Nmat; m++) {
        int n = m + Nmat;
        b = __fdividef(b, 1.0 + delta * L[n]);
        s = s + delta * b;
        B[m] = b;
        S[m] = s;
        B_b[m] = 0.0f;
        S_b[m] = 0.0f;
    }
    for (int i = 0; i < Nopt; i++) {
        int m = maturities[i] - 1;
        float swapval = B[m] + swaprates[i] * S[m] - 1.0;
        if (swapval < 0) {
            v += -100.0 * swapval;
            S_b[m] += -100.0 * swaprates[i];
            B_b[m] += -100.0;
        }
    }
    for (int m = N - Nmat - 1; m >= 0; m--) {
        int n = m + Nmat;
        B_b[m] += delta * S_b[m];
        L_b[n] = -B_b[m] * B[m] * __fdividef(delta, 1.0 + delta * L[n]);
        if (m > 0) {
            S_b[m - 1] += S_b[m];
            B_b[m - 1] += __fdividef(B_b[m], 1.0 + delta * L[n]);
        }
    }
    b = 1.0;
    for (int n = 0; n < Nmat; n++) b = __fdividef(b, 1.0 + delta * L[n]);
    v = b * v;
    for (int n = 0; n < Nmat; n++) L_b[n] = -v * __fdividef(delta, 1.0 + delta * L[n]);
    for (int n = Nmat; n < N; n++) L_b[n] = b * L_b[n];
    return v;
}

extern "C" __global__ void libor_greeks(float *d_v, float *d_Lb)
{
    int tid = blockIdx.x * blockDim.x + threadIdx.x;
    float L[NN], L2[L2_SIZE], z[NN], L_b[NN];
    for (int i = 0; i < N; i++) {
        z[i] = 0.3;
        L[i] = 0.05;
    }
    path_calc_b1(L, z, L2);
    d_v[tid] = portfolio_b(L, L_b);
    path_calc_b2(L_b, z, L2);
    d_Lb[tid] = L_b[NN - 1];
}

extern "C" __global__ void libor_value(float *d_v)
{
    int tid = blockIdx.x * blockDim.x + threadIdx.x;
    float L[NN], z[NN];
    for (int i = 0; i < N; i++) {
        z[i] = 0.3;
        L[i] = 0.05;
    }
    path_calc(L, z);
    d_v[tid] = portfolio(L);
}
