/* gtlm microbench [--config F...]: microbenchmarks with derived answers. Each small kernel of
 * tools/microbench/microbench.cu repeats one dependent access or operation; its cost per step,
 * measured with %clock64 as (48-step form - 16-step form) / 32, is printed beside the value derived
 * from the configuration's options by the timing rules of docs/timing-model.md. Exit 1 when any
 * differs: the check an architect runs on a new configuration, and a test on every configs/ file. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli.h"
#include "microbench.h"

extern const char gtlm_microbench_ptx[], gtlm_microbench_ptxas[];

#define STEPS (48 - 16) /* the long form's steps minus the short form's */

long mb_opt(mb *m, const char *name)
{
    char buf[128] = "0";
    gtlm_option_value(m->sim, name, buf, sizeof buf);
    return strtol(buf, NULL, 10);
}

/* Entry i of a latency / initiation list ("4,13,4,5,145": ADD, MAX, MUL, MAD, DIV); a missing or
 * non-positive entry is dflt, as model/sm/fu_class.c reads them. */
static long opt_at(mb *m, const char *name, int i, long dflt)
{
    char buf[256] = "";
    gtlm_option_value(m->sim, name, buf, sizeof buf);
    char *p = buf;
    for (int k = 0; k < i && p; k++) p = strchr(p, ',') ? strchr(p, ',') + 1 : NULL;
    long v = p && *p ? strtol(p, NULL, 10) : 0;
    return v > 0 ? v : dflt;
}

double mb_clock(mb *m, int i)
{
    char buf[128] = "";
    gtlm_option_value(m->sim, "-gpgpu_clock_domains", buf, sizeof buf);
    char *p = buf;
    for (int k = 0; k < i && p; k++) p = strchr(p, ':') ? strchr(p, ':') + 1 : NULL;
    return p ? strtod(p, NULL) : 0.0;
}

long mb_dram_timing(mb *m, const char *key)
{
    char buf[512] = "";
    gtlm_option_value(m->sim, "-gpgpu_dram_timing_opt", buf, sizeof buf);
    size_t n = strlen(key);
    for (char *p = buf; p && *p; p = strchr(p, ':') ? strchr(p, ':') + 1 : NULL) {
        while (*p == '"' || *p == ' ') p++;
        if (strncmp(p, key, n) == 0 && p[n] == '=') return strtol(p + n + 1, NULL, 10);
    }
    return 0;
}

/* Cost of one step of kernel STEM with one 4- or 8-byte argument: its 48-step form's clock
 * difference minus its 16-step form's, over 32. */
static double measure(mb *m, const char *stem, unsigned threads, const void *arg, size_t size)
{
    const void *args[2] = {arg, arg};
    return mb_measure2(m, stem, threads, args, size);
}

double mb_measure2(mb *m, const char *stem, unsigned threads, const void *const form_args[2], size_t size)
{
    long long t[2] = {0, 0};
    const char *form[2] = {"16", "48"};
    for (int i = 0; i < 2; i++) {
        char name[64];
        snprintf(name, sizeof name, "%s_%s", stem, form[i]);
        const unsigned grid[3] = {1, 1, 1}, block[3] = {threads, 1, 1};
        const void *args[2] = {form_args[i], &m->out};
        const size_t sizes[2] = {size, 8};
        if (gtlm_launch(m->sim, m->mod, name, grid, block, 0, args, sizes, 2) != GTLM_OK ||
            gtlm_memcpy_dtoh(m->sim, &t[i], m->out, 8) != GTLM_OK) {
            fprintf(stderr, "gtlm microbench: %s: %s\n", name, gtlm_last_error());
            m->failed = 1;
            return -1;
        }
    }
    return (double)(t[1] - t[0]) / STEPS;
}

void mb_row(mb *m, const char *name, double got, double want, const char *formula)
{
    int ok = got == want;
    if (!ok) m->failed = 1;
    printf("%-24s %9.3f %9.3f  %-4s %s\n", name, got, want, ok ? "ok" : "DIFF", formula);
}

void mb_row_range(mb *m, const char *name, double got, double lo, double hi, const char *formula)
{
    int ok = got >= lo - 1e-9 && got <= hi + 1e-9;
    if (!ok) m->failed = 1;
    char range[48];
    snprintf(range, sizeof range, "%.3f-%.3f", lo, hi);
    printf("%-24s %9.3f %s  %-4s %s\n", name, got, range, ok ? "ok" : "DIFF", formula);
}

/* Extra cycles of an instruction whose distinct source registers are the slots in regs[] of one
 * block: the reads of the busiest bank beyond the first port-load, one cycle per
 * -gpgpu_reg_file_port_throughput reads (none with one bank). */
/* With -gpgpu_sub_core_model the warp's scheduler owns an equal share of the banks and units. */
static long per_sched(mb *m, long n)
{
    long k = mb_opt(m, "-gpgpu_sub_core_model") ? mb_opt(m, "-gpgpu_num_sched_per_core") : 1;
    return k > 1 && n >= k ? n / k : n;
}

static long bank_extra(mb *m, const int *regs, int n)
{
    long banks = per_sched(m, mb_opt(m, "-gpgpu_num_reg_banks")), worst = 0;
    if (banks <= 1) return 0;
    for (int i = 0; i < n; i++) {
        long same = 0;
        for (int j = 0; j < n; j++) same += regs[j] % banks == regs[i] % banks;
        if (same > worst) worst = same;
    }
    long ports = mb_opt(m, "-gpgpu_reg_file_port_throughput"); /* reads a bank serves per cycle */
    if (ports < 1) ports = 1;
    return (worst + ports - 1) / ports - 1;
}

static void global_chases(mb *m)
{
    gtlm_devptr p = 0;
    if (gtlm_malloc(m->sim, 128, &p) != GTLM_OK || gtlm_memcpy_htod(m->sim, p, &p, 8) != GTLM_OK) {
        m->failed = 1;
        return;
    }
    long l1 = mb_opt(m, "-gpgpu_l1_latency");
    char f[160];
    snprintf(f, sizeof f, "1 (L1 tag stage) + l1_latency %ld", l1);
    mb_row(m, "l1_hit_chase", measure(m, "mb_chase", 1, &p, 8), (double)(1 + (l1 > 0 ? l1 : 1)), f);
    /* A warp whose 32 lanes each chase their own line: 32 hits through the tag stage, one per
     * cycle (the L1's bandwidth: one request, here 8 of a line's bytes, per cycle), then the last
     * one's latency. */
    gtlm_devptr q = 0;
    if (gtlm_malloc(m->sim, 32 * 128, &q) != GTLM_OK) {
        m->failed = 1;
        return;
    }
    for (uint64_t l = 0; l < 32; l++) {
        uint64_t a = q + 128 * l;
        if (gtlm_memcpy_htod(m->sim, a, &a, 8) != GTLM_OK) m->failed = 1;
    }
    snprintf(f, sizeof f, "32 requests, one per cycle through the L1 tag stage + l1_latency %ld", l1);
    mb_row(m, "l1_lanes_chase", measure(m, "mb_lanes", 32, &q, 8), (double)(32 + (l1 > 0 ? l1 : 1)), f);
}

/* Passes of a warp's 4-byte shared access with lane l at word l * stride: the largest number of
 * distinct words in one bank (same words broadcast). */
static long smem_degree(long stride, long banks)
{
    long words[32], worst = 0;
    for (int l = 0; l < 32; l++) words[l] = (l * stride) & 1023;
    for (int l = 0; l < 32; l++) {
        long n = 0;
        for (int k = 0; k < 32; k++) {
            int dup = 0;
            for (int j = 0; j < k; j++) dup |= words[j] == words[k];
            n += !dup && words[k] % banks == words[l] % banks;
        }
        if (n > worst) worst = n;
    }
    return worst;
}

static void smem_chases(mb *m)
{
    long banks = mb_opt(m, "-gpgpu_shmem_num_banks"), lat = mb_opt(m, "-gpgpu_smem_latency");
    static const unsigned strides[] = {1, 2, 4, 8, 16, 32};
    for (size_t i = 0; i < sizeof strides / sizeof strides[0]; i++) {
        long d = smem_degree(strides[i], banks);
        char name[48], f[160];
        snprintf(name, sizeof name, "smem_stride_%u", strides[i]);
        snprintf(f, sizeof f, "passes %ld (bank degree, %ld banks) + smem_latency %ld", d, banks, lat);
        mb_row(m, name, measure(m, "mb_smem", 32, &strides[i], 4), (double)(d + (lat > 0 ? lat : 1)), f);
    }
}

static void const_chases(mb *m)
{
    long long base = 0;
    uint64_t table[32 * 8];
    const unsigned one[3] = {1, 1, 1};
    const void *args[1] = {&m->out};
    const size_t sizes[1] = {8};
    if (gtlm_launch(m->sim, m->mod, "mb_const_base", one, one, 0, args, sizes, 1) != GTLM_OK ||
        gtlm_memcpy_dtoh(m->sim, &base, m->out, 8) != GTLM_OK) {
        fprintf(stderr, "gtlm microbench: mb_const_base: %s\n", gtlm_last_error());
        m->failed = 1;
        return;
    }
    for (int i = 0; i < 32 * 8; i++) table[i] = (uint64_t)base + 8u * (uint64_t)i; /* each word holds its address */
    if (gtlm_memcpy_to_symbol(m->sim, m->mod, "cmem", table, sizeof table, 0) != GTLM_OK) {
        m->failed = 1;
        return;
    }
    long l1 = mb_opt(m, "-gpgpu_l1_latency");
    static const unsigned lines[] = {1, 2, 4, 8, 32};
    for (size_t i = 0; i < sizeof lines / sizeof lines[0]; i++) {
        char name[48], f[160];
        snprintf(name, sizeof name, "const_lines_%u", lines[i]);
        snprintf(f, sizeof f, "%u constant-cache accesses (one per 64-byte line) + l1_latency %ld", lines[i], l1);
        mb_row(m, name, measure(m, "mb_const", 32, &lines[i], 4), (double)(lines[i] + (l1 > 0 ? l1 : 1)), f);
    }
}

/* A dependent chain: one operation's latency from its list entry (idx < 0: a single value). */
static void chain(mb *m, const char *name, const char *list, int idx, long dflt, const void *arg, size_t size)
{
    long lat = idx < 0 ? mb_opt(m, list) : opt_at(m, list, idx, dflt);
    char stem[48], f[160];
    snprintf(stem, sizeof stem, "mb_%s", name);
    snprintf(f, sizeof f, "%s[%d] %ld", list, idx < 0 ? 0 : idx, lat);
    mb_row(m, name, measure(m, stem, 1, arg, size), (double)lat, f);
}

/* A dependent chain whose sources are registers t<regs> of one block: latency + bank delay. */
static void banks(mb *m, const char *name, int idx, const int *regs, int n, const char *which)
{
    unsigned x = 1;
    long lat = opt_at(m, "-ptx_opcode_latency_int", idx, 4), extra = bank_extra(m, regs, n);
    char stem[48], f[160];
    snprintf(stem, sizeof stem, "mb_%s", name);
    snprintf(f, sizeof f, "-ptx_opcode_latency_int[%d] %ld + bank delay %ld (%s, %ld banks)", idx, lat, extra, which,
             per_sched(m, mb_opt(m, "-gpgpu_num_reg_banks")));
    mb_row(m, name, measure(m, stem, 1, &x, 4), (double)(lat + extra), f);
}

/* Issue rate: eight interleaved chains of one operation. A warp issues at most one instruction of
 * a unit class per cycle (a second one per cycle must use another unit), units instances of
 * initiation interval init accept one every init / units cycles on average, and each chain's next
 * operation waits for its latency: max(1, init / units, latency / 8) cycles per operation. */
static void rate(mb *m, const char *name, long lat, long init, long units, const void *arg, size_t size)
{
    units = per_sched(m, units); /* one warp: its scheduler's instances only, with sub-cores */
    double want = 1.0, u = (double)init / (double)units, l = (double)lat / 8.0;
    if (u > want) want = u;
    if (l > want) want = l;
    char stem[48], f[160];
    snprintf(stem, sizeof stem, "mb_%s", name);
    snprintf(f, sizeof f, "max(1 issue, initiation %ld / %ld units, latency %ld / 8 chains)", init, units, lat);
    mb_row(m, name, measure(m, stem, 1, arg, size), want, f);
}

static void alu(mb *m)
{
    unsigned x = 1;
    float y = 1.0f;
    double z = 1.0;
    chain(m, "int_add", "-ptx_opcode_latency_int", 0, 4, &x, 4);
    chain(m, "int_mul", "-ptx_opcode_latency_int", 2, 4, &x, 4);
    chain(m, "int_mad", "-ptx_opcode_latency_int", 3, 4, &x, 4);
    chain(m, "fp_add", "-ptx_opcode_latency_fp", 0, 4, &y, 4);
    chain(m, "fp_mul", "-ptx_opcode_latency_fp", 2, 4, &y, 4);
    chain(m, "fp_fma", "-ptx_opcode_latency_fp", 3, 4, &y, 4);
    chain(m, "dp_add", "-ptx_opcode_latency_dp", 0, 8, &z, 8);
    chain(m, "sfu_sin", "-ptx_opcode_latency_sfu", -1, 0, &y, 4);
    static const int apart[] = {1, 2}, same[] = {1, 65}, self[] = {1}, mad[] = {1, 65, 129};
    banks(m, "bank_add_apart", 0, apart, 2, "t1 + t2");
    banks(m, "bank_add_same", 0, same, 2, "t1 + t65");
    banks(m, "bank_add_self", 0, self, 1, "t1 + t1: one read");
    banks(m, "bank_mad_same", 3, mad, 3, "t1 * t65 + t129");
    static const int waw[] = {2};
    banks(m, "waw_mul", 2, waw, 1, "writes t1 from t2: waits for the last write");
    long sp = mb_opt(m, "-gpgpu_num_sp_units"), in = mb_opt(m, "-gpgpu_num_int_units"), sfu = mb_opt(m, "-gpgpu_num_sfu_units");
    rate(m, "rate_int", opt_at(m, "-ptx_opcode_latency_int", 0, 4), opt_at(m, "-ptx_opcode_initiation_int", 0, 1),
         in > 0 ? in : sp > 0 ? sp : 1, &x, 4);
    rate(m, "rate_fp", opt_at(m, "-ptx_opcode_latency_fp", 0, 4), opt_at(m, "-ptx_opcode_initiation_fp", 0, 1),
         sp > 0 ? sp : 1, &y, 4);
    rate(m, "rate_sfu", mb_opt(m, "-ptx_opcode_latency_sfu"), mb_opt(m, "-ptx_opcode_initiation_sfu"), sfu > 0 ? sfu : 1,
         &y, 4);
}

int cmd_microbench(int argc, char **argv)
{
    cli_args a;
    int rc = cli_parse(argc, argv, 0, 0, &a);
    if (rc != CLI_OK) return rc;
    a.overrides[a.n_overrides++] = "-gtlm_mode";
    a.overrides[a.n_overrides++] = "timing";
    mb m;
    memset(&m, 0, sizeof m);
    if ((rc = cli_create_sim(&a, &m.sim)) != CLI_OK) return rc;
    if (gtlm_module_load_ptx(m.sim, gtlm_microbench_ptx, "microbench.ptx", &m.mod) != GTLM_OK ||
        gtlm_module_set_ptxas_info(m.sim, m.mod, gtlm_microbench_ptxas) != GTLM_OK ||
        gtlm_malloc(m.sim, 16, &m.out) != GTLM_OK) {
        fprintf(stderr, "gtlm microbench: %s\n", gtlm_last_error());
        gtlm_sim_destroy(m.sim);
        return CLI_FAIL;
    }
    printf("%s", gtlm_sim_describe(m.sim));
    printf("%-24s %9s %9s  %-4s %s\n", "microbenchmark", "measured", "derived", "", "formula (core cycles per step)");
    global_chases(&m);
    smem_chases(&m);
    const_chases(&m);
    alu(&m);
    gtlm_sim_destroy(m.sim);
    mb_memory(&a, &m.failed);
    mb_limits(&a, &m.failed);
    printf("microbench: %s\n", m.failed ? "DIFFERENCES (see DIFF rows)" : "every measurement equals its formula");
    return m.failed ? CLI_FAIL : CLI_OK;
}
