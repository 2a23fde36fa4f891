/* A set of strings (open addressing, FNV-1a hash; the set keeps its own copies). Used where a
 * registry checks each new name against thousands of earlier ones. */
#ifndef GTLM_COMMON_STRSET_H
#define GTLM_COMMON_STRSET_H

#include <stddef.h>

typedef struct strset {
    char **slot;
    size_t cap, n;
} strset;

void strset_init(strset *s);
void strset_free(strset *s);
/* Adds the first len bytes of str (a copy). 0, or -1 when out of memory; adding twice is fine. */
int strset_add(strset *s, const char *str, size_t len);
int strset_has(const strset *s, const char *str, size_t len);

#endif
