/*
 * Typed option registry in GPGPU-Sim's syntax ("-name value" pairs, '#' comments,
 * double-quoted values). Each block registers the options it owns, pointing at fields of
 * its own configuration struct; parsing writes straight into those fields.
 */
#ifndef GTLM_OPT_H
#define GTLM_OPT_H

#include <stddef.h>
#include <stdint.h>

#include "../common/strbuf.h"

typedef enum opt_type {
    OPT_INT,    /* int */
    OPT_I64,    /* int64_t */
    OPT_DOUBLE, /* double */
    OPT_BOOL,   /* int, 0 or 1 */
    OPT_STRING, /* char *, owned by the registry */
    OPT_ENUM,   /* int, index into a NULL-terminated list of names */
    OPT_CUSTOM  /* any struct, parsed and printed by an opt_custom_type */
} opt_type;

/* Parses text into dst; on failure writes what was expected into err and returns non-zero. */
typedef int (*opt_parse_fn)(const void *param, const char *text, void *dst, char *err, size_t errlen);
/* Prints the value back in the syntax the parser accepts. */
typedef void (*opt_format_fn)(const void *param, const void *src, char *buf, size_t len);

typedef struct opt_custom_type {
    const char *name; /* shown by "gtlm options": "cache", "dram_timing", ... */
    opt_parse_fn parse;
    opt_format_fn format;
    const void *param; /* handed to parse/format (e.g. list length limits) */
} opt_custom_type;

typedef struct opt_entry {
    char *name; /* with the leading '-' */
    char *block;
    char *desc;
    char *def;
    opt_type type;
    void *dst;
    const char *const *choices; /* OPT_ENUM */
    const opt_custom_type *custom;
    int64_t lo, hi;    /* OPT_INT, OPT_I64: the accepted range */
    double dlo, dhi;   /* OPT_DOUBLE: the accepted range */
    char type_text[96]; /* the type as users see it, with its range: "int in [1, 4096]" */
    char source[1024]; /* "default", "file:line" or "command line" */
    size_t alias_of;  /* 1 + index of the option this name stands for; 0 for a real option */
} opt_entry;

typedef struct opt_registry {
    opt_entry *v;
    size_t n, cap;
    const int *compat_flag; /* when set and non-zero, unmodelled GPGPU-Sim options only warn */
} opt_registry;

void opt_registry_init(opt_registry *r);
void opt_registry_free(opt_registry *r);

/* Registration: the default text goes through the same parser as a user's value. A bad
 * default or a duplicate name is a programming error: returns non-zero and says why in err.
 * Every number has its accepted range [lo, hi] in its declaration: a value outside it is an
 * error at the place it was set, naming the range, so no block sees a value it cannot model. */
int opt_add_int(opt_registry *r, const char *block, const char *name, int *dst, const char *def, int lo, int hi,
                const char *desc, strbuf *err);
int opt_add_i64(opt_registry *r, const char *block, const char *name, int64_t *dst, const char *def, int64_t lo,
                int64_t hi, const char *desc, strbuf *err);
int opt_add_double(opt_registry *r, const char *block, const char *name, double *dst, const char *def, double lo,
                   double hi, const char *desc, strbuf *err);
int opt_add_bool(opt_registry *r, const char *block, const char *name, int *dst, const char *def,
                 const char *desc, strbuf *err);
int opt_add_string(opt_registry *r, const char *block, const char *name, char **dst, const char *def,
                   const char *desc, strbuf *err);
int opt_add_enum(opt_registry *r, const char *block, const char *name, int *dst,
                 const char *const *choices, const char *def, const char *desc, strbuf *err);
int opt_add_custom(opt_registry *r, const char *block, const char *name, const opt_custom_type *t,
                   void *dst, const char *def, const char *desc, strbuf *err);

/* Another name for a registered option (e.g. the spelling of another GPGPU-Sim version):
 * setting it sets the target, whose source then names the alias. */
int opt_add_alias(opt_registry *r, const char *alias, const char *target, const char *desc, strbuf *err);

const opt_entry *opt_find(const opt_registry *r, const char *name);
/* Formats the current value of an option. */
void opt_format(const opt_entry *e, char *buf, size_t len);
/* opt_set result for a name no block registered. */
#define OPT_ERR_UNKNOWN (-2)
/* Most errors listed for one file before the parser gives up. */
#define OPT_MAX_ERRORS 20

/* Sets one option from text; where names the source for messages and for opt_entry.source. */
int opt_set(opt_registry *r, const char *name, const char *value, const char *where, strbuf *err);

/* Parses a GPGPU-Sim style option file. Every error is reported (file:line:col: message),
 * up to a limit; warnings (unmodelled GPGPU-Sim options in compat mode) go to warn.
 * Returns 0 when the file had no error. */
int opt_parse_file(opt_registry *r, const char *path, strbuf *err, strbuf *warn);
/* Same, from text in memory; name is used in messages. */
int opt_parse_text(opt_registry *r, const char *name, const char *text, strbuf *err, strbuf *warn);
/* Command-line overrides: argv-style tokens "-name" "value" ... */
int opt_parse_args(opt_registry *r, int argc, const char *const *argv, strbuf *err, strbuf *warn);

/* GPGPU-Sim option names gtlm knows but does not model (gpgpusim_unmodelled.c). */
int opt_is_unmodelled_gpgpusim(const char *name);
/* The whole sorted list of those names. */
const char *const *opt_unmodelled_gpgpusim_names(size_t *count);
/* Closest registered name within a small edit distance, or NULL. */
const char *opt_suggest(const opt_registry *r, const char *name);

#endif
