/* gtlm options: every option with its value, default, description and where the value came from. */
#include <stdio.h>
#include <string.h>

#include "cli.h"

int cmd_options(int argc, char **argv)
{
    cli_args a;
    int rc = cli_parse(argc, argv, 0, 0, &a);
    if (rc != CLI_OK) return rc;
    gtlm_sim *sim = NULL;
    if ((rc = cli_create_sim(&a, &sim)) != CLI_OK) return rc;
    size_t n = 0;
    gtlm_option_count(sim, &n);
    const char *block = "";
    for (size_t i = 0; i < n; i++) {
        gtlm_option_info info;
        char value[1024];
        if (gtlm_option_info_get(sim, i, &info) != GTLM_OK ||
            gtlm_option_value(sim, info.name, value, sizeof value) != GTLM_OK) {
            fprintf(stderr, "gtlm: %s\n", gtlm_last_error());
            gtlm_sim_destroy(sim);
            return CLI_FAIL;
        }
        if (i == 0 || info.block[0] != block[0] || strcmp(info.block, block) != 0)
            printf("%s# block %s\n", i ? "\n" : "", info.block);
        block = info.block;
        printf("%-40s %s\n", info.name, value);
        printf("    # %s [%s; default %s; from %s]\n", info.description, info.type, info.default_value, info.source);
    }
    gtlm_sim_destroy(sim);
    return CLI_OK;
}
