/* Where a launch's TB locality graph comes from (PAVER's -gtlm_tb_graph): LocalityGuru's static
 * analysis, the profiler, or auto = static when every global load of the kernel resolves, else
 * profiled (spec B.9.8's fallback). */
#ifndef GTLM_LOCALITY_SOURCE_H
#define GTLM_LOCALITY_SOURCE_H

#include <stddef.h>
#include <stdint.h>

#include "../simt/simt.h"
#include "locality_graph.h"

enum lg_source { LG_SRC_AUTO = 0, LG_SRC_STATIC = 1, LG_SRC_PROFILED = 2 };

typedef struct lg_source_info {
    int used;              /* LG_SRC_STATIC or LG_SRC_PROFILED */
    uint32_t loads;        /* global loads of the kernel (and calls, whose loads are not analysed) */
    uint32_t unresolved;
    char why[240];         /* the first unresolved load: "line 42: depends on a global load (line 40: ld)" */
    int symbolic;          /* the static graph came from the symbolic closed form (guru_sym.h) */
    char sym_why[240];     /* eval symbolic, stepped instead: why (the first load that fell back) */
} lg_source_info;

enum lg_eval { LG_EVAL_CLOSED = 0, LG_EVAL_THREAD = 1, LG_EVAL_SYMBOLIC = 2 };

/* The graph of launch l (parameters packed) from source; eval (enum lg_eval): LocalityGuru steps the
 * warps and merges runs (closed), goes lane by lane (thread), or uses the symbolic closed form and
 * steps the warps only when a load falls back (symbolic); the same graph every way. Returns 0, or -1 with a message (the
 * static source asked for a kernel with unresolved loads, a kernel error, out of memory). */
int lg_launch_graph(const simt_launch *l, int source, int granularity, int eval, lg_graph *g,
                    lg_source_info *info, char *msg, size_t len);

#endif
