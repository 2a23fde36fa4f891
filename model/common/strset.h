/* A set of strings (open addressing, FNV-1a hash; the set keeps its own copies). Used where a
 * registry checks each new name against thousands of earlier ones. */
#ifndef GTLM_COMMON_STRSET_H
#define GTLM_COMMON_STRSET_H

#include <stddef.h>

typedef struct strset {
    char **slot;
    int *val; /* the value stored with each string (strset_put); -1 when none */
    size_t cap, n;
} strset;

void strset_init(strset *s);
void strset_free(strset *s);
/* Adds the first len bytes of str (a copy). 0, or -1 when out of memory; adding twice is fine. */
int strset_add(strset *s, const char *str, size_t len);
int strset_has(const strset *s, const char *str, size_t len);
/* Adds the string with a value, or sets the value of a string already there; 0 or -1. */
int strset_put(strset *s, const char *str, size_t len, int value);
/* The value stored with the string, or -1 when it is absent or was added without one. */
int strset_get(const strset *s, const char *str, size_t len);

#endif
