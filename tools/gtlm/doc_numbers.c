/* The document's stated numbers of an experiment: a text file, one number a line, '#' starts a
 * comment:
 *   value FIGURE SERIES ROW VALUE NORMALISATION [WHERE...]
 *   claim FIGURE SERIES ROW VALUE NORMALISATION CLAIM...
 * FIGURE is a figure of the spec, SERIES one of its configs, ROW a workload (label or name) or a
 * mean row (geomean, hmean, amean, or MEAN:CLASS), VALUE a number or a bound the document states
 * (>1.3, <=1.3), NORMALISATION the config the figure's metric is normalised to ('none' for a
 * plain value) so a number is never compared against a differently normalised one. A claim is
 * a headline claim: the report gives it a verdict line. */
#define _POSIX_C_SOURCE 200809L
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli.h"
#include "sweep.h"

#define BAD(...)                                                                                                       \
    do {                                                                                                               \
        fprintf(stderr, "%s:%d: ", path, line);                                                                        \
        fprintf(stderr, __VA_ARGS__);                                                                                  \
        fprintf(stderr, "\n");                                                                                         \
        return CLI_USAGE;                                                                                              \
    } while (0)

/* The normalisation of a figure's metric: its over= or the baseline, or none. */
static const char *normalisation(const sw_spec *sp, int figure)
{
    const sw_metric *m = &sp->metrics[sp->figures[figure].metric];
    if (m->kind == SW_VALUE || m->kind == SW_RATIO) return "none";
    return m->over ? m->over : sp->baseline;
}

static int parse_row(const sw_spec *sp, const char *s, doc_number *d)
{
    d->w = sw_find_workload(sp, s);
    if (d->w >= 0) return 1;
    static const int kinds[] = {SW_GEOMEAN, SW_HMEAN, SW_AMEAN};
    for (int k = 0; k < 3; k++) {
        const char *name = sw_mean_name(kinds[k]);
        size_t len = strlen(name);
        if (strncmp(s, name, len) != 0) continue;
        d->mean = kinds[k];
        d->cls = -1;
        if (s[len] == '\0') return 1;
        if (s[len] == ':' && (d->cls = sw_find_class(sp, s + len + 1)) >= 0) return 1;
    }
    return 0;
}

static int parse_value(const char *s, doc_number *d)
{
    d->bound = 0;
    if (s[0] == '>' || s[0] == '<') {
        d->bound = s[1] == '=' ? (s[0] == '>' ? 'g' : 'l') : s[0];
        s += s[1] == '=' ? 2 : 1;
    }
    char *end;
    errno = 0;
    d->value = strtod(s, &end);
    return end != s && *end == '\0' && errno == 0 && isfinite(d->value);
}

static int number_line(const sw_spec *sp, char **tok, int n, const char *path, int line, doc_number *d)
{
    memset(d, 0, sizeof *d);
    d->line = line;
    d->claim = strcmp(tok[0], "claim") == 0;
    if ((!d->claim && strcmp(tok[0], "value") != 0) || n < 6 || (d->claim && n < 7))
        BAD("expected 'value FIGURE SERIES ROW VALUE NORMALISATION [WHERE...]' or "
            "'claim FIGURE SERIES ROW VALUE NORMALISATION CLAIM...'");
    if ((d->figure = sw_find_figure(sp, tok[1])) < 0) BAD("'%s' is no figure of %s", tok[1], sp->path);
    const sw_figure *f = &sp->figures[d->figure];
    d->config = -1;
    for (int i = 0; i < f->n_configs; i++)
        if (strcmp(sp->configs[f->configs[i]].name, tok[2]) == 0) d->config = f->configs[i];
    if (d->config < 0) BAD("'%s' is no config (series) of figure '%s'", tok[2], tok[1]);
    if (!parse_row(sp, tok[3], d))
        BAD("row '%s' is no workload of the spec (label or name) and no mean row (geomean, hmean, amean, or "
            "MEAN:CLASS with a class of the spec)", tok[3]);
    if (d->w < 0 && !(f->means & d->mean)) BAD("figure '%s' has no %s rows (its means= lacks it)", tok[1], sw_mean_name(d->mean));
    if (!parse_value(tok[4], d)) BAD("expected a number or a bound such as >1.3 or <=0.5, got '%s'", tok[4]);
    const char *norm = normalisation(sp, d->figure);
    if (strcmp(tok[5], norm) != 0)
        BAD("figure '%s' is normalised to '%s', so the document's number must be too; got '%s'", tok[1], norm, tok[5]);
    size_t len = 1;
    for (int i = 6; i < n; i++) len += strlen(tok[i]) + 1;
    d->text = sw_grow(NULL, len);
    d->text[0] = '\0';
    for (int i = 6; i < n; i++) strcat(strcat(d->text, i > 6 ? " " : ""), tok[i]);
    return CLI_OK;
}

int doc_read_numbers(const char *path, const sw_spec *sp, doc_numbers *dn)
{
    FILE *f = fopen(path, "r");
    if (!f) {
        fprintf(stderr, "gtlm: cannot open the numbers file '%s': %s\n", path, strerror(errno));
        return CLI_USAGE;
    }
    char buf[SW_LINE];
    int line = 0, rc = CLI_OK;
    while (rc == CLI_OK && fgets(buf, sizeof buf, f)) {
        line++;
        char *hash = strchr(buf, '#');
        if (hash) *hash = '\0';
        char *tok[256], *save = NULL;
        int n = 0;
        for (char *t = strtok_r(buf, " \t\r\n", &save); t && n < 256; t = strtok_r(NULL, " \t\r\n", &save)) tok[n++] = t;
        if (n == 0) continue;
        dn->v = sw_grow(dn->v, (size_t)(dn->n + 1) * sizeof *dn->v);
        rc = number_line(sp, tok, n, path, line, &dn->v[dn->n]);
        if (rc == CLI_OK) dn->n++;
    }
    fclose(f);
    return rc;
}

void doc_format(const doc_number *d, char *out, size_t n)
{
    const char *b = d->bound == '>' ? ">" : d->bound == '<' ? "<" : d->bound == 'g' ? ">=" : d->bound == 'l' ? "<=" : "";
    snprintf(out, n, "%s%g", b, d->value);
}

int doc_agrees(const sw_spec *sp, const doc_number *d, double ours, char *why, size_t n)
{
    if (d->bound) {
        int holds = d->bound == '>' ? ours > d->value : d->bound == '<' ? ours < d->value
                  : d->bound == 'g' ? ours >= d->value : ours <= d->value;
        snprintf(why, n, "%s", holds ? "the stated bound holds" : "the stated bound does not hold");
        return holds;
    }
    double ref = strcmp(normalisation(sp, d->figure), "none") == 0 ? 0.0 : 1.0;
    double so = ours - ref, sd = d->value - ref;
    int sign = (so > 0) == (sd > 0) && (so < 0) == (sd < 0);
    int size = fabs(so) >= fabs(sd) / 2 && fabs(so) <= fabs(sd) * 2;
    snprintf(why, n, "sign %s, size %s (effect ours %+.3g, document %+.3g)", sign ? "right" : "wrong",
             size ? "within 2x" : "not within 2x", so, sd);
    return sign && size;
}
