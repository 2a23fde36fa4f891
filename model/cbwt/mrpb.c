/* MRPB's per-warp FIFOs and their drain order (semantics in mrpb.h). */
#include "mrpb.h"

#include <stdlib.h>
#include <string.h>

int mrpb_init(mrpb *m, int n_queues, int depth, size_t esize)
{
    memset(m, 0, sizeof *m);
    if (n_queues < 1 || n_queues > 64 || depth < 1 || depth > 256 || esize == 0) return -1;
    m->buf = calloc((size_t)n_queues * (size_t)depth, esize);
    m->head = calloc((size_t)n_queues, sizeof *m->head);
    m->count = calloc((size_t)n_queues, sizeof *m->count);
    if (!m->buf || !m->head || !m->count) {
        mrpb_free(m);
        return -1;
    }
    m->n_queues = n_queues;
    m->depth = depth;
    m->esize = esize;
    return 0;
}

void mrpb_free(mrpb *m)
{
    free(m->buf);
    free(m->head);
    free(m->count);
    memset(m, 0, sizeof *m);
}

static unsigned char *slot_of(const mrpb *m, int q, int i)
{
    return m->buf + ((size_t)q * (size_t)m->depth + (size_t)((m->head[q] + i) % m->depth)) * m->esize;
}

int mrpb_push(mrpb *m, uint32_t warp, const void *entry)
{
    int q = (int)(warp % (uint32_t)m->n_queues);
    if (m->count[q] == m->depth) {
        m->full++;
        return -1;
    }
    memcpy(slot_of(m, q, m->count[q]), entry, m->esize);
    m->count[q]++;
    m->n++;
    m->pushed++;
    return 0;
}

const void *mrpb_head(mrpb *m)
{
    if (!m->n) return NULL;
    if (!m->count[m->cur]) { /* the current queue ran dry: the next non-empty one, round-robin */
        int q = m->cur;
        do q = (q + 1) % m->n_queues;
        while (!m->count[q]);
        m->cur = q;
        m->switches++;
    }
    return slot_of(m, m->cur, 0);
}

void mrpb_pop(mrpb *m)
{
    int q = m->cur;
    if (!m->count[q]) return;
    m->head[q] = (m->head[q] + 1) % m->depth;
    m->count[q]--;
    m->n--;
}
