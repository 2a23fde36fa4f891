/* SAP, APRES' scheduling-aware prefetcher (seeds/002 §IV-B, spec apres.md §3.3): a prefetch table
 * (PT) of recent static loads with their last warp, address and inter-warp stride; on a group-head
 * miss it prefetches base + (target warp - missing warp) x stride for the other warps of the LAWS
 * group when the current inter-warp stride matches the stored one (the stride-match gate), and
 * returns those target warps for LAWS to move to the queue head. One per SM; no SystemC. */
#ifndef GTLM_PREFETCH_SAP_H
#define GTLM_PREFETCH_SAP_H

#include <stdint.h>

#define SAP_PT_MAX 64
#define SAP_WQ 48  /* warp queue entries (doc: 48 warps per SM) */
#define SAP_DRQ 32 /* demand request queue entries (doc) */

typedef struct sap_entry {
    uint8_t valid, stride_valid;
    uint64_t pc;
    int64_t warp;   /* logical warp ID of the last access (spec gap 11) */
    uint64_t addr;  /* its lowest-thread address */
    int64_t stride; /* inter-warp stride in bytes */
    uint64_t lru;
} sap_entry;

typedef struct sap {
    uint32_t n_pt;  /* PT entries (doc: 10) */
    sap_entry pt[SAP_PT_MAX];
    uint64_t clock;
    /* statistics */
    uint64_t trains, pt_hits, pt_allocs, triggers, stride_matches, prefetches;
    uint64_t table_bits; /* PT, WQ and DRQ bits read, written or compared (the energy model charges them) */
} sap;

/* One prefetch: the address and the warp (as given in the member list) it is for. */
typedef struct sap_prefetch {
    uint64_t addr;
    int64_t warp;
} sap_prefetch;

/* n_pt in 1..SAP_PT_MAX. Returns 0 or -1. */
int sap_init(sap *p, uint32_t n_pt);
/* Every global load: the PC, the issuing warp's logical ID and its lowest-active-thread address
 * (spec gap 10: the table learns on every load; the gate and prefetching happen on misses). */
void sap_train(sap *p, uint64_t pc, int64_t warp, uint64_t addr);
/* A group-head miss of warp at pc on addr with the group's members (WQ; at most SAP_WQ are used).
 * Checks the stride gate against the PT (before training on this access: call sap_train after),
 * writes the prefetches for the other members to out (room for SAP_WQ) and returns their count. */
uint32_t sap_on_miss(sap *p, uint64_t pc, int64_t warp, uint64_t addr, const int64_t *members, uint32_t n_members,
                     sap_prefetch *out);
/* Table II storage in bytes for a PT of n_pt entries and n_warps warps: LLT 4 B x warps, WGT
 * warps bits x wgt entries, DRQ 8 B x 32, WQ 1 B x warps, PT 21 B x n_pt. 724 for 10, 48, 3. */
uint32_t apres_storage_bytes(uint32_t n_pt, uint32_t n_warps, uint32_t wgt_entries);

#endif
