/*
 * Scoped name tables of the function being parsed. A binding's value is (depth << 32 | slot);
 * opening '{' records the undo-log length, closing '}' restores every binding made since, so
 * an inner declaration shadows an outer one only inside its block. Slots are never reused.
 */
#include <stdlib.h>
#include <string.h>

#include "ptx_internal.h"

void pp_func_begin(pp *p, uint32_t fi)
{
    memset(&p->f, 0, sizeof p->f);
    p->f.fi = fi;
    ptx_map_init(&p->f.regs);
    ptx_map_init(&p->f.syms);
    ptx_map_init(&p->f.params);
    ptx_map_init(&p->f.labels);
    ptx_map_init(&p->f.btargets);
}

void pp_func_end(pp *p)
{
    pp_func *f = &p->f;
    ptx_map_free(&f->regs);
    ptx_map_free(&f->syms);
    ptx_map_free(&f->params);
    ptx_map_free(&f->labels);
    ptx_map_free(&f->btargets);
    free(f->undo);
    free(f->marks);
    free(f->ldefs);
    free(f->luses);
    free(f->buses);
    free(f->bts);
    free(f->bt_toks);
    memset(f, 0, sizeof *f);
}

int pp_scope_open(pp *p)
{
    pp_func *f = &p->f;
    if (PP_GROW(p, f->marks, f->cap_marks, f->depth + 1)) return -1;
    f->marks[f->depth++] = f->n_undo;
    return 0;
}

void pp_scope_close(pp *p)
{
    pp_func *f = &p->f;
    if (!f->depth) return;
    size_t mark = f->marks[--f->depth];
    while (f->n_undo > mark) {
        pp_undo *u = &f->undo[--f->n_undo];
        /* The key is already present, so this put cannot allocate. */
        ptx_map_put(u->map, u->key, u->klen, u->old);
    }
}

int pp_bind(pp *p, ptx_map *map, const char *name, int64_t val, const ptx_tok *at, const char *what)
{
    pp_func *f = &p->f;
    size_t n = strlen(name);
    int64_t *cur = ptx_map_get(map, name, n);
    int64_t old = cur ? *cur : -1;
    if (old >= 0 && (size_t)(old >> 32) == f->depth) {
        pp_error(p, at, "%s '%s' is already declared in this scope", what, name);
        return -1;
    }
    if (f->depth) {
        if (PP_GROW(p, f->undo, f->cap_undo, f->n_undo + 1)) return -1;
        f->undo[f->n_undo++] = (pp_undo){map, name, (uint32_t)n, old};
    }
    if (ptx_map_put(map, name, n, (int64_t)f->depth << 32 | val)) {
        pp_oom(p);
        return -1;
    }
    return 0;
}

int64_t pp_lookup(const ptx_map *map, const char *s, size_t n)
{
    int64_t *v = ptx_map_get(map, s, n);
    if (!v || *v < 0) return -1;
    return *v & 0xFFFFFFFF;
}
