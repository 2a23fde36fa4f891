#include "power_mode.h"

#include <stdlib.h>
#include <string.h>

static const char *const names[PM_MODES] = {"on", "shallow", "sleep", "off"};

const char *pm_mode_name(int mode) { return mode >= 0 && mode < PM_MODES ? names[mode] : "?"; }

const pm_policy pm_policy_always_on = {"always_on", NULL, PM_ON, NULL, NULL, 0, NULL, NULL, 0};

/* OFF while the block holds nothing live, ON from its allocation on. */
static void off_when_unused(pm_domain *d, uint32_t block, pm_event ev, uint64_t now)
{
    if (ev == PM_EV_FREE) pm_set(d, block, PM_OFF, now);
    else if (ev == PM_EV_ALLOC) pm_set(d, block, PM_ON, now);
}

const pm_policy pm_policy_off_when_unused = {"off_when_unused", off_when_unused, PM_OFF, NULL, NULL, 0, NULL, NULL, 0};

/* A power-gated unit (an IBL / Morpheus gated SM): OFF from every kernel start, no hook wakes it. */
const pm_policy pm_policy_gated = {"gated", NULL, PM_OFF, NULL, NULL, 0, NULL, NULL, 0};

const pm_policy *pm_policy_non_cache(const pm_policy *pol)
{
    return pol && pol->non_cache ? pol->non_cache : pol;
}

const pm_policy *pm_policy_cache(const pm_policy *pol)
{
    return pol && pol->regs_only ? &pm_policy_always_on : pol;
}

const pm_policy *pm_policy_sm(const pm_policy *pol)
{
    return pol && pol->regs_only ? &pm_policy_always_on : pm_policy_non_cache(pol);
}

const pm_policy *pm_policy_find(const char *name)
{
    if (!name || !strcmp(name, "always_on")) return &pm_policy_always_on;
    if (!strcmp(name, "off_when_unused")) return &pm_policy_off_when_unused;
    if (!strcmp(name, "snooze")) return &pm_policy_snooze;
    if (!strcmp(name, "snooze_destroy")) return &pm_policy_snooze_destroy;
    if (!strcmp(name, "coarse151")) return &pm_policy_coarse151;
    if (!strcmp(name, "slumber")) return &pm_policy_slumber;
    if (!strcmp(name, "wrf")) return &pm_policy_wrf;
    return NULL;
}

int pm_domain_init(pm_domain *d, uint32_t n, const pm_table *t, double block_leak_mw, double mhz,
                   const pm_policy *pol)
{
    memset(d, 0, sizeof *d);
    d->table = *t;
    d->block_leak_mw = block_leak_mw;
    d->mhz = mhz;
    d->n = n;
    d->pol = pol == &pm_policy_always_on ? NULL : pol;
    d->count[PM_ON] = n;
    if (d->pol && n) {
        d->mode = calloc(n, 1);
        d->ready = calloc(n, sizeof *d->ready);
        if (d->pol->needs_aux) d->aux = calloc(n, sizeof *d->aux);
        if (!d->mode || !d->ready || (d->pol->needs_aux && !d->aux)) return -1;
        if (d->pol->init && d->pol->init(d) != 0) return -1;
        if (pm_policy_keeps_idle(d->pol) && (!(d->idle = malloc(sizeof *d->idle)) || idle_hist_init(d->idle, n) != 0))
            return -1;
    }
    return 0;
}

void pm_domain_free(pm_domain *d)
{
    if (d->ext.destroy) d->ext.destroy(d->ext.ctx);
    d->ext = (pm_ext){0};
    if (d->pol && d->pol->fini) d->pol->fini(d);
    d->ps = NULL;
    free(d->mode);
    free(d->ready);
    free(d->aux);
    if (d->idle) idle_hist_free(d->idle);
    free(d->idle);
    d->idle = NULL;
    d->mode = NULL;
    d->ready = NULL;
    d->aux = NULL;
}

/* d->ready: the cycle an early wake completes, with this bit when the block woke from OFF. */
#define READY_GONE (1ull << 63)

static void integrate(pm_domain *d, uint64_t now)
{
    if (d->closed || now <= d->last) return;
    uint64_t dt = now - d->last;
    for (int m = 0; m < PM_MODES; m++) d->st.residency[m] += (uint64_t)d->count[m] * dt;
    d->last = now;
}

/* The statistics of a block's mode change: residency, counts, entries and transition energy. */
static void note_mode(pm_domain *d, uint32_t block, pm_mode m, uint64_t now)
{
    pm_mode old = (pm_mode)d->mode[block];
    if (old == m) return;
    integrate(d, now);
    d->count[old]--;
    d->count[m]++;
    d->mode[block] = (uint8_t)m;
    if (m != PM_ON && !d->closed) {
        d->st.entries[m]++;
        d->st.transition_pj += pm_transition_pj(d, m);
    }
}

/* One op of an external controller; the statistics as the C core counts them (a wake passes
 * through ON before the op's own change: an access to a sleeping block that sleeps again). */
static int ext_op(pm_domain *d, uint32_t block, int op, uint64_t now, int *lost)
{
    pm_ext_out o = {0, 0, 0, 0};
    d->ext.op(d->ext.ctx, block, op, now, &o);
    if (o.woke) {
        d->st.wakes++;
        note_mode(d, block, PM_ON, now);
    }
    d->st.wake_cycles += (uint64_t)o.wait;
    d->st.lost += o.lost;
    if (lost) *lost = o.lost;
    note_mode(d, block, (pm_mode)o.mode, now);
    return o.wait;
}

void pm_kernel_begin(pm_domain *d, uint64_t now)
{
    d->last = d->begin = now;
    d->closed = 0;
    if (!d->pol) return;
    if (d->idle) idle_hist_begin(d->idle, now);
    pm_mode m0 = d->pol->initial;
    memset(d->mode, m0, d->n);
    memset(d->ready, 0, d->n * sizeof *d->ready);
    memset(d->count, 0, sizeof d->count);
    d->count[m0] = d->n;
    if (d->ext.op) {
        for (uint32_t b = 0; b < d->n; b++) ext_op(d, b, PM_OP_BEGIN, now, NULL);
        return;
    }
    if (d->pol->begin) d->pol->begin(d, now);
}

/* The owner reported changes past the kernel's end before it closed (an L2 slice serves the
 * kernel's last writes after the last core cycle): the residency of [begin, last] is folded into
 * [begin, now] in proportion, so blocks x cycles stays exact (the remainder of the rounding ON). */
static void fold_overshoot(pm_domain *d, uint64_t now)
{
    if (d->closed || d->last <= now || now < d->begin) return;
    uint64_t total = 0, want = (uint64_t)d->n * (now - d->begin), kept = 0;
    for (int m = 0; m < PM_MODES; m++) total += d->st.residency[m];
    if (total <= want) return;
    for (int m = PM_SHALLOW; m < PM_MODES; m++) {
        d->st.residency[m] = (uint64_t)((double)d->st.residency[m] * (double)want / (double)total);
        kept += d->st.residency[m];
    }
    d->st.residency[PM_ON] = want - kept;
}

void pm_close(pm_domain *d, uint64_t now)
{
    fold_overshoot(d, now);
    integrate(d, now);
    if (d->idle && !d->closed) idle_hist_close(d->idle, now);
    d->closed = 1;
}

void pm_note_access(pm_domain *d, uint32_t block, uint64_t now)
{
    if (d->idle && !d->closed) idle_hist_access(d->idle, block, now);
}

pm_mode pm_get(const pm_domain *d, uint32_t block)
{
    return d->mode && block < d->n ? (pm_mode)d->mode[block] : PM_ON;
}

double pm_transition_pj(const pm_domain *d, int mode)
{
    const pm_mode_params *p = &d->table.m[mode];
    return p->breakeven_cycles / d->mhz * 1e-6 * d->block_leak_mw * 1e-3 * (1.0 - p->leak_fraction) * 1e12;
}

void pm_set(pm_domain *d, uint32_t block, pm_mode m, uint64_t now)
{
    if (!d->mode || block >= d->n) return;
    if (d->ext.op) {
        if (m == PM_ON) ext_op(d, block, PM_OP_ON, now, NULL);
        return;
    }
    if (d->mode[block] == m) return;
    note_mode(d, block, m, now);
    if (m != PM_ON) d->ready[block] &= READY_GONE; /* an early wake undone; lost data stays lost */
}

int pm_access(pm_domain *d, uint32_t block, uint64_t now, int *lost)
{
    if (lost) *lost = 0;
    if (!d->mode || block >= d->n) return 0;
    pm_note_access(d, block, now); /* idle histograms see every access, whoever decides the mode */
    if (d->ext.op) return ext_op(d, block, PM_EV_ACCESS, now, lost);
    pm_mode m = (pm_mode)d->mode[block];
    int wait = 0;
    if (m == PM_ON && d->ready[block]) {
        /* Woken early by pm_wake: the wake already counted; wait only what is left of it, and
         * find the data gone if it woke from OFF. */
        uint64_t r = d->ready[block] & ~READY_GONE;
        wait = r > now ? (int)(r - now) : 0;
        d->st.wake_cycles += (uint64_t)wait;
        if (d->ready[block] & READY_GONE) {
            d->st.lost++;
            if (lost) *lost = 1;
        }
        d->ready[block] = 0;
    } else if (m != PM_ON) {
        wait = d->table.m[m].wake_cycles;
        d->st.wakes++;
        d->st.wake_cycles += (uint64_t)wait;
        if (m == PM_OFF || (d->ready[block] & READY_GONE)) {
            d->st.lost++;
            if (lost) *lost = 1;
        }
        pm_set(d, block, PM_ON, now);
        d->ready[block] = 0;
    }
    pm_event_report(d, block, PM_EV_ACCESS, now);
    return wait;
}

void pm_wake(pm_domain *d, uint32_t block, uint64_t now)
{
    if (!d->mode || block >= d->n) return;
    pm_mode m = (pm_mode)d->mode[block];
    if (m == PM_ON) return;
    d->st.wakes++;
    d->ready[block] = (now + (uint64_t)d->table.m[m].wake_cycles) | (m == PM_OFF ? READY_GONE : 0);
    pm_set(d, block, PM_ON, now);
}

void pm_filled(pm_domain *d, uint32_t block)
{
    if (d->ext.op && d->mode && block < d->n) ext_op(d, block, PM_OP_FILLED, 0, NULL);
    else if (d->ready && block < d->n) d->ready[block] = 0;
}

void pm_event_report(pm_domain *d, uint32_t block, pm_event ev, uint64_t now)
{
    if (d->ext.op) {
        if (d->mode && block < d->n) ext_op(d, block, (int)ev, now, NULL);
    } else if (d->pol && d->pol->on_event) {
        d->pol->on_event(d, block, ev, now);
    }
}

double pm_leakage_pj(const pm_table *t, double block_leak_mw, double mhz, double n, double cycles,
                     const double residency[PM_MODES])
{
    double block_cycles = n * cycles;
    for (int m = PM_SHALLOW; m < PM_MODES; m++) block_cycles -= residency[m] * (1.0 - t->m[m].leak_fraction);
    /* mW * cycles / MHz = mW * us = nJ; * 1e3 = pJ */
    return block_leak_mw * block_cycles / mhz * 1e3;
}

double pm_breakeven_cycles(double transition_pj, double block_leak_mw, double fraction, double mhz)
{
    double saved_pj_per_cycle = block_leak_mw * (1.0 - fraction) / mhz * 1e3;
    return saved_pj_per_cycle > 0 ? transition_pj / saved_pj_per_cycle : 0;
}
