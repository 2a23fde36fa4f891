/*
 * PTX tokens; they point into the text. ptx_lex tokenises a whole text; the parser lexes a
 * window at a time with ptx_lex_token (ptx_parse_window.c), so that a large module's tokens
 * never all live at once. The line table covers everything lexed so far.
 */
#ifndef GTLM_PTX_LEX_H
#define GTLM_PTX_LEX_H

#include <stddef.h>
#include <stdint.h>

typedef enum ptx_tok_kind {
    TK_EOF = 0,
    TK_WORD,   /* identifier, register, directive or opcode: [A-Za-z_$%.][A-Za-z0-9_$.]* ("::" allowed inside) */
    TK_NUM,    /* starts with a digit: 12, 0x1F, 0f3F800000, 0d..., 1.5, 2e-3, 7U */
    TK_STR,    /* "..." including the quotes */
    TK_PUNCT,  /* one character of { } ( ) [ ] < > , ; : @ ! | + - = */
    TK_BAD     /* a character or construct the lexer cannot read; see bad */
} ptx_tok_kind;

typedef enum ptx_bad_kind {
    BAD_CHAR = 1,
    BAD_COMMENT, /* unterminated comment */
    BAD_STRING   /* unterminated string */
} ptx_bad_kind;

/* 12 bytes: a module has about one token per 4 bytes of text, and they all live through the
 * parse. The line and column are not stored: ptx_tok_line/ptx_tok_col derive them from off. */
typedef struct ptx_tok {
    uint32_t off, len;   /* byte range in the text (a token never contains a newline) */
    uint8_t kind;        /* ptx_tok_kind */
    uint8_t bad;         /* ptx_bad_kind for TK_BAD */
    char ch;             /* the character of a TK_PUNCT */
} ptx_tok;

typedef struct ptx_toks {
    ptx_tok *t;
    size_t n;  /* the last token is always TK_EOF */
    uint32_t *line_start; /* offset of each line's first byte: line k + 1 starts at line_start[k] */
    size_t n_lines;
} ptx_toks;

/* Tokenises len bytes. Returns 0, or -1 when out of memory or the text is too large (> 4 GB). */
int ptx_lex(const char *text, size_t len, ptx_toks *out);

/* A lexer that resumes where it stopped: tokens one at a time, lines into lines->line_start
 * (lines->t stays unused). */
typedef struct ptx_lexer {
    const char *s;
    size_t len, pos;
    ptx_toks *lines;
    size_t cap_lines;
    int oom;
} ptx_lexer;

/* 0, or -1 when out of memory or the text is too large (> 4 GB); *lines is reset either way. */
int ptx_lex_init(ptx_lexer *lx, const char *text, size_t len, ptx_toks *lines);
/* The next token (TK_EOF at the end, and again after it). 0, or -1 when out of memory. */
int ptx_lex_token(ptx_lexer *lx, ptx_tok *t);
/* Gives back the line table's unused tail. */
void ptx_lex_fit_lines(ptx_lexer *lx);
void ptx_toks_free(ptx_toks *toks);

/* 1-based line and column of a byte offset (a token's off) in the lexed text. */
uint32_t ptx_toks_line(const ptx_toks *toks, uint32_t off);
uint32_t ptx_toks_col(const ptx_toks *toks, uint32_t off);

#endif
