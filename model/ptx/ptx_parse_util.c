/* Messages, token access, statement boundaries and growable arrays for the parser. */
#include <ctype.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "ptx_internal.h"

static void vmessage(pp *p, strbuf *sb, uint32_t line, uint32_t col, const char *fmt, va_list ap)
{
    if (!sb) return;
    char msg[512];
    vsnprintf(msg, sizeof msg, fmt, ap);
    strbuf_line(sb, "%s:%u:%u: %s", p->name, line, col, msg);
}

void pp_error_at(pp *p, uint32_t line, uint32_t col, const char *fmt, ...)
{
    if (p->stop) return;
    va_list ap;
    va_start(ap, fmt);
    vmessage(p, p->err, line, col, fmt, ap);
    va_end(ap);
    if (++p->nerr >= PP_MAX_ERRORS) {
        if (p->err) strbuf_line(p->err, "%s: too many errors, stopping", p->name);
        p->stop = 1;
    }
}

void pp_error(pp *p, const ptx_tok *t, const char *fmt, ...)
{
    if (p->stop) return;
    char msg[512];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(msg, sizeof msg, fmt, ap);
    va_end(ap);
    pp_error_at(p, pp_line(p, t), pp_col(p, t), "%s", msg);
}

void pp_warn(pp *p, const ptx_tok *t, const char *fmt, ...)
{
    if (p->nwarn >= PP_MAX_WARNINGS) return;
    p->nwarn++;
    va_list ap;
    va_start(ap, fmt);
    vmessage(p, p->warn, pp_line(p, t), pp_col(p, t), fmt, ap);
    va_end(ap);
}

void pp_oom(pp *p)
{
    if (!p->oom && p->err) strbuf_line(p->err, "%s: out of memory", p->name);
    p->oom = 1;
    p->nerr++;
    p->stop = 1;
}

int pp_grow(pp *p, void **arr, size_t *cap, size_t need, size_t elem)
{
    if (need <= *cap) return 0;
    size_t c = *cap ? *cap : 8;
    while (c < need) c *= 2;
    if (c > SIZE_MAX / elem) {
        pp_oom(p);
        return -1;
    }
    void *n = realloc(*arr, c * elem);
    if (!n) {
        pp_oom(p);
        return -1;
    }
    *arr = n;
    *cap = c;
    return 0;
}

char *pp_strndup(pp *p, const char *s, size_t n)
{
    char *d = malloc(n + 1);
    if (!d) {
        pp_oom(p);
        return NULL;
    }
    memcpy(d, s, n);
    d[n] = '\0';
    return d;
}

/* ---- tokens ---- */

const ptx_tok *pp_peek(const pp *p) { return &p->tok[p->pos < p->lim ? p->pos : p->lim]; }

const ptx_tok *pp_peek2(const pp *p) { return &p->tok[p->pos + 1 < p->lim ? p->pos + 1 : p->lim]; }

const ptx_tok *pp_next(pp *p)
{
    const ptx_tok *t = pp_peek(p);
    if (p->pos < p->lim) p->pos++;
    return t;
}

int pp_at_end(const pp *p) { return p->pos >= p->lim; }

const char *pp_text(const pp *p, const ptx_tok *t) { return p->src + t->off; }

int pp_is(const ptx_tok *t, char punct) { return t->kind == TK_PUNCT && t->ch == punct; }

int pp_is_word(const pp *p, const ptx_tok *t, const char *word)
{
    size_t n = strlen(word);
    return t->kind == TK_WORD && t->len == n && memcmp(p->src + t->off, word, n) == 0;
}

int pp_accept(pp *p, char punct)
{
    if (!pp_is(pp_peek(p), punct)) return 0;
    pp_next(p);
    return 1;
}

void pp_describe(const pp *p, const ptx_tok *t, char *buf, size_t len)
{
    switch (t->kind) {
    case TK_EOF: snprintf(buf, len, "end of file"); return;
    case TK_BAD:
        if (t->bad == BAD_COMMENT) snprintf(buf, len, "an unterminated comment");
        else if (t->bad == BAD_STRING) snprintf(buf, len, "an unterminated string");
        else if (isprint((unsigned char)p->src[t->off])) snprintf(buf, len, "unexpected character '%c'", p->src[t->off]);
        else snprintf(buf, len, "unexpected byte 0x%02x", (unsigned char)p->src[t->off]);
        return;
    default:
        if (t->len > 40) snprintf(buf, len, "'%.37s...'", p->src + t->off);
        else snprintf(buf, len, "'%.*s'", (int)t->len, p->src + t->off);
        return;
    }
}

int pp_expect(pp *p, char punct, const char *ctx)
{
    if (pp_accept(p, punct)) return 0;
    char got[64];
    const ptx_tok *t = pp_peek(p);
    pp_describe(p, t, got, sizeof got);
    pp_error(p, t, "expected '%c'%s%s, got %s", punct, ctx && *ctx ? " " : "", ctx ? ctx : "", got);
    return -1;
}

uint32_t pp_tok_index(const pp *p, const ptx_tok *t) { return (uint32_t)(t - p->tok); }

uint32_t pp_line(const pp *p, const ptx_tok *t) { return ptx_toks_line(p->toks, t->off); }

uint32_t pp_col(const pp *p, const ptx_tok *t) { return ptx_toks_col(p->toks, t->off); }

/* Tokens hold no newline, so two are on one line when the text between them has none. */
int pp_same_line(const pp *p, const ptx_tok *a, const ptx_tok *b)
{
    if (a->off > b->off) return pp_same_line(p, b, a);
    return memchr(p->src + a->off, '\n', b->off - a->off) == NULL;
}

void pp_skip_statement(pp *p)
{
    size_t depth = 0;
    p->lim = p->ntok - 1;
    for (;;) {
        const ptx_tok *t = pp_peek(p);
        if (t->kind == TK_EOF && p->may_extend && !p->lex_done) { /* the window's end, not the file's */
            if (pp_window_extend(p)) {
                pp_oom(p);
                break;
            }
            continue;
        }
        if (t->kind == TK_EOF) break;
        if (pp_is(t, '{')) depth++;
        if (pp_is(t, '}')) {
            if (depth == 0) break;
            depth--;
        }
        pp_next(p);
        if (pp_is(t, ';') && depth == 0) break;
    }
}

static int ends_operand(const ptx_tok *t)
{
    return t->kind == TK_WORD || t->kind == TK_NUM || pp_is(t, ')') || pp_is(t, ']') || pp_is(t, '}');
}

size_t pp_statement_end(const pp *p, size_t first, int no_operands, int *missing)
{
    size_t depth = 0;
    *missing = 0;
    for (size_t i = first + 1;; i++) {
        const ptx_tok *t = &p->tok[i], *prev = &p->tok[i - 1];
        if (t->kind == TK_EOF) {
            *missing = 1;
            return i;
        }
        if (depth == 0) {
            if (pp_is(t, ';')) return i;
            /* A new line that starts with an opcode, label or guard after a complete operand:
             * the previous statement lacks its ';' (a call's operand list may span lines, but
             * only after ',' or '(' or inside parentheses). */
            int new_line = !pp_same_line(p, prev, t) && (t->kind == TK_WORD || pp_is(t, '@'));
            int label = new_line && pp_is(&p->tok[i + 1], ':');
            if (pp_is(t, '}') || (new_line && (label || (i - 1 == first ? no_operands : ends_operand(prev))))) {
                *missing = 1;
                return i;
            }
        }
        if (pp_is(t, '(') || pp_is(t, '[') || pp_is(t, '{')) depth++;
        if ((pp_is(t, ')') || pp_is(t, ']') || pp_is(t, '}')) && depth) depth--;
    }
}

void pp_statement_text(const pp *p, size_t first, size_t last, char *buf, size_t len)
{
    if (!len) return;
    const char *s = p->src + p->tok[first].off;
    const char *e = p->src + p->tok[last].off + p->tok[last].len;
    size_t o = 0;
    int space = 0;
    for (; s < e && o + 4 < len; s++) {
        if (s[0] == '/' && s + 1 < e && s[1] == '/') {
            while (s < e && *s != '\n') s++;
            space = 1;
            continue;
        }
        if (s[0] == '/' && s + 1 < e && s[1] == '*') {
            s += 2;
            while (s + 1 < e && !(s[0] == '*' && s[1] == '/')) s++;
            s++;
            space = 1;
            continue;
        }
        if (isspace((unsigned char)*s)) {
            space = 1;
            continue;
        }
        if (space && o) buf[o++] = ' ';
        space = 0;
        buf[o++] = isprint((unsigned char)*s) ? *s : '?';
    }
    if (s < e && len >= 4) { /* truncated */
        if (o > len - 4) o = len - 4;
        memcpy(buf + o, "...", 3);
        o += 3;
    }
    buf[o < len ? o : len - 1] = '\0';
}

int pp_is_ident(const char *s, size_t n, int allow_percent)
{
    if (!n) return 0;
    size_t i = 0;
    if (s[0] == '%') {
        if (!allow_percent || n < 2) return 0;
        i = 1;
    } else if (!(isalpha((unsigned char)s[0]) || s[0] == '_' || s[0] == '$')) {
        return 0;
    }
    for (; i < n; i++)
        if (!(isalnum((unsigned char)s[i]) || s[i] == '_' || s[i] == '$')) return 0;
    return 1;
}

int pp_uint(pp *p, uint64_t *v, const char *what)
{
    const ptx_tok *t = pp_peek(p);
    char got[64];
    if (t->kind != TK_NUM) {
        pp_describe(p, t, got, sizeof got);
        pp_error(p, t, "expected %s, got %s", what, got);
        return -1;
    }
    int64_t x;
    if (pp_immediate(p, PT_U64, &x)) return -1;
    *v = (uint64_t)x;
    return 0;
}
