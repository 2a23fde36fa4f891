/* A deep copy of device memory: analyses (PAVER's profiled locality graph) run a kernel
 * functionally on the copy without changing the program's data. */
#include <stdlib.h>
#include <string.h>

#include "dmem.h"

int dmem_clone(dmem *dst, const dmem *src)
{
    dmem_init(dst);
    *dst = *src;
    dst->allocs = NULL;
    dst->pages = NULL;
    dst->last_page = NULL;
    dst->last_alloc = 0;
    dst->allocs = malloc((src->cap_allocs ? src->cap_allocs : 1) * sizeof *dst->allocs);
    dst->pages = malloc((src->cap_pages ? src->cap_pages : 1) * sizeof *dst->pages);
    if (!dst->allocs || !dst->pages) goto fail;
    if (src->n_allocs) memcpy(dst->allocs, src->allocs, src->n_allocs * sizeof *dst->allocs);
    for (size_t i = 0; i < src->cap_pages; i++) dst->pages[i].number = UINT64_MAX, dst->pages[i].data = NULL;
    for (size_t i = 0; i < src->cap_pages; i++) {
        if (src->pages[i].number == UINT64_MAX) continue;
        dst->pages[i].data = malloc((size_t)1 << DMEM_PAGE_BITS);
        if (!dst->pages[i].data) goto fail;
        memcpy(dst->pages[i].data, src->pages[i].data, (size_t)1 << DMEM_PAGE_BITS);
        dst->pages[i].number = src->pages[i].number;
    }
    return 0;
fail:
    if (dst->pages)
        for (size_t i = 0; i < src->cap_pages; i++) free(dst->pages[i].data);
    free(dst->pages);
    free(dst->allocs);
    dmem_init(dst);
    return -1;
}
