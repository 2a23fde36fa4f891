/*
 * The thread-block locality graph of PAVER / LocalityGuru (thesis Ch. 3-4, spec B.8):
 * L[i][j] = |refs(TB_i) ∩ refs(TB_j)|, the number of distinct global-memory granules (elements
 * or 128-byte lines) read by both thread blocks i and j. Symmetric, no diagonal, sparse.
 *
 * Built from (TB, address) references in any order, by the profiler (functional execution) or
 * by the static analysis. Pair counts are accumulated through an inverted index (granule ->
 * sorted TB list, spec B.9.7), never by intersecting all TB pairs.
 */
#ifndef GTLM_LOCALITY_GRAPH_H
#define GTLM_LOCALITY_GRAPH_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

enum lg_granularity {
    LG_ELEMENT = 0, /* address / access size (spec B.9.6 default) */
    LG_LINE = 1     /* address / 128 */
};

/* A set of (granule, TB) pairs; open addressing on the packed pair. */
typedef struct lg_builder {
    uint64_t *gran;   /* granule of each slot */
    uint32_t *tb;     /* TB + 1 of each slot, 0 = empty */
    size_t n, cap;
    uint32_t n_tbs;
    int granularity;
} lg_builder;

/* Compressed sparse rows of the full symmetric matrix (both triangles, no diagonal). */
typedef struct lg_graph {
    uint32_t n;          /* thread blocks */
    uint64_t *row;       /* n + 1 offsets into col/val */
    uint32_t *col;       /* ascending within a row */
    uint64_t *val;
} lg_graph;

typedef struct lg_summary {
    uint64_t edges;        /* i < j pairs with L > 0 */
    uint64_t total_weight; /* sum over i < j */
    uint64_t max_weight;
    uint32_t max_i, max_j; /* the first heaviest pair (i < j) */
    uint32_t isolated;     /* TBs sharing with nobody */
} lg_summary;

void lg_builder_init(lg_builder *b, uint32_t n_tbs, int granularity);
void lg_builder_free(lg_builder *b);

/* Records that TB tb read `bytes` bytes at addr. Returns 0, -1 when tb is out of range or memory
 * ran out (the builder is unchanged then). */
int lg_builder_add(lg_builder *b, uint32_t tb, uint64_t addr, unsigned bytes);

/* Adds one warp access: the lanes in mask read `bytes` bytes each at addr[lane]. */
int lg_builder_add_warp(lg_builder *b, uint32_t tb, uint32_t mask, const uint64_t *addr, unsigned bytes);

/* Builds the graph of the references so far. Returns 0 or -1 (out of memory; g is zeroed). */
int lg_builder_graph(const lg_builder *b, lg_graph *g);

/* Distinct granules TB tb referenced (its reference-set size). */
uint64_t lg_builder_refs(const lg_builder *b, uint32_t tb);

/* Pair weights L[i][j] (i != j, either order), accumulated before the CSR is built: the profiled
 * builder adds one per shared granule, the span builder (lg_spans.h) a run's length. */
typedef struct lg_pairs { uint64_t *key, *val; uint8_t *used; size_t n, cap; } lg_pairs;
int lg_pairs_add(lg_pairs *p, uint32_t i, uint32_t j, uint64_t w); /* 0 or -1 (out of memory) */
int lg_pairs_graph(const lg_pairs *p, uint32_t n_tbs, lg_graph *g); /* 0 or -1 (g zeroed) */
void lg_pairs_free(lg_pairs *p);

void lg_graph_free(lg_graph *g);
/* The subgraph induced by the n distinct TBs vertices[]: TB vertices[k] becomes k. 0 or -1. */
int lg_graph_subgraph(const lg_graph *g, const uint32_t *vertices, uint32_t n, lg_graph *sub);
uint64_t lg_graph_get(const lg_graph *g, uint32_t i, uint32_t j);
void lg_graph_summary(const lg_graph *g, lg_summary *s);

/* 1 when both graphs have the same size and every element is equal; else 0 and, when not NULL,
 * the first differing pair in *i, *j (row-major). */
int lg_graph_equal(const lg_graph *a, const lg_graph *b, uint32_t *i, uint32_t *j);

/* Matrix Market "coordinate integer symmetric", lower triangle, 1-based. Returns 0 or -1. */
int lg_graph_write_mm(const lg_graph *g, FILE *f);

#endif
