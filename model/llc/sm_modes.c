#include "sm_modes.h"

#include <ctype.h>
#include <stdlib.h>

const char *sm_mode_name(int mode)
{
    static const char *const names[] = {"compute", "cache", "gated"};
    return mode >= 0 && mode <= SM_MODE_GATED ? names[mode] : "?";
}

/* Sets the SMs of a list "a,b,c-d" to mode m. */
static int apply_list(const char *opt, const char *list, int n_sms, uint8_t *modes, int m, strbuf *err)
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
            strbuf_printf(err, "option '%s': SM range %ld-%ld is outside 0-%d\n", opt, lo, hi, n_sms - 1);
            return -1;
        }
        for (long i = lo; i <= hi; i++) {
            if (modes[i] != SM_MODE_COMPUTE) {
                strbuf_printf(err, "option '%s': SM %ld is already %s\n", opt, i, sm_mode_name(modes[i]));
                return -1;
            }
            modes[i] = (uint8_t)m;
        }
        if (*p == ',') p++;
        else if (*p) goto bad;
    }
    return 0;
bad:
    strbuf_printf(err, "option '%s': expected SM ids and ranges like 60,61,64-67, got '%s'\n", opt, list);
    return -1;
}

int sm_modes_resolve(const llc_config *c, int n_sms, uint8_t *modes, strbuf *err)
{
    for (int i = 0; i < n_sms; i++) modes[i] = SM_MODE_COMPUTE;
    if (c->cache_sm_list && c->cache_sm_list[0]) {
        if (apply_list("-morpheus_cache_sm_list", c->cache_sm_list, n_sms, modes, SM_MODE_CACHE, err)) return -1;
    } else if (c->cache_sms > 0) {
        if (c->cache_sms >= n_sms) {
            strbuf_printf(err, "option '-morpheus_cache_sms': %d leaves no compute SM of %d\n", c->cache_sms, n_sms);
            return -1;
        }
        for (int i = n_sms - c->cache_sms; i < n_sms; i++) modes[i] = SM_MODE_CACHE;
    }
    if (c->gated_sm_list && c->gated_sm_list[0]) {
        if (apply_list("-morpheus_gated_sm_list", c->gated_sm_list, n_sms, modes, SM_MODE_GATED, err)) return -1;
    } else if (c->gated_sms > 0) {
        int left = c->gated_sms;
        for (int i = n_sms - 1; i >= 0 && left > 0; i--)
            if (modes[i] == SM_MODE_COMPUTE) {
                modes[i] = SM_MODE_GATED;
                left--;
            }
    }
    if (sm_modes_count(modes, n_sms, SM_MODE_COMPUTE) == 0) {
        strbuf_printf(err, "option '-morpheus_gated_sms': the SM modes leave no compute SM of %d\n", n_sms);
        return -1;
    }
    return 0;
}

int sm_modes_count(const uint8_t *modes, int n_sms, int m)
{
    int n = 0;
    for (int i = 0; i < n_sms; i++) n += modes[i] == m;
    return n;
}
