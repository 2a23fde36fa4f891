/* Running a registered workload: module, ptxas resources, size selection, verification. */
#include <stdlib.h>
#include <string.h>

#include "workload.h"

/* A size parameter may exceed its presets by this factor: far enough for studies, near enough
 * that no size wraps a 32-bit index or count of the kernels and hosts. */
#define WL_SIZE_SCALE 16

static long preset_max(const wl_desc *d, int i)
{
    long m = d->tiny[i] > d->sim[i] ? d->tiny[i] : d->sim[i];
    return d->paper[i] > m ? d->paper[i] : m;
}

static int pick_size(wl_ctx *c, const char *size, const char *const *ov, size_t n_ov)
{
    const wl_desc *d = c->desc;
    const long *preset = strcmp(size, "tiny") == 0    ? d->tiny
                         : strcmp(size, "sim") == 0   ? d->sim
                         : strcmp(size, "paper") == 0 ? d->paper
                         : strcmp(size, "doc") == 0   ? (d->doc_source ? d->doc : d->paper)
                                                      : NULL;
    if (!preset) {
        fprintf(c->out, "%s: unknown size '%s' (expected tiny, sim, paper or doc)\n", d->name, size);
        return WL_USAGE;
    }
    memcpy(c->p, preset, sizeof c->p);
    for (size_t k = 0; k < n_ov; k++) {
        const char *eq = strchr(ov[k], '=');
        int i = 0;
        for (; eq && i < WL_MAX_PARAMS && d->params[i]; i++)
            if (strlen(d->params[i]) == (size_t)(eq - ov[k]) && strncmp(d->params[i], ov[k], (size_t)(eq - ov[k])) == 0)
                break;
        char *end = NULL;
        long v = eq ? strtol(eq + 1, &end, 0) : 0;
        if (!eq || i == WL_MAX_PARAMS || !d->params[i] || !end || *end || end == eq + 1 || v <= 0) {
            fprintf(c->out, "%s: bad size parameter '%s' (expected NAME=positive integer; names:", d->name, ov[k]);
            for (int j = 0; j < WL_MAX_PARAMS && d->params[j]; j++) fprintf(c->out, " %s", d->params[j]);
            fprintf(c->out, ")\n");
            return WL_USAGE;
        }
        long max = WL_SIZE_SCALE * preset_max(d, i);
        if (v > max) {
            fprintf(c->out, "%s: size parameter '%s' is %ld; expected at most %ld (%d x its largest preset)\n", d->name,
                    ov[k], v, max, WL_SIZE_SCALE);
            return WL_USAGE;
        }
        c->p[i] = v;
    }
    const char *why = d->check ? d->check(c->p) : NULL;
    if (why) {
        fprintf(c->out, "%s: size parameters not supported: %s\n", d->name, why);
        return WL_USAGE;
    }
    return WL_OK;
}

int wl_run(const wl_desc *d, gtlm_sim *sim, const char *size, const char *const *ov, size_t n_ov, int corrupt,
           FILE *out)
{
    wl_ctx c;
    memset(&c, 0, sizeof c);
    c.sim = sim;
    c.desc = d;
    c.corrupt = corrupt;
    c.out = out;
    c.digest = 0xcbf29ce484222325ull;
    if (pick_size(&c, size, ov, n_ov) != WL_OK) return WL_USAGE;
    char name[160];
    snprintf(name, sizeof name, "%s/%s.ptx", d->suite, d->name);
    if (wl_check(&c, gtlm_module_load_ptx(sim, d->ptx, name, &c.mod), "loading the module") != WL_OK) return WL_ERROR;
    if (d->ptxas && wl_check(&c, gtlm_module_set_ptxas_info(sim, c.mod, d->ptxas), "reading the ptxas report") != WL_OK)
        return WL_ERROR;
    fprintf(out, "%s (%s): size %s:", d->name, d->suite, size);
    for (int i = 0; i < WL_MAX_PARAMS && d->params[i]; i++) fprintf(out, " %s=%ld", d->params[i], c.p[i]);
    fprintf(out, "\n");
    int rc = d->run(&c);
    if (rc == WL_OK && c.failures) rc = WL_WRONG;
    fprintf(out, "%s: %s\n", d->name, rc == WL_OK ? "verified" : rc == WL_WRONG ? "WRONG RESULT" : "error");
    if (rc == WL_OK) fprintf(out, "%s: output digest %016llx\n", d->name, (unsigned long long)c.digest);
    return rc;
}
