/* Which warps of an SM wait at barriers, for the report of a kernel that cannot finish. */
#include "sm_core.h"

uint32_t sm_core_describe_barriers(const sm_core *c, strbuf *out)
{
    uint32_t waiting = 0;
    for (uint32_t i = 0; i < c->n_cta_slots; i++) {
        const sm_cta_slot *s = &c->ctas[i];
        if (!s->live) continue;
        if (c->launch) {
            strbuf part;
            strbuf_init(&part);
            uint32_t func = 0, pc = 0, warp = 0;
            uint32_t n = simt_cta_describe_barriers(&s->cta, &part, &func, &pc, &warp);
            if (n) strbuf_line(out, "SM %d %s", c->id, strbuf_str(&part));
            strbuf_free(&part);
            waiting += n;
        } else if (s->t_arrived) {
            strbuf_line(out, "SM %d CTA (%u,%u,%u): %u of %u live trace warps wait at a barrier", c->id, s->ctaid[0],
                        s->ctaid[1], s->ctaid[2], s->t_arrived, s->t_live);
            waiting += s->t_arrived;
        }
    }
    return waiting;
}
