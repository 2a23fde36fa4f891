/* gtlm trace: run a workload functionally and write its Accel-Sim trace (docs/traces.md). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli.h"
#include "workload.h"

/* What was written, read back from the directory: kernels listed in kernelslist.g, copies, and
 * the sum of the kernels' "insts =" lines. Returns 0, or -1 when a file cannot be read. */
static int count_trace(const char *dir, unsigned *kernels, unsigned *copies, unsigned long long *insts)
{
    char path[4096], line[4096];
    *kernels = *copies = 0;
    *insts = 0;
    snprintf(path, sizeof path, "%s/kernelslist.g", dir);
    FILE *list = fopen(path, "r");
    if (!list) return -1;
    int rc = 0;
    while (fgets(line, sizeof line, list)) {
        line[strcspn(line, "\r\n")] = '\0';
        if (!line[0]) continue;
        if (strncmp(line, "MemcpyHtoD,", 11) == 0) {
            (*copies)++;
            continue;
        }
        (*kernels)++;
        char kpath[4096 + 64];
        snprintf(kpath, sizeof kpath, "%s/%s", dir, line);
        FILE *k = fopen(kpath, "r");
        if (!k) {
            rc = -1;
            continue;
        }
        char buf[4096];
        unsigned long long n;
        while (fgets(buf, sizeof buf, k))
            if (sscanf(buf, "insts = %llu", &n) == 1) *insts += n;
        fclose(k);
    }
    fclose(list);
    return rc;
}

int cmd_trace(int argc, char **argv)
{
    /* --out DIR is this command's own flag; the rest is parsed as `gtlm run` parses it. */
    const char *out = NULL;
    char **rest = malloc(sizeof *rest * (size_t)(argc + 1));
    if (!rest) return CLI_FAIL;
    int n = 0;
    for (int i = 0; i < argc; i++) {
        if (strcmp(argv[i], "--out") == 0) {
            if (i + 1 >= argc) {
                fprintf(stderr, "gtlm: '--out' expects a value\n");
                free(rest);
                return CLI_USAGE;
            }
            out = argv[++i];
        } else {
            rest[n++] = argv[i];
        }
    }
    cli_args a;
    int rc = cli_parse(n, rest, 1, 0, &a);
    free(rest);
    if (rc != CLI_OK) return rc;
    const wl_desc *d = a.workload ? wl_find(a.workload) : NULL;
    if (!d || !out || (a.mode && strcmp(a.mode, "functional") != 0)) {
        fprintf(stderr, "usage: gtlm trace WORKLOAD --out DIR [--size tiny|sim|paper|doc] [--set NAME=VALUE] [CONFIG...]%s%s%s%s\n",
                a.workload && !d ? " (no workload named '" : "", a.workload && !d ? a.workload : "",
                a.workload && !d ? "')" : "", a.mode && strcmp(a.mode, "functional") != 0 ? " (traces are written in functional mode)" : "");
        return CLI_USAGE;
    }
    if (a.n_overrides + 4 > CLI_MAX_OVERRIDES) {
        fprintf(stderr, "gtlm: too many option overrides\n");
        return CLI_USAGE;
    }
    a.overrides[a.n_overrides++] = "-gtlm_mode";
    a.overrides[a.n_overrides++] = "functional";
    a.overrides[a.n_overrides++] = "-gtlm_trace_out";
    a.overrides[a.n_overrides++] = out;
    gtlm_sim *sim = NULL;
    if ((rc = cli_create_sim(&a, &sim)) != CLI_OK) return rc;
    int w = wl_run(d, sim, a.size ? a.size : "tiny", a.sets, (size_t)a.n_sets, 0, stdout);
    gtlm_sim_destroy(sim);
    rc = w == WL_OK ? CLI_OK : w == WL_USAGE ? CLI_USAGE : CLI_FAIL;
    if (rc != CLI_OK) return rc;
    unsigned kernels, copies;
    unsigned long long insts;
    if (count_trace(out, &kernels, &copies, &insts) != 0) {
        fprintf(stderr, "gtlm trace: cannot read back the trace in '%s'\n", out);
        return CLI_FAIL;
    }
    printf("trace: %u kernels, %llu warp instructions, %u host-to-device copies written to %s\n", kernels, insts,
           copies, out);
    return CLI_OK;
}
