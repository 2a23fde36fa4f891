/*
 * A string -> int64 hash map (open addressing) for the parser's name tables: registers,
 * symbols, labels, functions. Keys are not copied: they must outlive the map (they point
 * into the PTX text or at names the module owns). Entries are never deleted; the parser
 * stores a negative value for "no longer bound" when a scope ends.
 */
#ifndef GTLM_PTX_MAP_H
#define GTLM_PTX_MAP_H

#include <stddef.h>
#include <stdint.h>

typedef struct ptx_map_entry {
    const char *key; /* NULL = empty slot */
    uint32_t klen;
    uint32_t hash;
    int64_t val;
} ptx_map_entry;

typedef struct ptx_map {
    ptx_map_entry *e;
    size_t cap, n; /* cap is 0 or a power of two */
} ptx_map;

void ptx_map_init(ptx_map *m);
void ptx_map_free(ptx_map *m);
/* The value of key, or NULL when absent. The pointer is valid until the next put. */
int64_t *ptx_map_get(const ptx_map *m, const char *key, size_t klen);
/* Sets key to val (inserting it if absent). Returns 0, or -1 when out of memory. */
int ptx_map_put(ptx_map *m, const char *key, size_t klen, int64_t val);

#endif
