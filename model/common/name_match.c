#include "name_match.h"

#include <ctype.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

/* Parses a decimal number at *p (advancing). -1 when there is none. */
static long long read_num(const char **p, const char *end)
{
    if (*p >= end || !isdigit((unsigned char)**p)) return -1;
    long long v = 0;
    while (*p < end && isdigit((unsigned char)**p)) {
        if (v > (INT64_MAX - 9) / 10) return -1;
        v = v * 10 + (**p - '0');
        (*p)++;
    }
    return v;
}

/* Does index v fall in the list "a-b,c,..." between lo and hi (the bracket's contents)? -1 when
 * the list is malformed. */
static int index_in(const char *lo, const char *hi, long long v)
{
    const char *p = lo;
    int hit = 0;
    while (p < hi) {
        long long a = read_num(&p, hi), b = a;
        if (a < 0) return -1;
        if (p < hi && *p == '-') {
            p++;
            b = read_num(&p, hi);
            if (b < a) return -1;
        }
        if (v >= a && v <= b) hit = 1;
        if (p < hi && *p != ',') return -1;
        if (p < hi) p++;
        if (p == hi && hi[-1] == ',') return -1;
    }
    return p == lo ? -1 : hit;
}

static int match_at(const char *p, const char *pe, const char *n)
{
    while (p < pe) {
        if (*p == '*') {
            while (p < pe && *p == '*') p++;
            if (p == pe) return 1;
            for (const char *t = n; *t; t++)
                if (match_at(p, pe, t)) return 1;
            return 0;
        }
        if (*p == '[') {
            const char *close = memchr(p, ']', (size_t)(pe - p));
            if (!close || *n != '[') return 0;
            const char *q = n + 1;
            long long v = read_num(&q, q + strlen(q));
            if (v < 0 || *q != ']') return 0;
            if (index_in(p + 1, close, v) != 1) return 0;
            p = close + 1;
            n = q + 1;
            continue;
        }
        if (!*n || (*p != '?' && *p != *n)) return 0;
        p++;
        n++;
    }
    return *n == '\0';
}

int name_match(const char *pattern, size_t pattern_len, const char *name)
{
    return match_at(pattern, pattern + pattern_len, name);
}

/* Calls fn on each pattern of the list (commas inside brackets do not split). */
static int each_pattern(const char *list, int (*fn)(const char *p, size_t n, int idx, void *ctx), void *ctx)
{
    const char *s = list;
    int idx = 1;
    for (;;) {
        const char *e = s;
        int depth = 0;
        while (*e && (depth || *e != ',')) {
            if (*e == '[') depth = 1;
            else if (*e == ']') depth = 0;
            e++;
        }
        int r = fn(s, (size_t)(e - s), idx++, ctx);
        if (r) return r;
        if (!*e) return 0;
        s = e + 1;
    }
}

static int match_one(const char *p, size_t n, int idx, void *ctx)
{
    (void)idx;
    return n && name_match(p, n, (const char *)ctx);
}

int name_match_list(const char *patterns, const char *name)
{
    return patterns && each_pattern(patterns, match_one, (void *)name);
}

static int check_one(const char *p, size_t n, int idx, void *ctx)
{
    strbuf *err = ctx;
    if (!n) {
        strbuf_printf(err, "pattern %d is empty", idx);
        return -1;
    }
    for (size_t i = 0; i < n; i++) {
        if (p[i] == ']') {
            strbuf_printf(err, "pattern %d (col %zu): ']' without '['", idx, i + 1);
            return -1;
        }
        if (p[i] != '[') continue;
        const char *close = memchr(p + i, ']', n - i);
        if (!close) {
            strbuf_printf(err, "pattern %d (col %zu): '[' without ']'", idx, i + 1);
            return -1;
        }
        if (index_in(p + i + 1, close, 0) < 0) {
            strbuf_printf(err, "pattern %d (col %zu): expected an index list like [0-3] or [1,4-7] inside the brackets",
                          idx, i + 1);
            return -1;
        }
        i = (size_t)(close - p);
    }
    return 0;
}

int name_pattern_check(const char *patterns, strbuf *err)
{
    return each_pattern(patterns ? patterns : "", check_one, err) ? -1 : 0;
}
