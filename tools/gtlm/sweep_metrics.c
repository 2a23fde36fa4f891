/* What a sweep computes from its points' statistics: oracle winners, derived metrics and means. */
#include <string.h>

#include "sweep.h"

const sw_point *sw_effective(const sw_run *r, int w, int c)
{
    const sw_point *p = &r->pts[w * r->spec->n_configs + c];
    return r->spec->configs[c].oracle ? p->winner : p;
}

/* A ratio's statistic: one name, or a sum A+B+... (statistic names hold no '+'); every term must be there. */
static double sum_stat(const sw_run *r, const sw_point *p, const char *expr, int *ok)
{
    if (!strchr(expr, '+')) return sw_stat(r, p, expr, ok);
    char name[SW_LINE];
    double sum = 0.0;
    *ok = 1;
    for (const char *s = expr; s && *ok; s = strchr(s, '+') ? strchr(s, '+') + 1 : NULL) {
        size_t n = strcspn(s, "+");
        snprintf(name, sizeof name, "%.*s", (int)n, s);
        sum += sw_stat(r, p, name, ok);
    }
    return *ok ? sum : 0.0;
}

double sw_metric_value(const sw_run *r, int metric, int w, int c, int *ok)
{
    const sw_metric *m = &r->spec->metrics[metric];
    const sw_point *p = sw_effective(r, w, c);
    double x = m->kind == SW_RATIO ? sum_stat(r, p, m->stat, ok) : sw_stat(r, p, m->stat, ok);
    if (!*ok) return 0.0;
    if (m->kind == SW_VALUE) return x;
    double y;
    if (m->kind == SW_SPEEDUP_JIT) { /* the thesis: base time / (PAVER time + JIT time) */
        int base = sw_find_config(r->spec, m->over ? m->over : r->spec->baseline), ok2;
        double b = sw_stat(r, sw_effective(r, w, base), m->stat, ok);
        double jit = sw_stat(r, p, m->stat2, &ok2), hz = m->mhz * 1e6;
        *ok = *ok && ok2 && x / hz + jit > 0.0;
        return *ok ? (b / hz) / (x / hz + jit) : 0.0;
    }
    if (m->kind == SW_RATIO) {
        y = sum_stat(r, p, m->stat2, ok);
    } else {
        int base = sw_find_config(r->spec, m->over ? m->over : r->spec->baseline);
        y = sw_stat(r, sw_effective(r, w, base), m->stat, ok);
    }
    double num = m->kind == SW_SPEEDUP ? y : x, den = m->kind == SW_SPEEDUP ? x : y;
    *ok = *ok && den != 0.0;
    return *ok ? num / den : 0.0;
}

/* An oracle member's score: a metric of the spec, or else a statistic of the point. */
static double score(const sw_run *r, const sw_config *o, int w, int member, int *ok)
{
    int m = sw_find_metric(r->spec, o->by);
    if (m >= 0) return sw_metric_value(r, m, w, member, ok);
    return sw_stat(r, sw_effective(r, w, member), o->by, ok);
}

void sw_resolve_oracles(sw_run *r)
{
    const sw_spec *sp = r->spec;
    for (int c = 0; c < sp->n_configs; c++) {
        const sw_config *o = &sp->configs[c];
        if (!o->oracle) continue;
        for (int w = 0; w < sp->n_workloads; w++) {
            sw_point *p = &r->pts[w * sp->n_configs + c];
            p->winner = NULL;
            double best = 0.0;
            for (int i = 0; i < o->n_members; i++) {
                int ok;
                double s = score(r, o, w, o->members[i], &ok);
                if (ok && (!p->winner || (o->maximize ? s > best : s < best))) {
                    best = s;
                    p->winner = sw_effective(r, w, o->members[i]);
                }
            }
            p->ok = p->winner != NULL;
            strcpy(p->status, p->ok ? "ok" : "no member ok");
        }
    }
}
