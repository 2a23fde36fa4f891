/*
 * Protection-distance prediction (PDP) for a GPU L1 (seeds/001 Sec. IV; spec adaptive-cache-cbwt.md
 * 3.2): every line has a remaining protection distance (RPD). A load to a set decrements the RPD
 * of every line of that set that is still protected; a hit (promotion) or an insertion sets the
 * line's RPD to the current PD. The victim is an unallocated way, else the least recently used
 * line that is neither reserved nor protected (RPD == 0); when there is none the access bypasses
 * the L1. Stores do not touch RPDs (Fermi L1 is write-through, no write-allocate: spec 3.2.2).
 *
 * The RPD array lives here, beside the cache's tag array (indexed set * assoc + way), so the
 * cache core stays policy-free; the policy reads the cache's lines only to know which ways are
 * allocated, reserved and how old they are.
 */
#ifndef GTLM_CBWT_PDP_H
#define GTLM_CBWT_PDP_H

#include <stdint.h>

#include "../cache/cache_core.h"

#define PDP_PD_MAX 64 /* doc: "We enumerate the PD from associativity to maximum PD (4 to 64)" */

typedef struct pdp_policy {
    int nsets, assoc;
    int pd;          /* PD applied at insertion/promotion */
    uint8_t *rpd;    /* nsets * assoc */
    uint64_t bypasses, protected_victims_avoided;
} pdp_policy;

/* 0, or -1 (bad sizes, pd outside 0..PDP_PD_MAX, no memory). */
int pdp_init(pdp_policy *p, int nsets, int assoc, int pd);
void pdp_free(pdp_policy *p);
/* Sets the PD for later insertions/promotions (clamped to 0..PDP_PD_MAX). */
void pdp_set_pd(pdp_policy *p, int pd);
/* A load accessed `set`: every protected line of the set loses one unit of protection. */
void pdp_set_access(pdp_policy *p, int set);
/* The same, sparing way `keep` (the line just promoted; -1 spares none). */
void pdp_set_access_except(pdp_policy *p, int set, int keep);
/* Line (set, way) was inserted or hit by a load: protected for PD further set accesses. */
void pdp_protect(pdp_policy *p, int set, int way);
/* Line (set, way) left the cache. */
void pdp_clear(pdp_policy *p, int set, int way);
static inline int pdp_rpd(const pdp_policy *p, int set, int way) { return p->rpd[(size_t)set * p->assoc + way]; }
/* The victim way among `lines` (the set's assoc lines): an unallocated way, else the LRU line with
   no reserved sectors and RPD <= pending (pending = decrements this access has still to apply:
   the spec decrements the set before choosing; 0 when already applied); -1 = every line is
   protected or reserved: bypass. */
int pdp_victim(const pdp_policy *p, int set, const cache_line *lines, int pending);

#endif
