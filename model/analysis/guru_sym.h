/*
 * LocalityGuru's symbolic closed form (thesis Ch. 4: the TB-to-TB sharing derived from the PTX,
 * docs/paver.md): one walk over the kernel per launch (parameters and launch shape known, so they
 * are constants) evaluates every value of the resolved slice as an affine form over (tid, ctaid,
 * loop induction variables) (guru_affine.h). Branches on affine conditions split the walk into
 * paths whose conditions are conjunctions of "affine >= 0" (PolyBench's bounds checks become
 * interval clips of the index ranges); a loop whose registers advance by constants is proven
 * inductive (the back edge's value equals the header's at k + 1) and its uniform exit is solved
 * for the trip count. The result is a list of events: each global load as an affine address over
 * a box of indices clipped by its path's atoms, and each range obligation (a 32-bit value widened
 * or compared must not wrap). guru_sym_graph instantiates them per TB: a load is a union of
 * affine ranges, i.e. runs of granules, and the TB x TB matrix is the sweep over their ends
 * (lg_spans.h). What is not affine (and/rem/div, variable shifts, data, thread-dependent loop
 * exits) is reported per load, and the caller falls back to stepping (guru_eval.h).
 */
#ifndef GTLM_GURU_SYM_H
#define GTLM_GURU_SYM_H

#include <stddef.h>
#include <stdint.h>

#include "../simt/simt.h"
#include "guru_affine.h"
#include "guru_trees.h"
#include "locality_graph.h"

#define GS_ATOMS 24 /* path condition atoms */

enum gs_kind { GS_LOAD = 0, GS_RANGE = 1 };

typedef struct gs_event {
    uint8_t kind, space, depth, n_atoms;
    uint32_t load;       /* GS_LOAD: index into guru_kernel.loads */
    uint32_t line;       /* PTX line */
    unsigned bytes;      /* GS_LOAD: access size */
    ga_aff val;          /* the address, or the value that must stay in [lo, hi] */
    int64_t lo, hi;      /* GS_RANGE */
    uint32_t trip[GA_MAXLOOP]; /* k_d in [0, trip[d]) for d < depth */
    ga_aff atom[GS_ATOMS];     /* the path condition: every atom >= 0 */
} gs_event;

typedef struct guru_sym {
    gs_event *ev;
    size_t n, cap;
    int failed;          /* the walk itself gave up (control it cannot follow): every load falls back */
    char why[200];       /* why it failed, with the line */
    uint32_t n_loads;
    char (*load_why)[256]; /* per load: "" when in closed form, else why it falls back */
    uint32_t n_fallback;
} guru_sym;

/* Walks kernel k for launch l. Returns 0 (inspect s->failed / n_fallback), or -1 when memory ran
 * out. */
int guru_sym_build(const guru_kernel *k, const simt_launch *l, guru_sym *s);
void guru_sym_free(guru_sym *s);

/* The graph of launch l in closed form. Returns 0; 1 when the closed form does not apply (a load
 * falls back, or an obligation fails for some TB: why says which, with the line); -1 on error. */
int guru_sym_graph(const guru_kernel *k, const simt_launch *l, int granularity, lg_graph *g, char *why,
                   size_t len);

#endif
