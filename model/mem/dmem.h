/*
 * Device (global) memory: a sparse, paged 64-bit address space with a cudaMalloc-like
 * allocator. Every access is checked against the live allocations, so a kernel reading out
 * of bounds is reported instead of silently reading zeros.
 */
#ifndef GTLM_DMEM_H
#define GTLM_DMEM_H

#include <stddef.h>
#include <stdint.h>

#define DMEM_BASE 0x0000001000000000ull /* first device address handed out */
#define DMEM_ALIGN 256u                 /* allocation alignment, as cudaMalloc */
#define DMEM_PAGE_BITS 16u              /* 64 KiB pages */

typedef struct dmem_alloc {
    uint64_t base, size;
    int live;
} dmem_alloc;

typedef struct dmem_page {
    uint64_t number; /* address >> DMEM_PAGE_BITS; UINT64_MAX marks an empty slot */
    uint8_t *data;
} dmem_page;

typedef struct dmem {
    dmem_alloc *allocs; /* sorted by base (addresses only grow) */
    size_t n_allocs, cap_allocs;
    uint64_t next;      /* next free address */
    dmem_page *pages;   /* open-addressing hash table */
    size_t n_pages, cap_pages;
    size_t last_alloc;  /* index of the allocation the last check hit */
    dmem_page *last_page;
    uint64_t live_bytes;
} dmem;

void dmem_init(dmem *m);
void dmem_free_all(dmem *m);
/* dst becomes an independent copy of src (allocations and contents). Returns 0 or -1 (out of
 * memory; dst is empty then). */
int dmem_clone(dmem *dst, const dmem *src);

/* Allocates bytes (0 allowed: a distinct address with no accessible bytes). Returns 0 or -1
 * when out of memory (host) or address space. Fresh memory reads as zero. */
int dmem_alloc_bytes(dmem *m, uint64_t bytes, uint64_t *out);
/* Frees the allocation starting at addr; -1 if addr is not the base of a live allocation. */
int dmem_release(dmem *m, uint64_t addr);

/* 1 if [addr, addr + size) lies inside one live allocation. */
int dmem_valid(dmem *m, uint64_t addr, uint64_t size);
/* The live allocation containing addr, or NULL. */
const dmem_alloc *dmem_find(dmem *m, uint64_t addr);

/* Raw copies; the caller has checked validity. Return -1 only when host memory ran out. */
int dmem_write(dmem *m, uint64_t addr, const void *src, uint64_t size);
void dmem_read(dmem *m, uint64_t addr, void *dst, uint64_t size);
int dmem_fill(dmem *m, uint64_t addr, int value, uint64_t size);
/* Host storage of page `number` (address >> DMEM_PAGE_BITS), created zeroed when create is set;
 * NULL when absent (it reads as zero) or out of host memory. Stable until dmem_free_all. */
uint8_t *dmem_page_data(dmem *m, uint64_t number, int create);

#endif
