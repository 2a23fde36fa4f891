/* Scoreboard: per warp, the register slots with a write in flight.
 *
 * An instruction reserves its destination slots (ptx_instr dst[]) when it issues; each slot is
 * released when its value is written back. An instruction may issue only if none of its source
 * slots (RAW) and none of its destination slots (WAW) is pending. PTX_NO_REG (UINT32_MAX) entries
 * are ignored, as are slots beyond the configured count (checked in sb_reserve, see there).
 * Storage is one bit per slot per warp, allocated once in sb_init. */
#ifndef GTLM_SM_SCOREBOARD_H
#define GTLM_SM_SCOREBOARD_H

#include <stdint.h>

#define SB_NO_REG UINT32_MAX

struct ptx_instr;

typedef struct scoreboard {
    uint32_t n_warps;
    uint32_t n_regs;          /* register slots per warp */
    uint32_t words_per_warp;  /* 64-bit words per warp in bits[] */
    uint64_t *bits;           /* n_warps * words_per_warp */
    uint32_t *pending;        /* pending slots per warp */
    /* statistics */
    uint64_t reserves, releases;
    uint64_t raw_stalls, waw_stalls; /* sb_can_issue refusals by first hazard found */
} scoreboard;

/* n_regs: register slots per warp (the kernel's slot count, at most what the SM allows per
 * thread). Returns 0, or -1 when out of memory or an argument is zero. */
int sb_init(scoreboard *sb, uint32_t n_warps, uint32_t n_regs);
/* Widens every warp's row to at least n_regs slots, keeping what is pending. 0, or -1 (no memory). */
int sb_grow(scoreboard *sb, uint32_t n_regs);
void sb_free(scoreboard *sb);
/* Forget every pending write of one warp (warp exit, CTA relaunch). */
void sb_clear_warp(scoreboard *sb, uint32_t warp);

int sb_is_pending(const scoreboard *sb, uint32_t warp, uint32_t reg);
uint32_t sb_pending_count(const scoreboard *sb, uint32_t warp);

/* 1 when no src[] slot (RAW) and no dst[] slot (WAW) is pending; counts a stall otherwise. */
int sb_can_issue(scoreboard *sb, uint32_t warp, const uint32_t *src, int nsrc, const uint32_t *dst,
                 int ndst);
/* Marks dst[] pending. Returns 0, or -1 when a slot is out of range or already pending
 * (a WAW the caller should have checked); nothing is changed then. */
int sb_reserve(scoreboard *sb, uint32_t warp, const uint32_t *dst, int ndst);
/* Write-back of one slot. Returns 0, or -1 when it was not pending. */
int sb_release(scoreboard *sb, uint32_t warp, uint32_t reg);

/* The same for a decoded instruction; reg_base is the frame's first slot (simt_entry.reg_base). */
int sb_can_issue_instr(scoreboard *sb, uint32_t warp, const struct ptx_instr *in, uint32_t reg_base);
int sb_reserve_instr(scoreboard *sb, uint32_t warp, const struct ptx_instr *in, uint32_t reg_base);

#endif
