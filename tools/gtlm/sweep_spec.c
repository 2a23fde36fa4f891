/* The sweep spec: a text file, one directive a line, '#' starts a comment.
 *   workload NAME [label=L] [class=C] [size=S] [quick] [quick-set=NAME=VALUE ...]
 *                                    a workload as `gtlm run` names it, the document's abbreviation,
 *                                    its benchmark class, its own size preset, part of --quick;
 *                                    quick-set: part of --quick at its own size with these
 *                                    parameters (`gtlm run --set`) instead of at size tiny;
 *                                    quick-configs=A,B,...: under --quick only these configs
 *   config NAME FILE [ARG ...]       an option file (relative to the current directory) and
 *                                    arguments passed verbatim to `gtlm run` after it
 *   oracle NAME best-of M1 M2 ... by [min|max] STAT
 *                                    per workload, the member config with the best STAT (a
 *                                    statistic or metric; default max, min for names with "cycle")
 *   size tiny|sim|paper|doc          the size preset of every run (default tiny)
 *   baseline NAME                    the config speedups are relative to (default the first)
 *   class NAME                       declares a benchmark class (reported even when empty)
 *   args WORKLOAD|* CONFIG|* ARG...  extra `gtlm run` arguments of the matching points
 *   metric NAME speedup|normalised STAT [over=CONFIG]   base STAT / STAT, or STAT / base STAT
 *   metric NAME value STAT           the statistic itself
 *   metric NAME ratio STAT STAT2     STAT / STAT2 of the same point (either may be a sum A+B+...)
 *   metric NAME speedup_jit STAT JITSTAT MHZ [over=CONFIG]
 *                                    base time / (time + JIT seconds), time = STAT / (MHZ * 1e6)
 *   figure NAME METRIC [configs=A,B,...] [means=geomean,hmean,amean] [plot=bars|lines] [title TEXT...]
 *                                    a table (and plot): workloads and means x configs */
#define _POSIX_C_SOURCE 200809L
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "cli.h"
#include "sweep.h"

char *sw_strdup(const char *s)
{
    char *d = malloc(strlen(s) + 1);
    if (!d) {
        fprintf(stderr, "gtlm: out of memory\n");
        exit(CLI_FAIL);
    }
    return strcpy(d, s);
}

void *sw_grow(void *p, size_t n)
{
    void *q = realloc(p, n);
    if (!q) {
        fprintf(stderr, "gtlm: out of memory\n");
        exit(CLI_FAIL);
    }
    return q;
}

/* mkdir -p: --out may name a nested directory that does not exist yet. */
int sw_make_dirs(const char *path)
{
    char p[SW_LINE];
    snprintf(p, sizeof p, "%s", path);
    for (char *s = p + 1; *s; s++) {
        if (*s != '/') continue;
        *s = '\0';
        if (mkdir(p, 0777) != 0 && errno != EEXIST) return -1;
        *s = '/';
    }
    return mkdir(p, 0777) != 0 && errno != EEXIST ? -1 : 0;
}

/* Names become directory names and CSV cells, so keep them plain. */
static int plain_name(const char *s)
{
    if (!s[0]) return 0;
    for (; *s; s++)
        if (!(('a' <= *s && *s <= 'z') || ('A' <= *s && *s <= 'Z') || ('0' <= *s && *s <= '9') || *s == '_' ||
              *s == '-' || *s == '.'))
            return 0;
    return 1;
}

int sw_find_config(const sw_spec *sp, const char *name)
{
    for (int i = 0; i < sp->n_configs; i++)
        if (strcmp(sp->configs[i].name, name) == 0) return i;
    return -1;
}

int sw_find_metric(const sw_spec *sp, const char *name)
{
    for (int i = 0; i < sp->n_metrics; i++)
        if (strcmp(sp->metrics[i].name, name) == 0) return i;
    return -1;
}

int sw_find_class(const sw_spec *sp, const char *name)
{
    for (int i = 0; i < sp->n_classes; i++)
        if (strcmp(sp->classes[i], name) == 0) return i;
    return -1;
}

int sw_find_figure(const sw_spec *sp, const char *name)
{
    for (int i = 0; i < sp->n_figures; i++)
        if (strcmp(sp->figures[i].name, name) == 0) return i;
    return -1;
}

int sw_find_workload(const sw_spec *sp, const char *s)
{
    for (int i = 0; i < sp->n_workloads; i++)
        if (strcmp(sp->workloads[i].label, s) == 0 || strcmp(sp->workloads[i].name, s) == 0) return i;
    return -1;
}

static int valid_size(const char *s)
{
    return strcmp(s, "tiny") == 0 || strcmp(s, "sim") == 0 || strcmp(s, "paper") == 0 || strcmp(s, "doc") == 0;
}

/* Prints FILE:LINE: message and gives CLI_USAGE. */
#define BAD(...)                                                                                                       \
    do {                                                                                                               \
        fprintf(stderr, "%s:%d: ", sp->path, line);                                                                    \
        fprintf(stderr, __VA_ARGS__);                                                                                  \
        fprintf(stderr, "\n");                                                                                         \
        return CLI_USAGE;                                                                                              \
    } while (0)

static int add_class(sw_spec *sp, const char *name, int line)
{
    if (sw_find_class(sp, name) >= 0) return CLI_OK;
    if (!plain_name(name)) BAD("class name '%s' is not [A-Za-z0-9_.-]", name);
    if (sp->n_classes == SW_MAX_CLASSES) BAD("more than %d classes", SW_MAX_CLASSES);
    sp->classes[sp->n_classes++] = sw_strdup(name);
    return CLI_OK;
}

static int workload_line(sw_spec *sp, char **tok, int n, int line)
{
    if (n < 2) BAD("expected 'workload NAME [label=L] [class=C] [size=S] [quick] [quick-set=NAME=VALUE ...]'");
    if (sp->n_workloads == SW_MAX_WORKLOADS) BAD("more than %d workloads", SW_MAX_WORKLOADS);
    if (sw_find_workload(sp, tok[1]) >= 0) BAD("workload '%s' is repeated", tok[1]);
    sw_workload *w = &sp->workloads[sp->n_workloads];
    memset(w, 0, sizeof *w);
    for (int i = 2; i < n; i++) {
        if (strncmp(tok[i], "label=", 6) == 0 && tok[i][6]) {
            if (sw_find_workload(sp, tok[i] + 6) >= 0) BAD("label '%s' is already used", tok[i] + 6);
            w->label = sw_strdup(tok[i] + 6);
        } else if (strncmp(tok[i], "class=", 6) == 0) {
            if (add_class(sp, tok[i] + 6, line) != CLI_OK) return CLI_USAGE;
            w->cls = sw_strdup(tok[i] + 6);
        } else if (strncmp(tok[i], "size=", 5) == 0) {
            if (!valid_size(tok[i] + 5)) BAD("size must be tiny, sim, paper or doc, got '%s'", tok[i] + 5);
            w->size = sw_strdup(tok[i] + 5);
        } else if (strcmp(tok[i], "quick") == 0) {
            w->quick = 1;
        } else if (strncmp(tok[i], "quick-set=", 10) == 0 && strchr(tok[i] + 10, '=') && tok[i][10] != '=') {
            if (w->n_quick_sets == SW_MAX_QUICK_SETS) BAD("more than %d quick-set parameters", SW_MAX_QUICK_SETS);
            w->quick_sets[w->n_quick_sets++] = sw_strdup(tok[i] + 10);
            w->quick = 1;
        } else if (strncmp(tok[i], "quick-configs=", 14) == 0 && tok[i][14]) {
            w->quick_configs = sw_strdup(tok[i] + 14);
        } else {
            BAD("expected label=L, class=C, size=S, quick, quick-set=NAME=VALUE or quick-configs=A,B after the "
                "workload, got '%s'", tok[i]);
        }
    }
    w->name = sw_strdup(tok[1]);
    if (!w->label) w->label = w->name;
    sp->n_workloads++;
    return CLI_OK;
}

static int new_config(sw_spec *sp, const char *name, int line, sw_config **out)
{
    if (sp->n_configs == SW_MAX_CONFIGS) BAD("more than %d configs", SW_MAX_CONFIGS);
    if (!plain_name(name) || sw_find_config(sp, name) >= 0)
        BAD("config name '%s' is repeated or not [A-Za-z0-9_.-]", name);
    sw_config *c = &sp->configs[sp->n_configs++];
    memset(c, 0, sizeof *c);
    c->name = sw_strdup(name);
    *out = c;
    return CLI_OK;
}

static int config_line(sw_spec *sp, char **tok, int n, int line)
{
    if (n < 3 || n - 2 > SW_MAX_ARGS) BAD("expected 'config NAME FILE [ARG...]'");
    sw_config *c;
    if (new_config(sp, tok[1], line, &c) != CLI_OK) return CLI_USAGE;
    for (int i = 2; i < n; i++) c->args[c->n_args++] = sw_strdup(tok[i]);
    return CLI_OK;
}

static int oracle_line(sw_spec *sp, char **tok, int n, int line)
{
    int by = -1;
    for (int i = 3; i < n; i++)
        if (strcmp(tok[i], "by") == 0) by = i;
    if (n < 6 || strcmp(tok[2], "best-of") != 0 || by < 4 || by + 1 >= n)
        BAD("expected 'oracle NAME best-of CONFIG... by [min|max] STAT'");
    sw_config *c;
    if (new_config(sp, tok[1], line, &c) != CLI_OK) return CLI_USAGE;
    c->oracle = 1;
    for (int i = 3; i < by; i++) {
        int m = sw_find_config(sp, tok[i]);
        if (m < 0 || sp->configs[m].oracle) BAD("oracle member '%s' is not a config defined above", tok[i]);
        c->members[c->n_members++] = m;
    }
    int s = by + 1;
    c->maximize = -1;
    if (strcmp(tok[s], "min") == 0 || strcmp(tok[s], "max") == 0) c->maximize = tok[s++][1] == 'a';
    if (s + 1 != n) BAD("expected one statistic after 'by [min|max]'");
    c->by = sw_strdup(tok[s]);
    if (c->maximize < 0) c->maximize = strstr(c->by, "cycle") == NULL;
    return CLI_OK;
}

static int args_line(sw_spec *sp, char **tok, int n, int line)
{
    if (n < 4 || n - 3 > SW_MAX_ARGS) BAD("expected 'args WORKLOAD|* CONFIG|* ARG...'");
    if (sp->n_extras == SW_MAX_EXTRAS) BAD("more than %d args lines", SW_MAX_EXTRAS);
    if (strcmp(tok[1], "*") != 0 && sw_find_workload(sp, tok[1]) < 0) BAD("'%s' is no workload above (or *)", tok[1]);
    if (strcmp(tok[2], "*") != 0 && sw_find_config(sp, tok[2]) < 0) BAD("'%s' is no config above (or *)", tok[2]);
    if (strcmp(tok[2], "*") != 0 && sp->configs[sw_find_config(sp, tok[2])].oracle)
        BAD("'%s' is an oracle: give the arguments to its members", tok[2]);
    sw_extra *e = &sp->extras[sp->n_extras++];
    int w = sw_find_workload(sp, tok[1]);
    e->workload = sw_strdup(w >= 0 ? sp->workloads[w].name : "*");
    e->config = sw_strdup(tok[2]);
    e->n_args = 0;
    for (int i = 3; i < n; i++) e->args[e->n_args++] = sw_strdup(tok[i]);
    return CLI_OK;
}

static int metric_line(sw_spec *sp, char **tok, int n, int line)
{
    static const char *kinds[] = {"speedup", "normalised", "value", "ratio", "speedup_jit"};
    int kind = -1;
    for (int k = 0; n >= 3 && k < 5; k++)
        if (strcmp(tok[2], kinds[k]) == 0) kind = k;
    int need = kind == SW_RATIO ? 5 : kind == SW_SPEEDUP_JIT ? 6 : 4;
    int has_over = (kind == SW_SPEEDUP || kind == SW_NORMALISED || kind == SW_SPEEDUP_JIT) && n == need + 1 &&
                   strncmp(tok[need], "over=", 5) == 0;
    char *end = NULL;
    double mhz = kind == SW_SPEEDUP_JIT && n >= 6 ? strtod(tok[5], &end) : 0.0;
    if (kind < 0 || (n != need && !has_over) || (kind == SW_SPEEDUP_JIT && (end == tok[5] || *end || !(mhz > 0.0))))
        BAD("expected 'metric NAME speedup|normalised STAT [over=CONFIG]', 'metric NAME value STAT', "
            "'metric NAME ratio STAT STAT2' or 'metric NAME speedup_jit STAT JITSTAT MHZ [over=CONFIG]' (MHZ > 0)");
    if (!plain_name(tok[1]) || sw_find_metric(sp, tok[1]) >= 0) BAD("metric name '%s' is repeated or not plain", tok[1]);
    if (sp->n_metrics == SW_MAX_METRICS) BAD("more than %d metrics", SW_MAX_METRICS);
    sw_metric *m = &sp->metrics[sp->n_metrics++];
    memset(m, 0, sizeof *m);
    m->name = sw_strdup(tok[1]);
    m->kind = kind;
    m->stat = sw_strdup(tok[3]);
    if (kind == SW_RATIO || kind == SW_SPEEDUP_JIT) m->stat2 = sw_strdup(tok[4]);
    if (has_over) m->over = sw_strdup(tok[need] + 5);
    m->mhz = mhz;
    return CLI_OK;
}

/* configs=A,B,...: the figure's columns, in order. */
static int figure_configs(sw_spec *sp, sw_figure *f, char *list, int line)
{
    char *save = NULL;
    for (char *t = strtok_r(list, ",", &save); t; t = strtok_r(NULL, ",", &save)) {
        int c = sw_find_config(sp, t);
        if (c < 0) BAD("figure config '%s' is no config above", t);
        f->configs[f->n_configs++] = c;
    }
    if (f->n_configs == 0) BAD("configs= names no config");
    return CLI_OK;
}

static int figure_means(sw_figure *f, char *list, const sw_spec *sp, int line)
{
    char *save = NULL;
    f->means = 0;
    for (char *t = strtok_r(list, ",", &save); t; t = strtok_r(NULL, ",", &save)) {
        if (strcmp(t, "geomean") == 0) f->means |= SW_GEOMEAN;
        else if (strcmp(t, "hmean") == 0) f->means |= SW_HMEAN;
        else if (strcmp(t, "amean") == 0) f->means |= SW_AMEAN;
        else BAD("means expects geomean, hmean or amean, got '%s'", t);
    }
    return CLI_OK;
}

static int figure_line(sw_spec *sp, char **tok, int n, int line)
{
    if (n < 3) BAD("expected 'figure NAME METRIC [configs=A,B] [means=geomean,hmean,amean] [plot=bars|lines] "
                   "[title TEXT...]'");
    if (!plain_name(tok[1]) || sw_find_figure(sp, tok[1]) >= 0) BAD("figure name '%s' is repeated or not plain", tok[1]);
    if (sp->n_figures == SW_MAX_FIGURES) BAD("more than %d figures", SW_MAX_FIGURES);
    int m = sw_find_metric(sp, tok[2]);
    if (m < 0) BAD("'%s' is no metric defined above", tok[2]);
    sw_figure *f = &sp->figures[sp->n_figures];
    memset(f, 0, sizeof *f);
    f->name = sw_strdup(tok[1]);
    f->metric = m;
    f->means = SW_GEOMEAN;
    for (int i = 3; i < n; i++) {
        if (strncmp(tok[i], "configs=", 8) == 0) {
            if (figure_configs(sp, f, tok[i] + 8, line) != CLI_OK) return CLI_USAGE;
        } else if (strncmp(tok[i], "means=", 6) == 0) {
            if (figure_means(f, tok[i] + 6, sp, line) != CLI_OK) return CLI_USAGE;
        } else if (strcmp(tok[i], "plot=bars") == 0 || strcmp(tok[i], "plot=lines") == 0) {
            f->lines = tok[i][5] == 'l';
        } else if (strcmp(tok[i], "title") == 0 && i + 1 < n) {
            size_t len = 0;
            for (int k = i + 1; k < n; k++) len += strlen(tok[k]) + 1;
            f->title = sw_grow(NULL, len + 1);
            f->title[0] = '\0';
            for (int k = i + 1; k < n; k++) strcat(strcat(f->title, k > i + 1 ? " " : ""), tok[k]);
            break;
        } else {
            BAD("expected configs=, means=, plot=bars|lines or title TEXT, got '%s'", tok[i]);
        }
    }
    sp->n_figures++;
    return CLI_OK;
}

/* Applies one tokenized spec line. */
static int spec_line(sw_spec *sp, char **tok, int n, int line)
{
    const char *d = tok[0];
    if (strcmp(d, "workload") == 0) return workload_line(sp, tok, n, line);
    if (strcmp(d, "config") == 0) return config_line(sp, tok, n, line);
    if (strcmp(d, "oracle") == 0) return oracle_line(sp, tok, n, line);
    if (strcmp(d, "args") == 0) return args_line(sp, tok, n, line);
    if (strcmp(d, "metric") == 0) return metric_line(sp, tok, n, line);
    if (strcmp(d, "figure") == 0) return figure_line(sp, tok, n, line);
    if (strcmp(d, "class") == 0 && n == 2) return add_class(sp, tok[1], line);
    if (strcmp(d, "size") == 0 && n == 2) {
        if (!valid_size(tok[1])) BAD("size must be tiny, sim, paper or doc, got '%s'", tok[1]);
        sp->size = sw_strdup(tok[1]);
        return CLI_OK;
    }
    if (strcmp(d, "baseline") == 0 && n == 2) {
        sp->baseline = sw_strdup(tok[1]);
        return CLI_OK;
    }
    BAD("expected a directive: workload, config, oracle, size, baseline, class, args, metric or figure "
        "(gtlm reproduce --help describes them), got '%s' with %d argument(s)", d, n - 1);
}

int sw_read_spec(const char *path, sw_spec *sp)
{
    sp->path = path;
    FILE *f = fopen(path, "r");
    if (!f) {
        fprintf(stderr, "gtlm: cannot open spec '%s': %s\n", path, strerror(errno));
        return CLI_USAGE;
    }
    char buf[SW_LINE];
    int line = 0, rc = CLI_OK;
    while (rc == CLI_OK && fgets(buf, sizeof buf, f)) {
        line++;
        char *hash = strchr(buf, '#');
        if (hash) *hash = '\0';
        char *tok[SW_MAX_ARGS + 8], *save = NULL;
        int n = 0;
        for (char *t = strtok_r(buf, " \t\r\n", &save); t; t = strtok_r(NULL, " \t\r\n", &save)) {
            if (n == SW_MAX_ARGS + 8) {
                fprintf(stderr, "%s:%d: more than %d words on a line\n", path, line, SW_MAX_ARGS + 8);
                rc = CLI_USAGE;
                break;
            }
            tok[n++] = t;
        }
        if (rc == CLI_OK && n > 0) rc = spec_line(sp, tok, n, line);
    }
    fclose(f);
    return rc;
}

/* A spec that would run nothing or compare against nothing is a mistake, not an empty sweep. */
int sw_check_spec(sw_spec *sp)
{
    if (sp->n_workloads == 0 || sp->n_configs == 0) {
        fprintf(stderr, "gtlm: %s needs at least one workload and one config line\n", sp->path);
        return CLI_USAGE;
    }
    if (!sp->size) sp->size = sw_strdup("tiny");
    if (!sp->baseline) sp->baseline = sw_strdup(sp->configs[0].name);
    if (sw_find_config(sp, sp->baseline) < 0) {
        fprintf(stderr, "gtlm: baseline '%s' is not a config of %s\n", sp->baseline, sp->path);
        return CLI_USAGE;
    }
    for (int i = 0; i < sp->n_metrics; i++) {
        const sw_metric *m = &sp->metrics[i];
        if (m->over && sw_find_config(sp, m->over) < 0) {
            fprintf(stderr, "gtlm: metric '%s': over=%s is not a config of %s\n", m->name, m->over, sp->path);
            return CLI_USAGE;
        }
    }
    for (int w = 0; w < sp->n_workloads; w++) {
        char names[SW_LINE];
        snprintf(names, sizeof names, "%s", sp->workloads[w].quick_configs ? sp->workloads[w].quick_configs : "");
        for (char *save = NULL, *c = strtok_r(names, ",", &save); c; c = strtok_r(NULL, ",", &save))
            if (sw_find_config(sp, c) < 0) {
                fprintf(stderr, "gtlm: workload '%s': quick-configs names '%s', not a config of %s\n",
                        sp->workloads[w].label, c, sp->path);
                return CLI_USAGE;
            }
    }
    for (int i = 0; i < sp->n_figures; i++) {
        sw_figure *f = &sp->figures[i];
        if (f->n_configs == 0)
            for (int c = 0; c < sp->n_configs; c++) f->configs[f->n_configs++] = c;
    }
    return CLI_OK;
}
