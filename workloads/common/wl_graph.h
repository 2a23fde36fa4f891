/* Synthetic graphs for the graph workloads: R-MAT (Chakrabarti, Zhan and Faloutsos, SDM 2004)
 * with the Graph500 parameters a = 0.57, b = c = 0.19, d = 0.05, which gives the power-law degree
 * distribution and small diameter of social and web graphs. Vertex labels are permuted at random
 * (as Graph500 does) so that high-degree vertices are not clustered at low ids. */
#ifndef GTLM_WL_GRAPH_H
#define GTLM_WL_GRAPH_H

#include <stdint.h>

#include "workload.h"

/* A graph in CSR form: the out-edges of v are adj[start[v] .. start[v+1]), sorted, unique, no
 * self loops. */
typedef struct wl_graph {
    int n;
    int64_t m;       /* edges stored (an undirected edge counts twice) */
    int64_t *start;  /* n + 1 */
    int32_t *adj;
} wl_graph;

/* 2^scale vertices and edge_factor * 2^scale generated edges, seeded. undirected: every edge is
 * stored in both directions. Returns WL_OK or WL_ERROR (out of memory). */
int wl_graph_rmat(wl_graph *g, int scale, int edge_factor, int undirected, uint64_t seed);
void wl_graph_free(wl_graph *g);

#endif
