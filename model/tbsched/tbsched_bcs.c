/* BCS, block CTA scheduling (Lee et al., as PAVER's thesis Sec. 3.5 uses it): CTAs in linear order,
 * but always two neighbours (2k, 2k + 1) to one SM, and only when the SM has room for both; the
 * partner goes to the same SM at its next visit (the next core cycle). A lone last CTA needs one
 * slot. An SM whose occupancy is odd therefore runs one CTA fewer (the throttling the thesis sees
 * on StoreGPU and Hotspot), and an SM waits for two free slots after a CTA finishes. A kernel of
 * which one CTA fills an SM (occupancy 1) could never start a pair: its CTAs go singly, in order
 * (the thesis is silent; never launching would be a deadlock, not a policy). */
#include <stdlib.h>

#include "tbsched.h"

typedef struct bcs_state {
    uint64_t next;     /* first CTA not yet given out */
    uint64_t *partner; /* per SM: the second CTA of its pair, TBSCHED_NONE when none waits */
} bcs_state;

static int bcs_create(tbsched *t, const long long *params, int nparams, void **state, strbuf *err)
{
    (void)params, (void)err;
    if (nparams) return -1;
    bcs_state *s = calloc(1, sizeof *s);
    if (!s || !(s->partner = malloc((t->l.n_sms ? t->l.n_sms : 1) * sizeof *s->partner))) {
        free(s);
        return -1;
    }
    for (uint32_t i = 0; i < t->l.n_sms; i++) s->partner[i] = TBSCHED_NONE;
    *state = s;
    return 0;
}

static void bcs_destroy(void *state)
{
    bcs_state *s = state;
    if (s) free(s->partner);
    free(s);
}

static uint64_t bcs_next(void *state, const tbsched *t, uint32_t sm)
{
    bcs_state *s = state;
    if (sm >= t->l.n_sms) return TBSCHED_NONE;
    if (s->partner[sm] != TBSCHED_NONE) {
        uint64_t c = s->partner[sm];
        s->partner[sm] = TBSCHED_NONE;
        return c;
    }
    uint64_t left = t->l.n_ctas - s->next;
    if (left == 0) return TBSCHED_NONE;
    if (left == 1) return s->next++;
    if (t->l.ctas_per_sm == 1) return s->next++;
    if (t->sm_free < 2) return TBSCHED_NONE; /* waits for room for the pair */
    s->partner[sm] = s->next + 1;
    s->next += 2;
    return s->next - 2;
}

const tbsched_policy tbsched_policy_bcs = {"bcs", bcs_create, bcs_destroy, bcs_next, NULL, NULL};
