#include "strbuf.h"

#include <stdio.h>
#include <stdlib.h>

void strbuf_init(strbuf *sb) { sb->data = NULL; sb->len = sb->cap = sb->lines = 0; }

void strbuf_free(strbuf *sb) { free(sb->data); strbuf_init(sb); }

void strbuf_clear(strbuf *sb)
{
    sb->len = 0;
    sb->lines = 0;
    if (sb->data) sb->data[0] = '\0';
}

static int reserve(strbuf *sb, size_t extra)
{
    size_t need = sb->len + extra + 1;
    if (need <= sb->cap) return 0;
    size_t cap = sb->cap ? sb->cap : 64;
    while (cap < need) cap *= 2;
    char *p = realloc(sb->data, cap);
    if (!p) return -1;
    sb->data = p;
    sb->cap = cap;
    return 0;
}

int strbuf_vprintf(strbuf *sb, const char *fmt, va_list ap)
{
    va_list ap2;
    va_copy(ap2, ap);
    int n = vsnprintf(NULL, 0, fmt, ap2);
    va_end(ap2);
    if (n < 0 || reserve(sb, (size_t)n) != 0) return -1;
    vsnprintf(sb->data + sb->len, (size_t)n + 1, fmt, ap);
    sb->len += (size_t)n;
    return 0;
}

int strbuf_printf(strbuf *sb, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    int rc = strbuf_vprintf(sb, fmt, ap);
    va_end(ap);
    return rc;
}

int strbuf_line(strbuf *sb, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    int rc = strbuf_vprintf(sb, fmt, ap);
    va_end(ap);
    if (rc == 0) rc = strbuf_printf(sb, "\n");
    if (rc == 0) sb->lines++;
    return rc;
}

const char *strbuf_str(const strbuf *sb) { return sb->data ? sb->data : ""; }
