#include "l1ext.h"

#define L1EXT_REG_BYTES 128u /* one warp register */

uint32_t l1ext_max_extra_ways(uint32_t n_regs, uint32_t nsets, uint32_t line_bytes)
{
    uint64_t way_bytes = (uint64_t)nsets * line_bytes;
    return way_bytes ? (uint32_t)((uint64_t)n_regs * L1EXT_REG_BYTES / way_bytes) : 0;
}

uint32_t l1ext_extra_ways(uint32_t unused_regs, uint32_t nsets, uint32_t line_bytes, uint32_t max_extra)
{
    uint32_t w = l1ext_max_extra_ways(unused_regs, nsets, line_bytes);
    return w < max_extra ? w : max_extra;
}

uint32_t l1ext_rare_regs(uint32_t resident_warps, uint32_t regs_per_warp, double frac)
{
    if (!(frac > 0)) return 0;
    uint32_t per_warp = (uint32_t)((double)regs_per_warp * (frac < 1 ? frac : 1));
    return resident_warps * per_warp;
}

uint32_t l1ext_unused_regs(uint32_t sur, uint32_t resident_warps, uint32_t regs_per_warp, uint32_t warp_limit,
                           int with_dur)
{
    if (!with_dur || !warp_limit || warp_limit >= resident_warps) return sur;
    return sur + (resident_warps - warp_limit) * regs_per_warp;
}
