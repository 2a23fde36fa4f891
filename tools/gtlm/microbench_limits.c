/* gtlm microbench, bandwidth and limit rows: one warp instruction sends n independent requests
 * at once (kernel mb_burst: thread t loads table[t]), and the row compares its cycles with those of
 * one request alone. Requests that pass a stage spaced s apart finish (n - 1) s after the first
 * when that stage is the slowest (a pipeline of deterministic stages: the last request leaves the
 * slowest stage (n - 1) s after the first and the stages after it add what they add to the first),
 * so T(n) - T(1) = (n - 1) x the slowest stage's spacing. The MSHR rows count instead how many
 * misses are in flight at once: with -dram_latency (4000) far longer than the time it takes to send them
 * none returns, so the peak of the time series' MSHR column is min(MSHR entries, misses). */
#define _POSIX_C_SOURCE 200809L /* mkstemp */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "cli.h"
#include "microbench.h"

enum { CORE, ICNT, L2, DRAM };
#define LINE 128
#define REGION (32u << 20) /* address span scanned for lines of one channel / slice / bank */
#define MAX_LINES 1024     /* one CTA of 1024 threads, each its own line */

typedef struct pick {
    mb *m;
    dram_addr_map map;
    int nch, nsub;
    gtlm_devptr region, table;
} pick;

static long ceil_div(long a, long b) { return b > 0 ? (a + b - 1) / b : a; }
static long lmax(long a, long b) { return a > b ? a : b; }

static int pick_init(mb *m, pick *p)
{
    memset(p, 0, sizeof *p);
    p->m = m;
    p->nch = (int)mb_opt(m, "-gpgpu_n_mem");
    p->nsub = (int)lmax(1, mb_opt(m, "-gpgpu_n_sub_partition_per_mchannel"));
    if (mb_addr_map(m, &p->map) != 0) return -1;
    if (gtlm_malloc(m->sim, REGION, &p->region) != GTLM_OK) return -1;
    /* The address table: its lines sit in the channel of the kernels' result line, so that its load
     * before the timed one opens no row and dirties no line where the chosen lines are. */
    dram_addr o, t, u;
    dram_addr_decode(&p->map, m->out, &o);
    for (uint64_t a = p->region; a + 8 * MAX_LINES <= p->region + REGION / 4; a += LINE) {
        dram_addr_decode(&p->map, a, &t);
        dram_addr_decode(&p->map, a + 8 * 32 - 8, &u);
        if (t.channel == o.channel && u.channel == o.channel) {
            p->table = a;
            return 0;
        }
    }
    return -1;
}

/* The channel after that of the result line (as the chases of microbench_mem.c). */
static uint32_t chase_channel(pick *p)
{
    dram_addr o;
    dram_addr_decode(&p->map, p->m->out, &o);
    return (o.channel + 1) % (uint32_t)(p->nch > 0 ? p->nch : 1);
}

/* Launches mb_burst with `threads` threads over lines[0..n) (thread t >= n: lines[0]); returns
 * warp 0's cycles between its clock readings, -1 on failure. */
static double burst(pick *p, const uint64_t *lines, int n, unsigned threads)
{
    mb *m = p->m;
    uint64_t tab[MAX_LINES];
    for (unsigned t = 0; t < threads && t < MAX_LINES; t++) tab[t] = lines[(int)t < n ? t : 0];
    gtlm_devptr table = threads > 32 ? p->region + REGION / 2 : p->table; /* a big table: anywhere */
    unsigned nn = (unsigned)n;
    const void *args[3] = {&table, &nn, &m->out};
    const size_t sizes[3] = {8, 4, 8};
    const unsigned grid[3] = {1, 1, 1}, block[3] = {threads, 1, 1};
    long long t[2] = {0, 0};
    for (int i = 0; i < n; i++) { /* each line holds its own address */
        if (gtlm_memcpy_htod(m->sim, lines[i], &lines[i], 8) != GTLM_OK) goto fail;
    }
    if (gtlm_memcpy_htod(m->sim, table, tab, 8 * (size_t)threads) != GTLM_OK ||
        gtlm_launch(m->sim, m->mod, "mb_burst", grid, block, 0, args, sizes, 3) != GTLM_OK ||
        gtlm_memcpy_dtoh(m->sim, t, m->out, 16) != GTLM_OK)
        goto fail;
    return (double)t[0];
fail:
    fprintf(stderr, "gtlm microbench: mb_burst: %s\n", gtlm_last_error());
    m->failed = 1;
    return -1;
}

/* Lines of channel ch from the region's second quarter on: per bank b < nbanks (bank % nsub ==
 * sub when sub >= 0) the first `per` lines (of the first whole row seen when same_row);
 * out[b * per + k]. */
static int bank_lines(pick *p, uint32_t ch, int nbanks, int sub, int same_row, int per, uint64_t *out)
{
    int have[64] = {0};
    int64_t row[64];
    for (int b = 0; b < 64; b++) row[b] = -1;
    if (nbanks > 64) return -1;
    int done = 0, want = 0;
    for (int b = 0; b < nbanks; b++) want += sub < 0 || b % p->nsub == sub;
    for (uint64_t a = p->region + REGION / 4; a < p->region + REGION / 2 && done < want; a += LINE) {
        dram_addr d;
        dram_addr_decode(&p->map, a, &d);
        if (d.channel != ch || (int)d.bank >= nbanks || (sub >= 0 && (int)d.bank % p->nsub != sub)) continue;
        int b = (int)d.bank;
        if (row[b] < 0) row[b] = (int64_t)d.row + 1; /* the first whole row after the start */
        if ((same_row && (int64_t)d.row != row[b]) || have[b] >= per) continue;
        out[b * per + have[b]++] = a;
        done += have[b] == per;
    }
    return done == want ? 0 : -1;
}

/* Column-command spacing in DRAM cycles: S between commands to different bank groups (tCCD and
 * the burst's bus time), G within one group (tCCDL too). */
static void dram_spacing(mb *m, long *S, long *G, long *bc)
{
    long ratio = lmax(1, mb_opt(m, "-dram_data_command_freq_ratio"));
    *bc = ceil_div(mb_opt(m, "-gpgpu_dram_burst_length"), ratio);
    long ccd = mb_dram_timing(m, "CCD"), ccdl = mb_dram_timing(m, "CCDL"), groups = mb_dram_timing(m, "nbkgrp");
    *G = lmax(lmax(ccd, ccdl), *bc);
    *S = groups > 1 ? lmax(ccd, *bc) : *G;
}

/* The MSHR entries of a cache string ("N:64:128:8,L:B:m:W:L,A:32:4,4:0,32": 32). */
static long cache_mshrs(mb *m, const char *opt)
{
    char buf[256] = "";
    gtlm_option_value(m->sim, opt, buf, sizeof buf);
    char *a = strchr(buf, ',') ? strchr(strchr(buf, ',') + 1, ',') : NULL; /* ",A:32:8,..." */
    long e = 0;
    if (a && sscanf(a + 1, "%*c:%ld", &e) == 1) return e;
    return 0;
}

/* Option opt's cache string ("N:64:128:8,L:B:m:W:L,A:32:4,4:0,32") with comma field `field`'s
 * colon subfield `sub` replaced by value (the field appended when absent), into out. */
static void cache_string_with(mb *m, const char *opt, int field, int sub, const char *value, char *out, size_t size)
{
    char buf[256] = "", *f[8];
    gtlm_option_value(m->sim, opt, buf, sizeof buf);
    char *s = buf;
    while (*s == '"') s++;
    char *e = strchr(s, '"');
    if (e) *e = 0;
    int n = 0;
    for (char *q = s; q && n < 8; q = strchr(q, ',') ? strchr(q, ',') + 1 : NULL) f[n++] = q;
    for (char *q = s; *q; q++)
        if (*q == ',') *q = 0;
    out[0] = 0;
    for (int i = 0; i < n || i <= field; i++) {
        size_t len = strlen(out);
        if (i != field) {
            snprintf(out + len, size - len, "%s%s", i ? "," : "", i < n ? f[i] : "");
            continue;
        }
        char part[64] = "";
        snprintf(part, sizeof part, "%s", i < n ? f[i] : "");
        char *c = part;
        for (int k = 0; k < sub && c; k++) c = strchr(c, ':') ? strchr(c, ':') + 1 : NULL;
        char rest[64] = "";
        if (c && strchr(c, ':')) snprintf(rest, sizeof rest, "%s", strchr(c, ':'));
        if (c) *c = 0;
        snprintf(out + len, size - len, "%s%s%s%s", i ? "," : "", part, value, rest);
    }
}

/* A row of a difference T(n) - T(1): exact with equal clocks, else within +-slack. */
static void diff_row(mb *m, const char *name, double got, double want, double slack, const char *f)
{
    if (slack <= 0) mb_row(m, name, got, want, f);
    else mb_row_range(m, name, got, want - slack, want + slack, f);
}

/* Receiving periods (core cycles) of the unequal crossings of a trip core -> icnt -> L2 [-> DRAM
 * -> L2] -> icnt -> core: each may wait anywhere in (0, 1] period, and a difference of two trips
 * may differ by their sum either way. */
static double crossing_slack(mb *m, int dram)
{
    double c = mb_clock(m, CORE), i = mb_clock(m, ICNT), l = mb_clock(m, L2), d = mb_clock(m, DRAM), s = 0;
    if (c != i) s += c / i + 1; /* into the icnt and back into the core */
    if (i != l) s += c / l + c / i;
    if (dram && l != d) s += c / d + c / l;
    return s;
}

/* DRAM bandwidth under saturation: n new lines of one channel, row hits in rows an untimed
 * launch opened, over its banks in turn (bank b's group: b mod nbkgrp). When the DRAM is the
 * slowest stage its queue holds requests of several groups and FR-FCFS keeps the commands S apart:
 * exact. When the SM's request rate is slower (the DRAM keeps up), requests meet an almost empty
 * queue in the coalescer's address order, and two of one group in a row are G apart: a range from
 * that rate to (n - 1) x max(rate, G). */
static void dram_burst_row(pick *p, const char *suffix)
{
    mb *m = p->m;
    long nbk = lmax(1, mb_dram_timing(m, "nbk")), S, G, bc;
    dram_spacing(m, &S, &G, &bc);
    int sectored;
    long line, port;
    mb_l2_geometry(m, &line, &port, &sectored);
    long m2 = cache_mshrs(m, "-gpgpu_cache:dl2");
    int n = (int)(m2 > 0 && m2 < 32 ? m2 : 32); /* no more than one slice's MSHRs: none waits for one */
    int banks = (int)(nbk < 16 ? nbk : 16), per = 2 + (n + banks - 1) / banks;
    uint64_t lines[16 * 20], open[16], pick1, many[32];
    if (bank_lines(p, chase_channel(p), banks, -1, 1, per, lines)) {
        fprintf(stderr, "gtlm microbench: dram_burst: no lines for it in the address mapping\n");
        m->failed = 1;
        return;
    }
    for (int b = 0; b < banks; b++) open[b] = lines[b * per];
    pick1 = lines[1];
    for (int i = 0; i < n; i++) many[i] = lines[(i % banks) * per + 2 + i / banks];
    burst(p, open, banks, 32); /* opens each bank's row */
    double t1 = burst(p, &pick1, 1, 32), tn = burst(p, many, n, 32);
    long burst_bytes = mb_opt(m, "-gpgpu_dram_buswidth") * mb_opt(m, "-gpgpu_n_mem_per_ctrlr") *
                       mb_opt(m, "-gpgpu_dram_burst_length");
    long b = ceil_div(sectored ? 32 : line, burst_bytes);
    double c = mb_clock(m, CORE), k = c / mb_clock(m, DRAM);
    /* the DRAM: n b commands S apart (alternating groups; the first request alone has its b
     * commands G apart), and every other stage's spacing per request */
    double dram = (double)((n * b - 1) * S - (b - 1) * G) * k;
    double ldst = (double)(n - 1), xbar = (double)(n - 1) * (double)ceil_div(40, mb_opt(m, "-icnt_flit_size")) * c / mb_clock(m, ICNT);
    double other = ldst > xbar ? ldst : xbar;
    char name[64], f[256];
    snprintf(name, sizeof name, "dram_burst%s", suffix);
    if (dram > other) {
        snprintf(f, sizeof f, "T(%d) - T(1) = (%d x %ld cmds - 1) x S %ld - (%ld - 1) x G %ld DRAM cycles", n, n, b, S,
                 b, G);
        diff_row(m, name, tn - t1, dram, crossing_slack(m, 1), f);
    } else {
        double g = (double)G * k * (double)b, hi = (double)(n - 1) * (g > other / (n - 1) ? g : other / (n - 1));
        snprintf(f, sizeof f, "the DRAM (%.1f) keeps up with the SM's requests: (n - 1) x max(1 request per cycle, 40 B flits) "
                 "to (n - 1) x max(that, %ld x G %ld DRAM cycles)", dram, b, G);
        double slack = crossing_slack(m, 1);
        mb_row_range(m, name, tn - t1, other - slack, hi + slack, f);
    }
}

/* L2 misses so far (every slice). */
static double l2_misses(mb *m)
{
    double v = 0;
    gtlm_stat_get(m->sim, "L2_total_cache_misses", &v);
    return v;
}

/* The L2 slice's data port: n lines of one slice, L2 hits, with the port narrowed to 12 bytes
 * (a 32-byte sector then takes 3 L2 cycles, slower than every other stage on every
 * configuration). n is the largest of 32, 16, 8, 4, 2 whose lines stay in the slice's sets together
 * (a second pass over them misses nowhere). */
static void l2_port_row(pick *p, const char *suffix)
{
    mb *m = p->m;
    int sectored;
    long line, port;
    mb_l2_geometry(m, &line, &port, &sectored);
    long nbk = lmax(1, mb_dram_timing(m, "nbk"));
    int banks = (int)(nbk < 16 ? nbk : 16), per = 32, n = 32;
    uint64_t lines[16 * 32], sel[32];
    if (bank_lines(p, chase_channel(p), banks, 0, 0, per, lines)) {
        fprintf(stderr, "gtlm microbench: l2_port_burst: no lines for it in the address mapping\n");
        m->failed = 1;
        return;
    }
    for (;; n /= 2) {
        int k = 0;
        for (int j = 0; j < per && k < n; j++)
            for (int b = 0; b < banks && k < n; b += p->nsub) sel[k++] = lines[b * per + j];
        burst(p, sel, n, 32); /* brings them into the L2 */
        double before = l2_misses(m);
        burst(p, sel, n, 32);
        if (l2_misses(m) == before) break;
        if (n == 2) {
            fprintf(stderr, "gtlm microbench: l2_port_burst: two lines of one slice do not stay in its L2\n");
            m->failed = 1;
            return;
        }
    }
    double t1 = burst(p, sel, 1, 32), tn = burst(p, sel, n, 32);
    double c = mb_clock(m, CORE), want = (double)(n - 1) * (double)ceil_div(32, port) * c / mb_clock(m, L2);
    double xbar = (double)(n - 1) * (double)ceil_div(40, mb_opt(m, "-icnt_flit_size")) * c / mb_clock(m, ICNT);
    char name[64], f[200];
    snprintf(f, sizeof f, "T(%d) - T(1) = %d x ceil(32 B / port %ld B) L2 cycles (one slice's L2 hits)%s", n, n - 1, port,
             xbar > want ? " (below the SM's crossbar output: 40 B responses in flits instead)" : "");
    if (xbar > want) want = xbar;
    snprintf(name, sizeof name, "l2_port_burst%s", suffix);
    diff_row(m, name, tn - t1, want, crossing_slack(m, 0), f);
}

/* The highest mshr_occupancy of the time-series rows whose unit starts with `unit` (exact name
 * when exact), -1 when none. */
static long peak_mshr(const char *path, const char *unit, int exact)
{
    FILE *f = fopen(path, "r");
    if (!f) return -1;
    char row[1024];
    long peak = -1;
    size_t ul = strlen(unit);
    while (fgets(row, sizeof row, f)) {
        char *col[16];
        int n = 0;
        for (char *s = row; n < 16 && s; s = strchr(s, ',') ? strchr(s, ',') + 1 : NULL) col[n++] = s;
        if (n < 10 || strncmp(col[1], unit, ul) != 0 || (exact && col[1][ul] != ',')) continue;
        long v = strtol(col[9], NULL, 10);
        if (v > peak) peak = v;
    }
    fclose(f);
    return peak;
}

/* MSHRs: twice as many misses as entries (at most 1024, one per thread of one CTA), each its own
 * line, with -dram_latency far beyond the time the LD/ST unit needs to send them: none returns
 * before the entries are all taken, so the peak in use must equal the entry count. L1: lines
 * anywhere. L2 (L1 bypassed): lines of one slice, the L2 with as many ways as misses (a miss
 * reserves a line, and a set's ways can run out first: on titanv-volta one slice's addresses reach
 * 4 of its 64 sets, the L2 being indexed by the whole address, so 4 x 24 lines). */
static void mshr_rows(const struct cli_args *a, const char *ways_l2, int *failed)
{
    /* the time series goes to a fresh file of the temporary folder, removed on every way out */
    char path[512];
    const char *tmp = getenv("TMPDIR");
    snprintf(path, sizeof path, "%s/gtlm_mb_mshr_XXXXXX", tmp && *tmp ? tmp : "/tmp");
    int fd = mkstemp(path);
    if (fd < 0) {
        fprintf(stderr, "gtlm microbench: cannot create a file in the temporary folder\n");
        *failed = 1;
        return;
    }
    close(fd);
    for (int level = 1; level <= 2; level++) {
        const char *ov[12] = {"-dram_latency", "4000", "-gtlm_watchdog_cycles", "100000", "-stats_interval", "256",
                              "-stats_timeseries_file", path, "-gpgpu_gmem_skip_L1D", "1", "-gpgpu_cache:dl2", ways_l2};
        mb m;
        if (mb_make(a, ov, level == 1 ? 8 : 12, &m)) {
            *failed = 1;
            break;
        }
        pick p;
        long entries = cache_mshrs(&m, level == 1 ? "-gpgpu_cache:dl1" : "-gpgpu_cache:dl2");
        int n = (int)(2 * entries > MAX_LINES ? MAX_LINES : 2 * entries);
        static uint64_t lines[MAX_LINES];
        int ok = pick_init(&m, &p) == 0 && entries > 0;
        if (ok && level == 1) {
            for (int i = 0; i < n; i++) lines[i] = p.region + REGION / 2 + 8 * MAX_LINES + (uint64_t)LINE * (uint64_t)i;
        } else if (ok) { /* one slice: channel c, banks b with b mod nsub == 0 */
            long nbk = lmax(1, mb_dram_timing(&m, "nbk"));
            int banks = (int)(nbk < 16 ? nbk : 16), per = (n + banks - 1) / banks * p.nsub;
            uint64_t *all = calloc((size_t)banks * (size_t)per, sizeof *all);
            ok = all && per <= 20000 && bank_lines(&p, chase_channel(&p), banks, 0, 0, per, all) == 0;
            for (int i = 0, k = 0; ok && k < n; i++)
                for (int b = 0; b < banks && k < n; b += p.nsub) lines[k++] = all[b * per + i];
            free(all);
        }
        if (!ok) {
            fprintf(stderr, "gtlm microbench: %s_mshr_peak: no entries or lines\n", level == 1 ? "l1" : "l2");
            *failed = 1;
        } else {
            burst(&p, lines, n, (unsigned)n);
        }
        *failed |= m.failed;
        gtlm_sim_destroy(m.sim); /* closes the time series */
        if (!ok) continue;
        long peak = level == 1 ? peak_mshr(path, "sm0", 1) : peak_mshr(path, "l2_", 0);
        char name[32], f[200];
        snprintf(name, sizeof name, "l%d_mshr_peak", level);
        snprintf(f, sizeof f, "MSHRs in use at most = min(%s entries %ld, %d misses in flight)",
                 level == 1 ? "-gpgpu_cache:dl1" : "-gpgpu_cache:dl2 (one slice)", entries, n);
        m.failed = 0;
        mb_row(&m, name, (double)peak, (double)(entries < n ? entries : n), f);
        *failed |= m.failed;
    }
    remove(path);
}

/* The bandwidth rows on the configuration's clocks and with every domain at the core clock. */
void mb_limits(const struct cli_args *a, int *failed)
{
    /* One simulator of the plain options gives the strings the rows override: all clocks at the
     * core's, the L2 port narrowed to 12 bytes, and the L2 with as many ways as the MSHR rows'
     * misses (no set's ways run out before the MSHRs). */
    mb m;
    char equal[96], port[256], ways_l2[256], ways[24];
    if (mb_make(a, NULL, 0, &m)) {
        *failed = 1;
        return;
    }
    double core = mb_clock(&m, CORE);
    snprintf(equal, sizeof equal, "%g:%g:%g:%g", core, core, core, core);
    cache_string_with(&m, "-gpgpu_cache:dl2", 4, 0, "12", port, sizeof port);
    long e2 = cache_mshrs(&m, "-gpgpu_cache:dl2");
    snprintf(ways, sizeof ways, "%ld", 2 * e2 > MAX_LINES ? MAX_LINES : 2 * e2);
    cache_string_with(&m, "-gpgpu_cache:dl2", 0, 3, ways, ways_l2, sizeof ways_l2);
    gtlm_sim_destroy(m.sim);
    for (int same = 0; same < 2; same++) {
        char *s = port;
        const char *ov[6] = {"-gpgpu_gmem_skip_L1D", "1", "-gpgpu_clock_domains", equal};
        const char *suffix = same ? "@core_clk" : "";
        for (int row = 0; row < 2; row++) {
            int n = same ? 4 : 2;
            if (row == 1) ov[n++] = "-gpgpu_cache:dl2", ov[n++] = s;
            pick p;
            if (mb_make(a, ov, n, &m)) {
                *failed = 1;
                return;
            }
            if (pick_init(&m, &p)) {
                fprintf(stderr, "gtlm microbench: bandwidth rows: no room for the address table\n");
                *failed = 1;
                gtlm_sim_destroy(m.sim);
                return;
            }
            if (row == 0) dram_burst_row(&p, suffix);
            else l2_port_row(&p, suffix);
            *failed |= m.failed;
            gtlm_sim_destroy(m.sim);
        }
    }
    mshr_rows(a, ways_l2, failed);
}
