/*
 * TB reference sets as granule spans, for LocalityGuru's closed-form evaluation (docs/paver.md):
 * a warp's load whose lane addresses form an arithmetic progression with a step no larger than a
 * granule covers one run of consecutive granules, so it is recorded as [lo, hi) instead of per
 * lane; other lanes are single granules. When a TB is finished its granules are sorted and merged
 * into disjoint spans, and the graph L[i][j] = |refs(TB_i) ∩ refs(TB_j)| is a sweep over span
 * ends: each stretch of granules adds its length to every pair of TBs reading it. Element for
 * element the graph of lg_builder (locality_graph.h) for the same references.
 */
#ifndef GTLM_LG_SPANS_H
#define GTLM_LG_SPANS_H

#include <stddef.h>
#include <stdint.h>

#include "locality_graph.h"

typedef struct lg_span { uint64_t lo, hi; } lg_span; /* granules lo .. hi - 1 */

typedef struct lg_spans {
    uint32_t n_tbs, cur;     /* cur: the TB being collected (TBs come in ascending order) */
    int granularity;         /* enum lg_granularity */
    int done;                /* every TB finished (lg_spans_graph ran) */
    lg_span *span;           /* finished TBs' disjoint ascending spans */
    size_t n, cap;
    uint64_t *first;         /* first[tb] .. first[tb + 1]: TB tb's spans (n_tbs + 1 entries) */
    uint64_t *single, *tmp;  /* the current TB's single granules and a radix-sort buffer */
    size_t ns, cs;
    lg_span *run;            /* the current TB's multi-granule runs */
    size_t nr, cr;
} lg_spans;

/* 0, or -1 when memory ran out. */
int lg_spans_init(lg_spans *s, uint32_t n_tbs, int granularity);
void lg_spans_free(lg_spans *s);

/* The lanes in mask of one warp load read `bytes` bytes each at addr[lane]. TBs must come in
 * ascending order (a smaller tb than the last one is an error). Returns 0 or -1. */
int lg_spans_add_warp(lg_spans *s, uint32_t tb, uint32_t mask, const uint64_t *addr, unsigned bytes);

/* TB tb reads granules lo .. hi - 1 (hi > lo; the same order rule). Returns 0 or -1. */
int lg_spans_add_run(lg_spans *s, uint32_t tb, uint64_t lo, uint64_t hi);

/* Finishes every TB and builds the graph. 0, or -1 (out of memory; g zeroed). */
int lg_spans_graph(lg_spans *s, lg_graph *g);

/* Distinct granules of TB tb (after lg_spans_graph). */
uint64_t lg_spans_refs(const lg_spans *s, uint32_t tb);

#endif
