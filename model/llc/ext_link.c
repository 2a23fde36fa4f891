#include "ext_link.h"

#include <stdlib.h>
#include <string.h>

static uint64_t ceil_scaled(uint64_t n, double f)
{
    double x = (double)n * f;
    uint64_t c = (uint64_t)x;
    if ((double)c < x - 1e-9) c++;
    return c;
}

int ext_link_init(ext_link *l, uint32_t n_ctl, uint32_t n_sms, uint32_t flit_bytes, uint32_t latency, double l2_mhz,
                  double icnt_mhz)
{
    memset(l, 0, sizeof *l);
    l->l2_per_icnt = icnt_mhz > 0 ? l2_mhz / icnt_mhz : 1.0;
    l->flit_bytes = flit_bytes ? flit_bytes : 1;
    l->latency = latency;
    l->n_ctl = n_ctl;
    l->n_sms = n_sms;
    l->ctl_out = calloc(n_ctl + 1, sizeof *l->ctl_out);
    l->ctl_in = calloc(n_ctl + 1, sizeof *l->ctl_in);
    l->sm_in = calloc(n_sms + 1, sizeof *l->sm_in);
    l->sm_out = calloc(n_sms + 1, sizeof *l->sm_out);
    return l->ctl_out && l->ctl_in && l->sm_in && l->sm_out ? 0 : -1;
}

void ext_link_free(ext_link *l)
{
    free(l->ctl_out);
    free(l->ctl_in);
    free(l->sm_in);
    free(l->sm_out);
    memset(l, 0, sizeof *l);
}

static uint32_t flits_of(const ext_link *l, uint32_t bytes) { return (bytes + l->flit_bytes - 1) / l->flit_bytes; }

uint64_t ext_link_latency(const ext_link *l, uint32_t bytes)
{
    return ceil_scaled(1 + (uint64_t)flits_of(l, bytes) + l->latency, l->l2_per_icnt);
}

static uint64_t cross(ext_link *l, uint64_t *out, uint64_t *in, uint64_t send, uint32_t bytes)
{
    uint64_t start = send;
    if (*out > start) start = *out;
    if (*in > start) start = *in;
    uint32_t f = flits_of(l, bytes);
    *out = *in = start + ceil_scaled(f, l->l2_per_icnt);
    l->packets++;
    l->flits += f;
    return start + ext_link_latency(l, bytes);
}

uint64_t ext_link_to_sm(ext_link *l, uint32_t ctl, uint32_t rank, uint64_t send, uint32_t bytes)
{
    return cross(l, &l->ctl_out[ctl], &l->sm_in[rank], send, bytes);
}

uint64_t ext_link_to_ctl(ext_link *l, uint32_t rank, uint32_t ctl, uint64_t send, uint32_t bytes)
{
    return cross(l, &l->sm_out[rank], &l->ctl_in[ctl], send, bytes);
}
