// StoreGPU (GPGPU-Sim ISPASS-2009 suite): content hashing for a storage system: the MD5 digest
// of every fixed-size chunk of a buffer ("direct hashing"). Written for gtlm from the
// algorithm's description (RFC 1321).
//
// 128 threads per CTA, one chunk per thread (chunk_words 32-bit words, a multiple of 32). The
// CTA stages its threads' data through a 4 K-word shared buffer, 32 words (two MD5 blocks) per
// thread per step: consecutive threads copy consecutive words of one chunk, so each warp reads
// whole 128-byte lines; after a barrier each thread runs the MD5 compression on its own 32 words
// (a 32-word stride between threads: one shared bank), then a barrier before the next step. The
// final padding block (0x80, zeros, bit length) depends only on the length and is built in
// registers. Output: four little-endian digest words per chunk. The 16 KB buffer limits a Fermi
// SM to 3 CTAs, as PAVER reports for STO.
#define THREADS 128
#define STEP_WORDS 32

__constant__ unsigned md5_k[64];

__device__ static unsigned rotl(unsigned x, int s)
{
    return (x << s) | (x >> (32 - s));
}

__device__ static void md5_block(unsigned h[4], const unsigned *m)
{
    const int shifts[16] = {7, 12, 17, 22, 5, 9, 14, 20, 4, 11, 16, 23, 6, 10, 15, 21};
    unsigned a = h[0], b = h[1], c = h[2], d = h[3];
#pragma unroll
    for (int i = 0; i < 64; i++) {
        unsigned f;
        int g;
        if (i < 16) f = (b & c) | (~b & d), g = i;
        else if (i < 32) f = (d & b) | (~d & c), g = (5 * i + 1) & 15;
        else if (i < 48) f = b ^ c ^ d, g = (3 * i + 5) & 15;
        else f = c ^ (b | ~d), g = (7 * i) & 15;
        unsigned t = d;
        d = c;
        c = b;
        b = b + rotl(a + f + md5_k[i] + m[g], shifts[(i >> 4) * 4 + (i & 3)]);
        a = t;
    }
    h[0] += a;
    h[1] += b;
    h[2] += c;
    h[3] += d;
}

extern "C" __global__ void md5_chunks(unsigned *digests, const unsigned *data, int chunk_words)
{
    __shared__ unsigned buf[THREADS * STEP_WORDS];
    int tid = threadIdx.x;
    size_t first = (size_t)blockIdx.x * THREADS;
    unsigned h[4] = {0x67452301u, 0xefcdab89u, 0x98badcfeu, 0x10325476u};
    for (int s = 0; s < chunk_words; s += STEP_WORDS) {
        for (int i = tid; i < THREADS * STEP_WORDS; i += THREADS)
            buf[i] = data[(first + i / STEP_WORDS) * chunk_words + s + i % STEP_WORDS];
        __syncthreads();
        md5_block(h, buf + tid * STEP_WORDS);
        md5_block(h, buf + tid * STEP_WORDS + 16);
        __syncthreads();
    }
    unsigned pad[16];
    pad[0] = 0x80u;
#pragma unroll
    for (int i = 1; i < 14; i++) pad[i] = 0;
    pad[14] = (unsigned)chunk_words * 32u; // the length in bits, low word
    pad[15] = 0;
    md5_block(h, pad);
    size_t t = first + tid;
    digests[4 * t] = h[0];
    digests[4 * t + 1] = h[1];
    digests[4 * t + 2] = h[2];
    digests[4 * t + 3] = h[3];
}
