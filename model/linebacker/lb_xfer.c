#include "lb_xfer.h"

#include <string.h>

void lb_xfer_init(lb_xfer *x, uint32_t cap, int ack_mode)
{
    memset(x, 0, sizeof *x);
    x->cap = cap ? cap : 1;
    x->ack_mode = ack_mode;
}

int lb_xfer_start(lb_xfer *x, lb_xfer_kind kind, uint32_t tag, uint32_t frn, uint64_t addr, uint32_t n)
{
    if (x->kind != LB_XFER_IDLE || n == 0 || kind == LB_XFER_IDLE) return -1;
    uint32_t cap = x->cap, ack = (uint32_t)x->ack_mode, peak = x->peak;
    memset(x, 0, sizeof *x);
    x->cap = cap;
    x->ack_mode = (int)ack;
    x->peak = peak;
    x->kind = kind;
    x->tag = tag;
    x->frn = frn;
    x->addr = addr;
    x->n = n;
    return 0;
}

uint32_t lb_xfer_occupancy(const lb_xfer *x)
{
    if (x->kind == LB_XFER_BACKUP) return x->next - x->sent;
    if (x->kind == LB_XFER_RESTORE) return x->next - x->written; /* reserved by a read, or holding its line */
    return 0;
}

static void note_peak(lb_xfer *x)
{
    uint32_t o = lb_xfer_occupancy(x);
    if (o > x->peak) x->peak = o;
}

uint32_t lb_xfer_rf_next(const lb_xfer *x, int *is_write)
{
    if (x->kind == LB_XFER_BACKUP && x->next < x->n && lb_xfer_occupancy(x) < x->cap) {
        *is_write = 0;
        return x->frn + x->next;
    }
    if (x->kind == LB_XFER_RESTORE && x->arrived > 0) {
        *is_write = 1;
        return x->frn + x->written;
    }
    return UINT32_MAX;
}

void lb_xfer_rf_done(lb_xfer *x)
{
    if (x->kind == LB_XFER_BACKUP) {
        x->next++;
        note_peak(x);
    } else if (x->kind == LB_XFER_RESTORE && x->arrived > 0) {
        x->arrived--;
        x->written++;
    }
}

int lb_xfer_mem_peek(const lb_xfer *x, uint64_t *addr, int *is_write)
{
    if (x->kind == LB_XFER_BACKUP && x->sent < x->next) {
        *addr = x->addr + (uint64_t)x->sent * LB_XFER_LINE;
        *is_write = 1;
        return 1;
    }
    if (x->kind == LB_XFER_RESTORE && x->next < x->n && lb_xfer_occupancy(x) < x->cap) {
        *addr = x->addr + (uint64_t)x->next * LB_XFER_LINE;
        *is_write = 0;
        return 1;
    }
    return 0;
}

void lb_xfer_mem_sent(lb_xfer *x)
{
    if (x->kind == LB_XFER_BACKUP) x->sent++;
    else if (x->kind == LB_XFER_RESTORE) {
        x->next++;
        note_peak(x);
    }
}

void lb_xfer_mem_response(lb_xfer *x, int is_write)
{
    if (is_write) x->acked++;
    else if (x->kind == LB_XFER_RESTORE) x->arrived++;
}

int lb_xfer_complete(const lb_xfer *x)
{
    if (x->kind == LB_XFER_BACKUP) return x->ack_mode ? x->acked == x->n : x->sent == x->n;
    if (x->kind == LB_XFER_RESTORE) return x->written == x->n;
    return 0;
}

void lb_xfer_finish(lb_xfer *x)
{
    x->kind = LB_XFER_IDLE;
}
