/* Per-kernel resources as `ptxas -v -arch=sm_XX` reports them (physical registers, shared
 * memory, stack frame, barriers): what occupancy is computed from, since PTX's virtual
 * register counts say nothing about it. */
#ifndef GTLM_PTXAS_INFO_H
#define GTLM_PTXAS_INFO_H

#include <stddef.h>

typedef struct ptxas_func {
    char name[256];
    int is_entry;
    unsigned registers, barriers;
    unsigned long shared_bytes, const0_bytes, stack_bytes, spill_store_bytes, spill_load_bytes;
} ptxas_func;

/* Parses the report text. Returns 0 with a malloc'd array in *out (free it), or -1 with
 * "line N: what was expected" in err. */
int ptxas_info_parse(const char *text, ptxas_func **out, size_t *n, char *err, size_t len);

#endif
