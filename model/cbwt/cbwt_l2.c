/* Victim bits through an L2 slice's cache hooks (semantics in cbwt_l2.h). */
#include "cbwt_l2.h"

#include <string.h>

static void on_read(void *ctx, int set, int hit_way, const cache_req *req)
{
    cbwt_l2 *o = ctx;
    int src = o->slice->tag_src;
    if (src < 0) return; /* prefetches, atomics */
    if (o->served) (void)victim_map_load(o->served, cache_line_addr(&o->slice->cache, req->addr), src, hit_way >= 0);
    if (hit_way >= 0) {
        lls_on_hit(o->hw, set, hit_way, src);
        lls_on_hit(o->full, set, hit_way, src);
    } else {
        lls_on_miss(o->hw, set, src);
        lls_on_miss(o->full, set, src);
    }
}

static void on_fill(void *ctx, cache_line *line, int set, int way, uint8_t sectors)
{
    cbwt_l2 *o = ctx;
    (void)sectors;
    o->fill_set = set;
    o->fill_way = way;
    o->fill_line = line->tag;
}

static void on_evict(void *ctx, const cache_line *line, int set, int way)
{
    cbwt_l2 *o = ctx;
    (void)line;
    lls_on_evict(o->hw, set, way);
    lls_on_evict(o->full, set, way);
}

static void served(void *ctx, uint64_t sms)
{
    cbwt_l2 *o = ctx;
    if (o->fill_set < 0) return; /* the fill allocated no line */
    lls_on_fill(o->hw, o->fill_set, o->fill_way, sms);
    lls_on_fill(o->full, o->fill_set, o->fill_way, sms);
    if (o->served) (void)victim_map_served(o->served, o->fill_line, sms);
    o->fill_set = o->fill_way = -1;
}

int cbwt_l2_attach(cbwt_l2 *o, l2_slice *slice, lls_detector *hw, lls_detector *full)
{
    const cache_hooks *h0 = &slice->cache.hooks;
    if (h0->on_read || h0->on_fill || h0->on_evict || h0->on_hit || h0->victim || h0->alloc) return -1;
    memset(o, 0, sizeof *o);
    o->slice = slice;
    o->hw = hw;
    o->full = full;
    o->fill_set = o->fill_way = -1;
    cache_hooks h;
    memset(&h, 0, sizeof h);
    h.ctx = o;
    h.on_read = on_read;
    h.on_fill = on_fill;
    h.on_evict = on_evict;
    cache_set_hooks(&slice->cache, &h);
    slice->served = served;
    slice->served_ctx = o;
    return 0;
}
