#include "ptx_lex.h"

#include <stdlib.h>

typedef ptx_lexer lexer;

static int is_word_start(char c)
{
    return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || c == '_' || c == '$' || c == '%' || c == '.';
}

static int is_word_char(char c)
{
    return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == '_' || c == '$' ||
           c == '.';
}

static void make(const lexer *lx, ptx_tok *t, size_t start, ptx_tok_kind kind, int bad)
{
    t->off = (uint32_t)start;
    t->len = (uint32_t)(lx->pos - start);
    t->kind = (uint8_t)kind;
    t->bad = (uint8_t)bad;
    t->ch = kind == TK_PUNCT ? lx->s[start] : 0;
}

static char at(const lexer *lx, size_t i) { return i < lx->len ? lx->s[i] : '\0'; }

/* Records the line that starts at lx->pos. */
static void newline(lexer *lx)
{
    ptx_toks *o = lx->lines;
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

int ptx_lex_init(ptx_lexer *lx, const char *text, size_t len, ptx_toks *lines)
{
    lines->t = NULL;
    lines->n = 0;
    lines->line_start = NULL;
    lines->n_lines = 0;
    *lx = (ptx_lexer){text, len, 0, lines, 0, 0};
    if (len >= UINT32_MAX) return -1;
    newline(lx);
    return lx->oom ? -1 : 0;
}

int ptx_lex_token(ptx_lexer *lx, ptx_tok *tok)
{
    const char *text = lx->s;
    size_t len = lx->len;
    size_t cstart = 0;
    if (lx->oom) return -1;
    if (skip_space(lx, &cstart) == BAD_COMMENT) {
        size_t end = lx->pos;
        lx->pos = cstart + 2;
        make(lx, tok, cstart, TK_BAD, BAD_COMMENT);
        lx->pos = end;
        return lx->oom ? -1 : 0;
    }
    if (lx->oom) return -1;
    size_t start = lx->pos;
    if (start >= len) {
        make(lx, tok, start, TK_EOF, 0);
        return 0;
    }
    char c = text[start];
    ptx_tok_kind kind;
    int bad = 0;
    if (is_word_start(c)) {
        lx->pos++;
        /* "::" is part of qualifiers such as .shared::cta; a label's single ':' is not. */
        while (lx->pos < len && (is_word_char(text[lx->pos]) ||
                                 (text[lx->pos] == ':' && at(lx, lx->pos + 1) == ':' && is_word_char(at(lx, lx->pos + 2)))))
            lx->pos += text[lx->pos] == ':' ? 2 : 1;
        kind = TK_WORD;
    } else if (c >= '0' && c <= '9') {
        lx->pos++;
        scan_number(lx, start);
        kind = TK_NUM;
    } else if (c == '"') {
        lx->pos++;
        while (lx->pos < len && text[lx->pos] != '"' && text[lx->pos] != '\n') {
            if (text[lx->pos] == '\\' && lx->pos + 1 < len && text[lx->pos + 1] != '\n') lx->pos++;
            lx->pos++;
        }
        if (lx->pos < len && text[lx->pos] == '"') {
            lx->pos++;
            kind = TK_STR;
        } else {
            kind = TK_BAD;
            bad = BAD_STRING;
        }
    } else if (c && (c == '{' || c == '}' || c == '(' || c == ')' || c == '[' || c == ']' || c == '<' || c == '>' ||
                     c == ',' || c == ';' || c == ':' || c == '@' || c == '!' || c == '|' || c == '+' || c == '-' ||
                     c == '=')) {
        lx->pos++;
        kind = TK_PUNCT;
    } else {
        lx->pos++;
        kind = TK_BAD;
        bad = BAD_CHAR;
    }
    make(lx, tok, start, kind, bad);
    return 0;
}

int ptx_lex(const char *text, size_t len, ptx_toks *out)
{
    ptx_lexer lx;
    size_t cap = 0;
    if (ptx_lex_init(&lx, text, len, out)) goto oom;
    for (;;) {
        if (out->n == cap) {
            cap = cap ? cap * 2 : 1024;
            ptx_tok *t = realloc(out->t, cap * sizeof *t);
            if (!t) goto oom;
            out->t = t;
        }
        ptx_tok *t = &out->t[out->n];
        if (ptx_lex_token(&lx, t)) goto oom;
        out->n++;
        if (t->kind == TK_EOF) break;
    }
    /* The arrays grew by doubling: give back the tails. */
    ptx_tok *fit = realloc(out->t, out->n * sizeof *fit);
    if (fit) out->t = fit;
    ptx_lex_fit_lines(&lx);
    return 0;
oom:
    ptx_toks_free(out);
    return -1;
}

void ptx_lex_fit_lines(ptx_lexer *lx)
{
    ptx_toks *o = lx->lines;
    if (!o->n_lines) return;
    uint32_t *lfit = realloc(o->line_start, o->n_lines * sizeof *lfit);
    if (lfit) o->line_start = lfit;
    lx->cap_lines = o->n_lines;
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
