#include "lb_ctl.h"

#include <string.h>

int lb_ctl_reset(lb_ctl *t, uint32_t nreg, uint32_t n_slots, uint64_t backup_base, double upper, double lower)
{
    if (n_slots > LB_CTL_MAX_CTAS) return -1;
    memset(t, 0, sizeof *t);
    t->nreg = nreg;
    t->n_slots = n_slots;
    t->bp = t->bp0 = backup_base;
    t->upper = upper;
    t->lower = lower;
    return 0;
}

static void recompute_lrn(lb_ctl *t)
{
    t->lrn = 0;
    for (uint32_t k = 0; k < t->n_slots; k++)
        if (t->cta[k].used && t->cta[k].act && t->cta[k].frn + t->nreg - 1 > t->lrn) t->lrn = t->cta[k].frn + t->nreg - 1;
}

void lb_ctl_cta_start(lb_ctl *t, uint32_t k)
{
    if (k >= t->n_slots) return;
    lb_ctl_cta *c = &t->cta[k];
    memset(c, 0, sizeof *c);
    c->used = c->act = 1;
    c->frn = k * t->nreg;
    recompute_lrn(t);
}

void lb_ctl_cta_done(lb_ctl *t, uint32_t k)
{
    if (k >= t->n_slots) return;
    memset(&t->cta[k], 0, sizeof t->cta[k]);
    recompute_lrn(t);
}

void lb_ctl_retire(lb_ctl *t, uint64_t insn)
{
    t->insn += insn;
}

uint32_t lb_ctl_n_active(const lb_ctl *t)
{
    uint32_t n = 0;
    for (uint32_t k = 0; k < t->n_slots; k++) n += t->cta[k].used && t->cta[k].act;
    return n;
}

lb_ctl_action lb_ctl_period_end(lb_ctl *t, uint64_t cycles)
{
    t->prev_ipc = t->cur_ipc;
    t->cur_ipc = cycles ? (double)t->insn / (double)cycles : 0.0;
    t->insn = 0;
    if (t->periods++ == 0 || t->prev_ipc <= 0.0) return LB_CTL_KEEP;
    double var = (t->cur_ipc - t->prev_ipc) / t->prev_ipc; /* Eq. 1 */
    if (var > t->upper) return lb_ctl_n_active(t) > 1 ? LB_CTL_THROTTLE : LB_CTL_KEEP;
    if (var < t->lower) return lb_ctl_restore_pick(t) != LB_CTL_NONE ? LB_CTL_RESTORE : LB_CTL_KEEP;
    return LB_CTL_KEEP;
}

uint32_t lb_ctl_throttle(lb_ctl *t)
{
    for (uint32_t k = t->n_slots; k-- > 0;)
        if (t->cta[k].used && t->cta[k].act) {
            t->cta[k].act = 0;
            return k;
        }
    return LB_CTL_NONE;
}

uint64_t lb_ctl_backup_done(lb_ctl *t, uint32_t k)
{
    lb_ctl_cta *c = &t->cta[k];
    c->ba = t->bp;
    c->c = 1;
    t->bp += (uint64_t)t->nreg * 128u;
    recompute_lrn(t);
    return c->ba;
}

uint32_t lb_ctl_restore_pick(const lb_ctl *t)
{
    if (t->bp == t->bp0) return LB_CTL_NONE;
    uint64_t top = t->bp - (uint64_t)t->nreg * 128u;
    for (uint32_t k = 0; k < t->n_slots; k++)
        if (t->cta[k].used && !t->cta[k].act && t->cta[k].c && t->cta[k].ba == top) return k;
    return LB_CTL_NONE;
}

int lb_ctl_restore_done(lb_ctl *t, uint32_t from, uint32_t to)
{
    if (from >= t->n_slots || to >= t->n_slots || lb_ctl_restore_pick(t) != from) return -1;
    if (to != from && t->cta[to].used) return -1;
    lb_ctl_cta c = t->cta[from];
    memset(&t->cta[from], 0, sizeof t->cta[from]);
    c.act = 1;
    c.c = 0;
    c.frn = to * t->nreg;
    t->cta[to] = c;
    t->bp -= (uint64_t)t->nreg * 128u;
    recompute_lrn(t);
    return 0;
}

uint32_t lb_ctl_lrn(const lb_ctl *t)
{
    return t->lrn;
}

uint32_t lb_ctl_vp_mask(uint32_t lrn, int any_active, uint32_t vc_base, uint32_t vp_regs, uint32_t n_vp, uint32_t n_regs)
{
    uint32_t m = 0;
    for (uint32_t n = 0; n < n_vp && n < 32; n++) {
        uint64_t first = (uint64_t)vc_base + (uint64_t)n * vp_regs;
        if (first + vp_regs > n_regs) break;
        if (!any_active || first > lrn) m |= 1u << n;
    }
    return m;
}
