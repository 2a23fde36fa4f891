#include "lb_monitor.h"

#include <string.h>

uint8_t lb_hpc(uint32_t pc)
{
    uint32_t h = 0;
    for (int i = 0; i < 7; i++) h ^= (pc >> (5 * i)) & 0x1Fu;
    return (uint8_t)h;
}

void lb_monitor_reset(lb_monitor *m, double threshold)
{
    memset(m, 0, sizeof *m);
    m->state = LB_MONITOR;
    m->threshold = threshold;
}

void lb_monitor_access(lb_monitor *m, uint8_t hpc, uint32_t pc, int hit)
{
    if (m->state != LB_MONITOR) return;
    lb_lm_entry *e = &m->e[hpc % LB_LM_ENTRIES];
    if (!e->has_pc) {
        e->pc = pc;
        e->has_pc = 1;
    }
    if (hit) e->hit++;
    else e->miss++;
}

lb_state lb_monitor_period_end(lb_monitor *m)
{
    if (m->state != LB_MONITOR) return m->state;
    m->periods++;
    uint32_t cur = 0;
    for (uint32_t h = 0; h < LB_LM_ENTRIES; h++) {
        lb_lm_entry *e = &m->e[h];
        uint64_t n = (uint64_t)e->hit + e->miss;
        int high = n > 0 && (double)e->hit > m->threshold * (double)n;
        if (high) cur |= 1u << h;
        e->valid = (uint8_t)(((e->valid << 1) | (high ? 1u : 0u)) & 3u);
    }
    if (cur != 0 && cur == m->prev) { /* the same loads in two consecutive periods: all valid == 0b11 */
        m->selected = cur;
        m->state = LB_ACTIVE;
    } else if (m->periods >= 2 && cur == 0 && m->prev == 0) {
        m->state = LB_DISABLED; /* not cache sensitive */
    } else {
        m->prev = cur;
        for (uint32_t h = 0; h < LB_LM_ENTRIES; h++) m->e[h].hit = m->e[h].miss = 0; /* PC and valid kept */
    }
    return m->state;
}

int lb_monitor_selected(const lb_monitor *m, uint8_t hpc)
{
    return m->state == LB_ACTIVE && hpc < LB_LM_ENTRIES && ((m->selected >> hpc) & 1u);
}
