/* Lexer for GPGPU-Sim option files: "-name value" pairs, '#' to end of line, "quoted values". */
#include "opt.h"

#include <ctype.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

typedef struct token {
    char *text;
    int line, col;
} token;

/* Reads the next token on the current line (a quoted one may span lines); returns 1 with a
 * token, 0 at end of line/input, -1 on an unterminated quote (reported). */
static int next_token(const char **pp, int *line, const char **line_start, token *t, const char *name,
                      strbuf *err)
{
    const char *p = *pp;
    while (*p == ' ' || *p == '\t' || *p == '\r') p++;
    if (*p == '#') while (*p && *p != '\n') p++;
    if (*p == '\0' || *p == '\n') { *pp = p; return 0; }
    t->line = *line;
    t->col = (int)(p - *line_start) + 1;
    if (*p == '"') {
        /* A quoted value may continue on the next lines (GPGPU-Sim's DRAM timing strings do);
         * the line break and the indentation around it are dropped from the value. */
        const char *q = ++p;
        while (*q && *q != '"') q++;
        if (*q != '"') {
            strbuf_line(err, "%s:%d:%d: unterminated quoted value: expected a closing '\"'", name, t->line, t->col);
            *pp = q;
            return -1;
        }
        t->text = malloc((size_t)(q - p) + 1);
        if (!t->text) return -1;
        size_t n = 0;
        while (p < q) {
            if (isspace((unsigned char)*p)) {
                const char *w = p;
                int newline = 0;
                while (w < q && isspace((unsigned char)*w)) {
                    if (*w == '\n') {
                        newline = 1;
                        (*line)++;
                        *line_start = w + 1;
                    }
                    w++;
                }
                if (!newline) {
                    memcpy(t->text + n, p, (size_t)(w - p));
                    n += (size_t)(w - p);
                }
                p = w;
            } else {
                t->text[n++] = *p++;
            }
        }
        t->text[n] = '\0';
        *pp = q + 1;
        return 1;
    }
    const char *s = p;
    while (*p && !isspace((unsigned char)*p) && *p != '#') p++;
    size_t n = (size_t)(p - s);
    t->text = malloc(n + 1);
    if (!t->text) return -1;
    memcpy(t->text, s, n);
    t->text[n] = '\0';
    *pp = p;
    return 1;
}

static void skip_line(const char **pp)
{
    const char *p = *pp;
    while (*p && *p != '\n') p++;
    *pp = p;
}

/* A GPGPU-Sim option gtlm does not model, in a file or on the command line: a warning in
 * compatibility mode (returns 0), else an error (-1). 1 when name is not such an option. */
static int unmodelled(const opt_registry *r, const char *where, const char *name, strbuf *err, strbuf *warn)
{
    if (opt_find(r, name) || !opt_is_unmodelled_gpgpusim(name)) return 1;
    if (r->compat_flag && *r->compat_flag) {
        strbuf_line(warn, "%s: warning: GPGPU-Sim option '%s' is not modelled by gtlm; ignored", where, name);
        return 0;
    }
    strbuf_line(err,
                "%s: GPGPU-Sim option '%s' is not modelled by gtlm (set -gtlm_gpgpusim_compat 1 or "
                "--gpgpusim-compat to ignore it with a warning)",
                where, name);
    return -1;
}

static int handle_pair(opt_registry *r, const char *name, const token *opt, const token *val, strbuf *err,
                       strbuf *warn)
{
    char where[600];
    snprintf(where, sizeof where, "%s:%d:%d", name, opt->line, opt->col);
    int u = unmodelled(r, where, opt->text, err, warn);
    if (u <= 0) return u;
    if (val == NULL) {
        strbuf_line(err, "%s: option '%s': expected a value after the option name on the same line", where,
                    opt->text);
        return -1;
    }
    char vwhere[600];
    snprintf(vwhere, sizeof vwhere, "%s:%d:%d", name, val->line, val->col);
    return opt_set(r, opt->text, val->text, opt_find(r, opt->text) ? vwhere : where, err) == 0 ? 0 : -1;
}

int opt_parse_text(opt_registry *r, const char *name, const char *text, strbuf *err, strbuf *warn)
{
    const char *p = text;
    const char *line_start = p;
    int line = 1, errors = 0;
    while (*p && errors < OPT_MAX_ERRORS) {
        token opt = {0}, val = {0};
        int k = next_token(&p, &line, &line_start, &opt, name, err);
        if (k < 0) {
            errors++;
        } else if (k > 0) {
            if (opt.text[0] != '-' || opt.text[1] == '\0') {
                strbuf_line(err, "%s:%d:%d: expected an option name starting with '-', got '%s'", name, opt.line,
                            opt.col, opt.text);
                errors++;
                skip_line(&p);
            } else {
                int kv = next_token(&p, &line, &line_start, &val, name, err);
                if (kv < 0) {
                    errors++;
                } else if (handle_pair(r, name, &opt, kv > 0 ? &val : NULL, err, warn) != 0) {
                    errors++;
                }
                if (kv > 0) {
                    token extra = {0};
                    int ke = next_token(&p, &line, &line_start, &extra, name, err);
                    if (ke > 0) {
                        strbuf_line(err, "%s:%d:%d: expected the end of the line after the value of '%s', got '%s'",
                                    name, extra.line, extra.col, opt.text, extra.text);
                        errors++;
                        free(extra.text);
                        skip_line(&p);
                    } else if (ke < 0) {
                        errors++;
                    }
                }
            }
        }
        free(opt.text);
        free(val.text);
        if (*p == '\n') {
            p++;
            line++;
            line_start = p;
        }
    }
    if (errors >= OPT_MAX_ERRORS) strbuf_line(err, "%s: too many errors, stopped reading", name);
    return errors ? -1 : 0;
}

int opt_parse_file(opt_registry *r, const char *path, strbuf *err, strbuf *warn)
{
    FILE *f = fopen(path, "rb");
    if (!f) {
        strbuf_line(err, "%s: cannot open configuration file: %s", path, strerror(errno));
        return -1;
    }
    strbuf text;
    strbuf_init(&text);
    char buf[4096];
    size_t n;
    int rc = 0;
    while ((n = fread(buf, 1, sizeof buf, f)) > 0) {
        if (memchr(buf, '\0', n)) {
            strbuf_line(err, "%s: not a text file (contains a NUL byte)", path);
            rc = -1;
            break;
        }
        if (strbuf_printf(&text, "%.*s", (int)n, buf) != 0) {
            rc = -1;
            break;
        }
    }
    if (ferror(f)) {
        strbuf_line(err, "%s: read error: %s", path, strerror(errno));
        rc = -1;
    }
    fclose(f);
    if (rc == 0) rc = opt_parse_text(r, path, strbuf_str(&text), err, warn);
    strbuf_free(&text);
    return rc;
}

int opt_parse_args(opt_registry *r, int argc, const char *const *argv, strbuf *err, strbuf *warn)
{
    int errors = 0;
    for (int i = 0; i < argc; i++) {
        char where[64];
        snprintf(where, sizeof where, "command line (argument %d)", i + 1);
        if (argv[i][0] != '-') {
            strbuf_line(err, "%s: expected an option name starting with '-', got '%s'", where, argv[i]);
            errors++;
            continue;
        }
        if (i + 1 >= argc) {
            strbuf_line(err, "%s: option '%s': expected a value after the option name", where, argv[i]);
            errors++;
            break;
        }
        int u = unmodelled(r, where, argv[i], err, warn);
        if (u < 0 || (u > 0 && opt_set(r, argv[i], argv[i + 1], where, err) != 0)) errors++;
        i++;
    }
    return errors ? -1 : 0;
}
