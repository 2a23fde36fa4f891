#include "ptx_lex.h"

#include <stdlib.h>

typedef struct lexer {
    const char *s;
    size_t len, pos;
    ptx_toks *out;
    size_t cap, cap_lines;
    int oom;
} lexer;

static int is_word_start(char c)
{
    return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || c == '_' || c == '$' || c == '%' || c == '.';
}

static int is_word_char(char c)
{
    return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == '_' || c == '$' ||
           c == '.';
}

static int push(lexer *lx, size_t start, ptx_tok_kind kind)
{
    if (lx->out->n == lx->cap) {
        size_t cap = lx->cap ? lx->cap * 2 : 1024;
        ptx_tok *t = realloc(lx->out->t, cap * sizeof *t);
        if (!t) return -1;
        lx->out->t = t;
        lx->cap = cap;
    }
    ptx_tok *t = &lx->out->t[lx->out->n++];
    t->off = (uint32_t)start;
    t->len = (uint32_t)(lx->pos - start);
    t->kind = (uint8_t)kind;
    t->bad = 0;
    t->ch = kind == TK_PUNCT ? lx->s[start] : 0;
    return 0;
}

static char at(const lexer *lx, size_t i) { return i < lx->len ? lx->s[i] : '\0'; }

/* Records the line that starts at lx->pos. */
static void newline(lexer *lx)
{
    ptx_toks *o = lx->out;
    if (o->n_lines == lx->cap_lines) {
        size_t cap = lx->cap_lines ? lx->cap_lines * 2 : 1024;
        uint32_t *ls = realloc(o->line_start, cap * sizeof *ls);
        if (!ls) {
            lx->oom = 1;
            return;
        }
        o->line_start = ls;
        lx->cap_lines = cap;
    }
    o->line_start[o->n_lines++] = (uint32_t)lx->pos;
}

/* Skips whitespace and comments; returns BAD_COMMENT at an unterminated block comment. */
static int skip_space(lexer *lx, size_t *comment_start)
{
    while (lx->pos < lx->len) {
        char c = lx->s[lx->pos];
        if (c == '\n') {
            lx->pos++;
            newline(lx);
        } else if (c == ' ' || c == '\t' || c == '\r' || c == '\f' || c == '\v') {
            lx->pos++;
        } else if (c == '/' && at(lx, lx->pos + 1) == '/') {
            while (lx->pos < lx->len && lx->s[lx->pos] != '\n') lx->pos++;
        } else if (c == '/' && at(lx, lx->pos + 1) == '*') {
            *comment_start = lx->pos;
            lx->pos += 2;
            for (;;) {
                if (lx->pos >= lx->len) return BAD_COMMENT;
                if (lx->s[lx->pos] == '*' && at(lx, lx->pos + 1) == '/') {
                    lx->pos += 2;
                    break;
                }
                if (lx->s[lx->pos++] == '\n') newline(lx);
            }
        } else {
            break;
        }
    }
    return 0;
}

/* A number runs over letters, digits and dots; a decimal one may have a signed exponent. */
static void scan_number(lexer *lx, size_t start)
{
    int radix_prefix = lx->s[start] == '0' && lx->len > start + 1 &&
                       (at(lx, start + 1) == 'x' || at(lx, start + 1) == 'X' || at(lx, start + 1) == 'f' ||
                        at(lx, start + 1) == 'F' || at(lx, start + 1) == 'd' || at(lx, start + 1) == 'D' ||
                        at(lx, start + 1) == 'b' || at(lx, start + 1) == 'B');
    while (lx->pos < lx->len) {
        char c = lx->s[lx->pos];
        if (is_word_char(c) && c != '$') {
            lx->pos++;
        } else if ((c == '+' || c == '-') && !radix_prefix && (at(lx, lx->pos - 1) == 'e' || at(lx, lx->pos - 1) == 'E') &&
                   at(lx, lx->pos + 1) >= '0' && at(lx, lx->pos + 1) <= '9') {
            lx->pos++;
        } else {
            break;
        }
    }
}

int ptx_lex(const char *text, size_t len, ptx_toks *out)
{
    out->t = NULL;
    out->n = 0;
    if (len >= UINT32_MAX) return -1;
    out->line_start = NULL;
    out->n_lines = 0;
    lexer lx = {text, len, 0, out, 0, 0, 0};
    newline(&lx);
    for (;;) {
        size_t cstart = 0;
        if (lx.oom) goto oom;
        if (skip_space(&lx, &cstart) == BAD_COMMENT) {
            size_t end = lx.pos;
            lx.pos = cstart + 2;
            if (push(&lx, cstart, TK_BAD)) goto oom;
            out->t[out->n - 1].bad = BAD_COMMENT;
            lx.pos = end;
            continue;
        }
        if (lx.oom) goto oom;
        size_t start = lx.pos;
        if (start >= len) {
            if (push(&lx, start, TK_EOF)) goto oom;
            /* The arrays grew by doubling and live through the parse: give back the tails. */
            ptx_tok *fit = realloc(out->t, out->n * sizeof *fit);
            if (fit) out->t = fit;
            uint32_t *lfit = realloc(out->line_start, out->n_lines * sizeof *lfit);
            if (lfit) out->line_start = lfit;
            return 0;
        }
        char c = text[start];
        ptx_tok_kind kind;
        int bad = 0;
        if (is_word_start(c)) {
            lx.pos++;
            /* "::" is part of qualifiers such as .shared::cta; a label's single ':' is not. */
            while (lx.pos < len && (is_word_char(text[lx.pos]) ||
                                    (text[lx.pos] == ':' && at(&lx, lx.pos + 1) == ':' && is_word_char(at(&lx, lx.pos + 2)))))
                lx.pos += text[lx.pos] == ':' ? 2 : 1;
            kind = TK_WORD;
        } else if (c >= '0' && c <= '9') {
            lx.pos++;
            scan_number(&lx, start);
            kind = TK_NUM;
        } else if (c == '"') {
            lx.pos++;
            while (lx.pos < len && text[lx.pos] != '"' && text[lx.pos] != '\n') {
                if (text[lx.pos] == '\\' && lx.pos + 1 < len && text[lx.pos + 1] != '\n') lx.pos++;
                lx.pos++;
            }
            if (lx.pos < len && text[lx.pos] == '"') {
                lx.pos++;
                kind = TK_STR;
            } else {
                kind = TK_BAD;
                bad = BAD_STRING;
            }
        } else if (c && (c == '{' || c == '}' || c == '(' || c == ')' || c == '[' || c == ']' || c == '<' || c == '>' ||
                         c == ',' || c == ';' || c == ':' || c == '@' || c == '!' || c == '|' || c == '+' || c == '-' ||
                         c == '=')) {
            lx.pos++;
            kind = TK_PUNCT;
        } else {
            lx.pos++;
            kind = TK_BAD;
            bad = BAD_CHAR;
        }
        if (push(&lx, start, kind)) goto oom;
        out->t[out->n - 1].bad = (uint8_t)bad;
    }
oom:
    ptx_toks_free(out);
    return -1;
}

void ptx_toks_free(ptx_toks *toks)
{
    free(toks->t);
    free(toks->line_start);
    toks->t = NULL;
    toks->n = 0;
    toks->line_start = NULL;
    toks->n_lines = 0;
}

/* Index of the line holding off: the last line_start at or before it (line_start[0] is 0). */
static size_t line_index(const ptx_toks *toks, uint32_t off)
{
    size_t lo = 0, hi = toks->n_lines;
    while (hi - lo > 1) {
        size_t mid = lo + (hi - lo) / 2;
        if (toks->line_start[mid] <= off) lo = mid;
        else hi = mid;
    }
    return lo;
}

uint32_t ptx_toks_line(const ptx_toks *toks, uint32_t off) { return (uint32_t)line_index(toks, off) + 1; }

uint32_t ptx_toks_col(const ptx_toks *toks, uint32_t off)
{
    return off - toks->line_start[line_index(toks, off)] + 1;
}
