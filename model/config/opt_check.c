#include "opt_check.h"

#include <stdarg.h>
#include <string.h>

static int report(const char *source, const char *name, strbuf *err, const char *fmt, va_list ap)
{
    strbuf_printf(err, "%s: option '%s': ", source, name);
    strbuf_vprintf(err, fmt, ap);
    strbuf_line(err, "%s", "");
    return 1;
}

static const char *source_of(const opt_registry *r, const char *name)
{
    const opt_entry *e = opt_find(r, name);
    return e ? e->source : "configuration";
}

int opt_check(const opt_registry *r, strbuf *err, const char *name, int cond, const char *fmt, ...)
{
    if (cond) return 0;
    va_list ap;
    va_start(ap, fmt);
    report(source_of(r, name), name, err, fmt, ap);
    va_end(ap);
    return 1;
}

int opt_check_pair(const opt_registry *r, strbuf *err, const char *name, const char *other, int cond,
                   const char *fmt, ...)
{
    if (cond) return 0;
    const char *at = source_of(r, name);
    if (strcmp(at, "default") == 0) at = source_of(r, other); /* the value that was set made the conflict */
    va_list ap;
    va_start(ap, fmt);
    report(at, name, err, fmt, ap);
    va_end(ap);
    return 1;
}
