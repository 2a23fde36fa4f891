/*
 * CBWT's congestion detector (seeds/001 Sec. V-B; spec 3.4): a pseudo-random 1-in-`rate` subset of
 * NoC packets (a 16-bit Galois LFSR, so runs are deterministic) has its latency, injection-queue
 * entry to ejection, accumulated; the period's average is the congestion signal.
 */
#ifndef GTLM_CBWT_NOC_SAMPLER_H
#define GTLM_CBWT_NOC_SAMPLER_H

#include <stdint.h>

typedef struct noc_sampler {
    uint16_t lfsr;
    int rate;          /* power of two; 1 samples every packet */
    uint64_t lat_sum, lat_cnt;        /* this period */
    uint64_t all_sum, all_cnt;        /* every packet, whole run (full-coverage statistic) */
    uint64_t smp_sum, smp_cnt;        /* sampled packets, whole run */
} noc_sampler;

/* 0, or -1 (rate not a power of two in 1..32768). */
int noc_sampler_init(noc_sampler *s, int rate);
/* Called at each packet's injection: 1 when this packet is a sampler. */
int noc_sampler_pick(noc_sampler *s);
/* A packet ejected after `latency` cycles; `sampled` is what pick returned at its injection. */
void noc_sampler_record(noc_sampler *s, int sampled, uint64_t latency);
/* Period end: the sampled average latency (prev when nothing was sampled); counters restart. */
double noc_sampler_period(noc_sampler *s, double prev);

#endif
