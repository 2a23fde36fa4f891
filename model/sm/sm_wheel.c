/* The SM's writeback wheel (results due at a future cycle, bucketed by cycle modulo the wheel
 * size) and its records of memory instructions with accesses in flight. */
#include <stdlib.h>
#include <string.h>

#include "sm_internal.h"

int sm_wheel_init(sm_core *s, uint32_t size)
{
    s->wheel_size = size;
    s->wheel = calloc(size, sizeof *s->wheel);
    s->wheel_bits = calloc((size + 63) / 64, sizeof *s->wheel_bits);
    s->wheel_pending = 0;
    s->wheel_cycle = 0;
    return s->wheel && s->wheel_bits ? 0 : -1;
}

/* The first cycle >= from whose bucket holds events (some bucket does): a circular scan of the
 * occupancy bits from from's bucket, whole words at a time. */
static uint64_t wheel_next_from(const sm_core *s, uint64_t from)
{
    uint32_t mask = s->wheel_size - 1, p = (uint32_t)(from & mask), nw = (s->wheel_size + 63) / 64;
    uint32_t wi = p / 64;
    uint64_t word = s->wheel_bits[wi] & (~0ull << (p % 64));
    for (uint32_t k = 0; k <= nw; k++) {
        if (word) {
            uint32_t pos = wi * 64 + (uint32_t)__builtin_ctzll(word);
            return from + ((pos - p) & mask);
        }
        wi = wi + 1 < nw ? wi + 1 : 0;
        word = s->wheel_bits[wi];
    }
    return SM_NEVER;
}

void sm_wheel_free(sm_core *s)
{
    if (s->wheel)
        for (uint32_t i = 0; i < s->wheel_size; i++) free(s->wheel[i].ev);
    free(s->wheel);
    s->wheel = NULL;
    free(s->wheel_bits);
    s->wheel_bits = NULL;
    free(s->rec);
    s->rec = NULL;
}

int sm_wheel_add(sm_core *s, uint64_t at, uint32_t slot, uint32_t reg, uint32_t rec)
{
    if (at < s->wheel_cycle) at = s->wheel_cycle;
    /* Latencies are bounded by the configuration; the wheel was sized for the longest. */
    if (at - s->wheel_cycle >= s->wheel_size) at = s->wheel_cycle + s->wheel_size - 1;
    uint32_t pos = (uint32_t)(at & (s->wheel_size - 1));
    sm_bucket *b = &s->wheel[pos];
    if (b->n == b->cap) {
        uint32_t cap = b->cap ? b->cap * 2 : 8;
        sm_event *ev = realloc(b->ev, cap * sizeof *ev);
        if (!ev) return -1;
        b->ev = ev;
        b->cap = cap;
    }
    b->ev[b->n].slot = slot;
    b->ev[b->n].reg = reg;
    b->ev[b->n].rec = rec;
    b->n++;
    s->wheel_bits[pos / 64] |= 1ull << (pos % 64);
    s->wheel_pending++;
    return 0;
}

void sm_wheel_run(sm_core *s, uint64_t cycle)
{
    while (s->wheel_pending && s->wheel_cycle <= cycle) {
        uint64_t due = wheel_next_from(s, s->wheel_cycle); /* empty buckets in between hold nothing */
        if (due > cycle) break;
        s->wheel_cycle = due;
        uint32_t pos = (uint32_t)(due & (s->wheel_size - 1));
        sm_bucket *b = &s->wheel[pos];
        for (uint32_t i = 0; i < b->n; i++) { /* b->n may grow: a record completion adds nothing here */
            sm_event e = b->ev[i];
            if (e.rec != SM_NO_RECORD && e.rec != SM_WB_RETRY) {
                sm_record_done(s, e.rec, cycle);
            } else {
                uint32_t w = s->slb ? sm_slumber_writeback(s, e.slot, e.reg, cycle, e.rec == SM_WB_RETRY) : 0;
                if (w) { /* the register is still waking: the write waits */
                    sm_wheel_add(s, cycle + w, e.slot, e.reg, SM_WB_RETRY);
                    continue;
                }
                sb_release(&s->sb, e.slot, e.reg);
                sm_mark_dirty(s, e.slot);
                /* A warp that exited with a result still in flight: its CTA may be complete now. */
                if (s->warps[e.slot].exited && sm_slot_live(&s->warps[e.slot])) sm_cta_check_done(s, s->warps[e.slot].cta);
            }
        }
        s->wheel_pending -= b->n;
        b->n = 0;
        s->wheel_bits[pos / 64] &= ~(1ull << (pos % 64));
        s->wheel_cycle++;
    }
    if (s->wheel_cycle <= cycle) s->wheel_cycle = cycle + 1;
}

uint64_t sm_wheel_next(const sm_core *s)
{
    if (!s->wheel_pending) return SM_NEVER;
    return wheel_next_from(s, s->wheel_cycle);
}

uint32_t sm_record_new(sm_core *s, uint32_t slot, const ptx_instr *in, uint32_t reg_base, int is_store,
                       uint64_t cycle)
{
    if (s->rec_free == SM_NO_RECORD) {
        uint32_t n = s->n_rec ? s->n_rec * 2 : 64;
        sm_record *r = realloc(s->rec, n * sizeof *r);
        if (!r) return SM_NO_RECORD;
        for (uint32_t i = s->n_rec; i < n; i++) {
            r[i].in_use = 0;
            r[i].next_free = i + 1 < n ? i + 1 : SM_NO_RECORD;
        }
        s->rec = r;
        s->rec_free = s->n_rec;
        s->n_rec = n;
    }
    uint32_t i = s->rec_free;
    sm_record *r = &s->rec[i];
    s->rec_free = r->next_free;
    memset(r, 0, sizeof *r);
    r->in_use = 1;
    r->slot = slot;
    r->is_store = (uint8_t)is_store;
    r->is_atomic = 0; /* set by the LD/ST unit when the warp waits for it */
    r->issue_cycle = cycle;
    r->next_free = SM_NO_RECORD;
    if (in && !is_store)
        for (int k = 0; k < in->ndst; k++)
            if (in->dst[k] != PTX_NO_REG) r->dst[r->ndst++] = in->dst[k] + reg_base;
    s->rec_used++;
    return i;
}

static unsigned log2_bucket(uint64_t v)
{
    unsigned b = 0;
    while (v > 1 && b < 15) { v >>= 1; b++; }
    return b;
}

void sm_record_done(sm_core *s, uint32_t i, uint64_t cycle)
{
    if (i >= s->n_rec || !s->rec[i].in_use) return;
    sm_record *r = &s->rec[i];
    if (r->outstanding > 1) {
        r->outstanding--;
        return;
    }
    sm_warp_slot *ws = &s->warps[r->slot];
    if (s->slb && !r->is_store) {
        uint32_t w = sm_slumber_load_done(s, r, cycle);
        if (w) { /* a destination still waking: the write-back waits for it */
            sm_wheel_add(s, cycle + w, r->slot, SM_NO_RECORD, i);
            return;
        }
    }
    for (uint32_t k = 0; k < r->ndst; k++) sb_release(&s->sb, r->slot, r->dst[k]);
    if (r->is_atomic && ws->atomics) ws->atomics--;
    if (r->is_store) {
        if (ws->stores) ws->stores--;
    } else {
        if (ws->loads) ws->loads--;
        if (r->long_latency) {
            uint64_t lat = cycle - r->issue_cycle;
            s->st.load_latency_sum += lat;
            s->st.load_latency_n++;
            s->st.load_latency_hist[log2_bucket(lat)]++;
        }
    }
    sm_mark_dirty(s, r->slot);
    r->in_use = 0;
    r->next_free = s->rec_free;
    s->rec_free = i;
    s->rec_used--;
    s->progress++;
    if (sm_slot_live(ws) && sm_slot_state(ws) == SIMT_WARP_DONE) sm_cta_check_done(s, ws->cta);
}
