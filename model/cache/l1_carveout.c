#include "l1_carveout.h"

int l1_carveout_max_ways(const l1_config *c)
{
    const gsim_cache_cfg *d = &c->dl1;
    if (d->disabled || d->nsets <= 0 || d->line_size <= 0) return 0;
    return (int)((int64_t)c->unified_l1d_kb * 1024 / ((int64_t)d->nsets * d->line_size));
}

gsim_cache_cfg l1_carveout_dl1(const l1_config *c, uint64_t shmem_bytes)
{
    gsim_cache_cfg d = c->dl1;
    if (!c->adaptive_cache || d.disabled || c->shmem_options.n == 0) return d;
    int entry = c->shmem_options.v[c->shmem_options.n - 1];
    for (int i = 0; i < c->shmem_options.n; i++)
        if ((uint64_t)c->shmem_options.v[i] * 1024 >= shmem_bytes) {
            entry = c->shmem_options.v[i];
            break;
        }
    int64_t u = c->unified_l1d_kb, max = l1_carveout_max_ways(c);
    int64_t rest = u > entry ? u - entry : 0;
    int64_t ways = (2 * max * rest + u) / (2 * u); /* round(max x rest / u), halves up */
    d.assoc = ways > 0 ? (int)ways : 1;
    if (d.alloc_policy == 's') d.alloc_policy = shmem_bytes == 0 ? 'm' : 'f';
    return d;
}
