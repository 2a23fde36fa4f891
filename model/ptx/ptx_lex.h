/*
 * PTX tokens. The whole text is tokenised up front (the parser needs a few tokens of
 * look-ahead and the text of a statement for its messages); tokens point into the text.
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
void ptx_toks_free(ptx_toks *toks);

/* 1-based line and column of a byte offset (a token's off) in the lexed text. */
uint32_t ptx_toks_line(const ptx_toks *toks, uint32_t off);
uint32_t ptx_toks_col(const ptx_toks *toks, uint32_t off);

#endif
