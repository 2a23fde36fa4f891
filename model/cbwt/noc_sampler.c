/* Sampled NoC packet latency (semantics in noc_sampler.h). */
#include "noc_sampler.h"

#include <string.h>

int noc_sampler_init(noc_sampler *s, int rate)
{
    memset(s, 0, sizeof *s);
    if (rate < 1 || rate > 32768 || (rate & (rate - 1))) return -1;
    s->rate = rate;
    s->lfsr = 0xACE1u;
    return 0;
}

int noc_sampler_pick(noc_sampler *s)
{
    /* x^16 + x^14 + x^13 + x^11 + 1 (maximal length) */
    unsigned lsb = s->lfsr & 1u;
    s->lfsr = (uint16_t)(s->lfsr >> 1);
    if (lsb) s->lfsr ^= 0xB400u;
    return (s->lfsr & (unsigned)(s->rate - 1)) == 0;
}

void noc_sampler_record(noc_sampler *s, int sampled, uint64_t latency)
{
    s->all_sum += latency;
    s->all_cnt++;
    if (sampled) {
        s->lat_sum += latency;
        s->lat_cnt++;
        s->smp_sum += latency;
        s->smp_cnt++;
    }
}

double noc_sampler_period(noc_sampler *s, double prev)
{
    double r = s->lat_cnt ? (double)s->lat_sum / (double)s->lat_cnt : prev;
    s->lat_sum = s->lat_cnt = 0;
    return r;
}
