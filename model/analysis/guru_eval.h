/*
 * LocalityGuru's launch-time half (thesis Alg. 4, spec B.3.3-B.3.4): with the arguments and the
 * launch shape known, every thread of every TB evaluates the slice of the resolved syntax trees
 * (no memory is read but the kernel parameters): predicate trees decide which loads a thread
 * reaches (idle threads drop out), loop trees are re-evaluated each iteration until their exit
 * predicate fails, and each resolved load inserts address + offset into its TB's reference set.
 * The result is the TB locality graph, with the granularity of the profiled one.
 */
#ifndef GTLM_GURU_EVAL_H
#define GTLM_GURU_EVAL_H

#include <stddef.h>

#include "../simt/simt.h"
#include "guru_trees.h"
#include "lg_spans.h"
#include "locality_graph.h"

/* Adds every TB's references of launch l (kernel k->f, analysed by guru_analyse) to b (sized for
 * the grid). Only a kernel whose loads all resolve can be evaluated. Returns 0, or -1 with a
 * message (an unresolved load, a loop that does not end, out of memory). */
int guru_eval_launch(const guru_kernel *k, const simt_launch *l, lg_builder *b, char *msg, size_t len);

/* The graph of launch l. per_thread 0 (the default of -gtlm_tb_graph_eval): closed form, each warp
 * load whose lanes form a progression of at most one granule's step is one granule run and a TB's
 * references are merged spans (lg_spans.h); 1: every lane's granule into a (granule, TB) set. Both
 * give the same graph element for element. Returns 0 or -1 with a message. */
int guru_eval_graph(const guru_kernel *k, const simt_launch *l, int granularity, int per_thread, lg_graph *g, char *msg,
                    size_t len);

#endif
