/* AES (ISPASS) driver: AES-128 ECB encryption of bytes bytes of pseudo-random data (the ISPASS
 * run encrypts an image file that is not in the public snapshots) under a fixed key.
 * The host computes the S-box from its definition (GF(2^8) inverse and affine map), the
 * T-tables and the key expansion; the CPU reference is a byte-wise AES (SubBytes, ShiftRows,
 * MixColumns, AddRoundKey) checked against the FIPS-197 appendix C.1 vector before use, so it
 * shares no tables' layout with the kernel. Exact comparison. */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "workload.h"

extern const char workload_ispass_aes_ptx[], workload_ispass_aes_ptxas[];

static uint8_t xtime(uint8_t x)
{
    return (uint8_t)((x << 1) ^ ((x & 0x80) ? 0x1b : 0));
}

static uint8_t gmul(uint8_t a, uint8_t b)
{
    uint8_t p = 0;
    for (; b; b >>= 1, a = xtime(a))
        if (b & 1) p ^= a;
    return p;
}

static void make_sbox(uint8_t s[256])
{
    for (int x = 0; x < 256; x++) {
        uint8_t inv = 0;
        for (int y = 1; y < 256 && x; y++)
            if (gmul((uint8_t)x, (uint8_t)y) == 1) inv = (uint8_t)y;
        uint8_t b = inv, r = inv;
        for (int k = 0; k < 4; k++) {
            b = (uint8_t)((b << 1) | (b >> 7));
            r ^= b;
        }
        s[x] = r ^ 0x63;
    }
}

static void expand_key(const uint8_t key[16], const uint8_t s[256], uint8_t rk[176])
{
    memcpy(rk, key, 16);
    uint8_t rcon = 1;
    for (int i = 16; i < 176; i += 4) {
        uint8_t t[4] = {rk[i - 4], rk[i - 3], rk[i - 2], rk[i - 1]};
        if (i % 16 == 0) {
            uint8_t t0 = t[0];
            t[0] = s[t[1]] ^ rcon;
            t[1] = s[t[2]];
            t[2] = s[t[3]];
            t[3] = s[t0];
            rcon = xtime(rcon);
        }
        for (int k = 0; k < 4; k++) rk[i + k] = rk[i - 16 + k] ^ t[k];
    }
}

/* Byte-wise reference: state byte (row r, column c) at index 4c + r. */
static void encrypt_block(const uint8_t in[16], uint8_t out[16], const uint8_t rk[176], const uint8_t s[256])
{
    uint8_t st[16], tmp[16];
    for (int i = 0; i < 16; i++) st[i] = in[i] ^ rk[i];
    for (int round = 1; round <= 10; round++) {
        for (int c = 0; c < 4; c++) /* SubBytes + ShiftRows */
            for (int r = 0; r < 4; r++) tmp[4 * c + r] = s[st[4 * ((c + r) & 3) + r]];
        for (int c = 0; c < 4 && round < 10; c++) { /* MixColumns */
            uint8_t *a = tmp + 4 * c, b0 = a[0], b1 = a[1], b2 = a[2], b3 = a[3];
            a[0] = gmul(b0, 2) ^ gmul(b1, 3) ^ b2 ^ b3;
            a[1] = b0 ^ gmul(b1, 2) ^ gmul(b2, 3) ^ b3;
            a[2] = b0 ^ b1 ^ gmul(b2, 2) ^ gmul(b3, 3);
            a[3] = gmul(b0, 3) ^ b1 ^ b2 ^ gmul(b3, 2);
        }
        for (int i = 0; i < 16; i++) st[i] = tmp[i] ^ rk[16 * round + i];
    }
    memcpy(out, st, 16);
}

static uint32_t le32(const uint8_t *b)
{
    return (uint32_t)b[0] | (uint32_t)b[1] << 8 | (uint32_t)b[2] << 16 | (uint32_t)b[3] << 24;
}

static uint32_t rotl(uint32_t x, int k)
{
    return (x << k) | (x >> (32 - k));
}

static int run(wl_ctx *c)
{
    long bytes = wl_param(c, "bytes");
    if (bytes < 1024 || bytes % 1024) {
        fprintf(c->out, "AES: bytes must be a positive multiple of 1024\n");
        return WL_USAGE;
    }
    size_t words = (size_t)bytes / 4;
    uint8_t s[256], rk[176], key[16], fips[16], *plain = malloc((size_t)bytes), *want = malloc((size_t)bytes);
    uint32_t tables[1024], sboxw[256], rkw[44], *got = malloc((size_t)bytes);
    int rc = (plain && want && got) ? WL_OK : WL_ERROR;
    make_sbox(s);
    for (int i = 0; i < 16; i++) key[i] = (uint8_t)i, fips[i] = (uint8_t)(0x11 * i);
    expand_key(key, s, rk);
    encrypt_block(fips, fips, rk, s);
    static const uint8_t fips_out[16] = {0x69, 0xc4, 0xe0, 0xd8, 0x6a, 0x7b, 0x04, 0x30,
                                         0xd8, 0xcd, 0xb7, 0x80, 0x70, 0xb4, 0xc5, 0x5a};
    if (rc == WL_OK && memcmp(fips, fips_out, 16)) rc = wl_fail(c, "host AES fails the FIPS-197 C.1 vector");
    wl_rng r;
    wl_rng_seed(&r, 0xae5);
    for (int i = 0; i < 16; i++) key[i] = (uint8_t)wl_rng_next(&r);
    expand_key(key, s, rk);
    for (long i = 0; rc == WL_OK && i < bytes; i++) plain[i] = (uint8_t)(wl_rng_next(&r) >> 24);
    for (long b = 0; rc == WL_OK && b < bytes; b += 16) encrypt_block(plain + b, want + b, rk, s);
    for (int x = 0; x < 256; x++) {
        uint32_t t0 = (uint32_t)gmul(s[x], 2) | (uint32_t)s[x] << 8 | (uint32_t)s[x] << 16 | (uint32_t)gmul(s[x], 3) << 24;
        tables[x] = t0;
        tables[256 + x] = rotl(t0, 8);
        tables[512 + x] = rotl(t0, 16);
        tables[768 + x] = rotl(t0, 24);
        sboxw[x] = s[x];
    }
    for (int i = 0; i < 44; i++) rkw[i] = le32(rk + 4 * i);
    gtlm_devptr dout = 0, din = 0, drk = 0, dtab = 0, dsbox = 0;
    if (rc == WL_OK) rc = wl_alloc(c, &dout, (size_t)bytes);
    if (rc == WL_OK) rc = wl_upload(c, &din, plain, (size_t)bytes);
    if (rc == WL_OK) rc = wl_upload(c, &drk, rkw, sizeof rkw);
    if (rc == WL_OK) rc = wl_upload(c, &dtab, tables, sizeof tables);
    if (rc == WL_OK) rc = wl_upload(c, &dsbox, sboxw, sizeof sboxw);
    const void *args[] = {&dout, &din, &drk, &dtab, &dsbox};
    const size_t sizes[] = {8, 8, 8, 8, 8};
    if (rc == WL_OK) rc = wl_launch(c, "aes_encrypt128", (unsigned)(bytes / 1024), 1, 1, 256, 1, 1, 0, args, sizes, 5);
    if (rc == WL_OK) rc = wl_corrupt(c, dout, sizeof(uint32_t));
    if (rc == WL_OK) rc = wl_download(c, got, dout, (size_t)bytes);
    for (size_t i = 0; rc == WL_OK && i < words; i++) ((uint32_t *)plain)[i] = le32(want + 4 * i);
    if (rc == WL_OK && wl_compare_u32(c, "ciphertext", got, (const uint32_t *)plain, words)) rc = WL_WRONG;
    gtlm_devptr all[] = {dout, din, drk, dtab, dsbox};
    for (int i = 0; i < 5; i++) gtlm_free(c->sim, all[i]);
    free(plain);
    free(want);
    free(got);
    return rc;
}

const wl_desc workload_ispass_aes = {
    .name = "AES",
    .suite = "ispass",
    .description = "AES-128 ECB encryption, four threads per 16-byte block, T-tables in shared memory",
    .kernels = "aes_encrypt128",
    .ptx = workload_ispass_aes_ptx,
    .ptxas = workload_ispass_aes_ptxas,
    .params = {"bytes"},
    .tiny = {16384},
    .sim = {262144},
    .paper = {262144},
    .run = run,
};
