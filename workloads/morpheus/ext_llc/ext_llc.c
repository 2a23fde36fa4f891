/* Morpheus' extended-LLC helper kernel run as an ordinary workload (docs/morpheus.md, "The
 * executed helper kernel"). The driver plays the Morpheus controller: before the launch it writes a
 * scripted request stream into every set's warp-status-table row (busy bit set in every slot), the
 * kernel's warps serve them in order, and a CPU model of the same sets checks every response:
 *   RF sets: 32-way set-associative, exact LRU (a last-use stamp, not the kernel's counters), the
 *     first invalid way filled first; hit/miss, way, read data, atomic old value, dirty write-back
 *     and its victim line, and the memory after the write-backs;
 *   L1 sets: the request is forwarded to the L1, so reads return memory's data, writes and
 *     atomics change memory.
 * Two launches of ext_llc_warm first read the WST and the write data buffer into the L2 (the
 * document measured with its emulated WST resident in the LLC, fn. 5).
 * The stream is per set (seeded by the set): a line of the set's pool of 48 lines is picked
 * at random; a resident line gets a read, a write of random sectors, an atomic add or a repeated
 * fill; an absent one a read miss followed by its fill (as the controller fills after DRAM), a
 * write or atomic miss, or a direct fill (dirty one time in ten, an atomic's). `stream 2` is the
 * stream that separates exact LRU from 12-bit saturating counters (script_lru).
 * In timing mode the driver also prints the mean service time per request class from the kernel's
 * clock stamps (poll start, request seen, lookup done, data moved, busy bit cleared), read outside the output digest since
 * clocks differ between modes.
 * `indirect_mov 2` runs the kernel with gtlm's native mov.indirect in place of Algorithm 2's brx.idx
 * switches: its PTX is the committed one rewritten at load time (imov_rewrite.h), since nvcc cannot
 * emit the instruction. */
#include <stdlib.h>
#include <string.h>

#include "../common/imov_rewrite.h"
#include "workload.h"

extern const char workload_morpheus_ext_llc_ptx[], workload_morpheus_ext_llc_ptxas[];

enum { OP_END = 0, OP_READ = 1, OP_WRITE = 2, OP_ATOMIC = 3, OP_FILL = 4 };
enum { WAYS = 32, LW = 32 /* words per line */, SLOT = 8 };
enum { ST_RF = 1, ST_L1 = 2, ST_RF_L1 = 3 }; /* the `storage` parameter */

/* Request classes of the service-time report. */
enum { C_RD_HIT, C_RD_MISS, C_WR_HIT, C_WR_MISS, C_AT_HIT, C_AT_MISS, C_FILL, C_FILL_WB, C_FILL_HIT, C_L1_RD,
       C_L1_WR, C_L1_AT, C_L1_FILL, C_N };
static const char *const class_names[C_N] = {
    "rf read hit",  "rf read miss", "rf write hit", "rf write miss", "rf atomic hit", "rf atomic miss",
    "rf fill",      "rf fill+wb",   "rf fill (present)", "l1 read", "l1 write", "l1 atomic", "l1 fill"};

typedef struct ref_set {
    uint32_t tag[WAYS], data[WAYS][LW];
    uint64_t stamp[WAYS]; /* last use, 0: invalid */
    uint8_t dirty[WAYS];
    uint64_t clock;
} ref_set;

static int find(const ref_set *s, uint32_t line)
{
    for (int w = 0; w < WAYS; w++)
        if (s->stamp[w] && s->tag[w] == line) return w;
    return -1;
}

/* The CPU model of one request; fills the expected result words and read data, updates mem. */
static int ref_apply(ref_set *s, int rf, uint32_t *slot, const uint32_t *wb, uint32_t *rb, uint32_t *mem)
{
    uint32_t op = slot[1], line = slot[2], arg = slot[3], operand = slot[6];
    uint32_t *ml = mem + (size_t)line * LW;
    uint32_t res = 0, victim = 0, old = 0;
    int cls;
    if (!rf) {
        switch (op) {
        case OP_READ: memcpy(rb, ml, LW * 4); cls = C_L1_RD; break;
        case OP_WRITE:
            for (int l = 0; l < LW; l++)
                if ((arg >> (l >> 3)) & 1) ml[l] = wb[l];
            cls = C_L1_WR;
            break;
        case OP_ATOMIC: old = ml[arg & 31]; ml[arg & 31] += operand; cls = C_L1_AT; break;
        default: cls = C_L1_FILL; break;
        }
        slot[4] = op == OP_FILL ? 0 : 1;
        slot[5] = 0;
        slot[7] = old;
        return cls;
    }
    int w = find(s, line);
    if (op == OP_FILL && w < 0) {
        w = 0;
        for (int k = 0; k < WAYS; k++) /* the first invalid way, else the least recently used */
            if (!s->stamp[k]) { w = k; break; } else if (s->stamp[k] < s->stamp[w]) w = k;
        cls = C_FILL;
        if (s->stamp[w] && s->dirty[w]) {
            victim = s->tag[w];
            memcpy(mem + (size_t)victim * LW, s->data[w], LW * 4);
            res |= 2;
            cls = C_FILL_WB;
        }
        s->tag[w] = line;
        memcpy(s->data[w], ml, LW * 4);
        s->dirty[w] = arg & 1;
        s->stamp[w] = ++s->clock;
    } else if (w >= 0) {
        res = 1;
        s->stamp[w] = ++s->clock;
        switch (op) {
        case OP_READ: memcpy(rb, s->data[w], LW * 4); cls = C_RD_HIT; break;
        case OP_WRITE:
            for (int l = 0; l < LW; l++)
                if ((arg >> (l >> 3)) & 1) s->data[w][l] = wb[l];
            s->dirty[w] = 1;
            cls = C_WR_HIT;
            break;
        case OP_ATOMIC:
            old = s->data[w][arg & 31];
            s->data[w][arg & 31] += operand;
            s->dirty[w] = 1;
            cls = C_AT_HIT;
            break;
        default: s->dirty[w] |= arg & 1; cls = C_FILL_HIT; break;
        }
    } else {
        w = 0;
        cls = op == OP_READ ? C_RD_MISS : op == OP_WRITE ? C_WR_MISS : C_AT_MISS;
    }
    slot[4] = res | (uint32_t)w << 8;
    slot[5] = victim;
    slot[7] = old;
    return cls;
}

/* Picks the next request of a set from the CPU model's state (the model is applied afterwards). */
static void script_one(wl_rng *r, const ref_set *s, int rf, uint32_t base, uint32_t pool, int *pending_fill,
                       uint32_t *slot, uint32_t *wb)
{
    memset(slot, 0, SLOT * 4);
    slot[0] = 1;
    if (*pending_fill >= 0) { /* the fill after a read miss, as the controller sends it */
        slot[1] = OP_FILL;
        slot[2] = (uint32_t)*pending_fill;
        *pending_fill = -1;
        return;
    }
    uint32_t line = base + (uint32_t)wl_rng_range(r, 0, (long)pool - 1);
    int present = rf ? find(s, line) >= 0 : wl_rng_range(r, 0, 2) > 0;
    long p = wl_rng_range(r, 0, 99);
    uint32_t op;
    if (present) op = p < 45 ? OP_READ : p < 75 ? OP_WRITE : p < 90 ? OP_ATOMIC : OP_FILL;
    else op = p < 50 ? OP_READ : p < 65 ? OP_WRITE : p < 75 ? OP_ATOMIC : OP_FILL;
    slot[1] = op;
    slot[2] = line;
    if (op == OP_WRITE) {
        slot[3] = (uint32_t)wl_rng_range(r, 1, 15);
        for (int l = 0; l < LW; l++) wb[l] = (uint32_t)wl_rng_next(r);
    } else if (op == OP_ATOMIC) {
        slot[3] = (uint32_t)wl_rng_range(r, 0, 31);
        slot[6] = (uint32_t)wl_rng_range(r, 1, 1000);
    } else if (op == OP_FILL) {
        slot[3] = wl_rng_range(r, 0, 9) == 0;
    } else if (!present && rf) {
        *pending_fill = (int)line;
    }
}

/* stream 2 (RF sets): the stream that breaks saturating 12-bit LRU counters (G8). 32 fills (odd ones
 * dirty), 32 reads in a permuted order (the LRU order), reads of the most recent block until 32
 * requests are left (more than 4095 of them tie every other block's saturating counter at 0), then
 * 32 fills of new lines: each must evict the true least recently used block, in the permuted order. */
static void script_lru(int s, int reqs, uint32_t base, uint32_t *slot)
{
    memset(slot, 0, SLOT * 4);
    slot[0] = 1;
    if (s < 32) {
        slot[1] = OP_FILL;
        slot[2] = base + (uint32_t)s;
        slot[3] = s & 1;
    } else if (s < 64) {
        slot[1] = OP_READ;
        slot[2] = base + (uint32_t)((s - 32) * 5 % 32);
    } else if (s < reqs - 32) {
        slot[1] = OP_READ;
        slot[2] = base + (uint32_t)(31 * 5 % 32);
    } else {
        slot[1] = OP_FILL;
        slot[2] = base + 32 + (uint32_t)(s - (reqs - 32));
    }
}

static double core_mhz(wl_ctx *c)
{
    char buf[128];
    if (gtlm_option_value(c->sim, "-gpgpu_clock_domains", buf, sizeof buf) != GTLM_OK) return 0;
    return atof(buf);
}

static int timing_mode(wl_ctx *c)
{
    char buf[32];
    return gtlm_option_value(c->sim, "-gtlm_mode", buf, sizeof buf) == GTLM_OK && strcmp(buf, "timing") == 0;
}

static void report(wl_ctx *c, const uint32_t *stamp, const int *cls, size_t n, int n_sets, int rf_sets)
{
    uint64_t ph[C_N][4] = {{0}}, cnt[C_N] = {0};
    for (size_t k = 0; k < n; k++)
        if (cls[k] >= 0) {
            for (int i = 0; i < 4; i++) ph[cls[k]][i] += (uint32_t)(stamp[8 * k + i + 1] - stamp[8 * k + i]);
            cnt[cls[k]]++;
        }
    double mhz = core_mhz(c), ns = mhz > 0 ? 1000.0 / mhz : 0.0;
    fprintf(c->out, "ext_llc: %d sets (%d RF, %d L1); mean core cycles per request (ns at %.0f MHz): poll = WST "
                    "poll until the request is seen, tag = lookup (Alg. 1), move = data move (Alg. 2, loads), "
                    "store = result stores, fence, busy bit cleared; serve = tag + move + store\n",
            n_sets, rf_sets, n_sets - rf_sets, mhz);
    for (int i = 0; i < C_N; i++) {
        if (!cnt[i]) continue;
        double m[4];
        for (int j = 0; j < 4; j++) m[j] = (double)ph[i][j] / (double)cnt[i];
        double serve = m[1] + m[2] + m[3];
        fprintf(c->out, "ext_llc:   %-17s %6llu  poll %6.1f  tag %6.1f  move %6.1f  store %6.1f  serve %6.1f (%6.1f ns)  "
                        "total %6.1f (%6.1f ns)\n",
                class_names[i], (unsigned long long)cnt[i], m[0], m[1], m[2], m[3], serve, serve * ns,
                m[0] + serve, (m[0] + serve) * ns);
    }
}

/* indirect_mov 2: the kernel's module with both data-move sites as mov.indirect (in place of c->mod). */
static int load_native_imov(wl_ctx *c)
{
    int sites = 0;
    char *text = imov_rewrite(workload_morpheus_ext_llc_ptx, &sites);
    if (!text) return wl_check(c, GTLM_ENOMEM, "rewriting the PTX for indirect_mov 2");
    int rc = WL_OK;
    if (sites != 2) {
        fprintf(c->out, "ext_llc: the PTX has %d brx.idx move sites, expected 2 (the read and the write)\n", sites);
        rc = WL_ERROR;
    }
    gtlm_module *m = NULL;
    if (rc == WL_OK) rc = wl_check(c, gtlm_module_load_ptx(c->sim, text, "morpheus/ext_llc_imov.ptx", &m), "loading the mov.indirect module");
    if (rc == WL_OK)
        rc = wl_check(c, gtlm_module_set_ptxas_info(c->sim, m, workload_morpheus_ext_llc_ptxas), "reading the ptxas report");
    free(text);
    if (rc == WL_OK) c->mod = m;
    return rc;
}

static int run(wl_ctx *c)
{
    const int ctas = (int)wl_param(c, "ctas"), warps = (int)wl_param(c, "warps");
    const int storage = (int)wl_param(c, "storage"), reqs = (int)wl_param(c, "reqs");
    const int rf_warps = storage == ST_RF ? warps : storage == ST_L1 ? 0 : (int)wl_param(c, "rf_warps");
    const int mix = (int)wl_param(c, "stream") == 2;
    if (wl_param(c, "indirect_mov") == 2 && load_native_imov(c) != WL_OK) return WL_ERROR;
    const uint32_t pool = mix ? 64 : 48; /* lines per set: 1.5 x the ways; the LRU stream needs 64 */
    const int n_sets = ctas * warps, slots = reqs + 1;
    const size_t n_slots = (size_t)n_sets * slots, n_lines = (size_t)n_sets * pool;
    uint32_t *wst = calloc(n_slots * SLOT, 4), *want = calloc(n_slots * SLOT, 4), *got = malloc(n_slots * SLOT * 4);
    uint32_t *wbuf = calloc(n_slots * LW, 4), *rwant = calloc(n_slots * LW, 4), *rgot = malloc(n_slots * LW * 4);
    uint32_t *mem = malloc(n_lines * LW * 4), *mwant = malloc(n_lines * LW * 4), *mgot = malloc(n_lines * LW * 4);
    uint32_t *stamp = calloc(n_slots * 8, 4);
    int *cls = malloc(n_slots * sizeof *cls);
    ref_set *sets = calloc((size_t)n_sets, sizeof *sets);
    int rc = (wst && want && got && wbuf && rwant && rgot && mem && mwant && mgot && stamp && cls && sets) ? WL_OK
                                                                                                     : WL_ERROR;
    wl_rng r;
    wl_rng_seed(&r, 42);
    for (size_t i = 0; rc == WL_OK && i < n_lines * LW; i++) mem[i] = mwant[i] = (uint32_t)wl_rng_next(&r);
    /* The script and the expected answers, set by set (each set's stream is independent). */
    for (int g = 0; rc == WL_OK && g < n_sets; g++) {
        int rf = g % warps < rf_warps, pending = -1;
        wl_rng_seed(&r, 1000 + (uint64_t)g);
        for (int s = 0; s < slots; s++) {
            size_t k = (size_t)g * slots + s;
            uint32_t *slot = wst + k * SLOT;
            cls[k] = -1;
            if (s == reqs) { /* the end of the stream: the warp exits, the slot stays busy */
                slot[0] = 1;
                memcpy(want + k * SLOT, slot, SLOT * 4);
                continue;
            }
            if (mix == 1 && rf) script_lru(s, reqs, (uint32_t)g * pool, slot);
            else script_one(&r, &sets[g], rf, (uint32_t)g * pool, pool, &pending, slot, wbuf + k * LW);
            memcpy(want + k * SLOT, slot, SLOT * 4);
            want[k * SLOT] = 0; /* busy cleared */
            cls[k] = ref_apply(&sets[g], rf, want + k * SLOT, wbuf + k * LW, rwant + k * LW, mwant);
        }
    }
    gtlm_devptr dwst = 0, drbuf = 0, dwbuf = 0, dmem = 0, dstamp = 0;
    if (rc == WL_OK) rc = wl_upload(c, &dwst, wst, n_slots * SLOT * 4);
    if (rc == WL_OK) {
        memset(rgot, 0, n_slots * LW * 4); /* the read data buffer starts empty */
        rc = wl_upload(c, &drbuf, rgot, n_slots * LW * 4);
    }
    if (rc == WL_OK) rc = wl_upload(c, &dwbuf, wbuf, n_slots * LW * 4);
    if (rc == WL_OK) rc = wl_upload(c, &dmem, mem, n_lines * LW * 4);
    if (rc == WL_OK) rc = wl_upload(c, &dstamp, stamp, n_slots * 8 * 4);
    /* the WST and the write data buffer LLC-resident first (the document's setup, fn. 5) */
    gtlm_devptr dsink = 0;
    if (rc == WL_OK) rc = wl_alloc(c, &dsink, 4);
    for (int b = 0; rc == WL_OK && b < 2; b++) {
        gtlm_devptr p = b ? dwbuf : dwst;
        unsigned words = (unsigned)(n_slots * (b ? LW : SLOT));
        const void *wargs[] = {&p, &words, &dsink};
        const size_t wsizes[] = {8, 4, 8};
        rc = wl_launch(c, "ext_llc_warm", 4, 1, 1, 256, 1, 1, 0, wargs, wsizes, 3);
    }
    const void *args[] = {&dwst, &drbuf, &dwbuf, &dmem, &dstamp, &slots, &rf_warps};
    const size_t sizes[] = {8, 8, 8, 8, 8, 4, 4};
    if (rc == WL_OK) rc = wl_launch(c, "ext_llc", (unsigned)ctas, 1, 1, (unsigned)warps * 32, 1, 1, 0, args, sizes, 7);
    if (rc == WL_OK) rc = wl_corrupt(c, drbuf, sizeof(uint32_t));
    if (rc == WL_OK) rc = wl_download(c, got, dwst, n_slots * SLOT * 4);
    if (rc == WL_OK) rc = wl_download(c, rgot, drbuf, n_slots * LW * 4);
    if (rc == WL_OK) rc = wl_download(c, mgot, dmem, n_lines * LW * 4);
    if (rc == WL_OK && wl_compare_u32(c, "WST rows (busy, result, way, victim, atomic old value)", got, want,
                                      n_slots * SLOT))
        rc = WL_WRONG;
    if (rc == WL_OK && wl_compare_u32(c, "read data buffer", rgot, rwant, n_slots * LW)) rc = WL_WRONG;
    if (rc == WL_OK && wl_compare_u32(c, "memory after write-backs", mgot, mwant, n_lines * LW)) rc = WL_WRONG;
    if (rc == WL_OK && timing_mode(c)) {
        /* not through wl_download: clocks are not part of the result */
        rc = wl_check(c, gtlm_memcpy_dtoh(c->sim, stamp, dstamp, n_slots * 8 * 4), "gtlm_memcpy_dtoh");
        if (rc == WL_OK) report(c, stamp, cls, n_slots, n_sets, ctas * (rf_warps < warps ? rf_warps : warps));
    }
    free(wst);
    free(want);
    free(got);
    free(wbuf);
    free(rwant);
    free(rgot);
    free(mem);
    free(mwant);
    free(mgot);
    free(stamp);
    free(cls);
    free(sets);
    return rc;
}

static const char *check(const long *p)
{
    /* p: ctas, warps, storage, rf_warps, reqs, stream, indirect_mov */
    if (p[1] < 1 || p[1] > 64) return "warps must be 1..64";
    if (p[2] < ST_RF || p[2] > ST_RF_L1) return "storage must be 1 (RF), 2 (L1) or 3 (RF+L1)";
    if (p[2] == ST_RF_L1 && (p[3] < 1 || p[3] >= p[1])) return "storage 3 needs rf_warps in 1..warps-1";
    if (p[5] < 1 || p[5] > 2) return "stream must be 1 (random) or 2 (the LRU stream beyond 4095 accesses)";
    if (p[5] == 2 && p[4] < 96) return "stream 2 needs reqs >= 96";
    if (p[0] < 1 || p[0] * p[1] * 64 > (1L << 18)) return "ctas x warps x 64 lines must fit 18-bit tags";
    if (p[6] < 1 || p[6] > 2) return "indirect_mov must be 1 (Algorithm 2: brx.idx switches) or 2 (the native mov.indirect)";
    return NULL;
}

const wl_desc workload_morpheus_ext_llc = {
    .name = "ext_llc",
    .suite = "morpheus",
    .description = "Morpheus' extended-LLC helper kernel: one warp per set, WST polling, Alg. 1 lookup, brx.idx or mov.indirect moves",
    .kernels = "ext_llc_warm, ext_llc",
    .ptx = workload_morpheus_ext_llc_ptx,
    .ptxas = workload_morpheus_ext_llc_ptxas,
    .params = {"ctas", "warps", "storage", "rf_warps", "reqs", "stream", "indirect_mov"},
    .tiny = {2, 8, ST_RF_L1, 6, 64, 1, 1},
    .sim = {2, 24, ST_RF_L1, 16, 256, 1, 1},
    .paper = {2, 24, ST_RF_L1, 16, 1024, 1, 1},
    .run = run,
    .check = check,
};
