/*
 * The reuse-distance (RD) sampler and PD predictor of dynamic PDP (spec 3.2.3; the hit-rate model
 * of Duong et al., MICRO 2012, the document's [11]). One predictor per L1 is PDP-P; one fed by
 * every L1 is PDP-G; the sampler core's, broadcast to all L1s, is PDP-S (CBWT's choice).
 *
 * Sampled sets keep, per set, an access counter and up to dmax recently accessed tags with the
 * counter value at their last access. An access to a tag found there has RD = counter - stamp
 * (RD 1 = the set's previous access was the same line) and counts N[RD] when RD <= dmax. Every
 * sampled access counts N_t. At each period end
 *     E(dp) = sum_{i<=dp} N_i / ( sum_{i<=dp} N_i * i + (N_t - sum_{i<=dp} N_i) * (dp + de) )
 * and PD = argmax E(dp) over dp in [pd_min, dmax] (the smallest dp on ties; PROPOSAL). de is the
 * associativity (spec 3.2.3). With N_t == 0 or no reuse the PD is kept.
 */
#ifndef GTLM_CBWT_PDP_PREDICTOR_H
#define GTLM_CBWT_PDP_PREDICTOR_H

#include <stdint.h>

typedef struct pdp_predictor {
    int nsets;         /* sets of the L1 */
    int sample_every;  /* set s is sampled when s % sample_every == 0 */
    int dmax;          /* maximum RD counted and maximum PD */
    int de;            /* associativity, in E(dp) */
    int pd_min;        /* smallest PD considered (the associativity in the document) */
    uint32_t *set_acc; /* per sampled set */
    uint64_t *fifo_tag;
    uint32_t *fifo_stamp;
    uint8_t *fifo_n;   /* entries in use per sampled set */
    uint64_t *n;       /* N[1..dmax] at n[1..dmax] */
    uint64_t nt;
} pdp_predictor;

int pdp_predictor_init(pdp_predictor *p, int nsets, int sample_every, int dmax, int de, int pd_min);
void pdp_predictor_free(pdp_predictor *p);
/* A load to (set, line address). Ignored for sets that are not sampled. */
void pdp_predictor_access(pdp_predictor *p, int set, uint64_t line_addr);
/* PD maximising E(dp) from the counters (cur when there is nothing to go on). */
int pdp_predict(const uint64_t *n, uint64_t nt, int dmax, int de, int pd_min, int cur);
/* Period end: the new PD, then counters N and N_t reset (the RD FIFOs persist). */
int pdp_predictor_period(pdp_predictor *p, int cur);

#endif
