#include "scoreboard.h"

#include <stdlib.h>
#include <string.h>

#include "../ptx/ptx_ir.h"

int sb_init(scoreboard *sb, uint32_t n_warps, uint32_t n_regs)
{
    memset(sb, 0, sizeof *sb);
    if (n_warps == 0 || n_regs == 0) return -1;
    sb->n_warps = n_warps;
    sb->n_regs = n_regs;
    sb->words_per_warp = (n_regs + 63) / 64;
    sb->bits = calloc((size_t)n_warps * sb->words_per_warp, sizeof *sb->bits);
    sb->pending = calloc(n_warps, sizeof *sb->pending);
    if (!sb->bits || !sb->pending) {
        sb_free(sb);
        return -1;
    }
    return 0;
}

int sb_grow(scoreboard *sb, uint32_t n_regs)
{
    if (n_regs <= sb->n_regs) return 0;
    uint32_t words = (n_regs + 63) / 64;
    uint64_t *bits = calloc((size_t)sb->n_warps * words, sizeof *bits);
    if (!bits) return -1;
    for (uint32_t w = 0; w < sb->n_warps; w++)
        memcpy(bits + (size_t)w * words, sb->bits + (size_t)w * sb->words_per_warp, sb->words_per_warp * sizeof *bits);
    free(sb->bits);
    sb->bits = bits;
    sb->words_per_warp = words;
    sb->n_regs = n_regs;
    return 0;
}

void sb_free(scoreboard *sb)
{
    free(sb->bits);
    free(sb->pending);
    memset(sb, 0, sizeof *sb);
}

static uint64_t *sb_row(const scoreboard *sb, uint32_t warp)
{
    return sb->bits + (size_t)warp * sb->words_per_warp;
}

void sb_clear_warp(scoreboard *sb, uint32_t warp)
{
    memset(sb_row(sb, warp), 0, sb->words_per_warp * sizeof(uint64_t));
    sb->pending[warp] = 0;
}

int sb_is_pending(const scoreboard *sb, uint32_t warp, uint32_t reg)
{
    if (reg >= sb->n_regs) return 0;
    return (int)(sb_row(sb, warp)[reg / 64] >> (reg % 64) & 1);
}

uint32_t sb_pending_count(const scoreboard *sb, uint32_t warp)
{
    return sb->pending[warp];
}

static int sb_any_pending(const scoreboard *sb, uint32_t warp, const uint32_t *r, int n)
{
    for (int i = 0; i < n; i++)
        if (sb_is_pending(sb, warp, r[i])) return 1;
    return 0;
}

int sb_can_issue(scoreboard *sb, uint32_t warp, const uint32_t *src, int nsrc, const uint32_t *dst,
                 int ndst)
{
    if (sb->pending[warp] == 0) return 1;
    if (sb_any_pending(sb, warp, src, nsrc)) {
        sb->raw_stalls++;
        return 0;
    }
    if (sb_any_pending(sb, warp, dst, ndst)) {
        sb->waw_stalls++;
        return 0;
    }
    return 1;
}

int sb_reserve(scoreboard *sb, uint32_t warp, const uint32_t *dst, int ndst)
{
    uint64_t *row = sb_row(sb, warp);
    for (int i = 0; i < ndst; i++) {
        uint32_t r = dst[i];
        if (r == SB_NO_REG) continue;
        if (r >= sb->n_regs || (row[r / 64] >> (r % 64) & 1)) return -1;
        for (int j = 0; j < i; j++)
            if (dst[j] == r) return -1; /* the same slot twice in one instruction */
    }
    for (int i = 0; i < ndst; i++) {
        uint32_t r = dst[i];
        if (r == SB_NO_REG) continue;
        row[r / 64] |= (uint64_t)1 << (r % 64);
        sb->pending[warp]++;
        sb->reserves++;
    }
    return 0;
}

int sb_release(scoreboard *sb, uint32_t warp, uint32_t reg)
{
    if (!sb_is_pending(sb, warp, reg)) return -1;
    sb_row(sb, warp)[reg / 64] &= ~((uint64_t)1 << (reg % 64));
    sb->pending[warp]--;
    sb->releases++;
    return 0;
}

/* Rebases an instruction's slot list into buf (PTX_NO_REG kept). */
static int sb_rebase(const uint32_t *r, int n, uint32_t base, uint32_t *buf)
{
    for (int i = 0; i < n; i++) buf[i] = r[i] == PTX_NO_REG ? SB_NO_REG : r[i] + base;
    return n;
}

/* mov.indirect: which array register it reads or writes is known only after its index is read,
 * so a pending write to any of them holds it back (RAW for the read form, WAW for the write). */
static int sb_rarray_pending(scoreboard *sb, uint32_t warp, const struct ptx_instr *in, uint32_t reg_base)
{
    for (uint32_t i = 0; i < in->n_targets; i++) {
        if (!sb_is_pending(sb, warp, in->rarray[i] + reg_base)) continue;
        if (in->o[0].kind == PO_RARRAY) sb->waw_stalls++;
        else sb->raw_stalls++;
        return 1;
    }
    return 0;
}

int sb_can_issue_instr(scoreboard *sb, uint32_t warp, const struct ptx_instr *in, uint32_t reg_base)
{
    uint32_t s[PTX_MAX_REGS_PER_INSTR], d[PTX_MAX_REGS_PER_INSTR];
    int ns = sb_rebase(in->src, in->nsrc, reg_base, s);
    int nd = sb_rebase(in->dst, in->ndst, reg_base, d);
    if (!sb_can_issue(sb, warp, s, ns, d, nd)) return 0;
    return in->op != OP_MOV_INDIRECT || !sb->pending[warp] || !sb_rarray_pending(sb, warp, in, reg_base);
}

int sb_reserve_instr(scoreboard *sb, uint32_t warp, const struct ptx_instr *in, uint32_t reg_base)
{
    uint32_t d[PTX_MAX_REGS_PER_INSTR];
    int nd = sb_rebase(in->dst, in->ndst, reg_base, d);
    return sb_reserve(sb, warp, d, nd);
}
