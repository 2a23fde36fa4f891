#include "log.h"

#include <inttypes.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

const char *const log_level_names[] = {"off", "error", "warn", "info", "debug", "trace", NULL};

/* ---- override string: "prefix=level,prefix=level" ---- */

static int is_word_char(char c)
{
    return (c >= 'A' && c <= 'Z') || (c >= 'a' && c <= 'z') || (c >= '0' && c <= '9') || c == '_';
}

/* A prefix is a block path: dot-separated [A-Za-z0-9_]+ segments with an optional [digits]. */
static int valid_prefix(const char *p, size_t n)
{
    const char *end = p + n;
    for (;;) {
        const char *start = p;
        while (p < end && is_word_char(*p)) p++;
        if (p == start) return 0;
        if (p < end && *p == '[') {
            const char *d = ++p;
            while (p < end && *p >= '0' && *p <= '9') p++;
            if (p == d || p == end || *p != ']') return 0;
            p++;
        }
        if (p == end) return 1;
        if (*p++ != '.') return 0;
    }
}

static int level_from_name(const char *s, size_t n)
{
    for (int i = 0; log_level_names[i]; i++)
        if (strlen(log_level_names[i]) == n && strncmp(log_level_names[i], s, n) == 0) return i;
    return -1;
}

static void trim(const char **s, size_t *n)
{
    while (*n && (**s == ' ' || **s == '\t')) {
        (*s)++;
        (*n)--;
    }
    while (*n && ((*s)[*n - 1] == ' ' || (*s)[*n - 1] == '\t')) (*n)--;
}

typedef struct override_item {
    const char *prefix;
    size_t plen;
    int level;
} override_item;

/* Parses one "prefix=level" item of length n; on error writes why into err. */
static int parse_item(const char *s, size_t n, override_item *it, char *err, size_t errlen)
{
    const char *item = s;
    size_t ilen = n;
    trim(&item, &ilen);
    const char *eq = memchr(item, '=', ilen);
    if (!eq) {
        snprintf(err, errlen, "log override '%.*s': expected prefix=level", (int)ilen, item);
        return -1;
    }
    it->prefix = item;
    it->plen = (size_t)(eq - item);
    trim(&it->prefix, &it->plen);
    const char *lv = eq + 1;
    size_t lvlen = ilen - (size_t)(lv - item);
    trim(&lv, &lvlen);
    if (!valid_prefix(it->prefix, it->plen)) {
        snprintf(err, errlen, "log override '%.*s': expected prefix=level, bad prefix '%.*s'", (int)ilen, item,
                 (int)it->plen, it->prefix);
        return -1;
    }
    it->level = level_from_name(lv, lvlen);
    if (it->level < 0) {
        snprintf(err, errlen, "log override '%.*s': unknown level '%.*s' (off, error, warn, info, debug, trace)",
                 (int)ilen, item, (int)lvlen, lv);
        return -1;
    }
    return 0;
}

/* Does prefix (length n) cover path: equal, or followed in path by '.' or '['? */
static int prefix_matches(const char *prefix, size_t n, const char *path)
{
    if (strncmp(prefix, path, n) != 0) return 0;
    return path[n] == '\0' || path[n] == '.' || path[n] == '[';
}

/* Walks every item; with path != NULL, picks the longest matching prefix (the later one on a tie).
 * Returns 0 or -1 (message in err); *level is left alone when nothing matches. */
static int scan_overrides(const char *s, const char *path, int *level, char *err, size_t errlen)
{
    if (!s) return 0;
    const char *all = s;
    size_t alen = strlen(s);
    trim(&all, &alen);
    if (alen == 0) return 0;
    size_t best = 0;
    int found = 0;
    for (;;) {
        size_t n = strcspn(s, ",");
        override_item it;
        if (parse_item(s, n, &it, err, errlen) != 0) return -1;
        if (path && prefix_matches(it.prefix, it.plen, path) && (!found || it.plen >= best)) {
            best = it.plen;
            found = 1;
            *level = it.level;
        }
        if (s[n] == '\0') break;
        s += n + 1;
    }
    return 0;
}

int log_overrides_check(const char *overrides, char *err, size_t errlen)
{
    char dummy[1];
    if (!err) {
        err = dummy;
        errlen = sizeof dummy;
    }
    return scan_overrides(overrides, NULL, NULL, err, errlen);
}

/* ---- sink and loggers ---- */

int log_sink_init(log_sink *s, FILE *out, log_level level, const char *overrides, char *err, size_t errlen)
{
    memset(s, 0, sizeof *s);
    s->out = out;
    s->level = level;
    if (log_overrides_check(overrides, err, errlen) != 0) return -1;
    if (overrides && *overrides) {
        size_t n = strlen(overrides) + 1;
        s->overrides = malloc(n);
        if (!s->overrides) {
            if (err && errlen) snprintf(err, errlen, "log overrides: out of memory");
            return -1;
        }
        memcpy(s->overrides, overrides, n);
    }
    return 0;
}

void log_sink_free(log_sink *s)
{
    if (!s) return;
    free(s->overrides);
    s->overrides = NULL;
}

void logger_init(logger *lg, const log_sink *s, const char *path)
{
    if (!path) path = "";
    snprintf(lg->path, sizeof lg->path, "%s", path);
    lg->sink = s;
    if (!s) {
        lg->level = LOG_OFF;
        return;
    }
    int level = (int)s->level;
    char dummy[1];
    /* The sink's overrides were checked by log_sink_init; a bad string just keeps the global level. */
    if (scan_overrides(s->overrides, path, &level, dummy, sizeof dummy) != 0) level = (int)s->level;
    lg->level = (log_level)level;
}

void log_emit(const logger *lg, log_level lvl, const char *fmt, ...)
{
    if (!lg || lvl == LOG_OFF || lvl > lg->level || lvl > LOG_TRACE) return;
    const log_sink *s = lg->sink;
    FILE *out = s && s->out ? s->out : stderr;
    uint64_t now = s && s->now ? s->now(s->now_ctx) : 0;

    /* Format the whole line first so it reaches the stream in one write. */
    char stack[512];
    char *line = stack;
    int head = snprintf(stack, sizeof stack, "[%s %" PRIu64 "] %s: ", log_level_names[lvl], now, lg->path);
    if (head < 0) return;
    va_list ap, ap2;
    va_start(ap, fmt);
    va_copy(ap2, ap);
    int body = vsnprintf(NULL, 0, fmt, ap2);
    va_end(ap2);
    if (body < 0) {
        va_end(ap);
        return;
    }
    size_t total = (size_t)head + (size_t)body + 1; /* + '\n' */
    if (total + 1 > sizeof stack) {
        line = malloc(total + 1);
        if (!line) {
            va_end(ap);
            return;
        }
        memcpy(line, stack, (size_t)head);
    }
    vsnprintf(line + head, (size_t)body + 1, fmt, ap);
    va_end(ap);
    line[total - 1] = '\n';
    fwrite(line, 1, total, out);
    if (line != stack) free(line);
}
