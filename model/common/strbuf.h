/* Growable, always NUL-terminated string used for error and report text. */
#ifndef GTLM_STRBUF_H
#define GTLM_STRBUF_H

#include <stdarg.h>
#include <stddef.h>

typedef struct strbuf {
    char *data;   /* NULL until the first append */
    size_t len;
    size_t cap;
    size_t lines; /* number of appended lines (strbuf_line), used to cap error lists */
} strbuf;

void strbuf_init(strbuf *sb);
void strbuf_free(strbuf *sb);
void strbuf_clear(strbuf *sb);
/* Appends formatted text; returns 0, or -1 when memory ran out (the buffer stays valid). */
int strbuf_printf(strbuf *sb, const char *fmt, ...)
#if defined(__GNUC__)
    __attribute__((format(printf, 2, 3)))
#endif
    ;
int strbuf_vprintf(strbuf *sb, const char *fmt, va_list ap);
/* Appends one formatted line (adds '\n') and counts it. */
int strbuf_line(strbuf *sb, const char *fmt, ...)
#if defined(__GNUC__)
    __attribute__((format(printf, 2, 3)))
#endif
    ;
/* Never NULL: "" for an empty buffer. */
const char *strbuf_str(const strbuf *sb);

#endif
