#include "sld.h"

#include <string.h>

int sld_init(sld_pf *p, uint32_t n, uint32_t line_bytes)
{
    memset(p, 0, sizeof *p);
    if (n == 0 || n > SLD_MAX_ENTRIES || line_bytes == 0 || (line_bytes & (line_bytes - 1))) return -1;
    p->n = n;
    p->line_bytes = line_bytes;
    return 0;
}

uint32_t sld_access(sld_pf *p, uint64_t addr, uint64_t *out)
{
    p->accesses++;
    p->clock++;
    uint64_t line = addr / p->line_bytes, block = line / SLD_LINES;
    sld_entry *e = NULL, *victim = &p->e[0];
    for (uint32_t i = 0; i < p->n && !e; i++) {
        if (p->e[i].valid && p->e[i].block == block) e = &p->e[i];
        else if (!p->e[i].valid || (victim->valid && p->e[i].lru < victim->lru)) victim = &p->e[i];
    }
    if (!e) {
        e = victim;
        memset(e, 0, sizeof *e);
        e->valid = 1;
        e->block = block;
    }
    e->lru = p->clock;
    e->seen |= (uint8_t)(1u << (line % SLD_LINES));
    uint32_t m = 0, cnt = 0;
    for (uint32_t k = 0; k < SLD_LINES; k++) cnt += (e->seen >> k) & 1u;
    if (cnt >= 2 && !e->fired) {
        e->fired = 1;
        p->triggers++;
        for (uint32_t k = 0; k < SLD_LINES; k++)
            if (!((e->seen >> k) & 1u)) out[m++] = (block * SLD_LINES + k) * p->line_bytes;
    }
    p->prefetches += m;
    return m;
}
