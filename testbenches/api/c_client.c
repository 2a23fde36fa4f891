/* A user's program written in C: creates a simulator from a configuration file, reads a
 * statistic and an option, and checks that misuse gives codes, not crashes. */
#include <stdio.h>
#include <string.h>

#include <gtlm/gtlm.h>

#define CHECK(cond)                                                                                \
    do {                                                                                           \
        if (!(cond)) {                                                                             \
            fprintf(stderr, "c_client: check failed at line %d: %s (%s)\n", __LINE__, #cond,       \
                    gtlm_last_error());                                                            \
            failures++;                                                                            \
        }                                                                                          \
    } while (0)

int main(int argc, char **argv)
{
    int failures = 0;
    if (argc != 2) {
        fprintf(stderr, "usage: c_client CONFIG\n");
        return 2;
    }
    gtlm_sim_options opts;
    CHECK(gtlm_sim_options_init(&opts, GTLM_SIM_OPTIONS_VERSION) == GTLM_OK);
    const char *files[1];
    files[0] = argv[1];
    const char *overrides[] = {"-gpgpu_n_clusters", "3"};
    opts.config_files = files;
    opts.n_config_files = 1;
    opts.overrides = overrides;
    opts.n_overrides = 2;

    gtlm_sim *sim = NULL;
    CHECK(gtlm_sim_create(&sim, &opts) == GTLM_OK);
    CHECK(sim != NULL);
    if (sim) {
        double cycles = -1.0;
        CHECK(gtlm_stat_get(sim, "gpu_tot_sim_cycle", &cycles) == GTLM_OK);
        CHECK(cycles == 0.0);
        char value[32];
        CHECK(gtlm_option_value(sim, "-gpgpu_n_clusters", value, sizeof value) == GTLM_OK);
        CHECK(strcmp(value, "3") == 0);
        CHECK(gtlm_stat_get(sim, "no.such.stat", &cycles) == GTLM_ENOTFOUND);
        CHECK(strstr(gtlm_last_error(), "no.such.stat") != NULL);
        gtlm_sim_destroy(sim);
    }
    CHECK(gtlm_stat_get(NULL, "gpu_tot_sim_cycle", NULL) == GTLM_EINVAL);
    CHECK(strcmp(gtlm_status_name(GTLM_ECONFIG), "GTLM_ECONFIG") == 0);
    if (failures) return 1;
    printf("c_client: all checks passed\n");
    return 0;
}
