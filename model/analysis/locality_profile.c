#include "locality_profile.h"

#include <stdio.h>
#include <string.h>

#include "../simt/simt_run.h"

typedef struct lg_hook { lg_builder b; int failed; } lg_hook;

static void on_mem(const simt_launch *l, const simt_warp *w, uint32_t func, uint32_t pc, const simt_mem_access *acc,
                   void *ctx)
{
    (void)func, (void)pc;
    lg_hook *h = ctx;
    if (acc->space != PS_GLOBAL || acc->is_store || acc->is_atomic) return; /* global reads only */
    const uint32_t *c = w->cta->ctaid;
    uint32_t tb = c[0] + l->grid[0] * (c[1] + l->grid[1] * c[2]);
    if (lg_builder_add_warp(&h->b, tb, acc->mask, acc->addr, acc->bytes)) h->failed = 1;
}

int lg_profile_launch(const simt_launch *l, int granularity, lg_graph *g, char *msg, size_t len)
{
    memset(g, 0, sizeof *g);
    uint64_t n = (uint64_t)l->grid[0] * l->grid[1] * l->grid[2];
    if (n > UINT32_MAX) {
        snprintf(msg, len, "locality graph: %llu TBs are too many", (unsigned long long)n);
        return -1;
    }
    dmem copy;
    if (dmem_clone(&copy, l->mem)) {
        snprintf(msg, len, "locality graph: out of memory copying device memory");
        return -1;
    }
    lg_hook h = {0};
    lg_builder_init(&h.b, (uint32_t)n, granularity);
    simt_launch pl = *l;
    pl.mem = &copy;
    pl.on_mem = on_mem;
    pl.on_mem_ctx = &h;
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
    } else if (h.failed || lg_builder_graph(&h.b, g)) {
        snprintf(msg, len, "locality graph: out of memory");
        rc = -1;
    }
    lg_builder_free(&h.b);
    dmem_free_all(&copy);
    return rc;
}
