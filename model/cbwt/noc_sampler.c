/* Sampled NoC packet latency (semantics in noc_sampler.h). */
#include "noc_sampler.h"

#include <stdlib.h>
#include <string.h>

int noc_sampler_init(noc_sampler *s, int rate, int n_sms)
{
    memset(s, 0, sizeof *s);
    if (rate < 1 || rate > 32768 || (rate & (rate - 1)) || n_sms < 1) return -1;
    s->sm_sum = calloc((size_t)n_sms, sizeof *s->sm_sum);
    s->sm_cnt = calloc((size_t)n_sms, sizeof *s->sm_cnt);
    if (!s->sm_sum || !s->sm_cnt) {
        noc_sampler_free(s);
        return -1;
    }
    s->n_sms = n_sms;
    s->rate = rate;
    s->lfsr = 0xACE1u;
    return 0;
}

void noc_sampler_free(noc_sampler *s)
{
    free(s->sm_sum);
    free(s->sm_cnt);
    s->sm_sum = s->sm_cnt = NULL;
    s->n_sms = 0;
}

int noc_sampler_pick(noc_sampler *s)
{
    /* x^16 + x^14 + x^13 + x^11 + 1 (maximal length) */
    unsigned lsb = s->lfsr & 1u;
    s->lfsr = (uint16_t)(s->lfsr >> 1);
    if (lsb) s->lfsr ^= 0xB400u;
    return (s->lfsr & (unsigned)(s->rate - 1)) == 0;
}

void noc_sampler_record(noc_sampler *s, int sampled, uint64_t latency, int dir, int sm)
{
    int d = dir == NOC_DIR_RSP ? NOC_DIR_RSP : NOC_DIR_REQ;
    s->all_sum += latency;
    s->all_cnt++;
    s->dir_all_sum[d] += latency;
    s->dir_all_cnt[d]++;
    if (!sampled) return;
    s->lat_sum += latency;
    s->lat_cnt++;
    s->smp_sum += latency;
    s->smp_cnt++;
    s->dir_smp_sum[d] += latency;
    s->dir_smp_cnt[d]++;
    if (sm >= 0 && sm < s->n_sms) {
        s->sm_sum[sm] += latency;
        s->sm_cnt[sm]++;
    }
}

static double average(uint64_t *sum, uint64_t *cnt, double prev)
{
    double r = *cnt ? (double)*sum / (double)*cnt : prev;
    *sum = *cnt = 0;
    return r;
}

double noc_sampler_period(noc_sampler *s, double prev) { return average(&s->lat_sum, &s->lat_cnt, prev); }

double noc_sampler_sm_period(noc_sampler *s, int sm, double prev)
{
    if (sm < 0 || sm >= s->n_sms) return prev;
    return average(&s->sm_sum[sm], &s->sm_cnt[sm], prev);
}
