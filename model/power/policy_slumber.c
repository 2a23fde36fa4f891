/* Slumber and the Warped Register File (policy_slumber.h): per-register state, the countdowns as
 * a queue of timed transitions, and the transition rules T1-T12 / TA / TF. */
#include "policy_slumber.h"

#include <stdlib.h>
#include <string.h>

#include "../analysis/reg_hints.h"

typedef struct tev {   /* a countdown that fires: the block enters `to` at cycle `at` */
    uint64_t at, seq;
    uint32_t b, gen;
    uint8_t to, t_id;
} tev;

typedef struct rfp {
    slumber_config cfg;
    int wrf;
    uint32_t *gen;     /* per block: bumped by every new plan, so stale countdowns are ignored */
    uint64_t *ready;   /* per block: the cycle its wake completes (0: none in progress) */
    uint64_t *last;    /* per block: its last access + 1 (0: none yet this kernel) */
    uint8_t *from;     /* per block: the mode it is waking from */
    uint8_t *gone;     /* per block: gated OFF since its last write (its data is lost) */
    uint16_t *pending; /* per block: results in flight to it (their write-back plans it next) */
    uint8_t *promo;    /* per block: sleeping through its warp's demotion until its next access */
    uint64_t *writing; /* per block: a write that waited for its wake lands at this cycle (the SM
                        * retries it then); until then the register must stay ON */
    uint64_t *cd_fire; /* per block: the cycle its countdown fires (the wake starts) ... */
    uint64_t *cd_zero; /* ... and the cycle it was loaded to reach 0 (the predicted use), for the VCD */
    uint32_t *cd_gen;  /* ... valid while the block's plan is this one */
    tev *heap;
    uint32_t nh, ch;
    uint64_t seq;
    rfp_stats st;
} rfp;

static rfp *P(const pm_domain *d) { return (rfp *)d->ps; }

static const slumber_config default_cfg = {{8, 139, 259}, {0, 4, 13, 16}, 3, 1, 2, 16, 16, 0, 10, 0, 0, 1, SLUMBER_MAP_ALLOC, 1, SLUMBER_PARK_IBUFFER, 0.01};

static int init_common(pm_domain *d, int wrf)
{
    rfp *p = calloc(1, sizeof *p);
    if (!p) return -1;
    d->ps = p;
    p->wrf = wrf;
    p->cfg = default_cfg;
    p->gen = calloc(d->n, sizeof *p->gen);
    p->ready = calloc(d->n, sizeof *p->ready);
    p->last = calloc(d->n, sizeof *p->last);
    p->from = calloc(d->n, 1);
    p->gone = calloc(d->n, 1);
    p->pending = calloc(d->n, sizeof *p->pending);
    p->promo = calloc(d->n, 1);
    p->writing = calloc(d->n, sizeof *p->writing);
    p->cd_fire = calloc(d->n, sizeof *p->cd_fire);
    p->cd_zero = calloc(d->n, sizeof *p->cd_zero);
    p->cd_gen = calloc(d->n, sizeof *p->cd_gen);
    return p->gen && p->ready && p->last && p->from && p->gone && p->pending && p->promo && p->writing && p->cd_fire &&
                   p->cd_zero && p->cd_gen
               ? 0
               : -1;
}

static int slumber_init(pm_domain *d) { return init_common(d, 0); }
static int wrf_init(pm_domain *d) { return init_common(d, 1); }

static void rfp_fini(pm_domain *d)
{
    rfp *p = P(d);
    if (!p) return;
    free(p->gen), free(p->ready), free(p->last), free(p->from), free(p->gone), free(p->pending), free(p->promo), free(p->writing), free(p->heap);
    free(p->cd_fire), free(p->cd_zero), free(p->cd_gen);
    free(p);
    d->ps = NULL;
}

void rfp_configure(pm_domain *d, const slumber_config *c)
{
    if (P(d) && c) P(d)->cfg = *c;
}

int rfp_is_wrf(const pm_domain *d) { return P(d) && P(d)->wrf; }
const rfp_stats *rfp_get_stats(const pm_domain *d) { return P(d) ? &P(d)->st : NULL; }
rfp_stats *rfp_stats_of(pm_domain *d) { return d->pol && d->pol->regs_only && P(d) ? &P(d)->st : NULL; }

/* ---- the countdowns: a binary heap ordered by (cycle, insertion) ---- */

static int before(const tev *a, const tev *b) { return a->at < b->at || (a->at == b->at && a->seq < b->seq); }

/* A countdown of block b that fires at `at`, loaded to reach 0 at `zero`. */
static void push(rfp *p, uint64_t at, uint64_t zero, uint32_t b, uint8_t to, uint8_t t_id)
{
    if (p->nh == p->ch) {
        uint32_t c = p->ch ? p->ch * 2 : 256;
        tev *h = realloc(p->heap, c * sizeof *h);
        if (!h) return; /* no memory: the register simply wakes on access */
        p->heap = h;
        p->ch = c;
    }
    tev e = {at, p->seq++, b, p->gen[b], to, t_id};
    p->cd_fire[b] = at;
    p->cd_zero[b] = zero;
    p->cd_gen[b] = p->gen[b];
    uint32_t i = p->nh++;
    while (i && before(&e, &p->heap[(i - 1) / 2])) {
        p->heap[i] = p->heap[(i - 1) / 2];
        i = (i - 1) / 2;
    }
    p->heap[i] = e;
}

static tev pop(rfp *p)
{
    tev top = p->heap[0], last = p->heap[--p->nh];
    uint32_t i = 0;
    for (;;) {
        uint32_t c = 2 * i + 1;
        if (c >= p->nh) break;
        if (c + 1 < p->nh && before(&p->heap[c + 1], &p->heap[c])) c++;
        if (!before(&p->heap[c], &last)) break;
        p->heap[i] = p->heap[c];
        i = c;
    }
    if (p->nh) p->heap[i] = last;
    return top;
}

static int wake_of(const pm_domain *d, pm_mode m) { return d->table.m[m].wake_cycles; }

/* Starts a wake of block b at cycle at towards `to` (ON, or SS to wait for the scheduler); a wake
 * already under way (OFF -> SS) finishes first. */
static void start_wake(pm_domain *d, uint32_t b, pm_mode to, uint64_t at)
{
    rfp *p = P(d);
    pm_mode m = pm_get(d, b);
    if (m == PM_ON || m == to) return;
    int w = wake_of(d, m) - (to == PM_ON ? 0 : wake_of(d, to));
    uint64_t base = p->ready[b] > at ? p->ready[b] : at;
    if (p->ready[b] <= at) p->from[b] = (uint8_t)m;
    p->ready[b] = base + (uint64_t)(w > 0 ? w : 0);
    pm_set(d, b, to, at);
    if (to == PM_ON) d->st.wakes++;
}

void rfp_advance(pm_domain *d, uint64_t now)
{
    rfp *p = P(d);
    if (!p) return;
    while (p->nh && p->heap[0].at <= now) {
        tev e = pop(p);
        if (e.gen != p->gen[e.b]) continue; /* re-planned since */
        start_wake(d, e.b, (pm_mode)e.to, e.at);
        p->st.trans[e.t_id]++;
    }
}

static uint32_t counter_max(const rfp *p)
{
    int bits = p->cfg.counter_bits > 0 && p->cfg.counter_bits < 31 ? p->cfg.counter_bits : 10;
    return (1u << bits) - 1;
}

/* Puts block b in mode m now; with a due cycle, the countdown wakes it to be ON by then (saturated
 * at the counter's width). */
static void plan(pm_domain *d, uint32_t b, pm_mode m, uint64_t due, uint64_t now, int t_set, int t_wake)
{
    rfp *p = P(d);
    p->gen[b]++;
    p->st.trans[t_set]++; /* every decision counts, ON -> ON ones too */
    if (m == PM_OFF) p->gone[b] = 1;
    if (m < pm_get(d, b)) start_wake(d, b, m, now); /* up: a wake, it takes its time */
    else {
        pm_set(d, b, m, now);
        p->ready[b] = 0;
    }
    if (m == PM_ON || !due) return;
    uint64_t cap = now + counter_max(p);
    if (due > cap) due = cap;
    uint64_t w = (uint64_t)wake_of(d, m);
    push(p, due > now + w ? due - w : now, due, b, PM_ON, (uint8_t)t_wake);
}

uint32_t rfp_countdown(const pm_domain *d, uint32_t b, uint64_t now)
{
    const rfp *p = P(d);
    if (!p || b >= d->n || p->cd_gen[b] != p->gen[b] || now >= p->cd_fire[b]) return 0;
    uint64_t left = p->cd_zero[b] > now ? p->cd_zero[b] - now : 0, cap = counter_max(p);
    return (uint32_t)(left < cap ? left : cap);
}

int rfp_counter_bits(const pm_domain *d)
{
    const rfp *p = P(d);
    return p && p->cfg.counter_bits > 0 && p->cfg.counter_bits < 31 ? p->cfg.counter_bits : 10;
}

pm_mode rfp_mode_for(const slumber_config *c, uint32_t idle, int kind)
{
    if (kind == RH_NONE) return PM_OFF;
    if (idle < (uint32_t)c->min_idle[PM_SHALLOW]) return PM_ON;
    if (idle < (uint32_t)c->min_idle[PM_SLEEP]) return PM_SHALLOW;
    if (kind == RH_READ || idle < (uint32_t)c->min_idle[PM_OFF]) return PM_SLEEP;
    return PM_OFF;
}

uint64_t rfp_mem_wait(uint64_t stall_idx, uint64_t stall_until, uint64_t issued, uint64_t use, uint64_t now,
                      uint32_t interval16)
{
    if (stall_until <= now || use < stall_idx || issued > stall_idx) return 0;
    return stall_until - now + (use - stall_idx) * interval16 / 16;
}

static int idle_bucket(const rfp *p, uint64_t idle)
{
    if (idle < (uint64_t)p->cfg.min_idle[PM_SHALLOW]) return 0;
    if (idle < (uint64_t)p->cfg.min_idle[PM_SLEEP]) return 1;
    if (idle < (uint64_t)p->cfg.min_idle[PM_OFF]) return 2;
    return 3;
}

/* The access itself: wait for the register, count why, record the idle period it ends. With
 * drowsy_cap > 0, a wake from deep sleep shows at most that many cycles (WRF's hidden wake). */
static int access_capped(pm_domain *d, uint32_t b, int kind, uint64_t now, int drowsy_cap)
{
    rfp *p = P(d);
    pm_mode m = pm_get(d, b);
    int wait = 0, found = m;
    if (m == PM_ON) {
        if (p->ready[b] > now) {
            wait = (int)(p->ready[b] - now);
            found = p->from[b];
        }
    } else {
        uint64_t rest = p->ready[b] > now ? p->ready[b] - now : 0; /* still coming down from OFF to SS */
        if (rest) found = p->from[b];
        wait = (int)rest + wake_of(d, m);
        pm_set(d, b, PM_ON, now);
        d->st.wakes++;
    }
    p->gen[b]++; /* the countdown is moot: the register is in use */
    p->ready[b] = 0;
    if (drowsy_cap > 0 && found == PM_SLEEP && wait > drowsy_cap) wait = drowsy_cap;
    if (wait) {
        p->st.stalls[kind][found]++;
        p->st.stall_cycles[kind][found] += (uint64_t)wait;
        d->st.wake_cycles += (uint64_t)wait;
        if (p->promo[b]) {
            p->st.promo_stalls++;
            p->st.promo_stall_cycles += (uint64_t)wait;
        }
    }
    p->promo[b] = 0;
    if (kind != RFP_READ && wait) p->writing[b] = now + (uint64_t)wait;
    if (kind == RFP_READ && p->gone[b]) {
        p->st.lost++;
        d->st.lost++;
    }
    if (kind != RFP_READ) p->gone[b] = 0; /* written: live again */
    if (p->last[b]) {
        uint64_t idle = now + 1 - p->last[b];
        int w = kind == RFP_READ ? 0 : 1, k = idle_bucket(p, idle);
        p->st.idle_hist[w][k]++;
        p->st.idle_cycles[w][k] += idle;
    }
    p->last[b] = now + 1;
    return wait;
}

static int access_kind(pm_domain *d, uint32_t b, int kind, uint64_t now) { return access_capped(d, b, kind, now, 0); }

int rfp_access(pm_domain *d, uint32_t b, int is_write, uint64_t now)
{
    if (!P(d) || b >= d->n) return 0;
    rfp *p = P(d);
    /* WRF: drowsy registers wake on the operand collector's request, only -wrf_wake shows (0: all) */
    int cap = p->wrf && p->cfg.wrf_wake > 0 ? p->cfg.wrf_wake : 0;
    return access_capped(d, b, is_write ? RFP_WRITE : RFP_READ, now, cap);
}

void rfp_after_access(pm_domain *d, uint32_t b, int kind, uint32_t idle, uint64_t now)
{
    rfp *p = P(d);
    if (!p || b >= d->n || p->pending[b]) return; /* a result in flight: its write-back decides */
    if (p->wrf) { /* drowsy right after each access */
        plan(d, b, PM_SLEEP, 0, now, 9, 11);
        return;
    }
    pm_mode m = rfp_mode_for(&p->cfg, idle, kind);
    static const int t_of[PM_MODES] = {7, 8, 9, 10};
    /* SS waits for the scheduler's look-ahead (T3); DS and OFF for their countdown (T11, T12);
     * a dead register (no next access) stays OFF until its warp's next TB. */
    uint64_t due = (m == PM_SLEEP || m == PM_OFF) && kind != RH_NONE ? now + idle : 0;
    plan(d, b, m, due, now, t_of[m], m == PM_SLEEP ? 11 : 12);
}

void rfp_alloc(pm_domain *d, uint32_t b, int kind, uint32_t idle, uint64_t now)
{
    rfp *p = P(d);
    if (!p || b >= d->n || p->wrf) return;
    plan(d, b, PM_OFF, 0, now, 1, 1); /* T1 until its first use draws near */
    if (kind == RH_NONE) return;
    uint32_t cap = counter_max(p);
    uint64_t due = now + (idle < cap ? idle : cap);
    uint64_t w = (uint64_t)(wake_of(d, PM_OFF) - wake_of(d, PM_SHALLOW));
    push(p, due > now + w ? due - w : now, due, b, PM_SHALLOW, 2); /* T2: then the scheduler (T3) */
}

void rfp_alu_dest(pm_domain *d, uint32_t b, uint64_t now, uint64_t write_at, int may_gate)
{
    rfp *p = P(d);
    if (!p || b >= d->n) return;
    if (p->wrf) { /* the pipeline wakes it for the write it knows is coming */
        if (p->pending[b] < UINT16_MAX) p->pending[b]++;
        plan(d, b, PM_ON, 0, now, RFP_TA, RFP_TA);
        return;
    }
    if (p->pending[b] < UINT16_MAX) p->pending[b]++;
    if (p->pending[b] > 1) { /* another result is in flight to it: ON for both write-backs */
        plan(d, b, PM_ON, 0, now, RFP_TA, RFP_TA);
        return;
    }
    uint32_t idle = write_at > now ? (uint32_t)(write_at - now) : 0;
    pm_mode m = rfp_mode_for(&p->cfg, idle, RH_WRITE);
    if (m == PM_OFF && (p->cfg.long_alu_ds || !may_gate)) m = PM_SLEEP;
    plan(d, b, m, write_at, now, RFP_TA, RFP_TA);
}

void rfp_load_dest(pm_domain *d, uint32_t b, uint64_t now)
{
    if (!P(d) || b >= d->n) return;
    if (P(d)->pending[b] < UINT16_MAX) P(d)->pending[b]++;
    plan(d, b, PM_ON, 0, now, 4, 4); /* T4 (WRF: write-conservative, ON until write-back) */
}

void rfp_load_miss(pm_domain *d, uint32_t b, uint64_t now, uint32_t latency, int may_gate)
{
    rfp *p = P(d);
    if (!p || b >= d->n || p->wrf || p->pending[b] > 1) return; /* several results due: stays ON */
    pm_mode m = rfp_mode_for(&p->cfg, latency, RH_WRITE);
    if (m == PM_OFF && !may_gate) m = PM_SLEEP;
    if (m == PM_ON) return;
    plan(d, b, m, now + latency, now, 5, 6);
}

int rfp_writeback(pm_domain *d, uint32_t b, uint64_t now)
{
    if (!P(d) || b >= d->n) return 0;
    if (P(d)->pending[b]) P(d)->pending[b]--;
    return access_kind(d, b, RFP_WRITEBACK, now);
}

void rfp_hold(pm_domain *d, uint32_t b, uint64_t until)
{
    rfp *p = P(d);
    if (p && b < d->n && until > p->writing[b]) p->writing[b] = until;
}

void rfp_lookahead(pm_domain *d, uint32_t b, uint64_t now)
{
    rfp *p = P(d);
    /* A register waiting for a result keeps its countdown: the instruction cannot issue before. */
    if (!p || b >= d->n || p->wrf || p->pending[b]) return;
    pm_mode m = pm_get(d, b);
    if (m == PM_ON || (m != PM_SHALLOW && !p->cfg.lookahead_deep)) return;
    p->gen[b]++;
    start_wake(d, b, PM_ON, now);
    p->st.trans[3]++;
}

void rfp_park(pm_domain *d, uint32_t b, int kind, int soon, uint64_t now)
{
    rfp *p = P(d);
    if (!p || b >= d->n || p->wrf || p->pending[b] || p->writing[b] > now) return; /* a write lands first */
    pm_mode m = kind == RH_NONE ? PM_OFF : soon ? PM_SHALLOW : kind == RH_READ ? PM_SLEEP : PM_OFF;
    plan(d, b, m, 0, now, RFP_TP, RFP_TP);
    p->promo[b] = 1;
}

void rfp_promote(pm_domain *d, uint32_t b, int kind, uint32_t idle, uint64_t now)
{
    rfp *p = P(d);
    if (!p || b >= d->n || p->wrf || p->pending[b] || p->writing[b] > now) return;
    p->st.trans[RFP_TW]++;
    rfp_after_access(d, b, kind, idle, now);
}

void rfp_finish(pm_domain *d, uint32_t b, uint64_t now)
{
    rfp *p = P(d);
    if (!p || b >= d->n) return;
    p->pending[b] = 0;
    p->promo[b] = 0;
    plan(d, b, p->wrf ? PM_SLEEP : PM_OFF, 0, now, RFP_TF, RFP_TF);
}

/* T1 at a TB's allocation is rfp_after_access's business (the seam gives the first use); here the
 * generic events: WRF makes allocated registers drowsy, both gate released ones OFF. */
static void rfp_event(pm_domain *d, uint32_t b, pm_event ev, uint64_t now)
{
    rfp *p = P(d);
    if (!p || b >= d->n) return;
    if (ev == PM_EV_ALLOC && p->wrf) plan(d, b, PM_SLEEP, 0, now, 9, 11);
    else if (ev == PM_EV_FREE) {
        p->pending[b] = 0;
        p->promo[b] = 0;
        plan(d, b, PM_OFF, 0, now, 1, 1);
        p->last[b] = 0;
    }
}

static void rfp_begin(pm_domain *d, uint64_t now)
{
    (void)now;
    rfp *p = P(d);
    if (!p) return;
    p->nh = 0; /* every register starts OFF (the statistics were zeroed by the registry) */
    memset(p->ready, 0, d->n * sizeof *p->ready);
    memset(p->last, 0, d->n * sizeof *p->last);
    memset(p->gone, 1, d->n); /* nothing live yet */
    memset(p->pending, 0, d->n * sizeof *p->pending);
    memset(p->promo, 0, d->n);
    memset(p->writing, 0, d->n * sizeof *p->writing);
    for (uint32_t b = 0; b < d->n; b++) p->gen[b]++;
}

const pm_policy pm_policy_slumber = {"slumber", rfp_event, PM_OFF, rfp_begin, NULL, 0, slumber_init, rfp_fini, 1};
const pm_policy pm_policy_wrf = {"wrf", rfp_event, PM_OFF, rfp_begin, NULL, 0, wrf_init, rfp_fini, 1};
