// AES (GPGPU-Sim ISPASS-2009 suite, Manavski's CUDA AES): AES-128 encryption in ECB mode.
// Written for gtlm from the algorithm's description (FIPS-197, T-table formulation).
//
// 256 threads per CTA; four consecutive threads own the four 32-bit columns of one 16-byte
// block, so a CTA encrypts 64 blocks (1 KB) and the grid covers the input. Each CTA first
// copies the four T-tables and the S-box (one entry of each per thread) into shared memory;
// the original reads them from textures, here they are global loads. The state lives in shared
// memory: each round, thread (block b, column j) combines T0..T3 lookups of the bytes of
// columns j, j+1, j+2, j+3 of its block (ShiftRows) with round-key word j, with barriers
// between reading and writing the state. Round keys (44 words) are read from global memory at
// uniform addresses (the original: a texture). Words are little-endian: row r of a column is
// byte r of its word.
#define ROUNDS 10

extern "C" __global__ void aes_encrypt128(unsigned *out, const unsigned *in, const unsigned *round_keys,
                                          const unsigned *tables, const unsigned *sbox_words)
{
    __shared__ unsigned t0[256], t1[256], t2[256], t3[256], sbox[256];
    __shared__ unsigned state[256];
    unsigned tid = threadIdx.x;
    unsigned col = tid & 3, base = tid & ~3u;
    size_t g = (size_t)blockIdx.x * blockDim.x + tid;

    t0[tid] = tables[tid];
    t1[tid] = tables[256 + tid];
    t2[tid] = tables[512 + tid];
    t3[tid] = tables[768 + tid];
    sbox[tid] = sbox_words[tid];
    state[tid] = in[g] ^ round_keys[col];
    __syncthreads();

    for (int r = 1; r < ROUNDS; r++) {
        unsigned v = t0[state[base + col] & 0xff] ^ t1[(state[base + ((col + 1) & 3)] >> 8) & 0xff] ^
                     t2[(state[base + ((col + 2) & 3)] >> 16) & 0xff] ^ t3[state[base + ((col + 3) & 3)] >> 24] ^
                     round_keys[4 * r + col];
        __syncthreads();
        state[tid] = v;
        __syncthreads();
    }
    unsigned v = sbox[state[base + col] & 0xff] | sbox[(state[base + ((col + 1) & 3)] >> 8) & 0xff] << 8 |
                 sbox[(state[base + ((col + 2) & 3)] >> 16) & 0xff] << 16 |
                 sbox[state[base + ((col + 3) & 3)] >> 24] << 24;
    out[g] = v ^ round_keys[4 * ROUNDS + col];
}
