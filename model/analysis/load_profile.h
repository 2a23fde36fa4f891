/*
 * Per-static-load memory profile from functional execution: for each global load PC, how often
 * it ran, how many 128-byte line and 32-byte sector requests it made after coalescing, how many
 * distinct lines it touched, and its inter-warp stride (address difference / warp-ID difference
 * between consecutive executions by different warps). Architects tell high-locality loads from
 * strided ones with it (APRES Section III, Linebacker Section 2.3).
 */
#ifndef GTLM_LOAD_PROFILE_H
#define GTLM_LOAD_PROFILE_H

#include <stddef.h>
#include <stdint.h>

/* An open-addressing map from 64-bit keys to counts (a set when counts are ignored). */
typedef struct lp_map {
    uint64_t *keys;
    uint64_t *counts;
    uint8_t *used;
    size_t n, cap;
} lp_map;

typedef struct lp_load {
    uint64_t key;            /* the caller's identity of the static load (e.g. function << 32 | pc) */
    uint32_t pc, line;
    uint64_t executions;     /* warp executions */
    uint64_t line_requests;  /* 128-byte lines summed over executions */
    uint64_t sector_requests;/* 32-byte sectors summed over executions */
    lp_map lines;            /* distinct 128-byte lines touched */
    lp_map strides;          /* inter-warp stride -> samples */
    uint64_t stride_samples;
    uint64_t last_warp, last_addr;
    int has_last;
} lp_load;

typedef struct load_profile {
    lp_load *loads;
    size_t n, cap;
    lp_map index;            /* key -> position in loads + 1 */
    uint64_t total_requests; /* line requests of every load */
} load_profile;

void load_profile_init(load_profile *p);
void load_profile_free(load_profile *p);

/* Adds one warp execution of a global load. addr holds 32 lane addresses, valid in mask.
 * Returns 0, or -1 when memory ran out. */
int load_profile_add(load_profile *p, uint64_t key, uint32_t pc, uint32_t line, uint64_t warp, uint32_t mask,
                     const uint64_t *addr, unsigned bytes);

/* Most common inter-warp stride of a load and its share of the samples (0, 0 when none). */
void load_profile_stride(const lp_load *l, int64_t *stride, double *share);

/* Loads sorted by line requests, most first (ties by pc): fills order[] with indices. */
void load_profile_order(const load_profile *p, size_t *order);

#endif
