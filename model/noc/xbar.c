#include "xbar.h"

#include <stdlib.h>
#include <string.h>

void xbar_params_from_config(const noc_config *c, int n_in, int n_out, xbar_params *p)
{
    p->n_in = n_in;
    p->n_out = n_out;
    p->flit_size = c->flit_size;
    p->in_buffer_limit = c->in_buffer_limit;
    p->out_buffer_limit = c->out_buffer_limit;
    p->latency = c->latency;
    p->arbiter = c->arbiter;
    p->local = c->local_xbar > 0;
}

int xbar_init(xbar *x, const xbar_params *p)
{
    memset(x, 0, sizeof *x);
    if (p->n_in < 1 || p->n_out < 1 || p->n_in > 65535 || p->flit_size < 1 || p->in_buffer_limit < 1 ||
        p->out_buffer_limit < 1 ||
        p->in_buffer_limit > 65535 || p->out_buffer_limit > 65535 || p->latency < 0 || (p->arbiter != XBAR_RR && p->arbiter != XBAR_ISLIP))
        return -1;
    x->p = *p;
    x->slots_per_in = p->in_buffer_limit;
    x->pkts_per_out = p->out_buffer_limit;
    size_t ni = (size_t)p->n_in, no = (size_t)p->n_out;
    x->in = calloc(ni, sizeof *x->in);
    x->out = calloc(no, sizeof *x->out);
    x->slots = calloc(ni * (size_t)x->slots_per_in, sizeof *x->slots);
    x->fifo = calloc(ni * (size_t)x->slots_per_in, sizeof *x->fifo);
    x->voq_head = malloc(ni * no * sizeof *x->voq_head);
    x->voq_tail = malloc(ni * no * sizeof *x->voq_tail);
    x->out_pkts = calloc(no * (size_t)x->pkts_per_out, sizeof *x->out_pkts);
    x->req = calloc(no, sizeof *x->req);
    x->grant = calloc(ni, sizeof *x->grant);
    x->in_stall = calloc(ni, sizeof *x->in_stall);
    x->out_stall = calloc(no, sizeof *x->out_stall);
    x->waiting = calloc(no, sizeof *x->waiting);
    x->in_busy = calloc((ni + 63) / 64, sizeof *x->in_busy);
    x->out_waiting = calloc((no + 63) / 64, sizeof *x->out_waiting);
    x->out_held = calloc((no + 63) / 64, sizeof *x->out_held);
    x->in_words = (int)((ni + 63) / 64);
    x->in_free = calloc((size_t)x->in_words, sizeof *x->in_free);
    x->voq_bits = calloc(no * (size_t)x->in_words, sizeof *x->voq_bits);
    if (!x->in_free || !x->voq_bits || !x->in_busy || !x->out_waiting || !x->out_held || !x->waiting || !x->in || !x->out || !x->slots || !x->fifo || !x->voq_head || !x->voq_tail || !x->out_pkts ||
        !x->req || !x->grant || !x->in_stall || !x->out_stall) {
        xbar_free(x);
        return -1;
    }
    for (size_t k = 0; k < ni * no; k++) x->voq_head[k] = x->voq_tail[k] = -1;
    for (int i = 0; i < p->n_in; i++) {
        xbar_in *in = &x->in[i];
        x->grant[i] = -1;
        in->out = -1;
        in->cur = -1;
        in->free_head = 0;
        xbar_slot *s = &x->slots[(size_t)i * x->slots_per_in];
        for (int k = 0; k < x->slots_per_in; k++) s[k].next = k + 1 < x->slots_per_in ? k + 1 : -1;
    }
    for (int o = 0; o < p->n_out; o++) x->out[o].in = -1;
    for (int i = 0; i < p->n_in; i++) x->in_free[i >> 6] |= UINT64_C(1) << (i & 63);
    return 0;
}

void xbar_free(xbar *x)
{
    free(x->in);
    free(x->out);
    free(x->slots);
    free(x->fifo);
    free(x->voq_head);
    free(x->voq_tail);
    free(x->out_pkts);
    free(x->req);
    free(x->grant);
    free(x->waiting);
    free(x->in_stall);
    free(x->out_stall);
    free(x->in_busy);
    free(x->out_waiting);
    free(x->out_held);
    free(x->in_free);
    free(x->voq_bits);
    memset(x, 0, sizeof *x);
}

int xbar_flits_of(const xbar *x, uint32_t bytes)
{
    uint32_t f = (bytes + (uint32_t)x->p.flit_size - 1) / (uint32_t)x->p.flit_size;
    return f ? (int)f : 1;
}

int xbar_can_accept(const xbar *x, int in, uint32_t bytes)
{
    if (in < 0 || in >= x->p.n_in) return 0;
    int f = xbar_flits_of(x, bytes);
    return f <= x->p.out_buffer_limit && x->in[in].used + f <= x->p.in_buffer_limit;
}

static void bit_set(uint64_t *w, int i) { w[i >> 6] |= UINT64_C(1) << (i & 63); }
static void bit_clear(uint64_t *w, int i) { w[i >> 6] &= ~(UINT64_C(1) << (i & 63)); }

static xbar_slot *xbar_slot_at(xbar *x, int in, int k)
{
    return &x->slots[(size_t)in * x->slots_per_in + k];
}

int xbar_push(xbar *x, int in, int out, uint32_t bytes, uint64_t cookie, uint64_t now)
{
    if (out < 0 || out >= x->p.n_out || !xbar_can_accept(x, in, bytes)) return -1;
    xbar_in *pi = &x->in[in];
    int k = pi->free_head; /* never -1 here: slots in use <= flits in use (see xbar.h) */
    xbar_slot *s = xbar_slot_at(x, in, k);
    pi->free_head = s->next;
    s->cookie = cookie;
    s->push_cycle = now;
    s->bytes = bytes;
    s->flits = (uint16_t)xbar_flits_of(x, bytes);
    s->out = (uint16_t)out;
    s->next = -1;
    size_t q = (size_t)in * x->p.n_out + out;
    if (x->voq_tail[q] < 0) {
        x->voq_head[q] = k;
        bit_set(x->voq_bits + (size_t)out * x->in_words, in);
    } else xbar_slot_at(x, in, x->voq_tail[q])->next = k;
    x->voq_tail[q] = k;
    if (x->p.arbiter == XBAR_RR || x->p.local) {
        x->fifo[(size_t)in * x->slots_per_in + (pi->fifo_head + pi->fifo_n) % x->slots_per_in] = k;
        pi->fifo_n++;
    }
    pi->used += s->flits;
    pi->queued++;
    bit_set(x->in_busy, in);
    bit_set(x->out_waiting, out);
    x->waiting[out]++;
    x->waiting_total++;
    x->queued_flits += s->flits;
    x->packets_in++;
    return 0;
}

/* Pairs input i with output o and takes the head of their virtual output queue. */
static void xbar_pair(xbar *x, int i, int o)
{
    xbar_in *pi = &x->in[i];
    size_t q = (size_t)i * x->p.n_out + o;
    int k = x->voq_head[q];
    xbar_slot *s = xbar_slot_at(x, i, k);
    x->voq_head[q] = s->next;
    if (s->next < 0) {
        x->voq_tail[q] = -1;
        bit_clear(x->voq_bits + (size_t)o * x->in_words, i);
    }
    if (x->p.arbiter == XBAR_RR || x->p.local) { /* the fifo head is the same packet */
        pi->fifo_head = (pi->fifo_head + 1) % x->slots_per_in;
        pi->fifo_n--;
    }
    pi->queued--;
    if (--x->waiting[o] == 0) bit_clear(x->out_waiting, o);
    x->waiting_total--;
    pi->out = o;
    bit_clear(x->in_free, i);
    pi->cur = k;
    pi->sent = 0;
    x->out[o].in = i;
}

static int xbar_out_has_room(const xbar *x, int o)
{
    return x->out[o].used < x->p.out_buffer_limit;
}

static void xbar_arbitrate_rr(xbar *x)
{
    int ni = x->p.n_in, no = x->p.n_out;
    for (int o = xbar_bit_next(x->out_waiting, 0, no); o < no; o = xbar_bit_next(x->out_waiting, o + 1, no)) {
        xbar_out *po = &x->out[o];
        if (po->in >= 0 || x->waiting[o] == 0 || !xbar_out_has_room(x, o)) continue;
        for (int d = 0; d < ni; d++) {
            int i = po->grant_ptr + d;
            if (i >= ni) i -= ni;
            xbar_in *pi = &x->in[i];
            if (pi->out >= 0 || pi->fifo_n == 0) continue;
            int k = x->fifo[(size_t)i * x->slots_per_in + pi->fifo_head];
            if (xbar_slot_at(x, i, k)->out != o) continue;
            xbar_pair(x, i, o);
            po->grant_ptr = (i + 1) % ni;
            break;
        }
    }
}

/* Distance from pointer ptr forward to port p, among n ports. */
static int xbar_ahead(int p, int ptr, int n) { return p >= ptr ? p - ptr : p - ptr + n; }

static void xbar_arbitrate_islip(xbar *x)
{
    int ni = x->p.n_in, no = x->p.n_out, n = 0;
    /* grant: each free output with room and a waiting packet picks, from its grant pointer, a free
     * input that has a packet for it. accept: each granted input takes the first grant from its
     * accept pointer. The inputs' choices do not depend on one another, so each keeps its nearest
     * grant as the grants come (x->grant, -1 outside this function; x->req lists the inputs). */
    for (int o = xbar_bit_next(x->out_waiting, 0, no); o < no; o = xbar_bit_next(x->out_waiting, o + 1, no)) {
        xbar_out *po = &x->out[o];
        if (po->in >= 0 || !xbar_out_has_room(x, o)) continue;
        /* the first free input with a packet for o, from the grant pointer on, wrapping */
        const uint64_t *v = x->voq_bits + (size_t)o * x->in_words;
        int i = xbar_bit_next2(v, x->in_free, po->grant_ptr, ni);
        if (i >= ni) {
            i = xbar_bit_next2(v, x->in_free, 0, po->grant_ptr);
            if (i >= po->grant_ptr) continue; /* no free input has a packet for o */
        }
        int g = x->grant[i], ptr = x->in[i].accept_ptr;
        if (g < 0) x->req[n++] = i;
        if (g < 0 || xbar_ahead(o, ptr, no) < xbar_ahead(g, ptr, no)) x->grant[i] = o;
    }
    for (int k = 0; k < n; k++) {
        int i = x->req[k], o = x->grant[i];
        x->grant[i] = -1;
        xbar_pair(x, i, o);
        x->out[o].grant_ptr = i + 1 < ni ? i + 1 : 0;
        x->in[i].accept_ptr = o + 1 < no ? o + 1 : 0;
    }
}

/* Moves one flit of input i's paired packet if the output has room; returns 1 when it did. */
static int xbar_send(xbar *x, int i, uint64_t now)
{
    xbar_in *pi = &x->in[i];
    int o = pi->out;
    xbar_out *po = &x->out[o];
    if (!xbar_out_has_room(x, o)) {
        x->out_stall[o]++;
        return 0;
    }
    xbar_slot *s = xbar_slot_at(x, i, pi->cur);
    xbar_pkt *ring = &x->out_pkts[(size_t)o * x->pkts_per_out];
    if (pi->sent == 0) {
        xbar_pkt *r = &ring[(po->head + po->n) % x->pkts_per_out];
        r->cookie = s->cookie;
        r->bytes = s->bytes;
        r->flits = s->flits;
        r->in = (uint16_t)i;
        r->push_cycle = s->push_cycle;
        r->ready_cycle = XBAR_NEVER;
        po->n++;
        x->held_pkts++;
        bit_set(x->out_held, o);
    }
    pi->sent++;
    if (--pi->used == 0) bit_clear(x->in_busy, i);
    x->queued_flits--;
    po->used++;
    x->flits++;
    if (pi->sent == s->flits) {
        ring[(po->head + po->n - 1) % x->pkts_per_out].ready_cycle = now + 1 + (uint64_t)x->p.latency;
        s->next = pi->free_head;
        pi->free_head = pi->cur;
        pi->cur = -1;
        pi->out = -1;
        bit_set(x->in_free, i);
        po->in = -1;
    }
    return 1;
}

/* The output input i's FIFO head is for, -1 when i is sending or empty. */
static int xbar_head_out(const xbar *x, int i)
{
    const xbar_in *pi = &x->in[i];
    if (pi->out >= 0 || pi->fifo_n == 0) return -1;
    return xbar_slot_at((xbar *)x, i, x->fifo[(size_t)i * x->slots_per_in + pi->fifo_head])->out;
}

/* Local crossbar: input i's head crosses to o whole (its flits stop only on a full output buffer).
 * x->grant[i] marks a sender of this tick. */
static void xbar_send_whole(xbar *x, int i, int o, uint64_t now)
{
    xbar_pair(x, i, o);
    while (x->in[i].out >= 0 && xbar_send(x, i, now)) {
    }
    x->grant[i] = 1;
}

static void xbar_tick_local(xbar *x, uint64_t now)
{
    int ni = x->p.n_in, no = x->p.n_out;
    for (int i = xbar_bit_next(x->in_busy, 0, ni); i < ni; i = xbar_bit_next(x->in_busy, i + 1, ni))
        if (x->in[i].out >= 0 && xbar_send(x, i, now)) x->grant[i] = 1; /* a packet stopped by a full output */
    if (x->p.arbiter == XBAR_ISLIP) {
        for (int o = xbar_bit_next(x->out_waiting, 0, no); o < no; o = xbar_bit_next(x->out_waiting, o + 1, no)) {
            xbar_out *po = &x->out[o];
            if (po->in >= 0 || !xbar_out_has_room(x, o)) continue;
            for (int d = 0; d < ni; d++) {
                int i = (po->grant_ptr + d) % ni;
                if (xbar_head_out(x, i) != o) continue;
                xbar_send_whole(x, i, o, now);
                po->grant_ptr = (i + 1) % ni;
                break;
            }
        }
    } else { /* x->req marks the outputs that took a packet this tick */
        int start = (int)(now % (uint64_t)ni);
        for (int d = 0; d < ni; d++) {
            int i = (start + d) % ni, o = xbar_head_out(x, i);
            if (o < 0 || x->req[o] || x->out[o].in >= 0 || !xbar_out_has_room(x, o)) continue;
            xbar_send_whole(x, i, o, now);
            x->req[o] = 1;
        }
        for (int o = 0; o < no; o++) x->req[o] = 0;
    }
    for (int i = 0; i < ni; i++) {
        if (x->grant[i] < 0 && (x->in[i].used > 0)) x->in_stall[i]++;
        x->grant[i] = -1;
    }
}

void xbar_tick(xbar *x, uint64_t now)
{
    if (x->queued_flits == 0) return;
    if (x->p.local) {
        xbar_tick_local(x, now);
        return;
    }
    if (x->waiting_total == 0) { /* every buffered packet is already paired: no arbitration */
    } else if (x->p.arbiter == XBAR_RR) xbar_arbitrate_rr(x);
    else xbar_arbitrate_islip(x);
    int ni = x->p.n_in;
    for (int i = xbar_bit_next(x->in_busy, 0, ni); i < ni; i = xbar_bit_next(x->in_busy, i + 1, ni)) {
        xbar_in *pi = &x->in[i];
        if (pi->out < 0 || !xbar_send(x, i, now)) x->in_stall[i]++;
    }
}

int xbar_peek(const xbar *x, int out, uint64_t now, xbar_pkt *pkt)
{
    if (out < 0 || out >= x->p.n_out) return 0;
    const xbar_out *po = &x->out[out];
    if (po->n == 0) return 0;
    const xbar_pkt *r = &x->out_pkts[(size_t)out * x->pkts_per_out + po->head];
    if (r->ready_cycle == XBAR_NEVER || r->ready_cycle > now) return 0;
    if (pkt) *pkt = *r;
    return 1;
}

int xbar_pop(xbar *x, int out, uint64_t now, xbar_pkt *pkt)
{
    xbar_pkt r;
    if (!xbar_peek(x, out, now, &r)) return 0;
    xbar_out *po = &x->out[out];
    po->head = (po->head + 1) % x->pkts_per_out;
    if (--po->n == 0) bit_clear(x->out_held, out);
    po->used -= r.flits;
    x->held_pkts--;
    x->packets_out++;
    x->latency_sum += r.ready_cycle - r.push_cycle;
    if (pkt) *pkt = r;
    return 1;
}

uint64_t xbar_next_work(const xbar *x, uint64_t now)
{
    if (x->queued_flits > 0) return now;
    uint64_t best = XBAR_NEVER;
    int no = x->p.n_out;
    for (int o = xbar_bit_next(x->out_held, 0, no); o < no; o = xbar_bit_next(x->out_held, o + 1, no)) {
        const xbar_out *po = &x->out[o];
        uint64_t r = x->out_pkts[(size_t)o * x->pkts_per_out + po->head].ready_cycle;
        if (r < best) best = r;
    }
    return best != XBAR_NEVER && best < now ? now : best;
}

int xbar_is_idle(const xbar *x)
{
    return x->queued_flits == 0 && x->held_pkts == 0;
}
