/* Memory coalescer: turns one warp memory instruction's per-lane addresses into memory requests.
 *
 * Two modes, selected from -gpgpu_coalesce_arch by coal_mode_of():
 *  - COAL_FERMI (arch < 20, e.g. 13): one request per touched 128-byte line, carrying the 4-bit
 *    mask of touched 32-byte sectors, the lanes it serves, and the size of the smallest aligned
 *    32/64/128-byte segment of the line that covers the touched sectors (the compute-1.3
 *    segment reduction).
 *  - COAL_SECTORED (arch >= 20, e.g. 61, 86): one request per touched 32-byte sector, sectors of
 *    the same line adjacent (the order below groups them per line).
 * A lane's access of `bytes` bytes at addr touches bytes [addr, addr+bytes); an access that
 * straddles a sector or line boundary touches both. Requests come out in ascending address order,
 * so the result depends only on the set of (lane, address) pairs. Nothing is allocated. */
#ifndef GTLM_SM_COALESCER_H
#define GTLM_SM_COALESCER_H

#include <stdint.h>

#define COAL_LANES 32
#define COAL_LINE_BYTES 128u
#define COAL_SECTOR_BYTES 32u
#define COAL_MAX_BYTES 32u   /* widest per-lane access (v4 of 64-bit, or v8 of 32-bit) */
#define COAL_MAX_REQS 64     /* 32 lanes, each touching at most two lines / two sectors */

typedef enum coal_mode { COAL_FERMI = 0, COAL_SECTORED = 1 } coal_mode;

typedef struct coal_req {
    uint64_t addr;    /* FERMI: start of the reduced segment; SECTORED: sector address */
    uint64_t line;    /* 128-byte line address (addr & ~127) */
    uint32_t lanes;   /* lanes with at least one byte in this request */
    uint8_t sectors;  /* bit s: sector s of the line touched (SECTORED: exactly one bit) */
    uint8_t bytes;    /* request size: FERMI 32, 64 or 128; SECTORED 32 */
    uint8_t full;     /* of `sectors`, those whose 32 bytes the active lanes cover entirely */
} coal_req;

typedef struct coal_result {
    int n;            /* requests in req[] */
    int n_lines;      /* distinct 128-byte lines touched */
    coal_req req[COAL_MAX_REQS];
} coal_result;

struct simt_mem_access;

/* -gpgpu_coalesce_arch value to mode: below 20 Fermi rules, 20 and above sectored. */
coal_mode coal_mode_of(int coalesce_arch);

/* Coalesces the active lanes (bit l of mask: lane l; addr[l] ignored otherwise), each accessing
 * `bytes` (1..32) bytes. Returns 0, or -1 when bytes is out of range (out->n = 0 then). */
int coal_coalesce(coal_mode mode, const uint64_t addr[COAL_LANES], uint32_t mask, unsigned bytes,
                  coal_result *out);

/* Same for a functional-model record (simt.h). */
int coal_coalesce_access(coal_mode mode, const struct simt_mem_access *acc, coal_result *out);

#endif
