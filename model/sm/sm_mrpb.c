/* MRPB's SM side (seeds/001 Sec. VI-B; spec section 7 item 8): with -mrpb_queues N the LD/ST unit
 * puts every global and local L1D request (loads and stores) into the per-warp reorder buffer of
 * model/cbwt/mrpb.h instead of accessing the L1D, one request per cycle as before; the unit is
 * free for the next instruction once the last one is buffered, and stalls while the warp's queue
 * is full. Each cycle the buffer's pick accesses the L1D (the unit no longer does, so the port is
 * the buffer's). A refused access stays at the head and retries the next cycle, unless
 * -mrpb_stall_bypass sends the refused load to the L2. Functional values move at issue, so the
 * reordering changes timing only. MRPB replaces MASCAR's re-execution queue when both are set. */
#include <stddef.h>
#include <string.h>

#include "sm_internal.h"

typedef struct sm_mrpb_entry {
    sm_ldst_who who;
    coal_req q;
} sm_mrpb_entry;

int sm_mrpb_init(sm_core *s)
{
    const cbwt_config *c = &s->cfg->cbwt;
    if (!c->mrpb_queues || !s->l1d_enabled) return 0;
    return mrpb_init(&s->mrpb, c->mrpb_queues, c->mrpb_depth, sizeof(sm_mrpb_entry));
}

void sm_mrpb_free(sm_core *s) { mrpb_free(&s->mrpb); }

int sm_mrpb_push(sm_core *s, const coal_req *q)
{
    sm_mrpb_entry e;
    memset(&e, 0, sizeof e);
    sm_ldst_who_now(s, &e.who);
    e.q = *q;
    if (mrpb_push(&s->mrpb, e.who.slot, &e) != 0) return 0;
    s->rec[e.who.rec].outstanding++; /* held until the access passed the L1D */
    return 1;
}

void sm_mrpb_cycle(sm_core *s, uint64_t cycle)
{
    const sm_mrpb_entry *e = (const sm_mrpb_entry *)mrpb_head(&s->mrpb);
    if (!e) return;
    uint32_t rec = e->who.rec;
    if (!sm_ldst_l1d_replay(s, &e->who, &e->q, cycle)) return;
    mrpb_pop(&s->mrpb);
    sm_record_done(s, rec, cycle); /* the access took its own counts (a store may have sent none) */
    s->progress++;
}
