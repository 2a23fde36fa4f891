#include "mctl.h"

#include <stdlib.h>
#include <string.h>

#include "../common/mix64.h"

/* ---- small containers ---- */

static int vec_push(mctl_vec *q, const mctl_entry *e)
{
    if (q->n == q->cap) {
        uint32_t cap = q->cap ? 2 * q->cap : 16;
        mctl_entry *v = realloc(q->v, cap * sizeof *v);
        if (!v) return -1;
        q->v = v;
        q->cap = cap;
    }
    q->v[q->n++] = *e;
    return 0;
}

static void vec_remove(mctl_vec *q, uint32_t i)
{
    memmove(&q->v[i], &q->v[i + 1], (q->n - i - 1) * sizeof *q->v);
    q->n--;
}

/* ---- set-up ---- */

int mctl_init(mctl *m, const mctl_params *p, const llc_config *c, ellc_backend be, ext_link *link, uint32_t n_sets,
              uint32_t warps, uint32_t *err_rows)
{
    memset(m, 0, sizeof *m);
    m->p = *p;
    m->be = be;
    m->link = link;
    m->warps = warps;
    for (uint32_t g = p->slice; g < n_sets; g += p->n_slices) m->n_rows++;
    if (m->n_rows > p->wst_rows) {
        if (err_rows) *err_rows = m->n_rows;
        return -1;
    }
    m->rows = calloc(m->n_rows ? m->n_rows : 1, sizeof *m->rows);
    m->rbuf_free = calloc(p->rbuf + 1, sizeof *m->rbuf_free);
    m->wbuf_free = calloc(p->wbuf + 1, sizeof *m->wbuf_free);
    if (!m->rows || !m->rbuf_free || !m->wbuf_free) return -1;
    uint32_t i = 0;
    for (uint32_t g = p->slice; g < n_sets; g += p->n_slices, i++) {
        m->rows[i].set = g;
        m->rows[i].wbuf = -1;
        m->rows[i].ways = be.ways(be.ctx, g);
        m->rows[i].first_frame = m->f_ext;
        m->f_ext += m->rows[i].ways;
    }
    if (bloom_init(&m->bp, c->predictor, m->n_rows, (uint32_t)c->bloom_bits, (uint32_t)c->bloom_hashes, c->fn_fatal,
                   0x6d6f727068657573ull) != 0)
        return -1;
    return 0;
}

void mctl_free(mctl *m)
{
    bloom_free(&m->bp);
    free(m->rows);
    free(m->rbuf_free);
    free(m->wbuf_free);
    free(m->input.v);
    free(m->queue.v);
    free(m->outbox.v);
    free(m->reads.v);
    free(m->rsps.v);
    free(m->arr);
    memset(m, 0, sizeof *m);
}

int mctl_map(const mctl *m, uint64_t addr, uint32_t *row)
{
    if (!m->f_ext) return 0;
    uint64_t h = mix64(addr / m->p.line) % (m->p.f_conv + m->f_ext);
    if (h < m->p.f_conv) return 0;
    uint64_t x = h - m->p.f_conv;
    uint32_t lo = 0, hi = m->n_rows - 1; /* the last row whose range starts at or before x */
    while (lo < hi) {
        uint32_t mid = (lo + hi + 1) / 2;
        if (m->rows[mid].first_frame <= x) lo = mid;
        else hi = mid - 1;
    }
    *row = lo;
    return 1;
}

static l2_front_decision decide(void *ctx, const l2_req *r)
{
    uint32_t row;
    return mctl_map(ctx, r->addr, &row) ? L2_FRONT_FORWARD : L2_FRONT_LOCAL;
}

l2_front mctl_front(mctl *m)
{
    l2_front f = {m, decide};
    return f;
}

uint64_t mctl_bloom_bytes(const mctl *m) { return (uint64_t)m->n_rows * 2 * m->bp.bits / 8; }

/* ---- helpers ---- */

static uint64_t line_of(const mctl *m, uint64_t addr) { return addr / m->p.line * m->p.line; }

static void to_dram(mctl *m, uint64_t addr, int is_write, uint64_t ready, const mctl_entry *why, int fill_dirty)
{
    mctl_entry d = {0};
    if (why) d = *why; /* the requesters (merged ones too), its row and line */
    d.r.addr = line_of(m, addr);
    d.ready = ready;
    d.kind = (uint8_t)is_write;
    d.dirty = (uint8_t)fill_dirty;
    vec_push(&m->outbox, &d);
}

/* Every requester of e gets its response through the data port from `at`. */
static void respond_all(l2_slice *s, const mctl_entry *e, int hit, uint64_t at)
{
    l2_slice_respond_ext(s, &e->r, hit, at);
    for (int i = 0; i < e->n_more; i++) l2_slice_respond_ext(s, &e->more[i], hit, at);
}

static int join(mctl_entry *p, const l2_req *r, uint64_t key, uint8_t read_kind)
{
    if (p->key != key || !p->has_req || p->kind != read_kind || p->n_more >= MCTL_MERGE) return 0;
    p->more[p->n_more++] = *r;
    return 1;
}

/* A read of line key joins a pending read of it: at the warp, queued, or on its way to DRAM. */
static int merge(mctl *m, uint32_t row, uint64_t key, const l2_req *r)
{
    int ok = m->rows[row].busy && join(&m->rows[row].cur, r, key, ELLC_READ);
    for (uint32_t i = 0; !ok && i < m->queue.n; i++) ok = join(&m->queue.v[i], r, key, ELLC_READ);
    for (uint32_t i = 0; !ok && i < m->outbox.n; i++) ok = join(&m->outbox.v[i], r, key, 0);
    for (uint32_t i = 0; !ok && i < m->reads.n; i++) ok = join(&m->reads.v[i], r, key, 0);
    m->st.merged += (uint64_t)ok;
    return ok;
}

static void enqueue(mctl *m, const mctl_entry *e)
{
    vec_push(&m->queue, e);
    if (e->kind != ELLC_FILL) m->queued_hits++;
    if (m->queue.n > m->st.max_queue) m->st.max_queue = m->queue.n;
}

/* Fig. 6(b) at an insertion or re-use; after a swap the queued and in-flight fills of the row are
 * put back into the new BF1. */
static void update(mctl *m, uint32_t row, uint64_t key)
{
    uint32_t assoc = m->be.assoc ? m->be.assoc(m->be.ctx, m->rows[row].set) : m->rows[row].ways;
    if (!bloom_update(&m->bp, row, key, assoc)) return;
    for (uint32_t i = 0; i < m->queue.n; i++)
        if (m->queue.v[i].row == row && m->queue.v[i].kind == ELLC_FILL) bloom_note_pending(&m->bp, row, m->queue.v[i].key);
}

/* A free entry of a data buffer at `cycle` (its index), or -1 when every entry is taken (the cycle
 * the first frees in *next). Unlimited buffers (n 0) always have entry 0. */
static int buf_entry(const uint64_t *free_at, uint32_t n, uint64_t cycle, uint64_t *next)
{
    if (!n) return 0;
    uint64_t first = ELLC_NEVER;
    for (uint32_t i = 0; i < n; i++) {
        if (free_at[i] <= cycle) return (int)i;
        if (free_at[i] < first) first = free_at[i];
    }
    if (next) *next = first;
    return -1;
}

/* ---- stages ---- */

/* The predictor stage for the input head at cycle T; 0 when it passed, -1 when it must wait. */
static int predict(mctl *m, l2_slice *s, const l2_req *r, uint64_t T)
{
    mctl_entry e = {0};
    e.r = *r;
    e.key = r->addr / m->p.line;
    mctl_map(m, r->addr, &e.row);
    e.has_req = 1;
    e.ready = T + 1;
    e.enq = T;
    const mctl_row *row = &m->rows[e.row];
    if (r->kind == L2_REQ_ATOMIC) {
        if (m->queued_hits >= m->p.depth) return -1;
        e.kind = ELLC_ATOMIC;
        m->st.atomics++;
        enqueue(m, &e);
        return 0;
    }
    int is_write = r->kind == L2_REQ_WRITE || r->kind == L2_REQ_WRITEBACK;
    if (m->queued_hits >= m->p.depth) { /* a predicted hit could not be queued: wait (no prediction yet) */
        m->st.predictor_stalls++;
        return -1;
    }
    int resident = m->be.resident(m->be.ctx, row->set, e.key * m->p.line);
    int hit = bloom_predict(&m->bp, e.row, e.key, resident);
    e.kind = is_write ? ELLC_WRITE : ELLC_READ;
    if (is_write) {
        m->st.writes++;
        l2_slice_respond_ext(s, r, 0, T + 1); /* acknowledged like a conventional write */
        e.has_req = 0;
    } else {
        m->st.reads++;
    }
    if (!is_write && merge(m, e.row, e.key, r)) return 0;
    if (hit) enqueue(m, &e);
    else to_dram(m, r->addr, is_write, T + 1, &e, 0);
    return 0;
}

static uint32_t rank_of(const mctl *m, uint32_t row) { return m->rows[row].set / m->warps; }

/* One operation to a warp: the oldest queue entry whose set's warp is idle (and, for a write or an
 * atomic, with a write data buffer entry). 1 when a write waited for the buffer this cycle. */
static int dispatch(mctl *m, uint64_t cycle)
{
    int waited = 0;
    for (uint32_t i = 0; i < m->queue.n; i++) {
        mctl_entry *e = &m->queue.v[i];
        mctl_row *row = &m->rows[e->row];
        if (e->ready > cycle || row->busy) continue;
        int carries = e->kind == ELLC_WRITE || e->kind == ELLC_ATOMIC; /* data for the write data buffer */
        int wb = carries ? buf_entry(m->wbuf_free, m->p.wbuf, cycle, NULL) : 0;
        if (wb < 0) {
            waited = 1;
            continue;
        }
        uint32_t bytes = m->p.header;
        if (e->kind == ELLC_FILL) bytes += m->p.line;
        else if (e->kind != ELLC_READ) bytes += e->r.bytes;
        ellc_req q = {0};
        q.key = e->key * m->p.line;
        q.tag = e->row;
        q.set = row->set;
        q.ctl = (uint16_t)m->p.slice;
        q.kind = e->kind;
        q.dirty = e->dirty;
        if (m->block_bytes && e->kind != ELLC_READ) q.size = (uint8_t)m->block_bytes(m->block_ctx, q.key);
        uint64_t arrive = 0;
        int rc;
        if (m->net.to_sm) {
            rc = m->net.to_sm(m->net.ctx, m->p.slice, rank_of(m, e->row), cycle, bytes, &q, &arrive);
        } else {
            arrive = ext_link_to_sm(m->link, m->p.slice, rank_of(m, e->row), cycle, bytes);
            rc = m->be.submit(m->be.ctx, &q, arrive);
        }
        if (rc != 0) return waited; /* not sent (out of memory): retried */
        if (carries && m->p.wbuf) m->wbuf_free[wb] = arrive; /* the warp has the data when it arrives */
        row->wbuf = carries && m->p.wbuf && arrive == ELLC_NEVER ? wb : -1;
        row->busy = 1;
        m->busy_rows++;
        row->cur = *e;
        m->st.dispatched++;
        m->st.queue_cycles += cycle - e->enq;
        if (e->kind != ELLC_FILL) m->queued_hits--;
        vec_remove(&m->queue, i);
        return waited; /* one per cycle */
    }
    return waited;
}

/* A result carrying data for requesters (a read or atomic hit): it needs a read data buffer entry. */
static int needs_rbuf(const mctl *m, const ellc_done *d)
{
    const mctl_entry *e = &m->rows[d->r.tag].cur;
    return d->hit && e->has_req && (e->kind == ELLC_READ || e->kind == ELLC_ATOMIC);
}

/* A warp's result is back at the controller at cycle a (rb: its read data buffer entry, or -1). */
static void result(mctl *m, l2_slice *s, const ellc_done *d, uint64_t a, int rb)
{
    mctl_row *row = &m->rows[d->r.tag];
    mctl_entry e = row->cur;
    row->busy = 0;
    m->busy_rows--;
    for (uint32_t v = 0; v < d->writeback && v < ELLC_MAX_VICTIMS; v++) { /* dirty victims */
        m->st.writebacks++;
        to_dram(m, d->victim[v], 1, a + 1, NULL, 0);
    }
    if (e.kind == ELLC_FILL) {
        m->st.fills++;
        update(m, e.row, e.key);
        return;
    }
    if (d->hit) {
        m->st.ext_hits++;
        m->st.hit_served += 1u + e.n_more; /* a write hit serves its (already acknowledged) write */
        if (e.has_req) respond_all(s, &e, 1, a);
        if (rb >= 0 && m->p.rbuf) m->rbuf_free[rb] = s->port_free; /* the last requester's data has left */
        update(m, e.row, e.key);
        return;
    }
    m->st.ext_misses++;
    to_dram(m, e.r.addr, e.kind == ELLC_WRITE, a + 1, &e, e.kind == ELLC_ATOMIC);
}

static void drain_outbox(mctl *m, l2_slice *s)
{
    while (m->outbox.n) {
        mctl_entry *o = &m->outbox.v[0];
        l2_dram_req d = {0};
        d.addr = o->r.addr;
        d.ready = o->ready;
        d.bytes = m->p.line;
        d.is_write = o->kind;
        d.kind = o->kind ? CACHE_OUT_WRITEBACK : CACHE_OUT_READ;
        d.ext = 1;
        if (l2_slice_dram_push(s, &d) != 0) return;
        if (o->kind) m->st.dram_writes++;
        else {
            m->st.dram_reads++;
            vec_push(&m->reads, o);
        }
        vec_remove(&m->outbox, 0);
    }
}

void mctl_dram_done(mctl *m, uint64_t addr, uint64_t cycle)
{
    for (uint32_t i = 0; i < m->reads.n; i++) {
        if (m->reads.v[i].r.addr != line_of(m, addr)) continue;
        mctl_entry o = m->reads.v[i];
        vec_remove(&m->reads, i);
        if (o.has_req) { /* the requester's data leaves through the data port from `cycle` */
            mctl_entry r = o;
            r.ready = cycle;
            vec_push(&m->rsps, &r);
        }
        mctl_entry fill = o; /* and the line goes to its set (an atomic's is dirty: o.dirty) */
        fill.kind = ELLC_FILL;
        fill.has_req = 0;
        fill.ready = cycle;
        fill.enq = cycle;
        bloom_note_pending(&m->bp, fill.row, fill.key);
        enqueue(m, &fill);
        return;
    }
}

static void add_arrival(mctl *m, const ellc_done *d, uint64_t at)
{
    if (m->n_arr == m->cap_arr) {
        uint32_t cap = m->cap_arr ? 2 * m->cap_arr : 16;
        mctl_arrival *v = realloc(m->arr, cap * sizeof *v);
        if (!v) return;
        m->arr = v;
        m->cap_arr = cap;
    }
    m->arr[m->n_arr].at = at;
    m->arr[m->n_arr].d = *d;
    m->n_arr++;
}

void mctl_result_in(mctl *m, const ellc_done *d, uint64_t at) { add_arrival(m, d, at); }

void mctl_request_arrived(mctl *m, uint32_t row, uint64_t at)
{
    if (row >= m->n_rows || m->rows[row].wbuf < 0) return;
    m->wbuf_free[m->rows[row].wbuf] = at;
    m->rows[row].wbuf = -1;
}

void mctl_tick(mctl *m, l2_slice *s, uint64_t cycle)
{
    /* 1. forwarded requests enter the controller */
    while (m->input.n < m->p.input_cap && l2_slice_fwd_peek(s, cycle)) {
        mctl_entry e = {0};
        uint64_t t = s->fwd_ready[s->fwd_head];
        l2_slice_fwd_pop(s, &e.r);
        e.ready = (cycle > t ? cycle : t) + m->p.ctl_cycles;
        vec_push(&m->input, &e);
        m->st.requests++;
    }
    /* 2. results back from the warps, and DRAM data for requesters, due now (in arrival order) */
    ellc_done d;
    while (m->be.pop_done(m->be.ctx, m->p.slice, cycle, &d) == 0) {
        uint32_t bytes = m->p.header;
        const mctl_entry *e = &m->rows[d.r.tag].cur;
        bytes += (uint32_t)d.writeback * m->p.line; /* dirty victims' data */
        if (e->kind != ELLC_FILL && d.hit && (e->kind == ELLC_READ || e->kind == ELLC_ATOMIC)) bytes += e->n_more ? m->p.line : e->r.bytes;
        if (m->net.to_ctl) m->net.to_ctl(m->net.ctx, rank_of(m, (uint32_t)d.r.tag), m->p.slice, bytes, &d);
        else add_arrival(m, &d, ext_link_to_ctl(m->link, rank_of(m, (uint32_t)d.r.tag), m->p.slice, d.done, bytes));
    }
    for (;;) {
        int best = -1;
        for (uint32_t i = 0; i < m->n_arr; i++)
            if (m->arr[i].at <= cycle && (best < 0 || m->arr[i].at < m->arr[best].at)) best = (int)i;
        if (best < 0) break;
        int rb = -1;
        if (needs_rbuf(m, &m->arr[best].d)) {
            uint64_t next = cycle;
            rb = buf_entry(m->rbuf_free, m->p.rbuf, cycle, &next);
            if (rb < 0) { /* every entry taken: the warp's store waits for one */
                m->st.rbuf_stalls += next - cycle;
                m->arr[best].at = next;
                continue;
            }
        }
        mctl_arrival a = m->arr[best];
        memmove(&m->arr[best], &m->arr[best + 1], (m->n_arr - (uint32_t)best - 1) * sizeof *m->arr);
        m->n_arr--;
        result(m, s, &a.d, a.at, rb);
    }
    while (m->rsps.n && m->rsps.v[0].ready <= cycle) {
        respond_all(s, &m->rsps.v[0], 0, m->rsps.v[0].ready);
        vec_remove(&m->rsps, 0);
    }
    /* 3. the predictor stage: the input head, one per cycle */
    if (m->input.n && m->input.v[0].ready <= cycle && predict(m, s, &m->input.v[0].r, cycle) == 0)
        vec_remove(&m->input, 0);
    /* 4. one dispatch to a warp */
    m->st.wbuf_stalls += (uint64_t)dispatch(m, cycle);
    /* 5. DRAM records into the slice's DRAM queue */
    drain_outbox(m, s);
}

uint64_t mctl_next_work(const mctl *m, const l2_slice *s, uint64_t cycle)
{
    uint64_t w = ELLC_NEVER;
#define AT(x) do { uint64_t v_ = (x); if (v_ < w) w = v_ < cycle ? cycle : v_; } while (0)
    if (m->input.n < m->p.input_cap && s->fwd_n) AT(s->fwd_ready[s->fwd_head]);
    if (m->input.n) AT(m->input.v[0].ready);
    for (uint32_t i = 0; i < m->n_arr; i++) AT(m->arr[i].at);
    if (m->rsps.n) AT(m->rsps.v[0].ready);
    AT(m->be.next_done(m->be.ctx, m->p.slice));
    for (uint32_t i = 0; i < m->queue.n; i++)
        if (!m->rows[m->queue.v[i].row].busy) AT(m->queue.v[i].ready);
    if (m->outbox.n && s->dram_n < s->dram_cap) AT(cycle);
#undef AT
    return w;
}

int mctl_busy(const mctl *m)
{
    if (m->input.n || m->queue.n || m->outbox.n || m->reads.n || m->rsps.n || m->n_arr) return 1;
    for (uint32_t i = 0; i < m->n_rows; i++)
        if (m->rows[i].busy) return 1;
    return 0;
}
