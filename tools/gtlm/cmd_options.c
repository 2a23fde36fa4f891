/* gtlm options: every option with its value, default, description and where the value came from;
 * --search WORD keeps the options whose name or description contains WORD. */
#include <ctype.h>
#include <stdio.h>
#include <string.h>

#include "cli.h"

/* Case-insensitive substring test. */
static int contains(const char *text, const char *word)
{
    size_t n = strlen(word);
    for (; *text; text++) {
        size_t i = 0;
        while (i < n && text[i] && tolower((unsigned char)text[i]) == tolower((unsigned char)word[i])) i++;
        if (i == n) return 1;
    }
    return n == 0;
}

/* Takes --search WORD out of argv (the rest is cli_parse's). */
static int take_search(int *argc, char **argv, const char **word)
{
    int n = 0;
    for (int i = 0; i < *argc; i++) {
        if (strcmp(argv[i], "--search") != 0) {
            argv[n++] = argv[i];
            continue;
        }
        if (i + 1 >= *argc) {
            fprintf(stderr, "gtlm: '--search' expects a value\n");
            return CLI_USAGE;
        }
        *word = argv[++i];
    }
    *argc = n;
    return CLI_OK;
}

int cmd_options(int argc, char **argv)
{
    const char *word = NULL;
    cli_args a;
    int rc = take_search(&argc, argv, &word);
    if (rc == CLI_OK) rc = cli_parse(argc, argv, 0, 0, &a);
    if (rc != CLI_OK) return rc;
    gtlm_sim *sim = NULL;
    if ((rc = cli_create_sim(&a, &sim)) != CLI_OK) return rc;
    size_t n = 0, shown = 0;
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
        if (word && !contains(info.name, word) && !contains(info.description, word)) continue;
        if (shown == 0 || strcmp(info.block, block) != 0) printf("%s# block %s\n", shown ? "\n" : "", info.block);
        block = info.block;
        shown++;
        printf("%-40s %s\n", info.name, value);
        printf("    # %s [%s; default %s; from %s]\n", info.description, info.type, info.default_value, info.source);
    }
    gtlm_sim_destroy(sim);
    if (word && shown == 0) {
        fprintf(stderr, "gtlm options: no option's name or description contains '%s'\n", word);
        return CLI_FAIL;
    }
    return CLI_OK;
}
