/* Set-index functions of the cache core (semantics in cache_core.h). */
#include "cache_core.h"

#include "../common/gf2_poly.h"

uint32_t cache_ipoly_poly(int k) { return gf2_ipoly(k); }

int cache_index_build(cache_core *c, uint16_t *tab)
{
    uint32_t p = cache_ipoly_poly(c->set_bits);
    if (!p) return -1;
    for (int j = 0; j < 8; j++)
        for (int v = 0; v < 256; v++) tab[j * 256 + v] = (uint16_t)gf2_mod((uint64_t)v << (8 * j), p, c->set_bits);
    return 0;
}

static uint32_t fold(const cache_core *c, uint64_t h)
{
    uint32_t n = (uint32_t)c->nsets;
    return (n & (n - 1)) ? (uint32_t)(h % n) : (uint32_t)(h & (n - 1));
}

static uint64_t xor_hash(const cache_core *c, uint64_t b) { return b ^ (b >> c->set_bits); }

void cache_set_index_addr(cache_core *c, uint64_t (*fn)(const void *ctx, uint64_t addr), const void *ctx)
{
    c->index_addr = fn;
    c->index_ctx = ctx;
}

int cache_set_index(const cache_core *c, uint64_t addr)
{
    if (c->index_addr) addr = c->index_addr(c->index_ctx, addr);
    uint64_t b = addr >> c->line_log2;
    if (c->nsets == 1) return 0;
    switch (c->cfg.set_index) {
    case 'X':
        return (int)fold(c, xor_hash(c, b));
    case 'H':
        if (c->nsets == 32 || c->nsets == 64) {
            uint64_t up = ((addr >> 13) & 7) | (((addr >> 17) & 1) << 3) | (((addr >> 19) & 1) << 4);
            uint64_t s = (b & 0x1F) ^ up;
            if (c->nsets == 64) s |= ((addr >> 12) & 1) << 5;
            return (int)s;
        }
        return (int)fold(c, xor_hash(c, b));
    case 'P': {
        uint64_t h = 0;
        for (int j = 0; j < 8; j++) h ^= c->ipoly_tab[j * 256 + ((b >> (8 * j)) & 0xFF)];
        return (int)fold(c, h);
    }
    default:
        return (int)fold(c, b);
    }
}
