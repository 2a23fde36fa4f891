/* gtlm locality: each kernel launch's thread-block locality graph (PAVER / LocalityGuru,
 * L[i][j] = distinct global elements, or 128 B lines, read by both TBs i and j) from LocalityGuru's
 * static PTX analysis and from functional execution: which source the graph came from and which
 * loads did not resolve, whether both graphs are equal, a summary per launch and, with --mtx DIR,
 * one Matrix Market file per launch. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "analysis/locality_graph.h"
#include "analysis/locality_refs.h"
#include "cli.h"
#include "tbsched/paver_groups.h"
#include "tbsched/paver_partition.h"
#include "workload.h"

typedef struct locality_run {
    lg_builder b;              /* the profiled references of the current launch */
    lg_refs refs;              /* the same, per warp: the reference categories (Fig. 3.2) */
    lg_graph stat;             /* its static graph (n = 0 when there is none) */
    int has_static, active, failed, granularity, trees, check;
    unsigned loads, unresolved, mismatches, unresolved_launches;
    double seconds;
    char *report;
    unsigned long long launch;
    unsigned grid[3];
    char kernel[128];
    const char *mtx_dir;
    char groups_kind[8];       /* --groups: "rbts", "kway" or "mst" ("" = off) */
    unsigned groups_arg[2];    /* rbts: maxTB; kway: parts; mst: SMs, x */
    unsigned n_launches;
} locality_run;

static void print_summary(const locality_run *r, const lg_graph *g)
{
    lg_summary s;
    lg_graph_summary(g, &s);
    uint64_t pairs = (uint64_t)g->n * (g->n ? g->n - 1 : 0) / 2;
    printf("launch %u %s grid %ux%ux%u: %u TBs, %llu of %llu TB pairs share (%.2f%%), %llu shared %s in all, "
           "max %llu (TBs %u, %u), %u TBs share nothing\n",
           r->n_launches, r->kernel, r->grid[0], r->grid[1], r->grid[2], g->n, (unsigned long long)s.edges,
           (unsigned long long)pairs, pairs ? 100.0 * (double)s.edges / (double)pairs : 0.0,
           (unsigned long long)s.total_weight, r->granularity == LG_LINE ? "lines" : "elements",
           (unsigned long long)s.max_weight, s.max_i, s.max_j, s.isolated);
}

/* Fig. 3.2's reference categories and Table 3.2's SpScore and shared TBs of the graph used. */
static void print_sharing(locality_run *r, const lg_graph *g)
{
    lg_ref_breakdown k;
    if (lg_refs_breakdown(&r->refs, &k)) {
        r->failed = 1;
        return;
    }
    double a = k.accesses ? 100.0 / (double)k.accesses : 0.0, cells = (double)g->n * (double)g->n;
    lg_summary s;
    lg_graph_summary(g, &s);
    printf("  references: %llu global reads: unshared %.1f%%, intra-TB %.1f%%, inter-TB %.1f%%, intra- and inter-TB "
           "%.1f%%; SpScore %.4f, shared TBs %u of %u\n",
           (unsigned long long)k.accesses, a * (double)k.unshared, a * (double)k.intra, a * (double)k.inter,
           a * (double)k.both, cells > 0 ? 1.0 - (double)g->row[g->n] / cells : 1.0, g->n - s.isolated, g->n);
}

static void write_mtx(locality_run *r, const lg_graph *g)
{
    char path[4096];
    snprintf(path, sizeof path, "%s/%s-launch%u.mtx", r->mtx_dir, r->kernel, r->n_launches);
    FILE *f = fopen(path, "w");
    if (!f || lg_graph_write_mm(g, f) || fclose(f)) {
        fprintf(stderr, "gtlm locality: cannot write %s\n", path);
        r->failed = 1;
    } else {
        printf("  wrote %s\n", path);
    }
}

/* --groups: the TB groups a PAVER policy forms from this graph (the model's own partitioners,
 * METIS seed 1 as the schedulers' default), one line per group in queue order. */
static void print_groups(locality_run *r, const lg_graph *g)
{
    paver_groups gr;
    int rc = strcmp(r->groups_kind, "rbts") == 0   ? paver_rb_ts_groups(g, r->groups_arg[0], 1, &gr)
             : strcmp(r->groups_kind, "kway") == 0 ? paver_kway_ts_groups(g, r->groups_arg[0], 1, &gr)
                                                   : paver_mst_ts_groups(g, r->groups_arg[0], r->groups_arg[1], &gr);
    if (rc) {
        r->failed = 1;
        return;
    }
    printf("  groups (%s): %u\n", r->groups_kind, gr.n_groups);
    for (uint32_t k = 0; k < gr.n_groups; k++) {
        printf("    group %u (%llu TBs):", k, (unsigned long long)(gr.start[k + 1] - gr.start[k]));
        for (uint64_t x = gr.start[k]; x < gr.start[k + 1]; x++) printf(" %u", gr.tbs[x]);
        printf("\n");
    }
    paver_groups_free(&gr);
}

/* Prints (and writes) the launch collected so far: the static graph when there is one, its
 * comparison with the profiled graph. */
static void finish_launch(locality_run *r)
{
    if (!r->active) return;
    r->active = 0;
    lg_graph prof;
    if (lg_builder_graph(&r->b, &prof)) {
        r->failed = 1;
    } else {
        const lg_graph *used = r->has_static ? &r->stat : &prof;
        print_summary(r, used);
        print_sharing(r, used);
        if (r->has_static) {
            uint32_t i = 0, j = 0;
            int eq = lg_graph_equal(&r->stat, &prof, &i, &j);
            printf("  source: static (LocalityGuru resolved all %u global loads, %.3f s); %s", r->loads, r->seconds,
                   eq ? "equal to the profiled graph element for element\n" : "DIFFERS from the profiled graph");
            if (!eq) {
                printf(" at TBs %u, %u: static %llu, profiled %llu\n", i, j,
                       (unsigned long long)lg_graph_get(&r->stat, i, j), (unsigned long long)lg_graph_get(&prof, i, j));
                r->mismatches++;
            }
            const char *sym = r->report ? strstr(r->report, "symbolic: ") : NULL;
            if (sym) {
                const char *end = strchr(sym, '\n');
                printf("  %.*s\n", (int)(end ? end - sym : (long)strlen(sym)), sym);
                if (strstr(sym, "symbolic: closed form DIFFERS") == sym) r->mismatches++;
            }
        } else {
            printf("  source: profiled (LocalityGuru left %u of %u global loads unresolved)\n", r->unresolved, r->loads);
            r->unresolved_launches++;
        }
        if (r->trees || !r->has_static) {
            /* the per-load report: every load with --trees, the unresolved ones otherwise */
            for (char *line = r->report; line && *line;) {
                char *end = strchr(line, '\n');
                size_t n = end ? (size_t)(end - line) : strlen(line);
                if ((r->trees && strncmp(line, "symbolic: ", 10)) || strstr(line, ": unresolved: ")) printf("    %.*s\n", (int)n, line);
                line += n + (end ? 1 : 0);
            }
        }
        if (r->mtx_dir) write_mtx(r, used);
        if (r->groups_kind[0]) print_groups(r, used);
        lg_graph_free(&prof);
    }
    r->n_launches++;
    lg_graph_free(&r->stat);
    free(r->report);
    r->report = NULL;
    r->has_static = 0;
    lg_builder_free(&r->b);
    lg_refs_free(&r->refs);
}

static void on_launch(const gtlm_locality_event *e, void *payload)
{
    locality_run *r = payload;
    finish_launch(r);
    unsigned long long n = (unsigned long long)e->grid[0] * e->grid[1] * e->grid[2];
    if (n > UINT32_MAX || r->failed) {
        r->failed = 1;
        return;
    }
    lg_builder_init(&r->b, (uint32_t)n, r->granularity);
    lg_refs_init(&r->refs, r->granularity);
    r->active = 1;
    r->launch = e->launch;
    memcpy(r->grid, e->grid, sizeof r->grid);
    snprintf(r->kernel, sizeof r->kernel, "%s", e->kernel);
    r->loads = e->loads;
    r->unresolved = e->unresolved;
    r->seconds = e->seconds;
    const char *rep = e->report ? e->report : "";
    r->report = malloc(strlen(rep) + 1);
    if (r->report) memcpy(r->report, rep, strlen(rep) + 1);
    r->has_static = 0;
    memset(&r->stat, 0, sizeof r->stat);
    if (e->has_graph) {
        uint64_t nnz = e->row[e->n_tbs];
        r->stat.n = e->n_tbs;
        r->stat.row = malloc(((size_t)e->n_tbs + 1) * sizeof *r->stat.row);
        r->stat.col = malloc((size_t)(nnz ? nnz : 1) * sizeof *r->stat.col);
        r->stat.val = malloc((size_t)(nnz ? nnz : 1) * sizeof *r->stat.val);
        if (!r->stat.row || !r->stat.col || !r->stat.val) {
            r->failed = 1;
            return;
        }
        memcpy(r->stat.row, e->row, ((size_t)e->n_tbs + 1) * sizeof *r->stat.row);
        memcpy(r->stat.col, e->col, (size_t)nnz * sizeof *r->stat.col);
        memcpy(r->stat.val, e->val, (size_t)nnz * sizeof *r->stat.val);
        r->has_static = 1;
    }
}

static void on_mem(const gtlm_mem_event *e, void *payload)
{
    locality_run *r = payload;
    if (e->space != GTLM_SPACE_GLOBAL || e->is_store || e->is_atomic || r->failed) return;
    if (!r->active || e->launch != r->launch) return;
    if (lg_builder_add_warp(&r->b, (uint32_t)e->cta_linear, e->mask, e->addr, e->bytes) ||
        lg_refs_add_warp(&r->refs, (uint32_t)e->cta_linear, e->global_warp, e->mask, e->addr, e->bytes))
        r->failed = 1;
}

int cmd_locality(int argc, char **argv)
{
    locality_run r = {0};
    r.granularity = LG_ELEMENT;
    /* Take this command's own flags out before the common run arguments are parsed. */
    int n = 0;
    for (int i = 0; i < argc; i++) {
        if (strcmp(argv[i], "--lines") == 0) r.granularity = LG_LINE;
        else if (strcmp(argv[i], "--trees") == 0) r.trees = 1;
        else if (strcmp(argv[i], "--check") == 0) r.check = 1;
        else if (strcmp(argv[i], "--mtx") == 0 && i + 1 < argc) r.mtx_dir = argv[++i];
        else if (strcmp(argv[i], "--groups") == 0 && i + 1 < argc) {
            const char *v = argv[++i];
            unsigned a0 = 0, a1 = 0;
            char tail = 0;
            int ok = (sscanf(v, "rbts:%u%c", &a0, &tail) == 1 && a0 >= 2 && a0 <= 1024) ||
                     (sscanf(v, "kway:%u%c", &a0, &tail) == 1 && a0 >= 1 && a0 <= 4096) ||
                     (sscanf(v, "mst:%u:%u%c", &a0, &a1, &tail) == 2 && a0 >= 1 && a0 <= 4096 && a1 >= 1 && a1 <= 1024);
            if (!ok) {
                fprintf(stderr, "gtlm locality: --groups %s: expected rbts:MAXTB (2..1024), kway:PARTS (1..4096) "
                                "or mst:SMS:X\n", v);
                return CLI_USAGE;
            }
            size_t len = (size_t)(strchr(v, ':') - v);
            memcpy(r.groups_kind, v, len);
            r.groups_kind[len] = 0;
            r.groups_arg[0] = a0, r.groups_arg[1] = a1;
        } else argv[n++] = argv[i];
    }
    cli_args a;
    int rc = cli_parse(n, argv, 1, 0, &a);
    if (rc != CLI_OK) return rc;
    const wl_desc *d = a.workload ? wl_find(a.workload) : NULL;
    if (!d) {
        fprintf(stderr,
                "usage: gtlm locality WORKLOAD [--lines] [--trees] [--check] [--mtx DIR] [--groups P] [--size tiny|sim|paper|doc] "
                "[--set NAME=VALUE] [CONFIG...]%s%s%s\n",
                a.workload ? " (no workload named '" : "", a.workload ? a.workload : "", a.workload ? "')" : "");
        return CLI_USAGE;
    }
    a.overrides[a.n_overrides++] = "-gtlm_mode";
    a.overrides[a.n_overrides++] = "functional";
    gtlm_sim *sim = NULL;
    if ((rc = cli_create_sim(&a, &sim)) != CLI_OK) return rc;
    gtlm_set_mem_callback(sim, on_mem, &r);
    gtlm_set_locality_callback(sim, on_launch, &r, r.granularity == LG_LINE);
    int w = wl_run(d, sim, a.size ? a.size : "tiny", a.sets, (size_t)a.n_sets, 0, stdout);
    finish_launch(&r);
    lg_builder_free(&r.b);
    lg_refs_free(&r.refs);
    if (r.failed) fprintf(stderr, "gtlm locality: out of memory or a file could not be written\n");
    printf("locality: %u launches, %u from LocalityGuru's static graph, %u profiled; %u static graphs differ from "
           "profiling\n", r.n_launches, r.n_launches - r.unresolved_launches, r.unresolved_launches, r.mismatches);
    int bad = r.failed || r.mismatches || (r.check && r.unresolved_launches);
    rc = w == WL_OK && !bad ? CLI_OK : w == WL_USAGE ? CLI_USAGE : CLI_FAIL;
    gtlm_sim_destroy(sim);
    return rc;
}
