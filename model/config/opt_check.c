#include "opt_check.h"

#include <stdarg.h>

int opt_check(const opt_registry *r, strbuf *err, const char *name, int cond, const char *fmt, ...)
{
    if (cond) return 0;
    const opt_entry *e = opt_find(r, name);
    strbuf_printf(err, "%s: option '%s': ", e ? e->source : "configuration", name);
    va_list ap;
    va_start(ap, fmt);
    strbuf_vprintf(err, fmt, ap);
    va_end(ap);
    strbuf_line(err, "%s", "");
    return 1;
}
