#include "dmem.h"

#include <stdlib.h>
#include <string.h>

#define PAGE_SIZE (1ull << DMEM_PAGE_BITS)
#define EMPTY UINT64_MAX

void dmem_init(dmem *m)
{
    memset(m, 0, sizeof *m);
    m->next = DMEM_BASE;
}

void dmem_free_all(dmem *m)
{
    for (size_t i = 0; i < m->cap_pages; i++)
        if (m->pages[i].number != EMPTY) free(m->pages[i].data);
    free(m->pages);
    free(m->allocs);
    dmem_init(m);
}

static size_t hash_page(uint64_t number, size_t cap) { return (size_t)((number * 0x9E3779B97F4A7C15ull) >> 20) & (cap - 1); }

static dmem_page *find_page(const dmem *m, uint64_t number)
{
    if (!m->cap_pages) return NULL;
    for (size_t i = hash_page(number, m->cap_pages);; i = (i + 1) & (m->cap_pages - 1)) {
        if (m->pages[i].number == number) return &m->pages[i];
        if (m->pages[i].number == EMPTY) return NULL;
    }
}

static int grow_pages(dmem *m)
{
    size_t cap = m->cap_pages ? m->cap_pages * 2 : 64;
    dmem_page *p = malloc(cap * sizeof *p);
    if (!p) return -1;
    for (size_t i = 0; i < cap; i++) p[i].number = EMPTY;
    for (size_t i = 0; i < m->cap_pages; i++) {
        if (m->pages[i].number == EMPTY) continue;
        size_t j = hash_page(m->pages[i].number, cap);
        while (p[j].number != EMPTY) j = (j + 1) & (cap - 1);
        p[j] = m->pages[i];
    }
    free(m->pages);
    m->pages = p;
    m->cap_pages = cap;
    m->last_page = NULL;
    return 0;
}

/* The page holding number, created (zeroed) when create is set. */
static uint8_t *page_data(dmem *m, uint64_t number, int create)
{
    if (m->last_page && m->last_page->number == number) return m->last_page->data;
    dmem_page *p = find_page(m, number);
    if (!p) {
        if (!create) return NULL;
        if ((m->n_pages + 1) * 2 > m->cap_pages && grow_pages(m) != 0) return NULL;
        uint8_t *data = calloc(1, PAGE_SIZE);
        if (!data) return NULL;
        size_t j = hash_page(number, m->cap_pages);
        while (m->pages[j].number != EMPTY) j = (j + 1) & (m->cap_pages - 1);
        m->pages[j].number = number;
        m->pages[j].data = data;
        m->n_pages++;
        p = &m->pages[j];
    }
    m->last_page = p;
    return p->data;
}

uint8_t *dmem_page_data(dmem *m, uint64_t number, int create) { return page_data(m, number, create); }

int dmem_alloc_bytes(dmem *m, uint64_t bytes, uint64_t *out)
{
    uint64_t span = bytes ? bytes : 1;
    uint64_t rounded = (span + DMEM_ALIGN - 1) & ~(uint64_t)(DMEM_ALIGN - 1);
    if (rounded < span || m->next + rounded < m->next) return -1;
    if (m->n_allocs == m->cap_allocs) {
        size_t cap = m->cap_allocs ? m->cap_allocs * 2 : 16;
        dmem_alloc *a = realloc(m->allocs, cap * sizeof *a);
        if (!a) return -1;
        m->allocs = a;
        m->cap_allocs = cap;
    }
    m->allocs[m->n_allocs++] = (dmem_alloc){m->next, bytes, 1};
    *out = m->next;
    /* A guard gap after each allocation so an overrun never lands in the next one. */
    m->next += rounded + DMEM_ALIGN;
    m->live_bytes += bytes;
    return 0;
}

/* Index of the allocation whose range [base, base + max(size, 1)) contains addr, or -1. */
static long locate(const dmem *m, uint64_t addr)
{
    size_t lo = 0, hi = m->n_allocs;
    while (lo < hi) {
        size_t mid = (lo + hi) / 2;
        if (m->allocs[mid].base <= addr) lo = mid + 1;
        else hi = mid;
    }
    if (lo == 0) return -1;
    const dmem_alloc *a = &m->allocs[lo - 1];
    return addr - a->base < (a->size ? a->size : 1) ? (long)(lo - 1) : -1;
}

int dmem_release(dmem *m, uint64_t addr)
{
    long i = locate(m, addr);
    if (i < 0 || m->allocs[i].base != addr || !m->allocs[i].live) return -1;
    dmem_alloc *a = &m->allocs[i];
    a->live = 0;
    m->live_bytes -= a->size;
    /* Drop whole pages that belonged only to this allocation; partial ones are zeroed. */
    for (uint64_t p = a->base >> DMEM_PAGE_BITS; a->size && p <= (a->base + a->size - 1) >> DMEM_PAGE_BITS; p++) {
        uint8_t *d = page_data(m, p, 0);
        if (!d) continue;
        uint64_t lo = a->base > (p << DMEM_PAGE_BITS) ? a->base : p << DMEM_PAGE_BITS;
        uint64_t hi = a->base + a->size < ((p + 1) << DMEM_PAGE_BITS) ? a->base + a->size : (p + 1) << DMEM_PAGE_BITS;
        memset(d + (lo & (PAGE_SIZE - 1)), 0, hi - lo);
    }
    return 0;
}

const dmem_alloc *dmem_find(dmem *m, uint64_t addr)
{
    if (m->last_alloc < m->n_allocs) {
        const dmem_alloc *a = &m->allocs[m->last_alloc];
        if (a->live && addr - a->base < a->size) return a;
    }
    long i = locate(m, addr);
    if (i < 0 || !m->allocs[i].live) return NULL;
    m->last_alloc = (size_t)i;
    return &m->allocs[i];
}

int dmem_valid(dmem *m, uint64_t addr, uint64_t size)
{
    const dmem_alloc *a = dmem_find(m, addr);
    return a && size <= a->size && addr - a->base <= a->size - size;
}

int dmem_write(dmem *m, uint64_t addr, const void *src, uint64_t size)
{
    const uint8_t *s = src;
    while (size) {
        uint64_t off = addr & (PAGE_SIZE - 1);
        uint64_t n = PAGE_SIZE - off < size ? PAGE_SIZE - off : size;
        uint8_t *d = page_data(m, addr >> DMEM_PAGE_BITS, 1);
        if (!d) return -1;
        memcpy(d + off, s, n);
        s += n;
        addr += n;
        size -= n;
    }
    return 0;
}

void dmem_read(dmem *m, uint64_t addr, void *dst, uint64_t size)
{
    uint8_t *o = dst;
    while (size) {
        uint64_t off = addr & (PAGE_SIZE - 1);
        uint64_t n = PAGE_SIZE - off < size ? PAGE_SIZE - off : size;
        const uint8_t *d = page_data(m, addr >> DMEM_PAGE_BITS, 0);
        if (d) memcpy(o, d + off, n);
        else memset(o, 0, n); /* never written: zero */
        o += n;
        addr += n;
        size -= n;
    }
}

int dmem_fill(dmem *m, uint64_t addr, int value, uint64_t size)
{
    while (size) {
        uint64_t off = addr & (PAGE_SIZE - 1);
        uint64_t n = PAGE_SIZE - off < size ? PAGE_SIZE - off : size;
        uint8_t *d = page_data(m, addr >> DMEM_PAGE_BITS, 1);
        if (!d) return -1;
        memset(d + off, value, n);
        addr += n;
        size -= n;
    }
    return 0;
}
