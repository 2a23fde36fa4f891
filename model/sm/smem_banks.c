#include "smem_banks.h"

/* Distinct words of one group: a group moves at most 128 bytes (plus misaligned edges), so
 * 32 lanes x 2 words or 4 lanes x 9 words bound it by 64. */
#define SMEM_MAX_WORDS 80

/* Passes for the sorted-by-(bank, word) unique word list. */
static int smem_group_degree(uint64_t *w, int n, int n_banks)
{
    /* insertion sort by (bank, word); n is small */
    for (int i = 1; i < n; i++) {
        uint64_t v = w[i];
        uint64_t vb = v % (uint64_t)n_banks;
        int j = i - 1;
        while (j >= 0) {
            uint64_t jb = w[j] % (uint64_t)n_banks;
            if (jb < vb || (jb == vb && w[j] <= v)) break;
            w[j + 1] = w[j];
            j--;
        }
        w[j + 1] = v;
    }
    int best = 0, run = 0;
    for (int i = 0; i < n; i++) {
        if (i > 0 && w[i] == w[i - 1]) continue;  /* broadcast */
        if (i > 0 && w[i] % (uint64_t)n_banks == w[i - 1] % (uint64_t)n_banks) run++;
        else run = 1;
        if (run > best) best = run;
    }
    return best;
}

int smem_bank_conflicts(const uint64_t addr[SMEM_LANES], uint32_t mask, unsigned bytes, int n_banks,
                        smem_conflict *r)
{
    r->passes = r->degree = r->groups = 0;
    if (bytes == 0 || bytes > 32 || n_banks < 1) return -1;
    int group_lanes = bytes <= 4 ? SMEM_LANES : (int)(128u / bytes);
    for (int g0 = 0; g0 < SMEM_LANES; g0 += group_lanes) {
        uint64_t words[SMEM_MAX_WORDS];
        int n = 0;
        for (int l = g0; l < g0 + group_lanes; l++) {
            if (!(mask >> l & 1)) continue;
            uint64_t first = addr[l] / 4, last = (addr[l] + bytes - 1) / 4;
            for (uint64_t w = first; w <= last && n < SMEM_MAX_WORDS; w++) words[n++] = w;
        }
        if (n == 0) continue;
        int d = smem_group_degree(words, n, n_banks);
        r->groups++;
        r->passes += d;
        if (d > r->degree) r->degree = d;
    }
    return 0;
}
