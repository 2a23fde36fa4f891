/* Thread-block scheduler registry and the common core. */
#include <string.h>

#include "tbsched.h"

static const tbsched_policy *const policies[] = {
    &tbsched_policy_lrr,
    &tbsched_policy_mst,
    &tbsched_policy_kway,
    &tbsched_policy_rbts,
    &tbsched_policy_bcs,
    &tbsched_policy_cachefit,
};

const tbsched_policy *tbsched_policy_find(const char *name)
{
    for (size_t i = 0; i < sizeof policies / sizeof *policies; i++)
        if (strcmp(policies[i]->name, name) == 0) return policies[i];
    return NULL;
}

int tbsched_begin(tbsched *t, const gsim_policy_spec *spec, const tbsched_launch *l, strbuf *err)
{
    memset(t, 0, sizeof *t);
    t->l = *l;
    t->pol = tbsched_policy_find(spec->name);
    if (!t->pol) {
        strbuf_printf(err, "-gtlm_tb_scheduler: unknown policy '%s'\n", spec->name);
        return -1;
    }
    if (t->pol->create(t, spec->params, spec->nparams, &t->pstate, err) != 0) {
        strbuf_printf(err, "-gtlm_tb_scheduler: bad parameters for '%s'\n", spec->name);
        t->pol = NULL;
        return -1;
    }
    return 0;
}

void tbsched_end(tbsched *t)
{
    if (t->pol) t->pol->destroy(t->pstate);
    t->pol = NULL;
    t->pstate = NULL;
}

uint64_t tbsched_next(tbsched *t, uint32_t sm)
{
    if (!t->pol || tbsched_all_issued(t)) return TBSCHED_NONE;
    uint64_t c = t->pol->next(t->pstate, t, sm);
    if (c != TBSCHED_NONE) t->issued++;
    return c;
}

void tbsched_done(tbsched *t, uint32_t sm, uint64_t cta)
{
    if (t->pol && t->pol->on_done) t->pol->on_done(t->pstate, t, sm, cta);
}

void tbsched_counters_get(const tbsched *t, tbsched_counters *out)
{
    memset(out, 0, sizeof *out);
    if (t->pol && t->pol->counters) t->pol->counters(t->pstate, out);
}

void tbsched_cta_coords(const tbsched_launch *l, uint64_t index, uint32_t out[3])
{
    out[0] = (uint32_t)(index % l->grid[0]);
    out[1] = (uint32_t)(index / l->grid[0] % l->grid[1]);
    out[2] = (uint32_t)(index / ((uint64_t)l->grid[0] * l->grid[1]));
}
