/* gtlm run: load a configuration, run a workload, write statistics. */
#include <stdio.h>

#include "cli.h"

static int write_stats(gtlm_sim *sim, const cli_args *a)
{
    if (a->stats_text && gtlm_stats_write(sim, a->stats_text, GTLM_STATS_TEXT) != GTLM_OK) {
        fprintf(stderr, "gtlm: %s\n", gtlm_last_error());
        return CLI_FAIL;
    }
    if (a->stats_json && gtlm_stats_write(sim, a->stats_json, GTLM_STATS_JSON) != GTLM_OK) {
        fprintf(stderr, "gtlm: %s\n", gtlm_last_error());
        return CLI_FAIL;
    }
    return CLI_OK;
}

int cmd_run(int argc, char **argv)
{
    cli_args a;
    int rc = cli_parse(argc, argv, 1, 1, &a);
    if (rc != CLI_OK) return rc;
    if (a.workload) {
        /* The workload suite is not part of gtlm yet: no name can be found. */
        fprintf(stderr, "gtlm: no workload named '%s' (no workloads are available in this build)\n", a.workload);
        return CLI_USAGE;
    }
    gtlm_sim *sim = NULL;
    if ((rc = cli_create_sim(&a, &sim)) != CLI_OK) return rc;
    printf("%s", gtlm_sim_describe(sim));
    printf("no workload given: configuration loaded, nothing to simulate\n");
    rc = write_stats(sim, &a);
    gtlm_sim_destroy(sim);
    return rc;
}
