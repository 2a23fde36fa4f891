/* SAP prefetch table and stride-match gate; the stride is (addr - last addr) / (warp - last warp),
 * a mismatch when the warps are equal or the division is not exact (spec gap 10). */
#include "sap.h"

#include <string.h>

int sap_init(sap *p, uint32_t n_pt)
{
    memset(p, 0, sizeof *p);
    if (n_pt == 0 || n_pt > SAP_PT_MAX) return -1;
    p->n_pt = n_pt;
    return 0;
}

static sap_entry *lookup(sap *p, uint64_t pc)
{
    for (uint32_t i = 0; i < p->n_pt; i++)
        if (p->pt[i].valid && p->pt[i].pc == pc) return &p->pt[i];
    return NULL;
}

/* Inter-warp stride from e to (warp, addr); 0 when there is none. */
static int stride_of(const sap_entry *e, int64_t warp, uint64_t addr, int64_t *stride)
{
    int64_t dw = warp - e->warp, da = (int64_t)(addr - e->addr);
    if (dw == 0 || da % dw != 0) return 0;
    *stride = da / dw;
    return 1;
}

/* Table widths for the energy count (Table II): a PT entry is 21 B, its PC tag 32 bits; a DRQ
 * entry 8 B; a WQ entry 1 B. A PT lookup compares every entry's tag and reads the matching entry. */
#define SAP_PC_BITS 32u
#define SAP_ENTRY_BITS (21u * 8u)
static uint64_t pt_lookup_bits(const sap *p) { return (uint64_t)SAP_PC_BITS * p->n_pt + SAP_ENTRY_BITS; }

void sap_train(sap *p, uint64_t pc, int64_t warp, uint64_t addr)
{
    p->trains++;
    p->table_bits += pt_lookup_bits(p) + SAP_ENTRY_BITS; /* look up, then write the entry back */
    p->clock++;
    sap_entry *e = lookup(p, pc);
    if (!e) {
        e = &p->pt[0];
        for (uint32_t i = 0; i < p->n_pt; i++) {
            if (!p->pt[i].valid) {
                e = &p->pt[i];
                break;
            }
            if (p->pt[i].lru < e->lru) e = &p->pt[i];
        }
        memset(e, 0, sizeof *e);
        e->valid = 1;
        e->pc = pc;
        p->pt_allocs++;
    } else {
        p->pt_hits++;
        int64_t s;
        if (warp != e->warp) { /* the same warp again says nothing about the inter-warp stride */
            e->stride_valid = (uint8_t)stride_of(e, warp, addr, &s);
            if (e->stride_valid) e->stride = s;
        }
    }
    e->warp = warp; /* the history always follows the latest access (spec §3.3 PROPOSAL) */
    e->addr = addr;
    e->lru = p->clock;
}

uint32_t sap_on_miss(sap *p, uint64_t pc, int64_t warp, uint64_t addr, const int64_t *members, uint32_t n_members,
                     sap_prefetch *out)
{
    p->triggers++;
    p->table_bits += pt_lookup_bits(p);
    sap_entry *e = lookup(p, pc);
    int64_t s;
    if (!e || !e->stride_valid || !stride_of(e, warp, addr, &s) || s != e->stride) return 0;
    p->stride_matches++;
    uint32_t n = 0;
    if (n_members > SAP_WQ) n_members = SAP_WQ;
    for (uint32_t i = 0; i < n_members; i++) {
        if (members[i] == warp) continue;
        out[n].warp = members[i];
        out[n].addr = addr + (uint64_t)((members[i] - warp) * e->stride);
        n++;
    }
    p->prefetches += n;
    p->table_bits += (uint64_t)n * (8u + 64u); /* per target: its WQ entry read, a DRQ entry written */
    return n;
}

uint32_t apres_storage_bytes(uint32_t n_pt, uint32_t n_warps, uint32_t wgt_entries)
{
    uint32_t llt = 4 * n_warps, wgt = (n_warps * wgt_entries + 7) / 8, drq = 8 * SAP_DRQ, wq = n_warps;
    uint32_t pt = (4 + 1 + 8 + 8) * n_pt;
    return llt + wgt + drq + wq + pt;
}
