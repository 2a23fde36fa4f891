/* The cache core's side of the miss classification (cache_miss_class.h). */
#include <stdlib.h>

#include "cache_core.h"
#include "cache_miss_class.h"

int cache_miss_classes_enable(cache_core *c)
{
    if (c->mclass) return 0;
    c->mclass = malloc(sizeof *c->mclass);
    if (!c->mclass || cache_miss_class_init(c->mclass, c->nsets * c->alloc_assoc)) {
        cache_miss_classes_free(c);
        return -1;
    }
    return 0;
}

void cache_miss_classes_free(cache_core *c)
{
    if (!c->mclass) return;
    if (c->mclass->node) cache_miss_class_free(c->mclass);
    free(c->mclass);
    c->mclass = NULL;
}

void cache_classify(cache_core *c, const cache_req *req, uint64_t la, cache_status st)
{
    uint8_t mask = req->sector_mask & c->full_mask;
    if (!mask || c->nsect == 1) mask = c->full_mask;
    int ways = c->ways_usable > 0 && c->ways_usable < c->assoc ? c->ways_usable : c->assoc;
    int lines = c->nsets * ways; /* the shadow is as large as the lines new data may take */
    if (!req->is_write) {
        cache_miss_class_read(c->mclass, la, mask, st == CACHE_MISS || st == CACHE_BYPASS_DIRECT, lines);
        return;
    }
    char wp = cache_write_policy(c, req);
    cache_miss_class_write(c->mclass, la, mask, wp == 'E', wp != 'E' && c->cfg.write_alloc != 'N', lines);
}
