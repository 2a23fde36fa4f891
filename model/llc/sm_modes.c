#include "sm_modes.h"

#include <ctype.h>
#include <stdarg.h>
#include <stdlib.h>

#include "../config/opt.h"

const char *sm_mode_name(int mode)
{
    static const char *const names[] = {"compute", "cache", "gated"};
    return mode >= 0 && mode <= SM_MODE_GATED ? names[mode] : "?";
}

/* Appends "<where the option was set>: option '<opt>': <message>" (the source only with a registry). */
static int fail(const opt_registry *where, strbuf *err, const char *opt, const char *fmt, ...)
#if defined(__GNUC__)
    __attribute__((format(printf, 4, 5)))
#endif
    ;
static int fail(const opt_registry *where, strbuf *err, const char *opt, const char *fmt, ...)
{
    const opt_entry *e = where ? opt_find(where, opt) : NULL;
    if (e) strbuf_printf(err, "%s: ", e->source);
    strbuf_printf(err, "option '%s': ", opt);
    va_list ap;
    va_start(ap, fmt);
    strbuf_vprintf(err, fmt, ap);
    va_end(ap);
    strbuf_printf(err, "\n");
    return -1;
}

/* Sets the SMs of a list "a,b,c-d" to mode m. */
static int apply_list(const char *opt, const char *list, int n_sms, uint8_t *modes, int m, const opt_registry *where,
                      strbuf *err)
{
    const char *p = list;
    while (*p) {
        char *end;
        while (isspace((unsigned char)*p)) p++;
        long lo = strtol(p, &end, 10), hi = lo;
        if (end == p) goto bad;
        p = end;
        if (*p == '-') {
            const char *q = p + 1;
            hi = strtol(q, &end, 10);
            if (end == q) goto bad;
            p = end;
        }
        while (isspace((unsigned char)*p)) p++;
        if (lo < 0 || hi >= n_sms || hi < lo) {
            return fail(where, err, opt, "SM range %ld-%ld is outside 0-%d", lo, hi, n_sms - 1);
        }
        for (long i = lo; i <= hi; i++) {
            if (modes[i] != SM_MODE_COMPUTE) {
                return fail(where, err, opt, "SM %ld is already %s", i, sm_mode_name(modes[i]));
            }
            modes[i] = (uint8_t)m;
        }
        if (*p == ',') p++;
        else if (*p) goto bad;
    }
    return 0;
bad:
    return fail(where, err, opt, "expected SM ids and ranges like 60,61,64-67, got '%s'", list);
}

int sm_modes_resolve(const llc_config *c, int n_sms, uint8_t *modes, const opt_registry *where, strbuf *err)
{
    for (int i = 0; i < n_sms; i++) modes[i] = SM_MODE_COMPUTE;
    if (c->cache_sm_list && c->cache_sm_list[0]) {
        if (apply_list("-morpheus_cache_sm_list", c->cache_sm_list, n_sms, modes, SM_MODE_CACHE, where, err)) return -1;
    } else if (c->cache_sms > 0) {
        if (c->cache_sms >= n_sms) {
            return fail(where, err, "-morpheus_cache_sms", "%d leaves no compute SM of %d", c->cache_sms, n_sms);
        }
        for (int i = n_sms - c->cache_sms; i < n_sms; i++) modes[i] = SM_MODE_CACHE;
    }
    if (c->gated_sm_list && c->gated_sm_list[0]) {
        if (apply_list("-morpheus_gated_sm_list", c->gated_sm_list, n_sms, modes, SM_MODE_GATED, where, err)) return -1;
    } else if (c->gated_sms > 0) {
        int left = c->gated_sms;
        for (int i = n_sms - 1; i >= 0 && left > 0; i--)
            if (modes[i] == SM_MODE_COMPUTE) {
                modes[i] = SM_MODE_GATED;
                left--;
            }
    }
    if (sm_modes_count(modes, n_sms, SM_MODE_COMPUTE) == 0) {
        return fail(where, err, "-morpheus_gated_sms", "the SM modes leave no compute SM of %d", n_sms);
    }
    return 0;
}

int sm_modes_count(const uint8_t *modes, int n_sms, int m)
{
    int n = 0;
    for (int i = 0; i < n_sms; i++) n += modes[i] == m;
    return n;
}
