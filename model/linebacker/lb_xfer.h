/*
 * Linebacker's register backup / restore engine (spec linebacker.md §3.5, Gap G9): the 6-entry
 * temporal buffer between the register file and the SM's memory port, moving the #reg warp
 * registers (128 bytes each) of one CTA at a time.
 *
 * Backup: each cycle one register is read through the RF arbiter into a free buffer entry
 * (address BA + i x 128); entries leave as 128-byte writes, an entry is free again once its write
 * is accepted by the memory port. The backup is complete (C = 1) when the last write was accepted,
 * or acknowledged with ack_mode.
 * Restore: a read of BA + i x 128 leaves only while a buffer entry is free to receive it (the
 * "register accumulation buffer"); each arrived line is written into RF[FRN + i] through the
 * arbiter, one per cycle, freeing its entry. Complete when #reg registers were written.
 * The engine only counts; the SM moves the requests and drives the arbiter.
 */
#ifndef GTLM_LB_XFER_H
#define GTLM_LB_XFER_H

#include <stdint.h>

#define LB_XFER_LINE 128u

typedef enum lb_xfer_kind { LB_XFER_IDLE = 0, LB_XFER_BACKUP = 1, LB_XFER_RESTORE = 2 } lb_xfer_kind;

typedef struct lb_xfer {
    uint32_t cap;      /* buffer entries (6) */
    int ack_mode;      /* backup complete at the last acknowledgement instead of acceptance */
    lb_xfer_kind kind;
    uint32_t tag;      /* the caller's CTA identity */
    uint32_t frn;      /* first register number */
    uint64_t addr;     /* backup address BA */
    uint32_t n;        /* #reg */
    uint32_t next;     /* backup: registers read into the buffer; restore: reads sent */
    uint32_t sent;     /* backup: writes accepted by the port */
    uint32_t acked;    /* backup: writes acknowledged */
    uint32_t arrived;  /* restore: lines in the buffer, not yet written */
    uint32_t written;  /* restore: registers written */
    uint32_t peak;     /* largest buffer occupancy seen */
} lb_xfer;

void lb_xfer_init(lb_xfer *x, uint32_t cap, int ack_mode);
/* Starts a backup or restore of n registers from frn to / from addr. -1 when one is running or n == 0. */
int lb_xfer_start(lb_xfer *x, lb_xfer_kind kind, uint32_t tag, uint32_t frn, uint64_t addr, uint32_t n);
/* Entries in use now. */
uint32_t lb_xfer_occupancy(const lb_xfer *x);
/* The register the arbiter should move this cycle (backup: read RF[rn] into the buffer; restore:
 * write RF[rn] from it), or UINT32_MAX when none; *is_write says which. lb_xfer_rf_done records it. */
uint32_t lb_xfer_rf_next(const lb_xfer *x, int *is_write);
void lb_xfer_rf_done(lb_xfer *x);
/* The memory request waiting at the port: 1 with its address and direction, 0 when none. */
int lb_xfer_mem_peek(const lb_xfer *x, uint64_t *addr, int *is_write);
/* That request was accepted by the port. */
void lb_xfer_mem_sent(lb_xfer *x);
/* A response: a write's acknowledgement or a restore read's line. */
void lb_xfer_mem_response(lb_xfer *x, int is_write);
/* 1 when the running transfer finished (the caller then records it and calls lb_xfer_finish). */
int lb_xfer_complete(const lb_xfer *x);
void lb_xfer_finish(lb_xfer *x);

#endif
