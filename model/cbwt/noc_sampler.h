/*
 * CBWT's congestion detector (seeds/001 Sec. V-B; spec 3.4): a pseudo-random 1-in-`rate` subset of
 * NoC packets (a 16-bit Galois LFSR, so runs are deterministic) has its latency, injection-queue
 * entry to ejection, accumulated; the period's average is the congestion signal. Besides the
 * GPU-wide period sums: per SM period sums (the SM that sent a request or receives a reply, for
 * -cbwt_maw_scope core) and whole-run sums per direction (request network, reply network).
 */
#ifndef GTLM_CBWT_NOC_SAMPLER_H
#define GTLM_CBWT_NOC_SAMPLER_H

#include <stdint.h>

enum { NOC_DIR_REQ = 0, NOC_DIR_RSP = 1, NOC_DIRS = 2 };

typedef struct noc_sampler {
    uint16_t lfsr;
    int rate;          /* power of two; 1 samples every packet */
    int n_sms;
    uint64_t lat_sum, lat_cnt;        /* this period */
    uint64_t *sm_sum, *sm_cnt;        /* this period, per SM (sampled packets of that SM) */
    uint64_t all_sum, all_cnt;        /* every packet, whole run (full-coverage statistic) */
    uint64_t smp_sum, smp_cnt;        /* sampled packets, whole run */
    uint64_t dir_all_sum[NOC_DIRS], dir_all_cnt[NOC_DIRS]; /* per direction, every packet */
    uint64_t dir_smp_sum[NOC_DIRS], dir_smp_cnt[NOC_DIRS]; /* per direction, sampled packets */
} noc_sampler;

/* 0, or -1 (rate not a power of two in 1..32768, n_sms < 1, no memory). */
int noc_sampler_init(noc_sampler *s, int rate, int n_sms);
void noc_sampler_free(noc_sampler *s);
/* Called at each packet's injection: 1 when this packet is a sampler. */
int noc_sampler_pick(noc_sampler *s);
/* A packet of direction `dir` (NOC_DIR_*) to or from SM `sm` ejected after `latency` cycles;
   `sampled` is what pick returned for it. An sm outside [0, n_sms) counts nowhere per SM. */
void noc_sampler_record(noc_sampler *s, int sampled, uint64_t latency, int dir, int sm);
/* Period end: the sampled average latency (prev when nothing was sampled); counters restart. */
double noc_sampler_period(noc_sampler *s, double prev);
/* Per-SM period end: the average of SM sm's sampled packets since its last period (prev when
   none); its counters restart (the GPU-wide ones run on). */
double noc_sampler_sm_period(noc_sampler *s, int sm, double prev);

#endif
