/*
 * libFuzzer harness of the Accel-Sim trace reader: writes arbitrary bytes as a kernel trace,
 * reads its header and every thread block, checks that what was read is internally consistent
 * (every index in range), and frees it. A malformed trace must give an error, never a crash,
 * a leak or undefined behaviour. Built by CMakeLists.txt here; run by run_fuzz.sh.
 */
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <unistd.h>

#include "trace/trace_reader.h"

#define CHECK(c) \
    do {         \
        if (!(c)) abort(); \
    } while (0)

static void check_tb(const trace_kernel_info *info, const trace_tb *tb)
{
    CHECK(tb->ctaid[0] < info->grid[0] && tb->ctaid[1] < info->grid[1] && tb->ctaid[2] < info->grid[2]);
    CHECK(tb->n_warps == info->warps_per_tb);
    for (uint32_t w = 0; w < tb->n_warps; w++) {
        const trace_warp *tw = &tb->warps[w];
        CHECK(tw->first <= tb->n_insns && tw->n <= tb->n_insns - tw->first);
        for (uint32_t i = tw->first; i < tw->first + tw->n; i++) {
            const trace_insn *in = &tb->insns[i];
            CHECK(in->ndst <= TRACE_MAX_DST && in->nsrc <= TRACE_MAX_SRC);
            if (in->addr_at != TRACE_NO_ADDR)
                CHECK(in->addr_at + (uint32_t)__builtin_popcount(in->mask) <= tb->n_addrs);
        }
    }
}

static char path[64]; /* the reader takes a file: each input is written here */

static void remove_input(void) { remove(path); }

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    if (!path[0]) {
        snprintf(path, sizeof path, "/tmp/gtlm_fuzz_trace_%ld.traceg", (long)getpid());
        atexit(remove_input);
    }
    FILE *f = fopen(path, "wb");
    if (!f) return 0;
    if (size) fwrite(data, 1, size, f);
    fclose(f);
    trace_opcode_table ops;
    trace_opcode_table_init(&ops);
    strbuf err;
    strbuf_init(&err);
    trace_kernel *k = trace_kernel_open(path, &ops, (size & 1) != 0, &err);
    if (k) {
        const trace_kernel_info *info = trace_kernel_info_of(k);
        CHECK(info->warps_per_tb >= 1);
        trace_tb tb = {0};
        /* A trace names at most a few blocks here (the input is small); the bound keeps a
         * huge grid of empty blocks from making one input slow. */
        for (int n = 0; n < 256 && trace_kernel_next_tb(k, &tb, &err) > 0; n++) check_tb(info, &tb);
        trace_tb_free(&tb);
        trace_kernel_close(k);
    }
    strbuf_free(&err);
    trace_opcode_table_free(&ops);
    return 0;
}
