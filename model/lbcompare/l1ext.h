/* The L1 extended by unused register capacity (Linebacker's comparison baselines, spec
 * linebacker.md §7.5-7.6): CacheExt (ideal: the extension is plain L1 ways) and CERF (the L1 and the
 * unused registers are one cache in the register file's banks). The L1 is built with room for the
 * whole register file as extra ways at its set count; each kernel may use the ways its unused
 * registers fill (whole ways only: a way is sets x line bytes). */
#ifndef GTLM_L1EXT_H
#define GTLM_L1EXT_H

#include <stdint.h>

/* Extra ways the whole register file (n_regs 128-byte warp registers) would give. */
uint32_t l1ext_max_extra_ways(uint32_t n_regs, uint32_t nsets, uint32_t line_bytes);
/* Extra ways unused_regs warp registers give, at most max_extra. */
uint32_t l1ext_extra_ways(uint32_t unused_regs, uint32_t nsets, uint32_t line_bytes, uint32_t max_extra);
/* Unused warp registers of a kernel: the statically unused ones, plus (with_dur) the registers of
 * resident warps beyond the active-warp limit (0: none) held idle by warp limiting. */
uint32_t l1ext_unused_regs(uint32_t sur, uint32_t resident_warps, uint32_t regs_per_warp, uint32_t warp_limit,
                           int with_dur);
/* CERF: the rarely used registers of live warps lent to the cache, frac of each warp's (rounded down). */
uint32_t l1ext_rare_regs(uint32_t resident_warps, uint32_t regs_per_warp, double frac);
/* CERF: the register number a cached line (set, way) occupies in the unified banks. */
static inline uint32_t l1ext_rn(uint32_t set, uint32_t way, uint32_t assoc) { return set * assoc + way; }

#endif
