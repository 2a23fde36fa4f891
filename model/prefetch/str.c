#include "str.h"

#include <string.h>

int str_init(str_pf *p, uint32_t n, uint32_t degree, uint32_t distance)
{
    memset(p, 0, sizeof *p);
    if (n == 0 || n > STR_MAX_ENTRIES || degree == 0 || degree > STR_MAX_DEGREE || distance == 0 || distance > 64)
        return -1;
    p->n = n;
    p->degree = degree;
    p->distance = distance;
    return 0;
}

uint32_t str_access(str_pf *p, uint64_t pc, uint64_t addr, uint64_t *out)
{
    p->accesses++;
    p->clock++;
    str_entry *e = NULL, *victim = &p->e[0];
    for (uint32_t i = 0; i < p->n && !e; i++) {
        if (p->e[i].valid && p->e[i].pc == pc) e = &p->e[i];
        else if (!p->e[i].valid || (victim->valid && p->e[i].lru < victim->lru)) victim = &p->e[i];
    }
    uint32_t m = 0;
    if (!e) {
        e = victim;
        memset(e, 0, sizeof *e);
        e->valid = 1;
        e->pc = pc;
    } else {
        int64_t s = (int64_t)(addr - e->addr);
        if (s != 0 && e->stride_valid && s == e->stride) {
            p->matches++;
            for (uint32_t k = 0; k < p->degree; k++)
                out[m++] = addr + (uint64_t)((int64_t)(p->distance + k) * s);
        }
        if (s != 0) {
            e->stride = s;
            e->stride_valid = 1;
        }
    }
    e->addr = addr;
    e->lru = p->clock;
    p->prefetches += m;
    return m;
}
