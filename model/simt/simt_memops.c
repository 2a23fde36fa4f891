/* Loads, stores and atomics: address resolution across state spaces and generic windows,
 * bounds and alignment checks, and the per-lane access record for the timing model. */
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "../common/fbits.h"
#include "simt_internal.h"

/* Where an access lands once generic addresses and frames are resolved. */
typedef enum where { W_GLOBAL, W_SHARED, W_FRAME, W_CONST, W_KPARAM } where;

static const char *where_name(where s)
{
    static const char *const n[] = {"global", "shared", "local", "const", "param"};
    return n[s];
}

static uint8_t where_space(where s)
{
    static const uint8_t sp[] = {PS_GLOBAL, PS_SHARED, PS_LOCAL, PS_CONST, PS_PARAM};
    return sp[s];
}

uint64_t simt_symbol_value(const simt_warp *w, const simt_entry *e, int32_t sym)
{
    const simt_launch *l = w->cta->launch;
    const ptx_func *f = simt_func(w, e->func);
    const ptx_symbol *s = ptx_symbol_ref(&l->mod->ptx, f, sym);
    if (!s) return 0;
    switch (s->space) {
    case PS_GLOBAL: return l->mod->global_base + s->offset;
    case PS_SHARED: return s->is_extern ? l->dyn_shared_base : s->offset;
    case PS_LOCAL: return e->frame_base + s->offset;
    case PS_PARAM: return e->frame_base + simt_frame_of(f).scratch_off + s->offset;
    default: return s->offset; /* const: offset in the bank */
    }
}

typedef struct target {
    where at;
    uint64_t addr;
} target;

/* The lane-independent part of an address operand, worked out once per instruction. */
typedef struct addr_plan {
    const uint64_t *reg; /* the base register's 32 lane values, or NULL */
    uint64_t offset;     /* symbol address, frame base of own parameters, and the immediate */
    int generic;         /* resolve each lane through the generic windows */
    where at;            /* the space when not generic */
} addr_plan;

static addr_plan plan_address(const simt_warp *w, const simt_entry *e, const ptx_instr *in, const ptx_operand *a)
{
    const ptx_func *f = simt_func(w, e->func);
    addr_plan p = {NULL, (uint64_t)a->imm, 0, W_GLOBAL};
    if (a->reg != PTX_NO_REG) p.reg = &w->regs[(size_t)(e->reg_base + a->reg) * SIMT_WARP];
    else if (a->sym != PTX_NO_SYM) p.offset += simt_symbol_value(w, e, a->sym);
    switch (in->space) {
    case PS_GLOBAL: p.at = W_GLOBAL; break;
    case PS_SHARED: p.at = W_SHARED; break;
    case PS_LOCAL: p.at = W_FRAME; break;
    case PS_CONST: p.at = W_CONST; break;
    case PS_PARAM: {
        const ptx_symbol *s = a->sym != PTX_NO_SYM ? ptx_symbol_ref(&w->cta->launch->mod->ptx, f, a->sym) : NULL;
        if (s && s->space == PS_PARAM) p.at = W_FRAME; /* call-site scratch */
        else if (f->is_entry) p.at = W_KPARAM;
        else {
            p.at = W_FRAME;
            if (a->reg == PTX_NO_REG && a->sym == PTX_NO_SYM) p.offset += e->frame_base + simt_frame_of(f).param_off;
        }
        break;
    }
    default: p.generic = 1; break;
    }
    return p;
}

/* The address of one lane. */
static target resolve(const addr_plan *p, uint32_t lane)
{
    uint64_t addr = (p->reg ? p->reg[lane] : 0) + p->offset;
    if (!p->generic) return (target){p->at, p->at == W_SHARED ? addr & 0xffffffffull : addr};
    if (addr - SIMT_SHARED_WINDOW < SIMT_WINDOW_SIZE) return (target){W_SHARED, addr - SIMT_SHARED_WINDOW};
    if (addr - SIMT_LOCAL_WINDOW < SIMT_WINDOW_SIZE) return (target){W_FRAME, addr - SIMT_LOCAL_WINDOW};
    if (addr - SIMT_CONST_WINDOW < SIMT_WINDOW_SIZE) return (target){W_CONST, addr - SIMT_CONST_WINDOW};
    return (target){W_GLOBAL, addr};
}

/* Host pointer to [t.addr, t.addr + n) for every space but global, or NULL when out of range. */
static uint8_t *span(simt_warp *w, target t, uint32_t lane, uint64_t n)
{
    const simt_launch *l = w->cta->launch;
    uint64_t limit;
    uint8_t *base;
    switch (t.at) {
    case W_SHARED: base = w->cta->shared; limit = l->shared_bytes; break;
    case W_FRAME: base = w->frames + (size_t)lane * w->frame_stride; limit = w->frame_stride; break;
    case W_CONST: base = l->mod->const_bank; limit = l->mod->ptx.const_bytes; break;
    case W_KPARAM: base = l->params; limit = l->kernel->param_bytes; break;
    default: return NULL;
    }
    if (n > limit || t.addr > limit - n) return NULL;
    return base + t.addr;
}

/* The live allocation [lo, hi) and the page the previous lanes of an instruction used: most lanes
 * of a warp share both, so they skip the allocation search and the page lookup. */
typedef struct gmem_hint {
    uint64_t lo, hi;
    uint64_t page;  /* page number of data, UINT64_MAX: none yet */
    uint8_t *data;  /* NULL: the page does not exist (reads as zero) */
    int create;     /* the access writes: pages are created */
} gmem_hint;

static gmem_hint gmem_hint_for(int create) { return (gmem_hint){1, 0, UINT64_MAX, NULL, create}; }

/* Host pointer to a global access inside one page, or NULL (absent page, or crossing pages:
 * the caller copies through dmem_read / dmem_write). */
static uint8_t *global_span(simt_warp *w, gmem_hint *h, uint64_t addr, uint64_t n)
{
    uint64_t page = addr >> DMEM_PAGE_BITS;
    if ((addr + n - 1) >> DMEM_PAGE_BITS != page) return NULL;
    if (page != h->page) {
        h->data = dmem_page_data(w->cta->launch->mem, page, h->create);
        h->page = h->data || !h->create ? page : UINT64_MAX;
    }
    return h->data ? h->data + (addr & ((1ull << DMEM_PAGE_BITS) - 1)) : NULL;
}

/* Host pointer for a global access of n bytes (aligned when aligned_mask = n - 1 clears it) that
 * falls in the allocation and the present page the hint remembers, or NULL: then check() decides,
 * with the same outcome for an access that passes here. */
static inline uint8_t *global_hit(const gmem_hint *h, target t, uint64_t n, uint64_t aligned_mask)
{
    if (t.at != W_GLOBAL || (t.addr & aligned_mask) || !h->data) return NULL;
    if (t.addr < h->lo || t.addr + n > h->hi) return NULL;
    if (t.addr >> DMEM_PAGE_BITS != h->page || (t.addr + n - 1) >> DMEM_PAGE_BITS != h->page) return NULL;
    return h->data + (t.addr & ((1ull << DMEM_PAGE_BITS) - 1));
}

/* n - 1 when n is a power of two (the alignment test as a mask), else ~0: never the fast path. */
static uint64_t align_mask_of(uint64_t n) { return n && !(n & (n - 1)) ? n - 1 : ~0ull; }

/* Little-endian copies of 1, 2, 4 or 8 bytes without a library call (fixed sizes inline). */
static inline uint64_t load_bytes(const uint8_t *p, unsigned n)
{
    uint64_t v = 0;
    switch (n) {
    case 4: memcpy(&v, p, 4); break;
    case 8: memcpy(&v, p, 8); break;
    case 2: memcpy(&v, p, 2); break;
    case 1: v = p[0]; break;
    default: memcpy(&v, p, n); break;
    }
    return v;
}

static inline void store_bytes(uint8_t *p, uint64_t v, unsigned n)
{
    switch (n) {
    case 4: memcpy(p, &v, 4); break;
    case 8: memcpy(p, &v, 8); break;
    case 2: memcpy(p, &v, 2); break;
    case 1: p[0] = (uint8_t)v; break;
    default: memcpy(p, &v, n); break;
    }
}

/* Checks one lane's access; on failure fills err. */
static simt_status check(simt_warp *w, target t, uint32_t lane, uint64_t n, uint64_t raw, simt_error *err,
                         uint8_t **host, gmem_hint *h)
{
    if (t.addr % n) {
        char d[96];
        snprintf(d, sizeof d, "misaligned %llu-byte %s access", (unsigned long long)n, where_name(t.at));
        return simt_fail(w, err, SIMT_ERR_MISALIGNED, lane, raw, where_space(t.at), d);
    }
    if (t.at == W_GLOBAL) {
        if (!(t.addr >= h->lo && t.addr + n <= h->hi)) { /* as dmem_valid, remembering the allocation */
            const dmem_alloc *a = dmem_find(w->cta->launch->mem, t.addr);
            if (!a || n > a->size || t.addr - a->base > a->size - n) {
                char d[96];
                snprintf(d, sizeof d, "%llu-byte global access outside any allocation", (unsigned long long)n);
                return simt_fail(w, err, SIMT_ERR_BOUNDS, lane, raw, PS_GLOBAL, d);
            }
            h->lo = a->base;
            h->hi = a->base + a->size;
        }
        *host = global_span(w, h, t.addr, n);
        return SIMT_OK;
    }
    *host = span(w, t, lane, n);
    if (!*host) {
        char d[96];
        snprintf(d, sizeof d, "%llu-byte %s access outside its %s memory", (unsigned long long)n, where_name(t.at),
                 where_name(t.at));
        return simt_fail(w, err, SIMT_ERR_BOUNDS, lane, raw, where_space(t.at), d);
    }
    return SIMT_OK;
}

/* One lane's host pointer: the remembered allocation and page when they hold the access
 * (global_hit), else check()'s full answer. */
static inline simt_status lane_host(simt_warp *w, target t, uint32_t lane, uint64_t n, uint64_t aligned_mask,
                                    simt_error *err, uint8_t **host, gmem_hint *h)
{
    *host = global_hit(h, t, n, aligned_mask);
    if (*host) return SIMT_OK;
    return check(w, t, lane, n, t.addr, err, host, h);
}

static uint64_t widen(uint64_t v, uint8_t type)
{
    switch (type) {
    case PT_S8: return (uint64_t)(int64_t)(int8_t)v;
    case PT_S16: return (uint64_t)(int64_t)(int16_t)v;
    case PT_S32: return (uint64_t)(int64_t)(int32_t)v;
    default: return v;
    }
}

/* record() in two parts for the fast loops: the instruction's kind once, then each lane. (A
 * failing access leaves the record unread, so setting the kind before the first lane is safe.) */
static inline void record_kind(simt_mem_access *acc, uint8_t space, uint8_t bytes, int store, int atomic)
{
    acc->space = space;
    acc->is_store = (uint8_t)store;
    acc->is_atomic = (uint8_t)atomic;
    acc->bytes = bytes;
}

static inline void record_lane(simt_mem_access *acc, uint32_t lane, uint64_t addr)
{
    acc->mask |= 1u << lane;
    acc->addr[lane] = addr;
}

static void record(simt_mem_access *acc, target t, uint32_t lane, uint8_t bytes, int store, int atomic)
{
    if (!acc) return;
    acc->space = where_space(t.at);
    acc->is_store = (uint8_t)store;
    acc->is_atomic = (uint8_t)atomic;
    acc->bytes = bytes;
    acc->mask |= 1u << lane;
    acc->addr[lane] = t.addr;
}

/* Registers of a load/store value operand: a register or a vector of them. */
static void value_regs(const ptx_operand *o, uint32_t *regs, unsigned *n)
{
    if (o->kind == PO_VEC) {
        *n = o->vec_n;
        for (unsigned i = 0; i < o->vec_n; i++) regs[i] = o->vec[i];
    } else {
        *n = 1;
        regs[0] = o->kind == PO_REG ? o->reg : PTX_NO_REG;
    }
}

simt_status simt_exec_ld(simt_warp *w, const ptx_instr *in, uint32_t active, simt_mem_access *acc, simt_error *err)
{
    const simt_entry *e = simt_top(w);
    unsigned ts = ptx_type_size((ptx_type)in->type), n;
    uint32_t regs[4];
    value_regs(&in->o[0], regs, &n);
    uint64_t bytes = (uint64_t)ts * n;
    addr_plan plan = plan_address(w, e, in, &in->o[1]);
    gmem_hint h = gmem_hint_for(0);
    uint64_t amask = align_mask_of(bytes);
    if (n == 1 && regs[0] != PTX_NO_REG && !plan.generic && plan.at == W_GLOBAL) {
        /* The common scalar global load, its loop free of the vector and space cases. A lane's
         * address register is read before its own destination is written, as below. */
        uint64_t *dst = &w->regs[(size_t)(e->reg_base + regs[0]) * SIMT_WARP];
        if (acc && active) record_kind(acc, PS_GLOBAL, (uint8_t)bytes, 0, 0);
        for (uint32_t m = active; m; m &= m - 1) {
            uint32_t lane = (uint32_t)__builtin_ctz(m);
            target t = {W_GLOBAL, (plan.reg ? plan.reg[lane] : 0) + plan.offset};
            uint8_t *host;
            simt_status st = lane_host(w, t, lane, bytes, amask, err, &host, &h);
            if (st != SIMT_OK) return st;
            uint8_t buf[8];
            if (!host) {
                dmem_read(w->cta->launch->mem, t.addr, buf, bytes);
                host = buf;
            }
            dst[lane] = widen(load_bytes(host, ts), in->type);
            if (acc) record_lane(acc, lane, t.addr);
        }
        return SIMT_OK;
    }
    for (uint32_t m = active; m; m &= m - 1) {
        uint32_t lane = (uint32_t)__builtin_ctz(m);
        target t = resolve(&plan, lane);
        uint8_t *host;
        simt_status st = lane_host(w, t, lane, bytes, amask, err, &host, &h);
        if (st != SIMT_OK) return st;
        uint8_t buf[32];
        const uint8_t *src = host;
        if (!src) {
            dmem_read(w->cta->launch->mem, t.addr, buf, bytes);
            src = buf;
        }
        for (unsigned i = 0; i < n; i++) {
            if (regs[i] == PTX_NO_REG) continue;
            uint64_t v = load_bytes(src + i * ts, ts);
            w->regs[(size_t)(e->reg_base + regs[i]) * SIMT_WARP + lane] = widen(v, in->type);
        }
        record(acc, t, lane, (uint8_t)bytes, 0, 0);
    }
    return SIMT_OK;
}

simt_status simt_exec_st(simt_warp *w, const ptx_instr *in, uint32_t active, simt_mem_access *acc, simt_error *err)
{
    const simt_entry *e = simt_top(w);
    unsigned ts = ptx_type_size((ptx_type)in->type), n;
    uint32_t regs[4];
    const ptx_operand *val = &in->o[1];
    value_regs(val, regs, &n);
    uint64_t bytes = (uint64_t)ts * n;
    addr_plan plan = plan_address(w, e, in, &in->o[0]);
    gmem_hint h = gmem_hint_for(1);
    uint64_t amask = align_mask_of(bytes);
    if (n == 1 && val->kind == PO_REG && regs[0] != PTX_NO_REG && !plan.generic && plan.at == W_GLOBAL) {
        /* The common scalar global store of a register, as the loop below does it. */
        const uint64_t *src = &w->regs[(size_t)(e->reg_base + regs[0]) * SIMT_WARP];
        if (acc && active) record_kind(acc, PS_GLOBAL, (uint8_t)bytes, 1, 0);
        for (uint32_t m = active; m; m &= m - 1) {
            uint32_t lane = (uint32_t)__builtin_ctz(m);
            target t = {W_GLOBAL, (plan.reg ? plan.reg[lane] : 0) + plan.offset};
            uint8_t *host;
            simt_status st = lane_host(w, t, lane, bytes, amask, err, &host, &h);
            if (st != SIMT_OK) return st;
            if (host) store_bytes(host, src[lane], ts);
            else {
                uint8_t buf[8];
                store_bytes(buf, src[lane], ts);
                if (dmem_write(w->cta->launch->mem, t.addr, buf, bytes) != 0)
                    return simt_fail(w, err, SIMT_ERR_NOMEM, lane, t.addr, PS_GLOBAL, "out of host memory");
            }
            if (acc) record_lane(acc, lane, t.addr);
        }
        return SIMT_OK;
    }
    for (uint32_t m = active; m; m &= m - 1) {
        uint32_t lane = (uint32_t)__builtin_ctz(m);
        target t = resolve(&plan, lane);
        uint8_t *host;
        simt_status st = lane_host(w, t, lane, bytes, amask, err, &host, &h);
        if (st != SIMT_OK) return st;
        uint8_t buf[32];
        uint8_t *dst = host ? host : buf;
        for (unsigned i = 0; i < n; i++) {
            uint64_t v = val->kind == PO_IMM ? (uint64_t)val->imm
                         : regs[i] == PTX_NO_REG ? 0
                                                 : w->regs[(size_t)(e->reg_base + regs[i]) * SIMT_WARP + lane];
            store_bytes(dst + i * ts, v, ts);
        }
        if (!host && dmem_write(w->cta->launch->mem, t.addr, buf, bytes) != 0)
            return simt_fail(w, err, SIMT_ERR_NOMEM, lane, t.addr, PS_GLOBAL, "out of host memory");
        record(acc, t, lane, (uint8_t)bytes, 1, 0);
    }
    return SIMT_OK;
}

/* New memory value of an atomic operation on old with operands b (and c for cas). */
static uint64_t atom_apply(const ptx_instr *in, uint64_t old, uint64_t b, uint64_t c, unsigned ts)
{
    uint64_t mask = ts == 8 ? ~0ull : 0xffffffffull;
    int is_signed = in->type == PT_S32 || in->type == PT_S64;
    int64_t so = ts == 8 ? (int64_t)old : (int64_t)(int32_t)old, sb = ts == 8 ? (int64_t)b : (int64_t)(int32_t)b;
    switch (in->mode) {
    case PM_ATOM_ADD:
        if (in->type == PT_F32) return fbits_of_f32(fbits_f32(old) + fbits_f32(b));
        if (in->type == PT_F64) return fbits_of_f64(fbits_f64(old) + fbits_f64(b));
        return (old + b) & mask;
    case PM_ATOM_MIN:
        if (in->type == PT_F32) return fbits_of_f32(fminf(fbits_f32(old), fbits_f32(b)));
        if (in->type == PT_F64) return fbits_of_f64(fmin(fbits_f64(old), fbits_f64(b)));
        if (is_signed) return (uint64_t)(so < sb ? so : sb) & mask;
        return ((old & mask) < (b & mask) ? old : b) & mask;
    case PM_ATOM_MAX:
        if (in->type == PT_F32) return fbits_of_f32(fmaxf(fbits_f32(old), fbits_f32(b)));
        if (in->type == PT_F64) return fbits_of_f64(fmax(fbits_f64(old), fbits_f64(b)));
        if (is_signed) return (uint64_t)(so > sb ? so : sb) & mask;
        return ((old & mask) > (b & mask) ? old : b) & mask;
    case PM_ATOM_INC: return (old & mask) >= (b & mask) ? 0 : (old + 1) & mask;
    case PM_ATOM_DEC: return ((old & mask) == 0 || (old & mask) > (b & mask)) ? b & mask : (old - 1) & mask;
    case PM_ATOM_EXCH: return b & mask;
    case PM_ATOM_CAS: return (old & mask) == (b & mask) ? c & mask : old & mask;
    case PM_ATOM_AND: return old & b & mask;
    case PM_ATOM_OR: return (old | b) & mask;
    case PM_ATOM_XOR: return (old ^ b) & mask;
    default: return old;
    }
}

static uint64_t operand_lane(const simt_warp *w, const simt_entry *e, const ptx_operand *o, uint32_t lane)
{
    if (o->kind == PO_IMM) return (uint64_t)o->imm;
    if (o->kind == PO_REG) return w->regs[(size_t)(e->reg_base + o->reg) * SIMT_WARP + lane];
    return 0;
}

/* atom d, [a], b{, c} and red [a], b: applied lane after lane, in lane order. */
simt_status simt_exec_atom(simt_warp *w, const ptx_instr *in, uint32_t active, simt_mem_access *acc, simt_error *err)
{
    const simt_entry *e = simt_top(w);
    int has_dst = in->op == OP_ATOM;
    const ptx_operand *addr = &in->o[has_dst ? 1 : 0];
    const ptx_operand *b = &in->o[has_dst ? 2 : 1];
    const ptx_operand *c = has_dst && in->nopnd > 3 ? &in->o[3] : NULL;
    unsigned ts = ptx_type_size((ptx_type)in->type);
    addr_plan plan = plan_address(w, e, in, addr);
    gmem_hint h = gmem_hint_for(1);
    for (uint32_t m = active; m; m &= m - 1) {
        uint32_t lane = (uint32_t)__builtin_ctz(m);
        target t = resolve(&plan, lane);
        uint8_t *host;
        simt_status st = check(w, t, lane, ts, t.addr, err, &host, &h);
        if (st != SIMT_OK) return st;
        if (t.at != W_GLOBAL && t.at != W_SHARED)
            return simt_fail(w, err, SIMT_ERR_UNSUPPORTED, lane, t.addr, where_space(t.at),
                             "atomic on a space other than global or shared");
        uint64_t old = 0;
        if (host) memcpy(&old, host, ts);
        else dmem_read(w->cta->launch->mem, t.addr, &old, ts);
        uint64_t nv = atom_apply(in, old, operand_lane(w, e, b, lane), c ? operand_lane(w, e, c, lane) : 0, ts);
        if (host) memcpy(host, &nv, ts);
        else if (dmem_write(w->cta->launch->mem, t.addr, &nv, ts) != 0)
            return simt_fail(w, err, SIMT_ERR_NOMEM, lane, t.addr, PS_GLOBAL, "out of host memory");
        if (has_dst && in->o[0].kind == PO_REG)
            w->regs[(size_t)(e->reg_base + in->o[0].reg) * SIMT_WARP + lane] = widen(old, in->type);
        record(acc, t, lane, (uint8_t)ts, 1, 1);
    }
    return SIMT_OK;
}
