/* gtlm list: every registered workload with its suite, kernels and sizes. */
#include <stdio.h>

#include "cli.h"
#include "workload.h"

static void print_size(const wl_desc *d, const char *label, const long *v)
{
    printf("    %-5s", label);
    for (int i = 0; i < WL_MAX_PARAMS && d->params[i]; i++) printf(" %s=%ld", d->params[i], v[i]);
    printf("\n");
}

int cmd_list(int argc, char **argv)
{
    (void)argv;
    if (argc) {
        fprintf(stderr, "usage: gtlm list\n");
        return CLI_USAGE;
    }
    for (size_t i = 0; i < wl_registry_count; i++) {
        const wl_desc *d = wl_registry[i];
        printf("%s/%s (%s): %s\n    kernels: %s\n", d->suite, d->name, wl_registry_ids[i], d->description, d->kernels);
        print_size(d, "tiny", d->tiny);
        print_size(d, "sim", d->sim);
        print_size(d, "paper", d->paper);
        if (d->doc_source) {
            print_size(d, "doc", d->doc);
            printf("          (%s)\n", d->doc_source);
        }
    }
    printf("%zu workloads\n", wl_registry_count);
    return CLI_OK;
}
