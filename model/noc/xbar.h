/* Crossbar core: n_in input ports x n_out output ports, packets cut into flits.
 *
 * Time is in interconnect cycles; the wrapper calls xbar_tick(x, now) with increasing `now`
 * (skipping cycles is allowed when xbar_next_work says so).
 *  - xbar_push(in, out, bytes, cookie, now) enqueues a packet of ceil(bytes / flit_size) flits in
 *    input `in`'s buffer (-icnt_in_buffer_limit flits, shared by all of the input's packets).
 *    xbar_can_accept(in, bytes) says whether it fits; a packet pushed before xbar_tick(now) may
 *    move in that tick.
 *  - Each tick every input sends at most one flit and every output takes at most one flit.
 *    A packet crosses as a worm: once an output grants an input, the two stay paired until the
 *    tail flit has crossed, so packets never interleave at an output and arrive whole.
 *  - A flit needs a free slot in the output buffer (-icnt_out_buffer_limit flits, held from the
 *    flit's crossing until the packet is popped); when full, the paired input waits.
 *  - A packet whose tail crosses in cycle c can be popped from cycle c + 1 + latency on
 *    (-icnt_latency). A lone packet of F flits pushed at cycle t is ready at t + F + latency.
 *  - Arbitration of an output that is free (not paired):
 *      XBAR_RR (0):    each input offers only its oldest packet (one FIFO per input); each
 *                      output grants the first requesting input at or after its pointer, then
 *                      moves the pointer past the winner.
 *      XBAR_ISLIP (1): each input keeps one queue per output (virtual output queues) and
 *                      requests every free output it has a packet for; outputs grant from their
 *                      grant pointer, inputs accept from their accept pointer (one iteration);
 *                      pointers move past the partner only when a grant is accepted.
 *    Either way packets of one input-output pair leave in push order.
 *  - local (GPGPU-Sim's -network_mode 2 crossbar, used under --gpgpusim-compat): one FIFO per
 *    input whose head alone may leave (head-of-line blocking), and a granted packet crosses whole
 *    in the cycle of its grant. XBAR_ISLIP: the outputs in port order each take the first input,
 *    from their pointer, whose head is for them, and move the pointer past it; an input may so
 *    send several packets in one cycle, to increasing outputs. XBAR_RR: the inputs, from a start
 *    that advances one port every cycle, each send their head unless its output already took a
 *    packet this cycle.
 * A packet larger than either buffer can never cross: xbar_can_accept is false and xbar_push
 * fails for it. Storage is allocated in xbar_init only. */
#ifndef GTLM_NOC_XBAR_H
#define GTLM_NOC_XBAR_H

#include <stdint.h>

#include "noc_config.h"

#define XBAR_NEVER UINT64_MAX

typedef enum xbar_arbiter { XBAR_RR = 0, XBAR_ISLIP = 1 } xbar_arbiter;

typedef struct xbar_params {
    int n_in, n_out;
    int flit_size;         /* bytes per flit (-icnt_flit_size) */
    int in_buffer_limit;   /* flits (-icnt_in_buffer_limit) */
    int out_buffer_limit;  /* flits (-icnt_out_buffer_limit) */
    int latency;           /* cycles (-icnt_latency) */
    int arbiter;           /* xbar_arbiter (-icnt_arbiter_algo) */
    int local;             /* 1: GPGPU-Sim's local crossbar rules (see above) */
} xbar_params;

/* A delivered packet. */
typedef struct xbar_pkt {
    uint64_t cookie;       /* the caller's, untouched */
    uint32_t bytes;
    uint16_t flits;
    uint16_t in;           /* input port it came from */
    uint64_t push_cycle;
    uint64_t ready_cycle;  /* first cycle it could be popped */
} xbar_pkt;

typedef struct xbar_slot {  /* a packet waiting in an input buffer */
    uint64_t cookie, push_cycle;
    uint32_t bytes;
    uint16_t flits;
    uint16_t out;
    int32_t next;           /* next slot of the same virtual output queue, -1 at the tail */
} xbar_slot;

typedef struct xbar_in {
    int used;               /* flits in the buffer */
    int queued;             /* packets waiting (not yet paired) */
    int free_head;          /* free-slot list through xbar_slot.next */
    int fifo_head, fifo_n;  /* XBAR_RR: arrival order ring of slot indices */
    int out;                /* paired output, -1 when free */
    int cur;                /* slot being sent when paired */
    int sent;               /* flits of it already sent */
    int accept_ptr;         /* iSLIP */
} xbar_in;

typedef struct xbar_out {
    int used;               /* flits held (crossed, not popped) */
    int in;                 /* paired input, -1 when free */
    int grant_ptr;
    int head, n;            /* ring of packets (crossing or arrived) in out_pkts */
} xbar_out;

typedef struct xbar {
    xbar_params p;
    int slots_per_in;       /* = in_buffer_limit (a packet has at least one flit) */
    int pkts_per_out;       /* = out_buffer_limit */
    xbar_in *in;
    xbar_out *out;
    xbar_slot *slots;       /* n_in * slots_per_in */
    int *fifo;              /* n_in * slots_per_in */
    int *voq_head, *voq_tail; /* n_in * n_out, -1 when empty */
    xbar_pkt *out_pkts;     /* n_out * pkts_per_out */
    int *req;               /* scratch: n_out (iSLIP: the inputs granted this tick) */
    int *grant;             /* scratch: n_in (iSLIP: each input's chosen grant, -1 outside a tick) */
    int *waiting;           /* per output: packets in virtual output queues for it (not paired) */
    uint64_t waiting_total;
    uint64_t queued_flits;  /* flits in all input buffers */
    uint64_t held_pkts;     /* packets in all output buffers */
    /* statistics */
    uint64_t packets_in, packets_out, flits;
    uint64_t latency_sum;   /* sum over popped packets of ready_cycle - push_cycle */
    uint64_t *in_stall;     /* per input: cycles with flits buffered but none sent */
    uint64_t *out_stall;    /* per output: cycles a paired input waited for output-buffer space */
    /* Port sets, one bit per port in 64-bit words, so that a tick visits only the ports with work
     * (in increasing order, as a loop over every port would): inputs with flits buffered, outputs
     * with packets waiting to be paired, outputs holding packets (crossing or ready). */
    uint64_t *in_busy, *out_waiting, *out_held;
    /* iSLIP's grant step finds, per output, the first free input with a packet for it: inputs
     * not paired (in_free) and, per output o, inputs whose virtual output queue for o is not
     * empty (voq_bits + o * in_words). */
    int in_words;
    uint64_t *in_free, *voq_bits;
} xbar;

/* The first port >= from whose bit is set in both a and b, or n when none below n is. */
static inline int xbar_bit_next2(const uint64_t *a, const uint64_t *b, int from, int n)
{
    if (from >= n) return n;
    int k = from >> 6, nw = (n + 63) >> 6;
    uint64_t w = a[k] & b[k] & (~UINT64_C(0) << (from & 63));
    while (!w) {
        if (++k >= nw) return n;
        w = a[k] & b[k];
    }
    int p = (k << 6) + __builtin_ctzll(w);
    return p < n ? p : n;
}

/* The first port >= from whose bit is set in w, or n when none below n is. */
static inline int xbar_bit_next(const uint64_t *w, int from, int n)
{
    if (from >= n) return n;
    int k = from >> 6, nw = (n + 63) >> 6;
    uint64_t b = w[k] & (~UINT64_C(0) << (from & 63));
    while (!b) {
        if (++k >= nw) return n;
        b = w[k];
    }
    int p = (k << 6) + __builtin_ctzll(b);
    return p < n ? p : n;
}

/* Ports from the caller, the rest from the -icnt_* options. */
void xbar_params_from_config(const noc_config *c, int n_in, int n_out, xbar_params *p);
/* Returns 0, or -1 for a bad parameter (buffer limits 1..65535) or out of memory. */
int xbar_init(xbar *x, const xbar_params *p);
void xbar_free(xbar *x);

int xbar_flits_of(const xbar *x, uint32_t bytes);
int xbar_can_accept(const xbar *x, int in, uint32_t bytes);
/* Returns 0, or -1 (nothing queued) when the port is out of range or the packet does not fit. */
int xbar_push(xbar *x, int in, int out, uint32_t bytes, uint64_t cookie, uint64_t now);
void xbar_tick(xbar *x, uint64_t now);
/* 1 and *pkt when output `out` has a packet ready at `now`, 0 otherwise. pop frees its flits. */
int xbar_peek(const xbar *x, int out, uint64_t now, xbar_pkt *pkt);
int xbar_pop(xbar *x, int out, uint64_t now, xbar_pkt *pkt);
/* Earliest cycle >= now at which a tick moves a flit or a packet becomes ready to pop
 * (`now` while any input holds flits: the wrapper ticks while work is buffered);
 * XBAR_NEVER when the crossbar is empty. Packets already ready count as `now`. */
uint64_t xbar_next_work(const xbar *x, uint64_t now);
int xbar_is_idle(const xbar *x);

#endif
