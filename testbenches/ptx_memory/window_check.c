/*
 * Prints what the parser makes of each PTX file given and of damaged copies of it (cut at
 * twelve points, every 37th line deleted, every 11th brace or ';' deleted): each message, and
 * for a module that parses, a digest of every instruction, operand and register list. Built
 * twice, with the normal token window and with the smallest one (PP_WINDOW_MIN 1, no margin),
 * by ptx_memory.window_check, which requires the two outputs to be equal: a statement that
 * spans a window's end parses, and fails, as it does inside one.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "common/strbuf.h"
#include "ptx/ptx_ir.h"
#include "ptx/ptx_parse.h"

static unsigned long long digest;

static void mix(unsigned long long v) { digest = (digest ^ v) * 1099511628211ull; }

static void mix_instr(const ptx_instr *in)
{
    const unsigned long long fields[] = {in->op,    in->type,    in->type2,       in->space,    in->rnd,
                                         in->cmp,   in->boolop,  in->mode,        in->vec,      in->nopnd,
                                         in->guard, in->guard_neg, in->flags,     in->line,     in->col,
                                         in->reconv_pc, in->nsrc, in->ndst,       in->n_call_args,
                                         (unsigned long long)(long long)in->call_ret, in->n_targets};
    for (size_t i = 0; i < sizeof fields / sizeof fields[0]; i++) mix(fields[i]);
    for (unsigned j = 0; j < in->nopnd; j++) {
        const ptx_operand *o = &in->o[j];
        mix(o->kind), mix(o->neg), mix(o->comp), mix(o->vec_n), mix(o->reg), mix(o->reg2), mix(o->sreg);
        if (o->kind == PO_VEC)
            for (unsigned e = 0; e < 4; e++) mix(o->vec[e]);
        else
            mix((unsigned long long)(long long)o->sym), mix((unsigned long long)o->imm);
    }
    for (unsigned j = 0; j < in->nsrc; j++) mix(in->src[j]);
    for (unsigned j = 0; j < in->ndst; j++) mix(in->dst[j]);
    for (unsigned j = 0; j < in->n_call_args; j++) mix((unsigned long long)(long long)in->call_args[j]);
    for (unsigned j = 0; j < in->n_targets; j++) mix(in->targets[j]);
}

static void parse(const char *name, const char *text, size_t len)
{
    ptx_module m;
    strbuf err, warn;
    strbuf_init(&err);
    strbuf_init(&warn);
    int rc = ptx_parse(name, text, len, &m, &err, &warn);
    printf("== %s rc %d\n%s%s", name, rc, strbuf_str(&err), strbuf_str(&warn));
    if (rc == 0) {
        digest = 1469598103934665603ull;
        for (uint32_t i = 0; i < m.n_funcs; i++) {
            const ptx_func *f = &m.funcs[i];
            mix(f->n_instrs), mix(f->n_regs), mix(f->n_syms), mix(f->n_blocks);
            for (uint32_t k = 0; k < f->n_instrs; k++) mix_instr(&f->instrs[k]);
        }
        printf("digest %llx\n", digest);
        ptx_module_free(&m);
    }
    strbuf_free(&err);
    strbuf_free(&warn);
}

int main(int argc, char **argv)
{
    for (int a = 1; a < argc; a++) {
        FILE *f = fopen(argv[a], "rb");
        long n = -1;
        if (f && fseek(f, 0, SEEK_END) == 0) n = ftell(f);
        char *t = n >= 0 ? malloc((size_t)n + 1) : NULL, *c = n >= 0 ? malloc((size_t)n + 1) : NULL;
        if (!f || !t || !c || fseek(f, 0, SEEK_SET) != 0 || fread(t, 1, (size_t)n, f) != (size_t)n) {
            fprintf(stderr, "window_check: cannot read %s\n", argv[a]);
            return 2;
        }
        fclose(f);
        parse(argv[a], t, (size_t)n);
        for (int k = 1; k <= 12; k++) parse("cut", t, (size_t)n * (size_t)k / 13);
        int line = 0, mark = 0;
        for (long i = 0; i < n; i++) {
            if (t[i] != '\n' || ++line % 37) continue;
            long e = i + 1;
            while (e < n && t[e] != '\n') e++;
            memcpy(c, t, (size_t)i + 1);
            memcpy(c + i + 1, t + e, (size_t)(n - e));
            parse("line-deleted", c, (size_t)(i + 1 + n - e));
        }
        for (long i = 0; i < n; i++) {
            if ((t[i] != '}' && t[i] != ';' && t[i] != '{') || ++mark % 11) continue;
            memcpy(c, t, (size_t)i);
            memcpy(c + i, t + i + 1, (size_t)(n - i - 1));
            parse("char-deleted", c, (size_t)n - 1);
        }
        free(c);
        free(t);
    }
    return 0;
}
