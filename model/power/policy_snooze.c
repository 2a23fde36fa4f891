/*
 * Snooze (thesis Ch. 5; spec part C.3.4): a trimodal ON / Sleep / OFF switch per cache power
 * domain (the whole L1 or L2 bank, a 128-byte line or a 32-byte sector: -power_gating_lines_*),
 * driven by what the cache's input queues will bring. Transitions, numbered as the spec's
 * reconstruction (T1-T7):
 *   T1 kernel start -> OFF (snooze: only blocks holding nothing live; the others Sleep)
 *   T2 OFF/Sleep -> ON  a request for the block enters AGU->L1 / ICNT->L2 (woken at enqueue, so
 *                       the queue lag hides the 2-cycle wake; pm_access charges only the rest)
 *   T3 ON -> ON         requests keep coming (pending > 0)
 *   T4 ON -> Sleep      the queues hold nothing for it any more, or its head request failed
 *                       its reservation (stays asleep until a fill: enqueues do not wake it)
 *   T5 Sleep -> ON      a fill for it enters ICNT->L1 / DRAM->L2
 *   T6/T7 ON/Sleep -> OFF  the SM finished its CTAs (L1) / the kernel exited (L2);
 *                       snooze: only blocks holding nothing live (the others Sleep)
 * Blocks holding nothing live are OFF (spec C.3.5 PROPOSAL): evicted and never-filled lines.
 * "snooze_destroy" gates live blocks OFF at T1/T6/T7 too: their next access is a real miss.
 *
 * "coarse151": the policy of the thesis' reference [151] as its Ch. 2 describes it: the whole
 * cache Sleeps when it has nothing to do (L1: no warp of its SM is ready, sm_issue_cycle; L2: no
 * pending request, l2_slice; both reported as PM_EV_IDLE), wakes on an access paying the full
 * wake latency (no look-ahead), and is OFF after its SM's CTAs (L1) / the kernel (L2)
 * (PM_EV_FINISH). Use it with -power_gating_lines_* 0 (one domain per cache).
 */
#include "power_mode.h"

#include <stddef.h>

/* d->aux per block: requests pending in the input queues, and two flags. */
#define AUX_LIVE (1u << 31)    /* the block holds live data */
#define AUX_RESFAIL (1u << 30) /* its head request failed a reservation: sleep until a fill */
#define AUX_PENDING 0x3fffffffu

static uint32_t pending(const pm_domain *d, uint32_t b) { return d->aux[b] & AUX_PENDING; }

/* Where a block goes when nothing needs it: Sleep keeps live data, OFF otherwise. */
static pm_mode rest_mode(const pm_domain *d, uint32_t b)
{
    return (d->aux[b] & AUX_LIVE) ? PM_SLEEP : PM_OFF;
}

static void snooze_begin_common(pm_domain *d, uint64_t now, int destroy)
{
    for (uint32_t b = 0; b < d->n; b++) {
        d->aux[b] &= AUX_LIVE; /* no request is queued at kernel start */
        if (!destroy && (d->aux[b] & AUX_LIVE)) pm_set(d, b, PM_SLEEP, now);
    }
}

static void snooze_begin(pm_domain *d, uint64_t now) { snooze_begin_common(d, now, 0); }
static void snooze_destroy_begin(pm_domain *d, uint64_t now) { snooze_begin_common(d, now, 1); }

static void snooze_event(pm_domain *d, uint32_t b, pm_event ev, uint64_t now, int destroy)
{
    if (b >= d->n) return;
    uint32_t *a = &d->aux[b];
    switch (ev) {
    case PM_EV_ENQUEUE: /* T2 (or no wake while a reservation fail holds the block asleep) */
        if (pending(d, b) < AUX_PENDING) (*a)++;
        if (!(*a & AUX_RESFAIL)) pm_wake(d, b, now);
        break;
    case PM_EV_DEQUEUE: /* T4 when it was the last request for the block */
        if (pending(d, b)) (*a)--;
        if (!pending(d, b) && pm_get(d, b) == PM_ON) pm_set(d, b, rest_mode(d, b), now);
        break;
    case PM_EV_ACCESS: /* T3 while more are queued; T4 after serving the last one */
    case PM_EV_IDLE:
        if (!pending(d, b) && pm_get(d, b) == PM_ON) pm_set(d, b, rest_mode(d, b), now);
        break;
    case PM_EV_RESFAIL: /* T4: sleep until a fill */
        *a |= AUX_RESFAIL;
        if (pm_get(d, b) == PM_ON) pm_set(d, b, rest_mode(d, b), now);
        break;
    case PM_EV_FILL: /* T5 */
        *a &= ~AUX_RESFAIL;
        pm_wake(d, b, now);
        break;
    case PM_EV_ALLOC: /* the fill is written: ON while requests wait, else back to Sleep */
        *a = (*a | AUX_LIVE) & ~AUX_RESFAIL;
        pm_set(d, b, pending(d, b) ? PM_ON : PM_SLEEP, now);
        break;
    case PM_EV_FREE: /* nothing live: OFF (its queued requests will miss and wake nothing) */
        *a = 0;
        pm_set(d, b, PM_OFF, now);
        break;
    case PM_EV_FINISH: /* T6 / T7 */
        *a &= AUX_LIVE;
        pm_set(d, b, destroy ? PM_OFF : rest_mode(d, b), now);
        break;
    }
}

static void snooze(pm_domain *d, uint32_t b, pm_event ev, uint64_t now) { snooze_event(d, b, ev, now, 0); }
static void snooze_destroy(pm_domain *d, uint32_t b, pm_event ev, uint64_t now)
{
    snooze_event(d, b, ev, now, 1);
}

const pm_policy pm_policy_snooze = {"snooze", snooze, PM_OFF, snooze_begin, &pm_policy_always_on, 1, NULL, NULL, 0};
const pm_policy pm_policy_snooze_destroy = {"snooze_destroy", snooze_destroy, PM_OFF, snooze_destroy_begin,
                                            &pm_policy_always_on, 1, NULL, NULL, 0};

static void coarse151(pm_domain *d, uint32_t b, pm_event ev, uint64_t now)
{
    /* IDLE only lowers an ON cache: an OFF one (its SM finished) stays OFF until an access. */
    if (ev == PM_EV_IDLE && pm_get(d, b) == PM_ON) pm_set(d, b, PM_SLEEP, now);
    else if (ev == PM_EV_FINISH) pm_set(d, b, PM_OFF, now);
    /* ACCESS: pm_access already woke it (full latency); ALLOC: the fill turned it ON. */
}

const pm_policy pm_policy_coarse151 = {"coarse151", coarse151, PM_ON, NULL, &pm_policy_always_on, 0, NULL, NULL, 0};

int pm_policy_keeps_idle(const pm_policy *pol)
{
    return pol == &pm_policy_snooze || pol == &pm_policy_snooze_destroy || pol == &pm_policy_coarse151;
}
