/* gtlm profile: the per-static-load memory profile of a workload, from functional execution; with
 * --mode timing, APRES' Table I columns (%Load, #L/#R, L1 miss rate, top inter-warp stride, %Stride)
 * with the miss rate of each load from the timing run's per-load-PC L1 record, for the most
 * memory-intensive kernel (the document's Table I) and over every kernel. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "analysis/load_profile.h"
#include "cli.h"
#include "workload.h"

#define MAX_FUNCS 256

/* What the callback accumulates: the profile and the functions its keys refer to. */
typedef struct profile_run {
    load_profile prof;
    gtlm_module *module[MAX_FUNCS];
    const char *function[MAX_FUNCS];
    unsigned n_funcs;
    int failed;
} profile_run;

static void on_mem(const gtlm_mem_event *e, void *payload)
{
    profile_run *r = payload;
    if (e->space != GTLM_SPACE_GLOBAL || e->is_store || e->is_atomic) return;
    unsigned id = 0;
    while (id < r->n_funcs && (r->module[id] != e->module || r->function[id] != e->function)) id++;
    if (id == r->n_funcs) {
        if (id == MAX_FUNCS) {
            r->failed = 1;
            return;
        }
        r->module[id] = e->module;
        r->function[id] = e->function;
        r->n_funcs++;
    }
    if (load_profile_add(&r->prof, (uint64_t)id << 32 | e->pc, e->pc, e->line, e->global_warp, e->mask, e->addr,
                         e->bytes) != 0)
        r->failed = 1;
}

static void print_profile(gtlm_sim *sim, const profile_run *r)
{
    const load_profile *p = &r->prof;
    size_t *order = malloc((p->n ? p->n : 1) * sizeof *order);
    if (!order) return;
    load_profile_order(p, order);
    printf("%-56s %10s %11s %11s %7s %10s %12s %7s\n", "global load (module:line, pc, opcode)", "executions", "line_req",
           "sector_req", "share", "unique/req", "warp_stride", "share");
    for (size_t i = 0; i < p->n; i++) {
        const lp_load *l = &p->loads[order[i]];
        unsigned id = (unsigned)(l->key >> 32);
        char desc[160] = "?";
        gtlm_module_describe_instr(sim, r->module[id], r->function[id], l->pc, desc, sizeof desc);
        int64_t stride;
        double share;
        load_profile_stride(l, &stride, &share);
        printf("%-56s %10llu %11llu %11llu %6.2f%% %10.4f %12lld %6.1f%%\n", desc, (unsigned long long)l->executions,
               (unsigned long long)l->line_requests, (unsigned long long)l->sector_requests,
               p->total_requests ? 100.0 * (double)l->line_requests / (double)p->total_requests : 0.0,
               l->line_requests ? (double)l->lines.n / (double)l->line_requests : 0.0, (long long)stride, 100.0 * share);
    }
    printf("%zu global loads, %llu line requests\n", p->n, (unsigned long long)p->total_requests);
    free(order);
}

/* The L1 miss rate of a load from the timing run (summed over kernels), or -1 when it has none. */
static double miss_rate_of(gtlm_sim *sim, const char *function, unsigned pc)
{
    unsigned long long acc = 0, miss = 0;
    gtlm_load_pc_stat st;
    for (size_t i = 0; i < gtlm_load_pc_count(sim); i++)
        if (gtlm_load_pc_get(sim, i, &st) == GTLM_OK && st.pc == pc && strcmp(st.function, function) == 0) {
            acc += st.accesses;
            miss += st.misses;
        }
    return acc ? (double)miss / (double)acc : -1.0;
}

/* APRES' Table I rows for the loads of one kernel function (only < 0: every kernel), most requests
 * first. %Load is over the rows' own requests. Miss rate: L1 misses per L1 access of the load (an
 * MSHR merge is no miss). */
static void print_table1_rows(gtlm_sim *sim, const profile_run *r, const size_t *order, int only)
{
    const load_profile *p = &r->prof;
    unsigned long long total = 0;
    size_t n = 0;
    for (size_t i = 0; i < p->n; i++)
        if (only < 0 || (int)(p->loads[i].key >> 32) == only) total += p->loads[i].line_requests;
    printf("%-56s %7s %7s %9s %12s %8s\n", "global load (module:line, pc, opcode)", "%Load", "#L/#R", "Miss rate",
           "Stride", "%Stride");
    for (size_t i = 0; i < p->n; i++) {
        const lp_load *l = &p->loads[order[i]];
        unsigned id = (unsigned)(l->key >> 32);
        if (only >= 0 && (int)id != only) continue;
        n++;
        char desc[160] = "?";
        gtlm_module_describe_instr(sim, r->module[id], r->function[id], l->pc, desc, sizeof desc);
        int64_t stride;
        double share, miss = miss_rate_of(sim, r->function[id], l->pc);
        load_profile_stride(l, &stride, &share);
        char mr[16] = "-";
        if (miss >= 0) snprintf(mr, sizeof mr, "%.1f%%", 100.0 * miss);
        printf("%-56s %6.1f%% %7.2f %9s %12lld %7.1f%%\n", desc,
               total ? 100.0 * (double)l->line_requests / (double)total : 0.0,
               l->line_requests ? (double)l->lines.n / (double)l->line_requests : 0.0, mr, (long long)stride, 100.0 * share);
    }
    printf("%zu global loads, %llu line requests\n", n, total);
}

/* Table I as the document gives it, for the run's most memory-intensive kernel (the function with
 * the most global-load line requests; the first seen on a tie), then over every kernel. */
static void print_table1(gtlm_sim *sim, const profile_run *r)
{
    const load_profile *p = &r->prof;
    size_t *order = malloc((p->n ? p->n : 1) * sizeof *order);
    if (!order) return;
    load_profile_order(p, order);
    unsigned long long req[MAX_FUNCS] = {0};
    for (size_t i = 0; i < p->n; i++) req[p->loads[i].key >> 32] += p->loads[i].line_requests;
    unsigned top = 0;
    for (unsigned f = 1; f < r->n_funcs; f++)
        if (req[f] > req[top]) top = f;
    if (r->n_funcs) {
        printf("Most memory-intensive kernel: %s (%.1f%% of the run's global-load line requests)\n", r->function[top],
               p->total_requests ? 100.0 * (double)req[top] / (double)p->total_requests : 0.0);
        print_table1_rows(sim, r, order, (int)top);
        printf("\nEvery kernel of the run:\n");
    }
    print_table1_rows(sim, r, order, -1);
    printf("(timing run: L1 miss rates from the per-load-PC record)\n");
    free(order);
}

int cmd_profile(int argc, char **argv)
{
    cli_args a;
    int rc = cli_parse(argc, argv, 1, 0, &a);
    if (rc != CLI_OK) return rc;
    const wl_desc *d = a.workload ? wl_find(a.workload) : NULL;
    if (!d) {
        fprintf(stderr, "usage: gtlm profile WORKLOAD [--size tiny|sim|paper|doc] [--set NAME=VALUE] [--mode timing] [CONFIG...]%s%s%s\n",
                a.workload ? " (no workload named '" : "", a.workload ? a.workload : "", a.workload ? "')" : "");
        return CLI_USAGE;
    }
    int timing = a.mode && strcmp(a.mode, "timing") == 0;
    if (a.mode && !timing && strcmp(a.mode, "functional") != 0) {
        fprintf(stderr, "gtlm profile: --mode expects functional or timing, got '%s'\n", a.mode);
        return CLI_USAGE;
    }
    if (a.n_overrides + 2 > CLI_MAX_OVERRIDES) {
        fprintf(stderr, "gtlm: too many option overrides\n");
        return CLI_USAGE;
    }
    a.overrides[a.n_overrides++] = "-gtlm_mode";
    a.overrides[a.n_overrides++] = timing ? "timing" : "functional";
    gtlm_sim *sim = NULL;
    if ((rc = cli_create_sim(&a, &sim)) != CLI_OK) return rc;
    profile_run *r = calloc(1, sizeof *r);
    if (!r) {
        gtlm_sim_destroy(sim);
        return CLI_FAIL;
    }
    load_profile_init(&r->prof);
    gtlm_set_mem_callback(sim, on_mem, r);
    int w = wl_run(d, sim, a.size ? a.size : "tiny", a.sets, (size_t)a.n_sets, 0, stdout);
    if (r->failed) fprintf(stderr, "gtlm profile: out of memory while profiling\n");
    if (w == WL_OK && !r->failed) {
        if (timing) print_table1(sim, r);
        else print_profile(sim, r);
    }
    rc = w == WL_OK && !r->failed ? CLI_OK : w == WL_USAGE ? CLI_USAGE : CLI_FAIL;
    load_profile_free(&r->prof);
    free(r);
    gtlm_sim_destroy(sim);
    return rc;
}
