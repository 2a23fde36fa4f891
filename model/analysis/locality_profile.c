#include "locality_profile.h"

#include <stdio.h>
#include <string.h>

#include "../simt/simt_run.h"

typedef struct lg_hook { lg_builder *b; lg_refs *refs; int failed; } lg_hook;

static void on_mem(const simt_launch *l, const simt_warp *w, uint32_t func, uint32_t pc, const simt_mem_access *acc,
                   void *ctx)
{
    (void)func, (void)pc;
    lg_hook *h = ctx;
    if (acc->space != PS_GLOBAL || acc->is_store || acc->is_atomic) return; /* global reads only */
    const uint32_t *c = w->cta->ctaid;
    uint32_t tb = c[0] + l->grid[0] * (c[1] + l->grid[1] * c[2]);
    uint64_t warps = ((uint64_t)l->block[0] * l->block[1] * l->block[2] + 31) / 32;
    if (h->b && lg_builder_add_warp(h->b, tb, acc->mask, acc->addr, acc->bytes)) h->failed = 1;
    if (h->refs && lg_refs_add_warp(h->refs, tb, tb * warps + w->id, acc->mask, acc->addr, acc->bytes)) h->failed = 1;
}

/* Runs launch l functionally on a copy of device memory with the hook. 0 or -1 with a message. */
static int run_on_copy(const simt_launch *l, lg_hook *h, char *msg, size_t len)
{
    dmem copy;
    if (dmem_clone(&copy, l->mem)) {
        snprintf(msg, len, "locality graph: out of memory copying device memory");
        return -1;
    }
    simt_launch pl = *l;
    pl.mem = &copy;
    pl.on_mem = on_mem;
    pl.on_mem_ctx = h;
    pl.on_insn = NULL;
    pl.on_cta_done = NULL;
    simt_run_stats st;
    simt_error e;
    memset(&st, 0, sizeof st);
    memset(&e, 0, sizeof e);
    int rc = 0;
    if (simt_run_functional(&pl, 0, &st, &e) != SIMT_OK) {
        snprintf(msg, len, "locality graph: the kernel failed in its functional run");
        rc = -1;
    } else if (h->failed) {
        snprintf(msg, len, "locality graph: out of memory");
        rc = -1;
    }
    dmem_free_all(&copy);
    return rc;
}

int lg_launch_tbs(const simt_launch *l, uint32_t *n, char *msg, size_t len)
{
    uint64_t tbs = (uint64_t)l->grid[0] * l->grid[1] * l->grid[2];
    if (tbs > UINT32_MAX) {
        snprintf(msg, len, "locality graph: %llu TBs are too many", (unsigned long long)tbs);
        return -1;
    }
    *n = (uint32_t)tbs;
    return 0;
}

int lg_profile_launch(const simt_launch *l, int granularity, lg_graph *g, char *msg, size_t len)
{
    memset(g, 0, sizeof *g);
    uint32_t n;
    if (lg_launch_tbs(l, &n, msg, len)) return -1;
    lg_builder b;
    lg_builder_init(&b, n, granularity);
    lg_hook h = {&b, NULL, 0};
    int rc = run_on_copy(l, &h, msg, len);
    if (!rc && lg_builder_graph(&b, g)) {
        snprintf(msg, len, "locality graph: out of memory");
        rc = -1;
    }
    lg_builder_free(&b);
    return rc;
}

int lg_profile_refs(const simt_launch *l, int granularity, lg_ref_breakdown *out, char *msg, size_t len)
{
    memset(out, 0, sizeof *out);
    lg_refs refs;
    lg_refs_init(&refs, granularity);
    lg_hook h = {NULL, &refs, 0};
    int rc = run_on_copy(l, &h, msg, len);
    if (!rc && lg_refs_breakdown(&refs, out)) {
        snprintf(msg, len, "reference breakdown: out of memory");
        rc = -1;
    }
    lg_refs_free(&refs);
    return rc;
}
