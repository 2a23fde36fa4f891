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

int strset_add(strset *s, const char *str, size_t len)
{
    if ((s->n + 1) * 2 > s->cap) { /* keep the load under one half */
        strset bigger = {calloc(s->cap ? s->cap * 2 : 64, sizeof(char *)), s->cap ? s->cap * 2 : 64, 0};
        if (!bigger.slot) return -1;
        for (size_t i = 0; i < s->cap; i++)
            if (s->slot[i]) {
                bigger.slot[find(&bigger, s->slot[i], strlen(s->slot[i]))] = s->slot[i];
                bigger.n++;
            }
        free(s->slot);
        *s = bigger;
    }
    size_t i = find(s, str, len);
    if (s->slot[i]) return 0;
    char *copy = malloc(len + 1);
    if (!copy) return -1;
    memcpy(copy, str, len);
    copy[len] = '\0';
    s->slot[i] = copy;
    s->n++;
    return 0;
}
