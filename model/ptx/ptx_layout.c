/*
 * Placement of parameters and variables in their state spaces (see ptx_ir.h): everything in
 * declaration order at offsets aligned to the item's alignment.
 *
 * Shared memory of a CTA: [module statics][the kernel's own statics][statics of .func's]
 * [dynamic]. Each kernel's own statics start after the module's (kernels do not run in the
 * same CTA, so theirs may overlap); the .func statics come after the largest kernel end, so
 * that any kernel may call any function. .extern .shared arrays have offset 0: the executor
 * places them at the dynamic base (see ptx_kernel_static_shared).
 */
#include "ptx_internal.h"

static uint64_t align_up(uint64_t x, uint64_t a) { return a > 1 ? (x + a - 1) / a * a : x; }

static uint64_t place_params(ptx_param *a, uint32_t n, uint64_t off)
{
    for (uint32_t i = 0; i < n; i++) {
        off = align_up(off, a[i].align);
        a[i].offset = off;
        off += a[i].size;
    }
    return off;
}

void ptx_layout_params(ptx_func *f)
{
    uint64_t off = place_params(f->params, f->n_params, 0);
    f->param_bytes = place_params(f->rets, f->n_rets, off);
}

/* Places the symbols of one space (statics only for .shared); returns the end offset. */
static uint64_t place_syms(ptx_symbol *s, uint32_t n, ptx_space space, uint64_t off)
{
    for (uint32_t i = 0; i < n; i++) {
        if (s[i].space != space) continue;
        if (s[i].is_extern) {
            s[i].offset = 0;
            continue;
        }
        off = align_up(off, s[i].align);
        s[i].offset = off;
        off += s[i].size;
    }
    return off;
}

int ptx_layout_module(ptx_module *m)
{
    m->const_bytes = place_syms(m->syms, m->n_syms, PS_CONST, 0);
    m->global_bytes = place_syms(m->syms, m->n_syms, PS_GLOBAL, 0);
    m->shared_static_bytes = place_syms(m->syms, m->n_syms, PS_SHARED, 0);
    uint64_t kernels_end = m->shared_static_bytes;
    for (uint32_t i = 0; i < m->n_funcs; i++) {
        ptx_func *f = &m->funcs[i];
        f->local_bytes = place_syms(f->syms, f->n_syms, PS_LOCAL, 0);
        f->scratch_bytes = place_syms(f->syms, f->n_syms, PS_PARAM, 0);
        if (f->is_entry) {
            uint64_t end = place_syms(f->syms, f->n_syms, PS_SHARED, m->shared_static_bytes);
            if (end > kernels_end) kernels_end = end;
        }
    }
    uint64_t off = kernels_end;
    for (uint32_t i = 0; i < m->n_funcs; i++)
        if (!m->funcs[i].is_entry) off = place_syms(m->funcs[i].syms, m->funcs[i].n_syms, PS_SHARED, off);
    return 0;
}
