/* gtlm microbench, memory rows: pointer chases that bypass the L1 (-gpgpu_gmem_skip_L1D 1) and
 * hit in the L2, or miss there and meet an open row (row hit) or another open row of the same
 * bank (row conflict) in DRAM. Each step's derived cost is the sum of its stages, each in its
 * own clock domain's cycles, plus one receiving edge per crossing between domains
 * (docs/timing-model.md, "Microbenchmarks"). An input arriving at time t is seen at the
 * receiver's first edge strictly after t: one full period when both clocks are equal, somewhere
 * in (0, one period] otherwise. So with the configuration's clocks each step lies in
 * [sum - unequal crossings' periods, sum]; the chases are run again with every domain at the core
 * clock, where the sum is exact. */
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli.h"
#include "dram/dram_addr.h"
#include "microbench.h"

enum { CORE, ICNT, L2, DRAM };
#define HEADER 8   /* bytes of a crossbar packet's header */
#define SECTOR 32  /* a bypassed one-lane 8-byte load asks for one 32-byte sector */
#define LINE 128
#define REGION (16u << 20) /* address span each DRAM chain may scan for its lines */

/* A chain of stages: hi = every crossing a full period, slack = what unequal crossings may save. */
typedef struct chain {
    double mhz[4];
    double hi, slack;
    char text[160];
} chain;

static void stage(chain *c, int dom, long cycles) { c->hi += (double)cycles * c->mhz[CORE] / c->mhz[dom]; }

static void cross(chain *c, int from, int to)
{
    double period = c->mhz[CORE] / c->mhz[to];
    c->hi += period;
    if (c->mhz[from] != c->mhz[to]) c->slack += period;
}

static long ceil_div(long a, long b) { return b > 0 ? (a + b - 1) / b : a; }

/* ceil(cycles * to / core): a latency given in core cycles in another domain's cycles. */
static long in_domain(long cycles, double core, double to)
{
    double x = (double)cycles * to / core;
    long n = (long)x;
    return x - (double)n > 1e-9 ? n + 1 : n;
}

/* The 5th field of a cache configuration string ("N:64:128:8,L:B:m:W:L,A:32:4,4:0,32"): the
 * data port's width in bytes, the line size when absent. Field 0's 3rd value is the line size. */
void mb_l2_geometry(mb *m, long *line, long *port, int *sectored)
{
    char buf[256] = "";
    gtlm_option_value(m->sim, "-gpgpu_cache:dl2", buf, sizeof buf);
    char *p = buf;
    while (*p == '"' || *p == ' ') p++;
    *sectored = *p == 'S';
    long v[3] = {0, 0, 0};
    sscanf(p, "%*c:%ld:%ld:%ld", &v[0], &v[1], &v[2]);
    *line = v[1] > 0 ? v[1] : LINE;
    *port = *line;
    int commas = 0;
    for (char *q = p; *q; q++)
        if (*q == ',' && ++commas == 4) *port = strtol(q + 1, NULL, 10);
    if (*port <= 0) *port = *line;
}

static void chain_init(mb *m, chain *c)
{
    memset(c, 0, sizeof *c);
    for (int i = 0; i < 4; i++) c->mhz[i] = mb_clock(m, i);
}

/* Request to the L2 slice's tag stage: the LD/ST unit sends it the cycle after issue, the
 * request crossbar carries one header flit, the ROP queue delays it, the tag stage takes a cycle. */
static void to_l2_tag(mb *m, chain *c)
{
    long flit = mb_opt(m, "-icnt_flit_size"), lat = mb_opt(m, "-icnt_latency");
    stage(c, CORE, 1);
    cross(c, CORE, ICNT);
    stage(c, ICNT, ceil_div(HEADER, flit) + lat);
    cross(c, ICNT, L2);
    stage(c, L2, in_domain(mb_opt(m, "-rop_latency"), c->mhz[CORE], c->mhz[L2]) + 1);
}

/* The sector through the L2's data port and back over the response crossbar; the bypassed load's
 * register is written when the SM sees the response (no L1 latency). */
static void from_l2_port(mb *m, chain *c)
{
    long line, port, flit = mb_opt(m, "-icnt_flit_size"), lat = mb_opt(m, "-icnt_latency");
    int sectored;
    mb_l2_geometry(m, &line, &port, &sectored);
    stage(c, L2, ceil_div(SECTOR, port));
    cross(c, L2, ICNT);
    stage(c, ICNT, ceil_div(HEADER + SECTOR, flit) + lat);
    cross(c, ICNT, CORE);
}

/* One step of the chase when the L2 hits. */
static chain l2_hit_step(mb *m)
{
    chain c;
    chain_init(m, &c);
    to_l2_tag(m, &c);
    from_l2_port(m, &c);
    snprintf(c.text, sizeof c.text, "1 + icnt(hdr flits + lat) + L2(rop + tag + port) + icnt(40 B flits + lat), +1 edge per crossing");
    return c;
}

/* One step when the L2 misses: the miss enters the DRAM queue, waits -dram_latency (core cycles,
 * in DRAM cycles), then [RP] [RCD] RD per burst (max(CCD, CCDL) apart), CL, the burst's data;
 * the fill reaches the L2 at its next edge and the sector leaves through the port. */
static chain dram_step(mb *m, int conflict)
{
    chain c;
    chain_init(m, &c);
    to_l2_tag(m, &c);
    long line, port;
    int sectored;
    mb_l2_geometry(m, &line, &port, &sectored);
    long fetch = sectored ? SECTOR : line;
    long burst_bytes = mb_opt(m, "-gpgpu_dram_buswidth") * mb_opt(m, "-gpgpu_n_mem_per_ctrlr") *
                       mb_opt(m, "-gpgpu_dram_burst_length");
    long bursts = ceil_div(fetch, burst_bytes), ccd = mb_dram_timing(m, "CCD"), ccdl = mb_dram_timing(m, "CCDL");
    long ratio = mb_opt(m, "-dram_data_command_freq_ratio");
    long dram = in_domain(mb_opt(m, "-dram_latency"), c.mhz[CORE], c.mhz[DRAM]) +
                (conflict ? mb_dram_timing(m, "RP") + mb_dram_timing(m, "RCD") : 0) +
                (bursts - 1) * (ccdl > ccd ? ccdl : ccd) + mb_dram_timing(m, "CL") +
                mb_opt(m, "-gpgpu_dram_burst_length") / (ratio > 0 ? ratio : 1);
    cross(&c, L2, DRAM);
    stage(&c, DRAM, dram);
    cross(&c, DRAM, L2);
    from_l2_port(m, &c);
    snprintf(c.text, sizeof c.text, "L2 miss: + DRAM(lat %s+ CL + %ld burst(s)) + L2 port, +1 edge per crossing",
             conflict ? "+ RP + RCD " : "", bursts);
    return c;
}

/* Lines of one channel for a chase of n loads, scanned upward from base (each line new to the L2):
 * row hits cycle over banks 0..7 in one row (the untimed first pass opens them); row conflicts
 * stay in bank 0 and cycle over 8 rows, so consecutive loads always find another row open. The
 * channel is the one after that of the kernels' result line (m->out): that line is dirty in its
 * L2 slice, and its write-back, when a chase line evicts it, must not meet the chase in DRAM. */
int mb_addr_map(mb *m, dram_addr_map *map)
{
    char mapping[256] = "";
    gtlm_option_value(m->sim, "-gpgpu_mem_addr_mapping", mapping, sizeof mapping);
    char *mp = mapping;
    while (*mp == '"') mp++;
    char *end = strchr(mp, '"');
    if (end) *end = 0;
    long nbk = mb_dram_timing(m, "nbk");
    return dram_addr_map_init(map, mp, (int)mb_opt(m, "-gpgpu_n_mem"), (int)(nbk > 0 ? nbk : 16), NULL, 0);
}

static int chain_lines(mb *m, gtlm_devptr base, int conflict, uint64_t *lines, int n)
{
    long nbk = mb_dram_timing(m, "nbk");
    dram_addr_map map;
    if (mb_addr_map(m, &map) != 0) return -1;
    dram_addr o;
    dram_addr_decode(&map, m->out, &o);
    uint32_t chan = (o.channel + 1) % (uint32_t)(map.n_channels > 0 ? map.n_channels : 1);
    int kinds = conflict ? 8 : (nbk > 0 && nbk < 8 ? (int)nbk : 8), per = (n + kinds - 1) / kinds;
    int have[8] = {0};
    uint64_t found[8][64];
    int64_t row0 = -1;
    for (uint64_t a = base; a < base + REGION; a += LINE) {
        dram_addr d;
        dram_addr_decode(&map, a, &d);
        if (d.channel != chan || (conflict && d.bank != 0)) continue;
        if (row0 < 0) row0 = (int64_t)d.row + 1; /* the first whole row after the region's start */
        int k = conflict ? (int)(d.row - (uint64_t)row0) : (int)d.bank;
        if (k < 0 || k >= kinds || (!conflict && d.row != (uint64_t)row0) || have[k] >= per || per > 64) continue;
        found[k][have[k]++] = a;
        int done = 1;
        for (int j = 0; j < kinds; j++) done &= have[j] >= per;
        if (done) {
            for (int i = 0; i < n; i++) lines[i] = found[i % kinds][i / kinds];
            return 0;
        }
    }
    return -1;
}

/* Writes the chase: lines[i] holds lines[i + 1]'s address (the last holds its own). */
static int write_chain(mb *m, const uint64_t *lines, int n)
{
    for (int i = 0; i < n; i++) {
        uint64_t next = i + 1 < n ? lines[i + 1] : lines[i];
        if (gtlm_memcpy_htod(m->sim, lines[i], &next, 8) != GTLM_OK) return -1;
    }
    return 0;
}

static void report(mb *m, const char *name, double got, const chain *c, int exact)
{
    char f[256];
    snprintf(f, sizeof f, "%s%s", c->text, exact ? "" : " (range: each unequal crossing waits (0, 1] receiving period)");
    if (exact) mb_row(m, name, got, c->hi, f);
    else mb_row_range(m, name, got, c->hi - c->slack, c->hi, f);
}

/* The three chases on one simulator; suffix names the clocks. */
static void chases(mb *m, const char *suffix)
{
    char name[64];
    gtlm_devptr p = 0, region = 0;
    if (gtlm_malloc(m->sim, 256, &p) != GTLM_OK || gtlm_memcpy_htod(m->sim, p, &p, 8) != GTLM_OK ||
        gtlm_malloc(m->sim, 4 * (size_t)REGION, &region) != GTLM_OK) {
        fprintf(stderr, "gtlm microbench: %s\n", gtlm_last_error());
        m->failed = 1;
        return;
    }
    chain c = l2_hit_step(m);
    const void *self[2] = {&p, &p};
    snprintf(name, sizeof name, "l2_hit_chase%s", suffix);
    report(m, name, mb_measure2(m, "mb_chase", 1, self, 8), &c, c.slack == 0);
    /* 32 lanes, each its own L2-resident line: 32 sector requests leave one per core cycle, and
     * their responses enter the SM through one crossbar output, one flit per interconnect cycle:
     * the last response is 31 spacings of the slower of the two after the first. */
    gtlm_devptr q = 0;
    if (gtlm_malloc(m->sim, 32 * LINE, &q) != GTLM_OK) {
        m->failed = 1;
        return;
    }
    for (uint64_t l = 0; l < 32; l++) {
        uint64_t a = q + LINE * l;
        if (gtlm_memcpy_htod(m->sim, a, &a, 8) != GTLM_OK) m->failed = 1;
    }
    long flits = ceil_div(HEADER + SECTOR, mb_opt(m, "-icnt_flit_size"));
    double spacing = (double)flits * c.mhz[CORE] / c.mhz[ICNT];
    if (spacing < 1) spacing = 1;
    chain lanes = c;
    lanes.hi += 31 * spacing;
    snprintf(lanes.text, sizeof lanes.text, "l2_hit_chase + 31 x max(1 request per core cycle, %ld flits per response at the SM's crossbar output)", flits);
    const void *lane_args[2] = {&q, &q};
    snprintf(name, sizeof name, "l2_lanes_chase%s", suffix);
    report(m, name, mb_measure2(m, "mb_lanes", 32, lane_args, 8), &lanes, lanes.slack == 0);
    static const char *kind[2] = {"dram_row_hit_chase", "dram_row_conflict_chase"};
    for (int conflict = 0; conflict < 2; conflict++) {
        uint64_t l16[2 * 16], l48[2 * 48];
        gtlm_devptr r16 = region + (uint64_t)(2 * conflict) * REGION, r48 = r16 + REGION;
        if (chain_lines(m, r16, conflict, l16, 32) || chain_lines(m, r48, conflict, l48, 96) ||
            write_chain(m, l16, 32) || write_chain(m, l48, 96)) {
            fprintf(stderr, "gtlm microbench: %s: no lines for the chase in the address mapping\n", kind[conflict]);
            m->failed = 1;
            continue;
        }
        c = dram_step(m, conflict);
        const void *heads[2] = {&l16[0], &l48[0]};
        snprintf(name, sizeof name, "%s%s", kind[conflict], suffix);
        report(m, name, mb_measure2(m, "mb_chase", 1, heads, 8), &c, c.slack == 0);
    }
}

int mb_make(const struct cli_args *a, const char *const *extra, int n_extra, mb *m)
{
    cli_args b = *a;
    for (int i = 0; i < n_extra && b.n_overrides < CLI_MAX_OVERRIDES; i++) b.overrides[b.n_overrides++] = extra[i];
    extern const char gtlm_microbench_ptx[], gtlm_microbench_ptxas[];
    memset(m, 0, sizeof *m);
    if (cli_create_sim(&b, &m->sim) != CLI_OK) return -1;
    if (gtlm_module_load_ptx(m->sim, gtlm_microbench_ptx, "microbench.ptx", &m->mod) != GTLM_OK ||
        gtlm_module_set_ptxas_info(m->sim, m->mod, gtlm_microbench_ptxas) != GTLM_OK ||
        gtlm_malloc(m->sim, 16, &m->out) != GTLM_OK) {
        fprintf(stderr, "gtlm microbench: %s\n", gtlm_last_error());
        gtlm_sim_destroy(m->sim);
        return -1;
    }
    return 0;
}

void mb_memory(const struct cli_args *a, int *failed)
{
    mb m;
    const char *bypass[2] = {"-gpgpu_gmem_skip_L1D", "1"};
    if (mb_make(a, bypass, 2, &m)) {
        *failed = 1;
        return;
    }
    char equal[96];
    double core = mb_clock(&m, CORE);
    snprintf(equal, sizeof equal, "%g:%g:%g:%g", core, core, core, core);
    chases(&m, "");
    *failed |= m.failed;
    gtlm_sim_destroy(m.sim);
    const char *same[4] = {"-gpgpu_gmem_skip_L1D", "1", "-gpgpu_clock_domains", equal};
    if (mb_make(a, same, 4, &m)) {
        *failed = 1;
        return;
    }
    chases(&m, "@core_clk");
    *failed |= m.failed;
    gtlm_sim_destroy(m.sim);
}
