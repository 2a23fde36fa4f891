/* gtlm locality: each kernel launch's thread-block locality graph (PAVER / LocalityGuru,
 * L[i][j] = distinct global elements, or 128 B lines, read by both TBs i and j) from functional
 * execution: a summary per launch and, with --mtx DIR, one Matrix Market file per launch. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "analysis/locality_graph.h"
#include "cli.h"
#include "workload.h"

typedef struct locality_run {
    lg_builder b;
    int active, failed, granularity;
    unsigned long long launch;
    unsigned grid[3];
    char kernel[128];
    const char *mtx_dir;
    unsigned n_launches;
} locality_run;

/* Prints (and writes) the graph of the launch collected so far. */
static void finish_launch(locality_run *r)
{
    if (!r->active) return;
    r->active = 0;
    lg_graph g;
    if (lg_builder_graph(&r->b, &g)) {
        r->failed = 1;
        lg_builder_free(&r->b);
        return;
    }
    lg_summary s;
    lg_graph_summary(&g, &s);
    uint64_t pairs = (uint64_t)g.n * (g.n ? g.n - 1 : 0) / 2;
    printf("launch %u %s grid %ux%ux%u: %u TBs, %llu of %llu TB pairs share (%.2f%%), %llu shared %s in all, "
           "max %llu (TBs %u, %u), %u TBs share nothing\n",
           r->n_launches, r->kernel, r->grid[0], r->grid[1], r->grid[2], g.n, (unsigned long long)s.edges,
           (unsigned long long)pairs, pairs ? 100.0 * (double)s.edges / (double)pairs : 0.0,
           (unsigned long long)s.total_weight, r->granularity == LG_LINE ? "lines" : "elements",
           (unsigned long long)s.max_weight, s.max_i, s.max_j, s.isolated);
    if (r->mtx_dir) {
        char path[4096];
        snprintf(path, sizeof path, "%s/%s-launch%u.mtx", r->mtx_dir, r->kernel, r->n_launches);
        FILE *f = fopen(path, "w");
        if (!f || lg_graph_write_mm(&g, f) || fclose(f)) {
            fprintf(stderr, "gtlm locality: cannot write %s\n", path);
            r->failed = 1;
        } else {
            printf("  wrote %s\n", path);
        }
    }
    r->n_launches++;
    lg_graph_free(&g);
    lg_builder_free(&r->b);
}

static void on_mem(const gtlm_mem_event *e, void *payload)
{
    locality_run *r = payload;
    if (e->space != GTLM_SPACE_GLOBAL || e->is_store || e->is_atomic || r->failed) return;
    if (!r->active || e->launch != r->launch) {
        finish_launch(r);
        unsigned long long n = (unsigned long long)e->grid[0] * e->grid[1] * e->grid[2];
        if (n > UINT32_MAX) {
            r->failed = 1;
            return;
        }
        lg_builder_init(&r->b, (uint32_t)n, r->granularity);
        r->active = 1;
        r->launch = e->launch;
        memcpy(r->grid, e->grid, sizeof r->grid);
        snprintf(r->kernel, sizeof r->kernel, "%s", e->kernel);
    }
    if (lg_builder_add_warp(&r->b, (uint32_t)e->cta_linear, e->mask, e->addr, e->bytes)) r->failed = 1;
}

int cmd_locality(int argc, char **argv)
{
    locality_run r = {0};
    r.granularity = LG_ELEMENT;
    /* Take this command's own flags out before the common run arguments are parsed. */
    int n = 0;
    for (int i = 0; i < argc; i++) {
        if (strcmp(argv[i], "--lines") == 0) r.granularity = LG_LINE;
        else if (strcmp(argv[i], "--mtx") == 0 && i + 1 < argc) r.mtx_dir = argv[++i];
        else argv[n++] = argv[i];
    }
    cli_args a;
    int rc = cli_parse(n, argv, 1, 0, &a);
    if (rc != CLI_OK) return rc;
    const wl_desc *d = a.workload ? wl_find(a.workload) : NULL;
    if (!d) {
        fprintf(stderr,
                "usage: gtlm locality WORKLOAD [--lines] [--mtx DIR] [--size tiny|sim|paper|doc] [--set NAME=VALUE] "
                "[CONFIG...]%s%s%s\n",
                a.workload ? " (no workload named '" : "", a.workload ? a.workload : "", a.workload ? "')" : "");
        return CLI_USAGE;
    }
    a.overrides[a.n_overrides++] = "-gtlm_mode";
    a.overrides[a.n_overrides++] = "functional";
    gtlm_sim *sim = NULL;
    if ((rc = cli_create_sim(&a, &sim)) != CLI_OK) return rc;
    gtlm_set_mem_callback(sim, on_mem, &r);
    int w = wl_run(d, sim, a.size ? a.size : "tiny", a.sets, (size_t)a.n_sets, 0, stdout);
    finish_launch(&r);
    lg_builder_free(&r.b);
    if (r.failed) fprintf(stderr, "gtlm locality: out of memory or a file could not be written\n");
    rc = w == WL_OK && !r.failed ? CLI_OK : w == WL_USAGE ? CLI_USAGE : CLI_FAIL;
    gtlm_sim_destroy(sim);
    return rc;
}
