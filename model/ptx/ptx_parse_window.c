/*
 * The parser's token window. A module is lexed a window at a time, not whole: about one
 * 12-byte token per 4 bytes of text would otherwise live through the whole parse (3x the
 * text). A window runs from the current module-scope statement to the start of a later one
 * (a module directive at brace depth 0 right after a ';' or '}'), at least PP_WINDOW_MIN
 * tokens on, plus PP_WINDOW_MARGIN tokens of look-ahead. The parser reads a statement within
 * it (function bodies balance their braces; where they do not, the window runs on to where
 * the depth returns to 0, or to the end of the file). Past its end lies a TK_EOF sentinel.
 * Only error recovery at module scope skips on past a statement start (to the next ';' at
 * depth 0): it extends the window as it goes (pp_skip_module_statement).
 */
#include <stdlib.h>
#include <string.h>

#include "ptx_internal.h"

#ifndef PP_WINDOW_MIN /* overridable to test the windowing on small files */
#define PP_WINDOW_MIN 4096u
#endif
#ifndef PP_WINDOW_MARGIN
#define PP_WINDOW_MARGIN 64u
#endif

int pp_window_init(pp *p, const char *text, size_t len)
{
    p->tok = NULL;
    p->ntok = p->pos = p->lim = p->cap_tok = p->last_b = 0;
    p->has_b = p->lex_done = 0;
    p->scan_depth = 0;
    p->scan_after_end = 1; /* the file's start is a statement's start */
    p->toks = &p->lines;
    return ptx_lex_init(&p->lx, text, len, &p->lines);
}

void pp_window_free(pp *p)
{
    free(p->tok);
    p->tok = NULL;
    p->ntok = p->cap_tok = 0;
    ptx_toks_free(&p->lines);
}

/* Directives that start a module-scope statement. */
static int starts_statement(const pp *p, const ptx_tok *t)
{
    static const char *const words[] = {".visible", ".extern", ".weak", ".entry", ".func", ".global", ".const",
                                        ".version", ".target", ".address_size", ".file", ".section", ".common"};
    if (t->kind != TK_WORD || p->src[t->off] != '.') return 0;
    for (size_t i = 0; i < sizeof words / sizeof words[0]; i++)
        if (pp_is_word(p, t, words[i])) return 1;
    return 0;
}

/* Drops the tokens before pos and lexes on to a later statement start. */
static int lex_more(pp *p)
{
    size_t real = p->ntok ? p->ntok - 1 : 0; /* without the sentinel */
    /* Drop what was parsed. */
    if (p->pos) memmove(p->tok, p->tok + p->pos, (real - p->pos) * sizeof *p->tok);
    if (p->has_b && p->last_b < p->pos) p->has_b = 0;
    if (p->has_b) p->last_b -= p->pos;
    real -= p->pos;
    p->pos = 0;
    size_t fresh = 0, after = 0;
    int found = 0;
    for (;;) {
        if (real + 2 > p->cap_tok) {
            size_t cap = p->cap_tok ? p->cap_tok * 2 : PP_WINDOW_MIN * 2;
            ptx_tok *v = realloc(p->tok, cap * sizeof *v);
            if (!v) return -1;
            p->tok = v;
            p->cap_tok = cap;
        }
        ptx_tok *t = &p->tok[real];
        if (ptx_lex_token(&p->lx, t)) return -1;
        real++;
        if (t->kind == TK_EOF) {
            p->lex_done = 1;
            break;
        }
        if (p->scan_depth == 0 && p->scan_after_end && starts_statement(p, t)) {
            p->has_b = 1;
            p->last_b = real - 1;
            after = 0;
            if (fresh >= PP_WINDOW_MIN) found = 1;
        } else {
            after++;
        }
        if (pp_is(t, '{')) p->scan_depth++;
        else if (pp_is(t, '}') && p->scan_depth) p->scan_depth--;
        p->scan_after_end = (pp_is(t, ';') || pp_is(t, '}')) && p->scan_depth == 0;
        fresh++;
        if (found && after >= PP_WINDOW_MARGIN + 1) break;
    }
    if (!p->lex_done) { /* the sentinel: an end that the parser never reaches within a statement */
        ptx_tok *s = &p->tok[real];
        memset(s, 0, sizeof *s);
        s->off = (uint32_t)p->lx.pos;
        s->kind = TK_EOF;
        real++;
    }
    p->ntok = real;
    p->lim = p->ntok - 1;
    return 0;
}

int pp_window_refill(pp *p)
{
    if (p->lex_done) return 0; /* the window holds the rest of the file */
    size_t real = p->ntok ? p->ntok - 1 : 0;
    if (p->has_b && p->last_b > p->pos && real - p->last_b > PP_WINDOW_MARGIN) return 0;
    return lex_more(p);
}

int pp_window_extend(pp *p)
{
    if (p->lex_done) return 0;
    return lex_more(p);
}

void pp_skip_module_statement(pp *p)
{
    p->may_extend = 1;
    pp_skip_statement(p);
    p->may_extend = 0;
}
