/* Parses one PTX file with the model's parser and reports what it holds: the loader whose
 * maximum resident size measure_load.sh reads with /usr/bin/time -v (memory per byte of PTX). */
#include <stdio.h>
#include <stdlib.h>

#include "common/strbuf.h"
#include "ptx/ptx_ir.h"
#include "ptx/ptx_parse.h"

int main(int argc, char **argv)
{
    if (argc != 2) {
        fprintf(stderr, "usage: gtlm_ptx_load FILE.ptx\n");
        return 2;
    }
    FILE *f = fopen(argv[1], "rb");
    if (!f) {
        perror(argv[1]);
        return 2;
    }
    /* Sized as gtlm_module_load_ptx_file sizes it: by the file's size, when it can be told. */
    size_t cap = 1 << 20, len = 0;
    if (fseek(f, 0, SEEK_END) == 0) {
        long size = ftell(f);
        if (size > 0) cap = (size_t)size + 1;
        rewind(f);
    }
    char *text = malloc(cap);
    for (size_t n; text && (n = fread(text + len, 1, cap - len, f)) > 0;) {
        len += n;
        if (len == cap) text = realloc(text, cap *= 2);
    }
    fclose(f);
    if (!text) {
        fprintf(stderr, "%s: out of memory\n", argv[1]);
        return 2;
    }
    ptx_module m;
    strbuf err = {0}, warn = {0};
    int rc = ptx_parse(argv[1], text, len, &m, &err, &warn);
    free(text);
    if (rc) {
        fprintf(stderr, "%s", err.data ? err.data : "parse failed\n");
        return 1;
    }
    size_t instrs = 0, opnds = 0, regs = 0;
    for (uint32_t i = 0; i < m.n_funcs; i++) {
        instrs += m.funcs[i].n_instrs;
        for (uint32_t k = 0; k < m.funcs[i].n_instrs; k++) {
            const ptx_instr *in = &m.funcs[i].instrs[k];
            opnds += in->nopnd;
            regs += (size_t)in->nsrc + in->ndst;
        }
    }
    /* What the instruction records hold against what they use: the profile behind the layout. */
    printf("%zu bytes, %u functions, %zu instructions (%zu B each: %.1f MB), %zu operands (%zu B each), "
           "%zu registers listed\n",
           len, m.n_funcs, instrs, sizeof(ptx_instr), (double)instrs * sizeof(ptx_instr) / 1e6, opnds,
           sizeof(ptx_operand), regs);
    ptx_module_free(&m);
    strbuf_free(&err);
    strbuf_free(&warn);
    return 0;
}
