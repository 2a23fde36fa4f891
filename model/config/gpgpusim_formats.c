#include "gpgpusim_formats.h"
#include "opt_limits.h"

#include <ctype.h>
#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* A cursor over a value string; errors name the character position (1-based). */
typedef struct cur {
    const char *s, *p;
    char *err;
    size_t len;
} cur;

static int fail(cur *c, const char *what)
{
    size_t pos = (size_t)(c->p - c->s) + 1;
    if (*c->p)
        snprintf(c->err, c->len, "expected %s at character %zu of '%s'", what, pos, c->s);
    else
        snprintf(c->err, c->len, "expected %s at character %zu, but '%s' ends there", what, pos, c->s);
    return -1;
}

static int get_uint(cur *c, int *out, const char *what)
{
    if (!isdigit((unsigned char)*c->p)) return fail(c, what);
    errno = 0;
    char *end;
    long v = strtol(c->p, &end, 10);
    if (errno == ERANGE || v > INT_MAX) return fail(c, what);
    *out = (int)v;
    c->p = end;
    return 0;
}

static int get_char(cur *c, char *out, const char *allowed, const char *what)
{
    if (!*c->p || !strchr(allowed, *c->p)) return fail(c, what);
    *out = *c->p++;
    return 0;
}

static int expect(cur *c, char sep)
{
    char what[32];
    snprintf(what, sizeof what, "'%c'", sep);
    if (*c->p != sep) return fail(c, what);
    c->p++;
    return 0;
}

int gsim_cache_cfg_parse(const char *text, gsim_cache_cfg *out, char *err, size_t len)
{
    gsim_cache_cfg c = {0};
    if (strcmp(text, "none") == 0) {
        c.disabled = 1;
        *out = c;
        return 0;
    }
    cur k = {text, text, err, len};
    /* GPGPU-Sim 3.x strings start with the set count; they describe normal (unsectored) lines. */
    c.type = 'N';
    int typed = !isdigit((unsigned char)*k.p);
    if ((typed && (get_char(&k, &c.type, "NS", "the line type N (normal) or S (sectored)") || expect(&k, ':'))) ||
        get_uint(&k, &c.nsets, "the number of sets") || expect(&k, ':') ||
        get_uint(&k, &c.line_size, "the line size in bytes") || expect(&k, ':') ||
        get_uint(&k, &c.assoc, "the associativity") || expect(&k, ',') ||
        get_char(&k, &c.replacement, "LF", "the replacement policy L (LRU) or F (FIFO)") || expect(&k, ':') ||
        get_char(&k, &c.write_policy, "RBTEL", "the write policy R, B, T, E or L") || expect(&k, ':') ||
        get_char(&k, &c.alloc_policy, "mfs", "the allocation policy m (on miss), f (on fill) or s (streaming)") ||
        expect(&k, ':') ||
        get_char(&k, &c.write_alloc, "NWFL", "the write-allocate policy N, W, F or L") || expect(&k, ':') ||
        get_char(&k, &c.set_index, "LXPHC", "the set-index function L, X, P, H or C") || expect(&k, ',') ||
        get_char(&k, &c.mshr_type, "ASFT", "the MSHR type A, S, F or T") || expect(&k, ':') ||
        get_uint(&k, &c.mshr_entries, "the number of MSHR entries") || expect(&k, ':') ||
        get_uint(&k, &c.mshr_merge, "the maximum merges per MSHR entry"))
        return -1;
    c.miss_queue = 8;
    c.port_width = c.line_size;
    if (*k.p == ',') {
        k.p++;
        if (get_uint(&k, &c.miss_queue, "the miss-queue depth")) return -1;
        if (*k.p == ':') {
            k.p++;
            if (get_uint(&k, &c.result_fifo, "the result FIFO depth")) return -1;
        }
        if (*k.p == ',') {
            k.p++;
            if (get_uint(&k, &c.port_width, "the data-port width in bytes")) return -1;
        }
    }
    if (*k.p) return fail(&k, "the end of the cache description");
    if (c.nsets <= 0 || c.line_size <= 0 || c.assoc <= 0) {
        snprintf(err, len, "sets, line size and associativity must be positive in '%s'", text);
        return -1;
    }
    /* Bounds far above real caches (an H100 L2 slice has 128-256 sets of 16-24 ways) that keep
     * the tag arrays and MSHR tables of every cache instance allocatable. */
    if (c.nsets > CACHE_MAX_SETS || c.assoc > CACHE_MAX_ASSOC || (long long)c.nsets * c.assoc > CACHE_MAX_LINES) {
        snprintf(err, len, "expected at most %d sets, %d ways and %d lines (sets x ways), got %d sets of %d ways in '%s'",
                 CACHE_MAX_SETS, CACHE_MAX_ASSOC, CACHE_MAX_LINES, c.nsets, c.assoc, text);
        return -1;
    }
    if (c.line_size < 2 || c.line_size > CACHE_MAX_LINE) {
        snprintf(err, len, "expected a line size in [2, %d] bytes, got %d in '%s'", CACHE_MAX_LINE, c.line_size, text);
        return -1;
    }
    if (c.mshr_entries > CACHE_MAX_QUEUE || c.mshr_merge > 65535 || c.miss_queue > CACHE_MAX_QUEUE ||
        c.result_fifo > CACHE_MAX_QUEUE || c.port_width > CACHE_MAX_LINE) {
        snprintf(err, len,
                 "expected at most %d MSHR entries, 65535 merges, a miss queue and result FIFO of at most %d and a "
                 "port of at most %d bytes in '%s'",
                 CACHE_MAX_QUEUE, CACHE_MAX_QUEUE, CACHE_MAX_LINE, text);
        return -1;
    }
    if (c.line_size & (c.line_size - 1)) {
        snprintf(err, len, "the line size %d must be a power of two in '%s'", c.line_size, text);
        return -1;
    }
    if (c.type == 'S' && c.line_size != 128) {
        snprintf(err, len, "a sectored cache (S) needs 128-byte lines (4 x 32 B sectors) in '%s'", text);
        return -1;
    }
    if (c.mshr_entries <= 0 || c.mshr_merge <= 0 || c.miss_queue <= 0 || c.port_width <= 0) {
        snprintf(err, len, "MSHR entries, merges, miss queue and port width must be positive in '%s'", text);
        return -1;
    }
    if ((c.mshr_type == 'F' || c.mshr_type == 'T') && c.result_fifo <= 0) {
        snprintf(err, len, "a texture FIFO MSHR (F/T) needs a result FIFO depth (',mq:fifo') in '%s'", text);
        return -1;
    }
    if (c.alloc_policy == 'f' && (c.write_policy == 'B' || c.write_alloc == 'F' || c.write_alloc == 'L')) {
        snprintf(err, len,
                 "allocate-on-fill cannot be combined with write-back or fetch-on-write/lazy-fetch allocation "
                 "(the cache could deadlock) in '%s'",
                 text);
        return -1;
    }
    *out = c;
    return 0;
}

long long gsim_cache_cfg_bytes(const gsim_cache_cfg *c)
{
    return c->disabled ? 0 : (long long)c->nsets * c->line_size * c->assoc;
}

static int cache_parse(const void *param, const char *text, void *dst, char *err, size_t len)
{
    (void)param;
    return gsim_cache_cfg_parse(text, (gsim_cache_cfg *)dst, err, len);
}

static void cache_format(const void *param, const void *src, char *buf, size_t len)
{
    (void)param;
    const gsim_cache_cfg *c = src;
    if (c->disabled) {
        snprintf(buf, len, "none");
        return;
    }
    size_t o = (size_t)snprintf(buf, len, "%c:%d:%d:%d,%c:%c:%c:%c:%c,%c:%d:%d,%d", c->type, c->nsets,
                                c->line_size, c->assoc, c->replacement, c->write_policy, c->alloc_policy,
                                c->write_alloc, c->set_index, c->mshr_type, c->mshr_entries, c->mshr_merge,
                                c->miss_queue);
    if (o < len) snprintf(buf + o, len - o, ":%d,%d", c->result_fifo, c->port_width);
}

const opt_custom_type gsim_opt_cache = {"cache", cache_parse, cache_format, NULL};

/* ---- DRAM timing: key=value pairs separated by ':' ---- */

typedef struct dram_key {
    const char *key;
    size_t offset;
    int required;
} dram_key;

#define DK(k, f, req) {k, offsetof(gsim_dram_timing, f), req}
static const dram_key dram_keys[] = {
    DK("nbk", nbk, 1),     DK("CCD", tCCD, 1),   DK("RRD", tRRD, 1),     DK("RCD", tRCD, 1),
    DK("RAS", tRAS, 1),    DK("RP", tRP, 1),     DK("RC", tRC, 1),       DK("CL", CL, 1),
    DK("WL", WL, 1),       DK("CDLR", tCDLR, 1), DK("WR", tWR, 1),       DK("nbkgrp", nbkgrp, 0),
    DK("CCDL", tCCDL, 0),  DK("RTPL", tRTPL, 0),
};
#define N_DRAM_KEYS (sizeof dram_keys / sizeof dram_keys[0])

int gsim_dram_timing_parse(const char *text, gsim_dram_timing *out, char *err, size_t len)
{
    gsim_dram_timing t = {0};
    t.nbkgrp = 1;
    int seen[N_DRAM_KEYS] = {0};
    cur k = {text, text, err, len};
    while (*k.p) {
        const char *name = k.p;
        while (*k.p && *k.p != '=' && *k.p != ':') k.p++;
        size_t n = (size_t)(k.p - name);
        size_t i;
        for (i = 0; i < N_DRAM_KEYS; i++)
            if (strlen(dram_keys[i].key) == n && strncmp(dram_keys[i].key, name, n) == 0) break;
        if (i == N_DRAM_KEYS) {
            k.p = name;
            return fail(&k, "a timing name (nbk, CCD, RRD, RCD, RAS, RP, RC, CL, WL, CDLR, WR, nbkgrp, CCDL, RTPL)");
        }
        if (expect(&k, '=')) return -1;
        int v;
        if (get_uint(&k, &v, "a non-negative integer number of DRAM cycles")) return -1;
        *(int *)((char *)&t + dram_keys[i].offset) = v;
        seen[i] = 1;
        if (*k.p == ':') {
            k.p++;
            if (!*k.p) return fail(&k, "another name=value after ':'");
        } else if (*k.p) {
            return fail(&k, "':' between timings");
        }
    }
    for (size_t i = 0; i < N_DRAM_KEYS; i++) {
        if (dram_keys[i].required && !seen[i]) {
            snprintf(err, len, "missing DRAM timing '%s' in '%s'", dram_keys[i].key, text);
            return -1;
        }
    }
    for (size_t i = 0; i < N_DRAM_KEYS; i++) {
        int v = *(const int *)((const char *)&t + dram_keys[i].offset);
        int max = i == 0 || strcmp(dram_keys[i].key, "nbkgrp") == 0 ? DRAM_MAX_BANKS : SM_MAX_LATENCY;
        if (v > max) {
            snprintf(err, len, "expected %s in [0, %d], got %d in '%s'", dram_keys[i].key, max, v, text);
            return -1;
        }
    }
    if (t.nbk <= 0 || t.nbkgrp <= 0 || t.nbk % t.nbkgrp != 0) {
        snprintf(err, len, "nbk must be positive and a multiple of nbkgrp in '%s'", text);
        return -1;
    }
    *out = t;
    return 0;
}

static int dram_parse(const void *param, const char *text, void *dst, char *err, size_t len)
{
    (void)param;
    return gsim_dram_timing_parse(text, (gsim_dram_timing *)dst, err, len);
}

static void dram_format(const void *param, const void *src, char *buf, size_t len)
{
    (void)param;
    size_t o = 0;
    buf[0] = '\0';
    for (size_t i = 0; i < N_DRAM_KEYS && o < len; i++)
        o += (size_t)snprintf(buf + o, len - o, "%s%s=%d", i ? ":" : "", dram_keys[i].key,
                              *(const int *)((const char *)src + dram_keys[i].offset));
}

const opt_custom_type gsim_opt_dram_timing = {"dram_timing", dram_parse, dram_format, NULL};

/* ---- clock domains: four positive MHz values ---- */

static int get_double(cur *c, double *out, const char *what)
{
    char *end;
    errno = 0;
    double v = strtod(c->p, &end);
    if (end == c->p || errno == ERANGE) return fail(c, what);
    *out = v;
    c->p = end;
    return 0;
}

static int clocks_parse(const void *param, const char *text, void *dst, char *err, size_t len)
{
    (void)param;
    gsim_clock_domains d;
    cur k = {text, text, err, len};
    if (get_double(&k, &d.core_mhz, "the core clock in MHz") || expect(&k, ':') ||
        get_double(&k, &d.icnt_mhz, "the interconnect clock in MHz") || expect(&k, ':') ||
        get_double(&k, &d.l2_mhz, "the L2 clock in MHz") || expect(&k, ':') ||
        get_double(&k, &d.dram_mhz, "the DRAM clock in MHz"))
        return -1;
    if (*k.p) return fail(&k, "the end of core:icnt:l2:dram");
    const double mhz[4] = {d.core_mhz, d.icnt_mhz, d.l2_mhz, d.dram_mhz};
    for (int i = 0; i < 4; i++) {
        if (!(mhz[i] >= GPU_MIN_CLOCK_MHZ && mhz[i] <= GPU_MAX_CLOCK_MHZ)) { /* also nan */
            static const char *const names[4] = {"core", "interconnect", "L2", "DRAM"};
            snprintf(err, len, "expected every clock in [%g, %g] MHz, got the %s clock %g in '%s'", GPU_MIN_CLOCK_MHZ,
                     GPU_MAX_CLOCK_MHZ, names[i], mhz[i], text);
            return -1;
        }
    }
    *(gsim_clock_domains *)dst = d;
    return 0;
}

static void clocks_format(const void *param, const void *src, char *buf, size_t len)
{
    (void)param;
    const gsim_clock_domains *d = src;
    snprintf(buf, len, "%.1f:%.1f:%.1f:%.1f", d->core_mhz, d->icnt_mhz, d->l2_mhz, d->dram_mhz);
}

const opt_custom_type gsim_opt_clocks = {"clocks", clocks_parse, clocks_format, NULL};

/* ---- integer lists ---- */

int gsim_parse_int_list(const void *limits, const char *text, void *dst, char *err, size_t len)
{
    const gsim_list_limits *lim = limits;
    char sep = lim->sep ? lim->sep : ',';
    const char *sep_name = sep == ',' ? "comma" : "colon";
    gsim_int_list l = {0};
    cur k = {text, text, err, len};
    for (;;) {
        if (l.n == GSIM_INT_LIST_MAX || l.n == lim->max_items) {
            snprintf(err, len, "at most %d %s-separated integers expected in '%s'", lim->max_items, sep_name, text);
            return -1;
        }
        const char *start = k.p;
        char *end;
        errno = 0;
        long v = strtol(k.p, &end, 10);
        if (end == k.p || errno == ERANGE) return fail(&k, "an integer");
        if (v < lim->min_value || v > lim->max_value) {
            k.p = start;
            char what[96];
            snprintf(what, sizeof what, "an integer in [%d, %d]", lim->min_value, lim->max_value);
            return fail(&k, what);
        }
        l.v[l.n++] = (int)v;
        k.p = end;
        if (*k.p == sep) { k.p++; continue; }
        if (*k.p) return fail(&k, sep == ',' ? "',' or the end of the list" : "':' or the end of the list");
        break;
    }
    if (l.n < lim->min_items) {
        snprintf(err, len, "expected at least %d %s-separated integers, got %d in '%s'", lim->min_items, sep_name,
                 l.n, text);
        return -1;
    }
    *(gsim_int_list *)dst = l;
    return 0;
}

void gsim_format_int_list(const void *limits, const void *src, char *buf, size_t len)
{
    const gsim_list_limits *lim = limits;
    const char *sep = lim && lim->sep == ':' ? ":" : ",";
    const gsim_int_list *l = src;
    size_t o = 0;
    buf[0] = '\0';
    for (int i = 0; i < l->n && o < len; i++) o += (size_t)snprintf(buf + o, len - o, "%s%d", i ? sep : "", l->v[i]);
}

/* ---- pair "a:b" ---- */

static int pair_parse(const void *param, const char *text, void *dst, char *err, size_t len)
{
    (void)param;
    gsim_int_pair p;
    cur k = {text, text, err, len};
    if (get_uint(&k, &p.first, "a positive integer") || expect(&k, ':') ||
        get_uint(&k, &p.second, "a positive integer after ':'"))
        return -1;
    if (*k.p) return fail(&k, "the end of 'a:b'");
    if (p.first <= 0 || p.second <= 0) {
        snprintf(err, len, "both numbers must be positive in '%s'", text);
        return -1;
    }
    *(gsim_int_pair *)dst = p;
    return 0;
}

static void pair_format(const void *param, const void *src, char *buf, size_t len)
{
    (void)param;
    const gsim_int_pair *p = src;
    snprintf(buf, len, "%d:%d", p->first, p->second);
}

const opt_custom_type gsim_opt_pair = {"pair", pair_parse, pair_format, NULL};

/* ---- policy "name[:int]*" ---- */

static int policy_check(const gsim_policy_choice *t, const gsim_policy_spec *s, const char *text, char *err,
                        size_t len)
{
    for (int i = 0; t[i].name; i++) {
        if (strcmp(t[i].name, s->name) != 0) continue;
        if (s->nparams < t[i].min_params || s->nparams > t[i].max_params) {
            snprintf(err, len, "policy '%s' takes %s%s (%d to %d parameters), got %d in '%s'", s->name,
                     t[i].name, t[i].params_help, t[i].min_params, t[i].max_params, s->nparams, text);
            return -1;
        }
        return 0;
    }
    size_t o = (size_t)snprintf(err, len, "unknown policy '%s'; expected one of", s->name);
    for (int i = 0; t[i].name && o < len; i++) o += (size_t)snprintf(err + o, len - o, "%s %s", i ? "," : "", t[i].name);
    return -1;
}

int gsim_parse_policy(const void *param, const char *text, void *dst, char *err, size_t len)
{
    gsim_policy_spec s = {0};
    cur k = {text, text, err, len};
    const char *p = text;
    while (*p && (isalnum((unsigned char)*p) || *p == '_' || *p == '-' || *p == '+')) p++;
    size_t n = (size_t)(p - text);
    if (n == 0 || n >= sizeof s.name) return fail(&k, "a policy name");
    memcpy(s.name, text, n);
    k.p = p;
    while (*k.p == ':') {
        k.p++;
        if (s.nparams == GSIM_POLICY_MAX_PARAMS) return fail(&k, "no more than 8 parameters");
        char *end;
        errno = 0;
        long long v = strtoll(k.p, &end, 10);
        if (end == k.p || errno == ERANGE) return fail(&k, "an integer parameter");
        s.params[s.nparams++] = v;
        k.p = end;
    }
    if (*k.p) return fail(&k, "':' and an integer parameter, or the end of the policy");
    if (param && policy_check(param, &s, text, err, len)) return -1;
    *(gsim_policy_spec *)dst = s;
    return 0;
}

void gsim_format_policy(const void *param, const void *src, char *buf, size_t len)
{
    (void)param;
    const gsim_policy_spec *s = src;
    size_t o = (size_t)snprintf(buf, len, "%s", s->name);
    for (int i = 0; i < s->nparams && o < len; i++) o += (size_t)snprintf(buf + o, len - o, ":%lld", s->params[i]);
}

