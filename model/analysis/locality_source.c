#include "locality_source.h"

#include <stdio.h>
#include <string.h>

#include "guru_eval.h"
#include "guru_sym.h"
#include "locality_profile.h"

int lg_launch_graph(const simt_launch *l, int source, int granularity, int eval, lg_graph *g,
                    lg_source_info *info, char *msg, size_t len)
{
    memset(g, 0, sizeof *g);
    memset(info, 0, sizeof *info);
    info->used = LG_SRC_PROFILED;
    if (source != LG_SRC_PROFILED) {
        guru_kernel k;
        if (guru_analyse(&l->mod->ptx, l->kernel, &k)) {
            snprintf(msg, len, "LocalityGuru: out of memory");
            return -1;
        }
        info->loads = k.n_loads;
        info->unresolved = k.n_unresolved;
        for (uint32_t i = 0; i < k.n_loads; i++)
            if (!k.loads[i].resolved) {
                snprintf(info->why, sizeof info->why, "line %u: %s", k.loads[i].line, k.loads[i].why);
                break;
            }
        if (k.n_unresolved && source == LG_SRC_STATIC) {
            snprintf(msg, len, "-gtlm_tb_graph static: kernel '%s' has %u of %u global loads LocalityGuru cannot "
                     "resolve (%s)", l->kernel->name, k.n_unresolved, k.n_loads, info->why);
            guru_kernel_free(&k);
            return -1;
        }
        if (!k.n_unresolved) {
            int rc = 1;
            if (eval == LG_EVAL_SYMBOLIC) {
                rc = guru_sym_graph(&k, l, granularity, g, info->sym_why, sizeof info->sym_why);
                info->symbolic = rc == 0;
                if (rc < 0) snprintf(msg, len, "LocalityGuru: %s", info->sym_why);
            }
            if (rc > 0) rc = guru_eval_graph(&k, l, granularity, eval == LG_EVAL_THREAD, g, msg, len);
            guru_kernel_free(&k);
            info->used = LG_SRC_STATIC;
            return rc;
        }
        guru_kernel_free(&k);
    }
    return lg_profile_launch(l, granularity, g, msg, len);
}
