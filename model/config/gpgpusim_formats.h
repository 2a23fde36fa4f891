/*
 * GPGPU-Sim's structured option values, parsed into fields:
 *   cache     "-gpgpu_cache:dl1 N:64:128:6,L:L:m:N:H,A:128:8,8[:fifo][,port]" or "none"
 *   dram      "-gpgpu_dram_timing_opt nbk=16:CCD=2:RRD=6:RCD=12:..."
 *   clocks    "-gpgpu_clock_domains core:icnt:l2:dram" (MHz)
 *   int list  "-ptx_opcode_latency_int 4,13,4,5,145"
 *   pair      "-gpgpu_shader_core_pipeline 1536:32"
 *   policy    "-gpgpu_scheduler two_level_active:6:0:1" (a name with integer parameters)
 */
#ifndef GSIM_FORMATS_H
#define GSIM_FORMATS_H

#include "opt.h"

typedef struct gsim_cache_cfg {
    int disabled;    /* "none" */
    char type;       /* 'N' normal lines, 'S' sectored (4 x 32 B sectors) */
    int nsets, line_size, assoc;
    char replacement; /* 'L' LRU, 'F' FIFO */
    char write_policy; /* 'R' read-only, 'B' write-back, 'T' write-through, 'E' write-evict,
                          'L' local write-back / global write-through */
    char alloc_policy; /* 'm' on miss, 'f' on fill, 's' streaming */
    char write_alloc;  /* 'N' none, 'W' naive, 'F' fetch-on-write, 'L' lazy fetch-on-read */
    char set_index;    /* 'L' linear, 'X' xor, 'P' ipoly, 'H' Fermi hash, 'C' custom */
    char mshr_type;    /* 'A' assoc, 'S' sector assoc, 'F' tex FIFO, 'T' sector tex FIFO */
    int mshr_entries, mshr_merge;
    int miss_queue;   /* default 8 when absent */
    int result_fifo;  /* texture result FIFO entries, default 0 */
    int port_width;   /* data-port bytes per cycle; default = line size */
} gsim_cache_cfg;

typedef struct gsim_dram_timing {
    int nbk, tCCD, tRRD, tRCD, tRAS, tRP, tRC, CL, WL, tCDLR, tWR;
    int nbkgrp, tCCDL, tRTPL; /* optional: 1, 0, 0 */
} gsim_dram_timing;

typedef struct gsim_clock_domains {
    double core_mhz, icnt_mhz, l2_mhz, dram_mhz;
} gsim_clock_domains;

#define GSIM_INT_LIST_MAX 32
typedef struct gsim_int_list {
    int n;
    int v[GSIM_INT_LIST_MAX];
} gsim_int_list;

typedef struct gsim_int_pair {
    int first, second;
} gsim_int_pair;

#define GSIM_POLICY_MAX_PARAMS 8
typedef struct gsim_policy_spec {
    char name[48];
    int nparams;
    long long params[GSIM_POLICY_MAX_PARAMS];
} gsim_policy_spec;

/* Limits of a list option: item count and value range. */
typedef struct gsim_list_limits {
    int min_items, max_items;
    int min_value, max_value;
    char sep; /* the separator; 0: ',' */
} gsim_list_limits;

extern const opt_custom_type gsim_opt_cache;
extern const opt_custom_type gsim_opt_dram_timing;
extern const opt_custom_type gsim_opt_clocks;
extern const opt_custom_type gsim_opt_pair; /* both positive */
/* Policy names a policy option accepts, each with its parameter count range. */
typedef struct gsim_policy_choice {
    const char *name;
    int min_params, max_params;
    const char *params_help; /* e.g. "N:inner:outer" */
} gsim_policy_choice;
/* A NULL-name-terminated table; the option type's param. */
#define GSIM_POLICY_TYPE(var, table) static const opt_custom_type var = {"policy", gsim_parse_policy, gsim_format_policy, table}
int gsim_parse_policy(const void *table, const char *text, void *dst, char *err, size_t len);
void gsim_format_policy(const void *table, const void *src, char *buf, size_t len);

int gsim_parse_int_list(const void *limits, const char *text, void *dst, char *err, size_t len);
void gsim_format_int_list(const void *limits, const void *src, char *buf, size_t len);
/* Declares an int-list option type with the given limits. */
#define GSIM_INT_LIST_TYPE(var, minn, maxn, minv, maxv)                                            \
    static const gsim_list_limits var##_limits = {minn, maxn, minv, maxv, 0};                      \
    static const opt_custom_type var = {"int_list", gsim_parse_int_list, gsim_format_int_list,     \
                                        &var##_limits}
/* The same with another separator, e.g. ':' for "-gpgpu_dram_partition_queues 8:8:8:8". */
#define GSIM_INT_LIST_SEP_TYPE(var, minn, maxn, minv, maxv, sepc)                                  \
    static const gsim_list_limits var##_limits = {minn, maxn, minv, maxv, sepc};                   \
    static const opt_custom_type var = {"int_list", gsim_parse_int_list, gsim_format_int_list,     \
                                        &var##_limits}

/* Direct parsers, for tests and for blocks that parse strings of their own. */
int gsim_cache_cfg_parse(const char *text, gsim_cache_cfg *out, char *err, size_t len);
int gsim_dram_timing_parse(const char *text, gsim_dram_timing *out, char *err, size_t len);
/* Capacity in bytes of a cache configuration (0 when disabled). */
long long gsim_cache_cfg_bytes(const gsim_cache_cfg *c);

#endif
