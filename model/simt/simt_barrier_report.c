/* What a CTA whose warps wait at barriers looks like, for deadlock reports. */
#include <stdio.h>

#include "simt_internal.h"

/* Appends the warps of c in state (and, for AT_BARRIER, at barrier id) as "0, 1, 5" (at most 8). */
static void list_warps(const simt_cta *c, int waiting, uint32_t id, strbuf *out)
{
    uint32_t shown = 0, n = 0;
    for (uint32_t i = 0; i < c->n_warps; i++) {
        const simt_warp *w = &c->warps[i];
        if (w->state == SIMT_WARP_DONE) continue;
        int at = w->state == SIMT_WARP_AT_BARRIER && w->barrier_id == id;
        if (at != waiting) continue;
        n++;
        if (shown < 8) strbuf_printf(out, "%s%u", shown++ ? ", " : "", i);
    }
    if (n > shown) strbuf_printf(out, " and %u more", n - shown);
}

uint32_t simt_cta_describe_barriers(const simt_cta *c, strbuf *out, uint32_t *func, uint32_t *pc, uint32_t *warp)
{
    const ptx_module *m = &c->launch->mod->ptx;
    uint32_t total = 0;
    for (uint32_t id = 0; id < 16; id++) {
        if (!c->arrived[id]) continue;
        const simt_warp *first = NULL;
        for (uint32_t i = 0; i < c->n_warps && !first; i++)
            if (c->warps[i].state == SIMT_WARP_AT_BARRIER && c->warps[i].barrier_id == id) first = &c->warps[i];
        if (!first) continue;
        if (!total) {
            *func = first->bar_func;
            *pc = first->bar_pc;
            *warp = first->id;
        }
        total += c->arrived[id];
        char where[200];
        const ptx_func *f = first->bar_func < m->n_funcs ? &m->funcs[first->bar_func] : c->launch->kernel;
        ptx_describe_instr(m, f, first->bar_pc, where, sizeof where);
        strbuf_printf(out, "%sCTA (%u,%u,%u) barrier %u at %s: %u of %u live warps wait (warps ", total > c->arrived[id] ? "; " : "",
                      c->ctaid[0], c->ctaid[1], c->ctaid[2], id, where, c->arrived[id], c->live_warps);
        list_warps(c, 1, id, out);
        strbuf_printf(out, "), the others never arrive (warps ");
        list_warps(c, 0, id, out);
        strbuf_printf(out, ")");
    }
    return total;
}
