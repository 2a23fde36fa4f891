/* Interning of full SASS opcode strings: one id per (opcode text, GPU family), first-seen order. */
#include "trace_opcodes.h"

#include <stdlib.h>
#include <string.h>

void trace_opcode_table_init(trace_opcode_table *t) { memset(t, 0, sizeof *t); }

void trace_opcode_table_free(trace_opcode_table *t)
{
    for (uint32_t i = 0; i < t->n; i++) free(t->names[i]);
    free(t->names);
    free(t->info);
    free(t->family);
    free(t->uses);
    free(t->slots);
    memset(t, 0, sizeof *t);
}

static uint32_t hash_op(const char *s, int family)
{
    uint32_t h = 2166136261u ^ (uint32_t)(family + 1); /* FNV-1a */
    for (; *s; s++) h = (h ^ (uint8_t)*s) * 16777619u;
    return h;
}

static int find(const trace_opcode_table *t, const char *op, int family, uint32_t h, uint32_t *slot)
{
    if (!t->nslots) return -1;
    for (uint32_t i = h & (t->nslots - 1);; i = (i + 1) & (t->nslots - 1)) {
        uint32_t s = t->slots[i];
        *slot = i;
        if (!s) return -1;
        if (t->family[s - 1] == family && strcmp(t->names[s - 1], op) == 0) return (int)(s - 1);
    }
}

static int rehash(trace_opcode_table *t, uint32_t nslots)
{
    uint32_t *slots = calloc(nslots, sizeof *slots);
    if (!slots) return -1;
    for (uint32_t id = 0; id < t->n; id++) {
        uint32_t i = hash_op(t->names[id], t->family[id]) & (nslots - 1);
        while (slots[i]) i = (i + 1) & (nslots - 1);
        slots[i] = id + 1;
    }
    free(t->slots);
    t->slots = slots;
    t->nslots = nslots;
    return 0;
}

static int grow(trace_opcode_table *t)
{
    uint32_t cap = t->cap ? t->cap * 2 : 32;
    char **names = realloc(t->names, cap * sizeof *names);
    if (names) t->names = names;
    trace_op_info *info = realloc(t->info, cap * sizeof *info);
    if (info) t->info = info;
    int8_t *family = realloc(t->family, cap * sizeof *family);
    if (family) t->family = family;
    uint64_t *uses = realloc(t->uses, cap * sizeof *uses);
    if (uses) t->uses = uses;
    if (!names || !info || !family || !uses) return -1;
    t->cap = cap;
    return 0;
}

int trace_opcode_intern(trace_opcode_table *t, const char *opcode, uint32_t binary_version, int unknown_as_alu)
{
    int family = trace_opcode_family(binary_version);
    uint32_t h = hash_op(opcode, family), slot = 0;
    int id = find(t, opcode, family, h, &slot);
    if (id < 0) {
        trace_op_info info;
        int known = trace_opcode_classify(opcode, binary_version, &info) == 0;
        if (!known && !unknown_as_alu) return -1;
        if (!known) {
            memset(&info, 0, sizeof info); /* TOC_INT */
            info.unknown = 1;
        }
        if (t->n == INT32_MAX) return -1;
        if (t->n == t->cap && grow(t)) return -1;
        if ((t->n + 1) * 2 > t->nslots) {
            if (rehash(t, t->nslots ? t->nslots * 2 : 64)) return -1;
        }
        size_t len = strlen(opcode) + 1;
        char *name = malloc(len);
        if (!name) return -1;
        memcpy(name, opcode, len);
        id = (int)t->n++;
        t->names[id] = name;
        t->info[id] = info;
        t->family[id] = (int8_t)family;
        t->uses[id] = 0;
        find(t, opcode, family, h, &slot); /* the free slot after a possible rehash */
        t->slots[slot] = (uint32_t)id + 1;
    }
    t->uses[id]++;
    if (t->info[id].unknown) t->unknown_uses++;
    return id;
}

const char *trace_opcode_name(const trace_opcode_table *t, int id)
{
    return id >= 0 && (uint32_t)id < t->n ? t->names[id] : NULL;
}

const trace_op_info *trace_opcode_info(const trace_opcode_table *t, int id)
{
    return id >= 0 && (uint32_t)id < t->n ? &t->info[id] : NULL;
}

uint32_t trace_opcode_count(const trace_opcode_table *t) { return t->n; }

uint64_t trace_opcode_unknown_uses(const trace_opcode_table *t) { return t->unknown_uses; }

uint64_t trace_opcode_uses(const trace_opcode_table *t, int id)
{
    return id >= 0 && (uint32_t)id < t->n ? t->uses[id] : 0;
}
