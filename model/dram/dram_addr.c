#include "dram_addr.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../common/gf2_poly.h"
#include "../common/status.h"

static int fail(char *why, int len, const char *msg, int arg)
{
    if (why && len > 0) snprintf(why, (size_t)len, msg, arg);
    return GTLM_ST_ECONFIG;
}

int dram_addr_map_init(dram_addr_map *m, const char *mapping, int n_channels, int n_banks, char *why, int why_len)
{
    memset(m, 0, sizeof *m);
    m->dramid_bit = -1;
    m->n_channels = n_channels;
    m->n_banks = n_banks;
    if (!mapping || n_channels <= 0 || n_banks <= 0) return fail(why, why_len, "no mapping, channels or banks%.0d", 0);
    const char *p = mapping;
    const char *semi = strchr(mapping, ';');
    if (semi) {
        if (strncmp(mapping, "dramid@", 7) != 0) return fail(why, why_len, "expected 'dramid@N;' before the mask%.0d", 0);
        char *end;
        long bit = strtol(mapping + 7, &end, 10);
        if (end != semi || bit < 0 || bit > 63) return fail(why, why_len, "bad dramid bit position%.0d", 0);
        m->dramid_bit = (int)bit;
        p = semi + 1;
    }
    int len = 0;
    for (const char *q = p; *q; q++)
        if (*q != '.') len++;
    if (len > 64) return fail(why, why_len, "%d mask characters, at most 64 expected", len);
    int bit = len - 1;
    for (; *p; p++) {
        int f;
        switch (*p) {
        case '.': continue;
        case 'D': f = DRAM_F_CHAN; break;
        case 'R': f = DRAM_F_ROW; break;
        case 'B': f = DRAM_F_BANK; break;
        case 'C': f = DRAM_F_COL; break;
        case 'S': f = DRAM_F_BURST; break;
        case '0': case '1': case 'K': f = -1; break;
        default: return fail(why, why_len, "unexpected mask character '%c'", *p);
        }
        if (f >= 0) m->mask[f] |= 1ull << bit;
        bit--;
    }
    /* Positions lowest first, so decoding loops only over marked bits. */
    for (int f = 0; f < DRAM_F_N; f++)
        for (int b = 0; b < 64; b++)
            if (m->mask[f] >> b & 1) m->pos[f][m->nbits[f]++] = (uint8_t)b;
    for (int f = 0; f < DRAM_F_N; f++)
        for (int i = 0; i < m->nbits[f]; i++) {
            int k = m->nruns[f];
            if (i > 0 && m->pos[f][i] == m->pos[f][i - 1] + 1) { /* extends the last run */
                m->run_mask[f][k - 1] = m->run_mask[f][k - 1] << 1 | 1;
                continue;
            }
            m->run_shift[f][k] = m->pos[f][i];
            m->run_dst[f][k] = (uint8_t)i;
            m->run_mask[f][k] = 1;
            m->nruns[f]++;
        }
    if (m->nbits[DRAM_F_ROW] > 32 || m->nbits[DRAM_F_COL] > 32 || m->nbits[DRAM_F_BANK] > 32)
        return fail(why, why_len, "row, bank and column fields must fit 32 bits%.0d", 0);
    if (!m->nbits[DRAM_F_CHAN] && n_channels > 1 && m->dramid_bit < 0)
        return fail(why, why_len, "%d channels but neither D bits nor 'dramid@N;' in the mapping", n_channels);
    return GTLM_ST_OK;
}

static uint64_t extract(const dram_addr_map *m, int f, uint64_t a)
{
    uint64_t v = 0;
    for (int k = 0; k < m->nruns[f]; k++) v |= (a >> m->run_shift[f][k] & m->run_mask[f][k]) << m->run_dst[f][k];
    return v;
}

void dram_addr_decode(const dram_addr_map *m, uint64_t addr, dram_addr *out)
{
    uint64_t local = addr;
    uint32_t chan = 0;
    if (m->nbits[DRAM_F_CHAN]) {
        chan = (uint32_t)(extract(m, DRAM_F_CHAN, addr) % (uint64_t)m->n_channels);
    } else if (m->dramid_bit >= 0 && m->n_channels > 1) {
        int n = m->dramid_bit;
        uint64_t low = n ? addr & ((1ull << n) - 1) : 0;
        uint64_t high = addr >> n;
        chan = (uint32_t)(high % (uint64_t)m->n_channels);
        local = (high / (uint64_t)m->n_channels) << n | low;
    }
    out->channel = chan;
    out->local = local;
    out->row = (uint32_t)extract(m, DRAM_F_ROW, local);
    out->bank = (uint32_t)(extract(m, DRAM_F_BANK, local) % (uint64_t)m->n_banks);
    out->col = (uint32_t)extract(m, DRAM_F_COL, local);
    out->burst = (uint32_t)extract(m, DRAM_F_BURST, local);
}

static int log2_exact(uint64_t n)
{
    if (!n || (n & (n - 1))) return -1;
    int k = 0;
    while ((1ull << k) < n) k++;
    return k;
}

int dram_addr_set_partition_indexing(dram_addr_map *m, int policy, int n_sub_per_channel, char *why, int why_len)
{
    uint64_t n_sub = n_sub_per_channel > 0 ? (uint64_t)n_sub_per_channel : 1u;
    if (policy == DRAM_PART_XOR && log2_exact((uint64_t)m->n_channels) < 0)
        return fail(why, why_len, "the XOR partition hash (1) needs a power-of-two channel count, not %d", m->n_channels);
    if (policy == DRAM_PART_IPOLY) {
        int k = log2_exact((uint64_t)m->n_channels * n_sub);
        if (k < 1 || !gf2_ipoly(k))
            return fail(why, why_len, "the IPOLY partition hash (2) needs channels x sub-partitions a power of two "
                        "from 2 to 65536, not %d", (int)((uint64_t)m->n_channels * n_sub));
    }
    if (policy < DRAM_PART_LINEAR || policy > DRAM_PART_CUSTOM || policy == DRAM_PART_PAE)
        return fail(why, why_len, "partition indexing %d is not modelled (0 linear, 1 XOR, 2 IPOLY, 4 random, 5 custom)",
                    policy);
    m->part_indexing = policy == DRAM_PART_CUSTOM ? DRAM_PART_LINEAR : policy;
    return GTLM_ST_OK;
}

/* The address bits above the channel field. */
static uint64_t above_channel(const dram_addr_map *m, uint64_t addr)
{
    if (m->nbits[DRAM_F_CHAN]) {
        int top = m->pos[DRAM_F_CHAN][m->nbits[DRAM_F_CHAN] - 1];
        return top >= 63 ? 0 : addr >> (top + 1);
    }
    if (m->dramid_bit >= 0 && m->n_channels > 1) return (addr >> m->dramid_bit) / (uint64_t)m->n_channels;
    return 0;
}

/* splitmix64's finaliser: every input bit moves every output bit (a fixed, seedless mix). */
static uint64_t mix64(uint64_t x)
{
    x ^= x >> 30;
    x *= 0xbf58476d1ce4e5b9ull;
    x ^= x >> 27;
    x *= 0x94d049bb133111ebull;
    return x ^ (x >> 31);
}

/* RANDOM's chunk: the bits below the lowest channel bit less the sub-partition bits (GPGPU-Sim's
 * addr >> (ADDR_CHIP_S - log2 n_sub)). */
static int random_chunk_shift(const dram_addr_map *m, uint32_t n_sub)
{
    int c = m->dramid_bit >= 0 ? m->dramid_bit : (m->nbits[DRAM_F_CHAN] ? m->pos[DRAM_F_CHAN][0] : 0);
    int k = log2_exact(n_sub);
    c -= k > 0 ? k : 0;
    return c > 0 ? c : 0;
}

uint32_t dram_addr_subpartition(const dram_addr_map *m, int n_sub_per_channel, uint64_t addr)
{
    if (m->part_indexing == DRAM_PART_RANDOM) {
        uint32_t n = n_sub_per_channel > 0 ? (uint32_t)n_sub_per_channel : 1u;
        return (uint32_t)(mix64(addr >> random_chunk_shift(m, n)) % ((uint64_t)m->n_channels * n));
    }
    dram_addr a;
    dram_addr_decode(m, addr, &a);
    uint32_t n = n_sub_per_channel > 0 ? (uint32_t)n_sub_per_channel : 1u;
    uint32_t chan = a.channel;
    if (m->part_indexing == DRAM_PART_XOR)
        chan ^= (uint32_t)(above_channel(m, addr) & (uint64_t)(m->n_channels - 1));
    uint32_t s = chan * n + a.bank % n;
    if (m->part_indexing == DRAM_PART_IPOLY) {
        int k = log2_exact((uint64_t)m->n_channels * n);
        s = gf2_mod(above_channel(m, addr) << k | s, gf2_ipoly(k), k);
    }
    return s;
}

/* addr without bit b (the bits above move down by one). */
static uint64_t drop_bit(uint64_t a, int b)
{
    uint64_t low = a & ((1ull << b) - 1);
    return b >= 63 ? low : (a >> (b + 1)) << b | low;
}

uint64_t dram_addr_partition_address(const dram_addr_map *m, int n_sub_per_channel, uint64_t addr)
{
    /* The channel's local address (dram_addr_decode's 'local'). With D bits it is addr itself:
     * its D and bank bits share one frame. */
    uint64_t local = addr;
    if (!m->nbits[DRAM_F_CHAN] && m->dramid_bit >= 0 && m->n_channels > 1) {
        int n = m->dramid_bit;
        uint64_t low = n ? addr & ((1ull << n) - 1) : 0;
        local = ((addr >> n) / (uint64_t)m->n_channels) << n | low;
    }
    uint64_t drop = m->mask[DRAM_F_CHAN];
    int k = log2_exact(n_sub_per_channel > 0 ? (uint64_t)n_sub_per_channel : 1u);
    if (k > 0 && k <= m->nbits[DRAM_F_BANK])
        for (int i = 0; i < k; i++) drop |= 1ull << m->pos[DRAM_F_BANK][i];
    while (drop) { /* highest bit first */
        int b = 63 - __builtin_clzll(drop);
        local = drop_bit(local, b);
        drop &= ~(1ull << b);
    }
    return local;
}
