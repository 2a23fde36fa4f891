/* Undoing a failed kernel: dropping it from the registry, and carrying a registry's totals and
 * history over to the fresh one of a rebuilt GPU. */
#include <stdlib.h>
#include <string.h>

#include "stats_internal.h"

void stat_kernel_abort(stat_registry *r)
{
    if (!r || !r->open) return;
    for (int i = 0; i < r->n; i++) {
        stat_entry *e = &r->v[i];
        int kept = i < r->nsaved;
        if (e->kind == E_COUNTER) *e->csrc = kept ? r->saved[i].u : 0;
        if (e->kind == E_REAL) *e->rsrc = kept ? r->saved[i].d : 0.0;
    }
    r->open = 0;
    free(r->open_name);
    r->open_name = NULL;
}

int stat_registry_adopt(stat_registry *dst, stat_registry *src)
{
    if (!dst || !src || dst->open || src->open || dst->n != src->n) return -1;
    for (int i = 0; i < src->n; i++)
        if (dst->v[i].kind != src->v[i].kind || strcmp(dst->v[i].path, src->v[i].path) != 0) return -1;
    for (int i = 0; i < src->n; i++) {
        stat_entry *d = &dst->v[i];
        const stat_entry *s = &src->v[i];
        d->run_u = s->run_u;
        d->run_d = s->run_d;
        if (d->kind == E_COUNTER) *d->csrc = *s->csrc;
        if (d->kind == E_REAL) *d->rsrc = *s->rsrc;
    }
    for (int i = 0; i < dst->nk; i++) {
        free(dst->k[i].name);
        free(dst->k[i].vals);
    }
    free(dst->k);
    dst->k = src->k;
    dst->nk = src->nk;
    dst->capk = src->capk;
    src->k = NULL;
    src->nk = src->capk = 0;
    return 0;
}
