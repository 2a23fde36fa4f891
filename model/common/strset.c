#include "strset.h"

#include <stdint.h>
#include <stdlib.h>
#include <string.h>

static uint64_t hash(const char *str, size_t len)
{
    uint64_t h = 1469598103934665603ull;
    for (size_t i = 0; i < len; i++) h = (h ^ (unsigned char)str[i]) * 1099511628211ull;
    return h;
}

void strset_init(strset *s) { memset(s, 0, sizeof *s); }

void strset_free(strset *s)
{
    for (size_t i = 0; i < s->cap; i++) free(s->slot[i]);
    free(s->slot);
    free(s->val);
    memset(s, 0, sizeof *s);
}

static size_t find(const strset *s, const char *str, size_t len)
{
    size_t i = (size_t)hash(str, len) & (s->cap - 1);
    while (s->slot[i] && (strncmp(s->slot[i], str, len) != 0 || s->slot[i][len] != '\0')) i = (i + 1) & (s->cap - 1);
    return i;
}

int strset_has(const strset *s, const char *str, size_t len)
{
    return s->cap && s->slot[find(s, str, len)] != NULL;
}

/* Adds str (or finds it) and returns its slot, or (size_t)-1 when out of memory. */
static size_t insert(strset *s, const char *str, size_t len)
{
    if ((s->n + 1) * 2 > s->cap) { /* keep the load under one half */
        size_t cap = s->cap ? s->cap * 2 : 64;
        strset bigger = {calloc(cap, sizeof(char *)), malloc(cap * sizeof(int)), cap, 0};
        if (!bigger.slot || !bigger.val) {
            free(bigger.slot);
            free(bigger.val);
            return (size_t)-1;
        }
        for (size_t i = 0; i < s->cap; i++)
            if (s->slot[i]) {
                size_t j = find(&bigger, s->slot[i], strlen(s->slot[i]));
                bigger.slot[j] = s->slot[i];
                bigger.val[j] = s->val[i];
                bigger.n++;
            }
        free(s->slot);
        free(s->val);
        *s = bigger;
    }
    size_t i = find(s, str, len);
    if (s->slot[i]) return i;
    char *copy = malloc(len + 1);
    if (!copy) return (size_t)-1;
    memcpy(copy, str, len);
    copy[len] = '\0';
    s->slot[i] = copy;
    s->val[i] = -1;
    s->n++;
    return i;
}

int strset_add(strset *s, const char *str, size_t len) { return insert(s, str, len) == (size_t)-1 ? -1 : 0; }

int strset_put(strset *s, const char *str, size_t len, int value)
{
    size_t i = insert(s, str, len);
    if (i == (size_t)-1) return -1;
    s->val[i] = value;
    return 0;
}

int strset_get(const strset *s, const char *str, size_t len)
{
    if (!s->cap) return -1;
    size_t i = find(s, str, len);
    return s->slot[i] ? s->val[i] : -1;
}
