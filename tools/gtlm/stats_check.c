/* gtlm run --check-stats: invariants every timing run's statistics must satisfy. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli.h"

/* The first missing statistic's name, for the message. */
static char first_missing[128];

static double get(gtlm_sim *sim, const char *fmt, int i, int *missing)
{
    char name[128];
    snprintf(name, sizeof name, fmt, i);
    double v = 0;
    if (gtlm_stat_get(sim, name, &v) != GTLM_OK) {
        if (!first_missing[0]) snprintf(first_missing, sizeof first_missing, "%s", name);
        (*missing)++;
    }
    return v;
}

static long opt(gtlm_sim *sim, const char *name)
{
    char buf[64] = "0";
    gtlm_option_value(sim, name, buf, sizeof buf);
    return strtol(buf, NULL, 10);
}

static int expect(int ok, const char *what, int i, double a, double b)
{
    if (!ok) fprintf(stderr, "gtlm: statistics invariant violated: %s [%d]: %.0f vs %.0f\n", what, i, a, b);
    return ok;
}

int cli_check_stats(gtlm_sim *sim)
{
    char mode[32] = "";
    gtlm_option_value(sim, "-gtlm_mode", mode, sizeof mode);
    if (mode[0] != 't') {
        printf("stats check: skipped (functional mode has no timing statistics)\n");
        return CLI_OK;
    }
    int n_sms = (int)(opt(sim, "-gpgpu_n_clusters") * opt(sim, "-gpgpu_n_cores_per_cluster"));
    int n_mem = (int)opt(sim, "-gpgpu_n_mem");
    int n_l2 = n_mem * (int)opt(sim, "-gpgpu_n_sub_partition_per_mchannel");
    int ok = 1, checks = 0, miss = 0;
    first_missing[0] = '\0';
    /* Without an L1D (-gpgpu_cache:dl1 none) its statistics do not exist and its invariant is
     * not evaluated; otherwise every statistic below must exist. */
    char dl1[64] = "";
    gtlm_option_value(sim, "-gpgpu_cache:dl1", dl1, sizeof dl1);
    int has_l1d = strncmp(dl1, "none", 4) != 0;
    for (int i = 0; i < n_sms; i++) {
        if (has_l1d) {
            double acc = get(sim, "gpu.sm[%d].l1d.accesses", i, &miss);
            double sum = get(sim, "gpu.sm[%d].l1d.hits", i, &miss) + get(sim, "gpu.sm[%d].l1d.hit_reserved", i, &miss) +
                         get(sim, "gpu.sm[%d].l1d.misses", i, &miss) +
                         get(sim, "gpu.sm[%d].l1d.res_fail_line_alloc", i, &miss) +
                         get(sim, "gpu.sm[%d].l1d.res_fail_mshr_entry", i, &miss) +
                         get(sim, "gpu.sm[%d].l1d.res_fail_mshr_merge", i, &miss) +
                         get(sim, "gpu.sm[%d].l1d.res_fail_miss_queue", i, &miss);
            ok &= expect(acc == sum, "L1D hits + merges + misses + reservation failures == accesses", i, sum, acc), checks++;
        }
        double out = get(sim, "gpu.sm[%d].requests_out", i, &miss), in = get(sim, "gpu.sm[%d].responses_in", i, &miss);
        ok &= expect(out == in, "every request of an SM has its response", i, in, out), checks++;
    }
    for (int j = 0; j < n_l2; j++) {
        double acc = get(sim, "gpu.l2[%d].accesses", j, &miss);
        double sum = get(sim, "gpu.l2[%d].hits", j, &miss) + get(sim, "gpu.l2[%d].hit_reserved", j, &miss) +
                     get(sim, "gpu.l2[%d].misses", j, &miss) + get(sim, "gpu.l2[%d].reservation_fails", j, &miss);
        ok &= expect(acc == sum, "L2 hits + merges + misses + reservation failures == accesses", j, sum, acc), checks++;
    }
    for (int c = 0; c < n_mem; c++) {
        double busy = get(sim, "gpu.dram[%d].bus_busy_cycles", c, &miss), cyc = get(sim, "gpu.dram[%d].cycles", c, &miss);
        ok &= expect(busy <= cyc, "DRAM data-bus busy cycles <= cycles (bandwidth <= peak)", c, busy, cyc), checks++;
    }
    double insn = get(sim, "gpu.warp_insn", 0, &miss), cycles = get(sim, "gpu.cycles", 0, &miss);
    double width = (double)n_sms * (double)opt(sim, "-gpgpu_num_sched_per_core") *
                   (double)opt(sim, "-gpgpu_max_insn_issue_per_warp");
    ok &= expect(insn <= cycles * width, "warp IPC <= SMs x schedulers x issue width", 0, insn, cycles * width), checks++;
    double issued = get(sim, "gpu.stall.issued", 0, &miss);
    double slots = get(sim, "gpu.issue_slots", 0, &miss);
    if (opt(sim, "-gpgpu_max_insn_issue_per_warp") == 1)
        ok &= expect(issued == insn, "scheduler cycles that issued == warp instructions (one per issue)", 0, issued, insn),
            checks++;
    ok &= expect(slots <= get(sim, "gpu.sm_cycles", 0, &miss) * (double)opt(sim, "-gpgpu_num_sched_per_core"),
                 "issue slots <= active SM cycles x schedulers", 0, slots, 0), checks++;
    if (miss) {
        fprintf(stderr, "gtlm: statistics invariant check: %d expected statistics are missing, the first '%s'\n", miss,
                first_missing);
        ok = 0;
    }
    /* Every SM, slice and channel has its invariants: a count below that means one was skipped. */
    int want = n_sms * (1 + has_l1d) + n_l2 + n_mem + 2 + (opt(sim, "-gpgpu_max_insn_issue_per_warp") == 1);
    if (checks != want) {
        fprintf(stderr, "gtlm: statistics invariant check: %d invariants evaluated, expected %d\n", checks, want);
        ok = 0;
    }
    if (ok) printf("stats check: %d invariants hold (%d SMs, %d L2 slices, %d channels%s)\n", checks, n_sms, n_l2, n_mem,
                   has_l1d ? "" : "; no L1D");
    return ok ? CLI_OK : CLI_FAIL;
}
