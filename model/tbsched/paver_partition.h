/* PAVER's partition-based TB groups over the locality graph with METIS (thesis Sec. 3.3.5-3.3.6):
 * Kway-TS (one group per SM, k = #SMs, each reordered by Prim's MST) and RB-TS (Algorithm 1:
 * recursive bisection until a group holds fewer than maxTB TBs). METIS is seeded, so the groups
 * are the same on every run. */
#ifndef GTLM_PAVER_PARTITION_H
#define GTLM_PAVER_PARTITION_H

#include "paver_groups.h"

/* part[k] (0..nparts-1) of each of the n TBs vertices[k], partitioned over the subgraph they
 * induce. Returns 0 or -1 (METIS error or out of memory). */
int paver_metis_partition(const lg_graph *g, const uint32_t *vertices, uint32_t n, uint32_t nparts, int seed,
                          uint32_t *part);

int paver_kway_ts_groups(const lg_graph *g, uint32_t n_sm, int seed, paver_groups *out);
/* Leaves in the order Algorithm 1 moves them to L; TBs ascending inside a leaf. */
int paver_rb_ts_groups(const lg_graph *g, uint32_t max_tb, int seed, paver_groups *out);

#endif
