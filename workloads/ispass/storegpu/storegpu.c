/* StoreGPU (ISPASS) driver: MD5 of every chunk_bytes chunk of a buffer of ctas x 128 chunks.
 * Data: pseudo-random bytes in which one chunk in ten repeats an earlier one (the duplicate
 * content a deduplicating store looks for). Paper size: 384 CTAs of 128 threads (PAVER Table
 * 3.2); the original's chunk size is not documented, we use 256 bytes.
 * Check: a byte-oriented CPU MD5 (RFC 1321, itself checked on the RFC's "abc" vector) of each
 * chunk, exactly; the count of duplicate digests must equal the number of copied chunks. */
#include <math.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "workload.h"

extern const char workload_ispass_storegpu_ptx[], workload_ispass_storegpu_ptxas[];

enum { THREADS = 128 };

static uint32_t rotl32(uint32_t x, int s)
{
    return (x << s) | (x >> (32 - s));
}

static void md5_compress(uint32_t h[4], const uint8_t *blk, const uint32_t k[64])
{
    static const int sh[4][4] = {{7, 12, 17, 22}, {5, 9, 14, 20}, {4, 11, 16, 23}, {6, 10, 15, 21}};
    uint32_t m[16], a = h[0], b = h[1], c = h[2], d = h[3];
    for (int i = 0; i < 16; i++)
        m[i] = (uint32_t)blk[4 * i] | (uint32_t)blk[4 * i + 1] << 8 | (uint32_t)blk[4 * i + 2] << 16 |
               (uint32_t)blk[4 * i + 3] << 24;
    for (int i = 0; i < 64; i++) {
        int round = i / 16, g = round == 0 ? i : round == 1 ? (5 * i + 1) % 16 : round == 2 ? (3 * i + 5) % 16 : 7 * i % 16;
        uint32_t f = round == 0 ? (b & c) | (~b & d) : round == 1 ? (d & b) | (~d & c) : round == 2 ? b ^ c ^ d : c ^ (b | ~d);
        uint32_t t = d;
        d = c;
        c = b;
        b += rotl32(a + f + k[i] + m[g], sh[round][i % 4]);
        a = t;
    }
    h[0] += a, h[1] += b, h[2] += c, h[3] += d;
}

/* MD5 of len bytes (any length). */
static void md5(const uint8_t *p, size_t len, const uint32_t k[64], uint32_t h[4])
{
    uint8_t tail[128] = {0};
    h[0] = 0x67452301u, h[1] = 0xefcdab89u, h[2] = 0x98badcfeu, h[3] = 0x10325476u;
    size_t full = len / 64 * 64, rest = len - full, tl = rest < 56 ? 64 : 128;
    for (size_t o = 0; o < full; o += 64) md5_compress(h, p + o, k);
    memcpy(tail, p + full, rest);
    tail[rest] = 0x80;
    for (int i = 0; i < 8; i++) tail[tl - 8 + i] = (uint8_t)((uint64_t)len * 8 >> (8 * i));
    for (size_t o = 0; o < tl; o += 64) md5_compress(h, tail + o, k);
}

static int cmp_digest(const void *a, const void *b)
{
    return memcmp(a, b, 16);
}

static int run(wl_ctx *c)
{
    long ctas = wl_param(c, "ctas"), chunk = wl_param(c, "chunk_bytes");
    if (ctas < 1 || chunk < 128 || chunk % 128 || ctas * THREADS * chunk > (1L << 31)) {
        fprintf(c->out, "StoreGPU: chunk_bytes must be a positive multiple of 128, ctas >= 1, data < 2 GB\n");
        return WL_USAGE;
    }
    size_t chunks = (size_t)ctas * THREADS, bytes = chunks * (size_t)chunk;
    uint32_t k[64], h[4];
    for (int i = 0; i < 64; i++) k[i] = (uint32_t)(uint64_t)floor(fabs(sin(i + 1.0)) * 4294967296.0);
    uint8_t *data = malloc(bytes);
    uint32_t *got = malloc(chunks * 16), *want = malloc(chunks * 16);
    int rc = (data && got && want) ? WL_OK : WL_ERROR;
    static const uint32_t abc[4] = {0x98500190u, 0xb04fd23cu, 0x7d3f96d6u, 0x727fe128u};
    md5((const uint8_t *)"abc", 3, k, h);
    if (rc == WL_OK && memcmp(h, abc, 16)) rc = wl_fail(c, "host MD5 fails the RFC 1321 \"abc\" vector");
    wl_rng r;
    wl_rng_seed(&r, 0x570);
    long copies = 0;
    for (size_t i = 0; rc == WL_OK && i < chunks; i++) {
        uint8_t *dst = data + i * chunk;
        if (i > 0 && wl_rng_unit(&r) < 0.1) {
            memcpy(dst, data + (size_t)wl_rng_range(&r, 0, (long)i - 1) * chunk, (size_t)chunk);
            copies++;
        } else
            for (long b = 0; b < chunk; b += 8) {
                uint64_t v = wl_rng_next(&r);
                memcpy(dst + b, &v, 8);
            }
        md5(dst, (size_t)chunk, k, want + 4 * i);
    }
    gtlm_devptr dout = 0, din = 0;
    if (rc == WL_OK) rc = wl_check(c, gtlm_memcpy_to_symbol(c->sim, c->mod, "md5_k", k, sizeof k, 0), "md5_k");
    if (rc == WL_OK) rc = wl_alloc(c, &dout, chunks * 16);
    if (rc == WL_OK) rc = wl_upload(c, &din, data, bytes);
    int words = (int)(chunk / 4);
    const void *args[] = {&dout, &din, &words};
    const size_t sizes[] = {8, 8, 4};
    if (rc == WL_OK) rc = wl_launch(c, "md5_chunks", (unsigned)ctas, 1, 1, THREADS, 1, 1, 0, args, sizes, 3);
    if (rc == WL_OK) rc = wl_corrupt(c, dout, sizeof(uint32_t));
    if (rc == WL_OK) rc = wl_download(c, got, dout, chunks * 16);
    if (rc == WL_OK && wl_compare_u32(c, "digests", got, want, chunks * 4)) rc = WL_WRONG;
    long dup = 0; /* digests equal to another chunk's: one per copied chunk */
    if (rc == WL_OK) {
        memcpy(want, got, chunks * 16);
        qsort(want, chunks, 16, cmp_digest);
        for (size_t i = 1; i < chunks; i++) dup += !memcmp(want + 4 * i, want + 4 * (i - 1), 16);
        if (dup != copies) rc = wl_fail(c, "%ld chunks repeat another digest, %ld chunks were copies", dup, copies);
    }
    if (rc == WL_OK) fprintf(c->out, "StoreGPU: %zu chunks, %ld duplicates\n", chunks, copies);
    gtlm_free(c->sim, dout);
    gtlm_free(c->sim, din);
    free(data);
    free(got);
    free(want);
    return rc;
}

const wl_desc workload_ispass_storegpu = {
    .name = "StoreGPU",
    .suite = "ispass",
    .description = "MD5 digest of every fixed-size chunk of a buffer, staged through shared memory",
    .kernels = "md5_chunks",
    .ptx = workload_ispass_storegpu_ptx,
    .ptxas = workload_ispass_storegpu_ptxas,
    .params = {"ctas", "chunk_bytes"},
    .tiny = {8, 128},
    .sim = {384, 128},
    .paper = {384, 256},
    .run = run,
};
