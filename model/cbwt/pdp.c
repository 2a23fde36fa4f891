/* PDP replacement and bypass decision (semantics in pdp.h). */
#include "pdp.h"

#include <stdlib.h>

int pdp_init(pdp_policy *p, int nsets, int assoc, int pd)
{
    p->rpd = NULL;
    if (nsets <= 0 || assoc <= 0 || pd < 0 || pd > PDP_PD_MAX) return -1;
    p->rpd = calloc((size_t)nsets * (size_t)assoc, 1);
    if (!p->rpd) return -1;
    p->nsets = nsets;
    p->assoc = assoc;
    p->pd = pd;
    p->bypasses = p->protected_victims_avoided = 0;
    return 0;
}

void pdp_free(pdp_policy *p)
{
    free(p->rpd);
    p->rpd = NULL;
}

void pdp_set_pd(pdp_policy *p, int pd) { p->pd = pd < 0 ? 0 : pd > PDP_PD_MAX ? PDP_PD_MAX : pd; }

void pdp_set_access(pdp_policy *p, int set) { pdp_set_access_except(p, set, -1); }

void pdp_set_access_except(pdp_policy *p, int set, int keep)
{
    uint8_t *r = &p->rpd[(size_t)set * p->assoc];
    for (int w = 0; w < p->assoc; w++)
        if (r[w] && w != keep) r[w]--;
}

void pdp_protect(pdp_policy *p, int set, int way) { p->rpd[(size_t)set * p->assoc + way] = (uint8_t)p->pd; }

void pdp_clear(pdp_policy *p, int set, int way) { p->rpd[(size_t)set * p->assoc + way] = 0; }

int pdp_victim(const pdp_policy *p, int set, const cache_line *lines, int pending)
{
    const uint8_t *r = &p->rpd[(size_t)set * p->assoc];
    int best = -1;
    for (int w = 0; w < p->assoc; w++) {
        if (!lines[w].allocated) return w;
        if (lines[w].reserved || r[w] > pending) continue;
        if (best < 0 || lines[w].last_use < lines[best].last_use) best = w;
    }
    return best;
}
