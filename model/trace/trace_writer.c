/* Accel-Sim trace writer: header, per-CTA buffering, instruction lines, kernelslist.g. */
#define _POSIX_C_SOURCE 200809L
#include "trace_writer.h"

#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "trace_sass_map.h"

/* One warp's lines of the current CTA. */
typedef struct warp_lines {
    char *data;
    size_t len, cap;
    FILE *spill; /* earlier lines when the buffer passed spill_bytes */
    uint64_t insts;
} warp_lines;

struct trace_writer {
    char *dir;
    FILE *list;
    unsigned binary_version;
    uint64_t spill_bytes;
    uint32_t kernels;       /* launches begun */
    uint32_t listed;        /* kernels written to kernelslist.g */
    uint64_t total_insn;
    /* the current kernel */
    FILE *out;
    char *path;
    const simt_launch *launch;
    uint32_t *code_start;   /* per function: index of its first instruction in the module's code */
    warp_lines *warps;
    uint32_t n_warps;
    int have_cta;
    uint32_t cta[3];
    /* CTAs set aside while another runs (CTAs that wait on each other run interleaved) */
    struct parked_cta {
        uint32_t cta[3];
        warp_lines *warps;
    } *parked;
    size_t n_parked, cap_parked;
    uint64_t warp_insn, ctas;
    int failed;
    char why[200];
};

static void fail(trace_writer *tw, const char *what)
{
    if (tw->failed) return;
    tw->failed = 1;
    snprintf(tw->why, sizeof tw->why, "%s: %s", what, strerror(errno));
}

static char *join(const char *dir, const char *name)
{
    size_t n = strlen(dir) + strlen(name) + 2;
    char *p = malloc(n);
    if (p) snprintf(p, n, "%s/%s", dir, name);
    return p;
}

int trace_writer_open(trace_writer **out, const char *dir, const trace_writer_opts *opts, char *err, size_t len)
{
    *out = NULL;
    if (mkdir(dir, 0777) != 0 && errno != EEXIST) {
        snprintf(err, len, "trace directory '%s': %s", dir, strerror(errno));
        return -1;
    }
    trace_writer *tw = calloc(1, sizeof *tw);
    char *list = join(dir, "kernelslist.g");
    if (!tw || !list || !(tw->dir = malloc(strlen(dir) + 1))) {
        free(list);
        if (tw) free(tw->dir);
        free(tw);
        snprintf(err, len, "out of memory");
        return -1;
    }
    strcpy(tw->dir, dir);
    tw->list = fopen(list, "w");
    if (!tw->list) {
        snprintf(err, len, "%s: %s", list, strerror(errno));
        free(list);
        free(tw->dir);
        free(tw);
        return -1;
    }
    free(list);
    tw->binary_version = opts && opts->binary_version ? opts->binary_version : TRACE_DEFAULT_BINARY_VERSION;
    tw->spill_bytes = opts && opts->spill_bytes ? opts->spill_bytes : TRACE_DEFAULT_SPILL_BYTES;
    *out = tw;
    return 0;
}

static void free_warps(warp_lines *w, uint32_t n)
{
    for (uint32_t i = 0; w && i < n; i++) {
        free(w[i].data);
        if (w[i].spill) fclose(w[i].spill);
    }
    free(w);
}

static void free_kernel(trace_writer *tw)
{
    free_warps(tw->warps, tw->n_warps);
    for (size_t i = 0; i < tw->n_parked; i++) free_warps(tw->parked[i].warps, tw->n_warps);
    free(tw->parked);
    tw->parked = NULL;
    tw->n_parked = tw->cap_parked = 0;
    free(tw->code_start);
    free(tw->path);
    if (tw->out) fclose(tw->out);
    tw->warps = NULL;
    tw->code_start = NULL;
    tw->path = NULL;
    tw->out = NULL;
    tw->n_warps = 0;
    tw->launch = NULL;
}

void trace_writer_close(trace_writer *tw)
{
    if (!tw) return;
    if (tw->out) {
        char e[8];
        trace_writer_kernel_end(tw, 0, NULL, e, sizeof e);
    }
    fclose(tw->list);
    free(tw->dir);
    free(tw);
}

int trace_writer_memcpy(trace_writer *tw, uint64_t addr, uint64_t bytes, char *err, size_t len)
{
    if (fprintf(tw->list, "MemcpyHtoD,0x%016llx,%llu\n", (unsigned long long)addr, (unsigned long long)bytes) < 0 ||
        fflush(tw->list) != 0) {
        snprintf(err, len, "%s/kernelslist.g: %s", tw->dir, strerror(errno));
        return -1;
    }
    return 0;
}

/* ---- instruction lines ---- */

/* Appends formatted text at *n, never past len - 1 (lines fit in 1 KiB; the cut is a guard). */
#if defined(__GNUC__)
__attribute__((format(printf, 4, 5)))
#endif
static void put(char *buf, size_t len, size_t *n, const char *fmt, ...)
{
    if (*n + 1 >= len) return;
    va_list ap;
    va_start(ap, fmt);
    int k = vsnprintf(buf + *n, len - *n, fmt, ap);
    va_end(ap);
    if (k > 0) *n = *n + (size_t)k < len ? *n + (size_t)k : len - 1;
}

size_t trace_format_addresses(char *buf, size_t len, uint32_t mask, const uint64_t addr[SIMT_WARP])
{
    size_t n = 0;
    if (mask) {
        uint32_t lo = (uint32_t)__builtin_ctz(mask), hi = 31u - (uint32_t)__builtin_clz(mask);
        uint32_t run = hi - lo + 1;
        int contiguous = run == 32 ? mask == UINT32_MAX : mask == (((1u << run) - 1u) << lo);
        if (contiguous) {
            uint64_t step = run > 1 ? addr[lo + 1] - addr[lo] : 0;
            int ok = (int64_t)step >= INT32_MIN && (int64_t)step <= INT32_MAX;
            for (uint32_t l = lo + 1; ok && l <= hi; l++) ok = addr[l] - addr[l - 1] == step;
            if (ok) {
                put(buf, len, &n, "1 0x%llx %d ", (unsigned long long)addr[lo], (int)(int64_t)step);
                return n;
            }
        }
    }
    put(buf, len, &n, "0 ");
    for (uint32_t m = mask; m; m &= m - 1) put(buf, len, &n, "0x%016llx ", (unsigned long long)addr[__builtin_ctz(m)]);
    return n;
}

/* Register number in the trace: PTX slot n is Rn, except that R255 is RZ (the zero register) in
 * SASS, so slots from 255 on move up by one. */
static unsigned reg_number(uint32_t slot) { return slot >= 255 ? slot + 1 : slot; }

/* Where an access of the given space is in the trace's address space. */
static uint64_t trace_address(uint8_t space, uint64_t a)
{
    switch (space) {
    case PS_SHARED: return TRACE_SHMEM_BASE + a;
    case PS_LOCAL: return TRACE_LOCAL_BASE + a;
    case PS_CONST: return SIMT_CONST_WINDOW + a;
    default: return a;
    }
}

/* The first immediate operand (as the 32-bit value NVBit reports), 0 when there is none. */
static int32_t first_immediate(const ptx_instr *in)
{
    for (unsigned k = 0; k < in->nopnd; k++)
        if (in->o[k].kind == PO_IMM) return (int32_t)(uint32_t)(uint64_t)in->o[k].imm;
    return 0;
}

static size_t format_line(char *buf, size_t len, uint64_t pc_bytes, const ptx_instr *in, int in_kernel,
                          uint32_t mask, const simt_mem_access *acc)
{
    trace_sass s;
    trace_sass_map(in, in_kernel, &s);
    size_t n = 0;
    put(buf, len, &n, "%04llx %08x ", (unsigned long long)pc_bytes, mask);
    if (in->ndst) put(buf, len, &n, "1 R%u ", reg_number(in->dst[0]));
    else put(buf, len, &n, "0 ");
    /* Sources without the guard predicate (SASS traces list none), at most 4 (Accel-Sim's MAX_SRC). */
    uint32_t src[4];
    unsigned ns = 0;
    for (unsigned k = 0; k < in->nsrc && ns < 4; k++)
        if (in->src[k] != in->guard) src[ns++] = in->src[k];
    put(buf, len, &n, "%s %u ", s.opcode, ns);
    for (unsigned k = 0; k < ns; k++) put(buf, len, &n, "R%u ", reg_number(src[k]));
    if (s.is_mem) {
        uint64_t addr[SIMT_WARP] = {0};
        if (acc)
            for (uint32_t m = mask & acc->mask; m; m &= m - 1) {
                uint32_t lane = (uint32_t)__builtin_ctz(m);
                addr[lane] = trace_address(acc->space, acc->addr[lane]);
            }
        put(buf, len, &n, "%u ", s.width);
        n += trace_format_addresses(buf + n, len - n, mask, addr);
    } else {
        put(buf, len, &n, "0 ");
    }
    put(buf, len, &n, "%d \n", first_immediate(in));
    return n;
}

static void warp_append(trace_writer *tw, warp_lines *w, const char *line, size_t n)
{
    if (w->len + n > w->cap) {
        size_t cap = w->cap ? w->cap * 2 : 4096;
        while (cap < w->len + n) cap *= 2;
        char *d = realloc(w->data, cap);
        if (!d) {
            errno = ENOMEM;
            fail(tw, "trace buffer");
            return;
        }
        w->data = d;
        w->cap = cap;
    }
    memcpy(w->data + w->len, line, n);
    w->len += n;
    w->insts++;
    if (w->len > tw->spill_bytes) {
        if (!w->spill && !(w->spill = tmpfile())) {
            fail(tw, "temporary trace file");
            return;
        }
        if (fwrite(w->data, 1, w->len, w->spill) != w->len) fail(tw, "temporary trace file");
        w->len = 0;
    }
}

/* Writes the buffered CTA and empties the buffers. */
static void flush_cta(trace_writer *tw)
{
    FILE *o = tw->out;
    if (fprintf(o, "\n#BEGIN_TB\n\nthread block = %u,%u,%u\n\n", tw->cta[0], tw->cta[1], tw->cta[2]) < 0)
        fail(tw, tw->path);
    for (uint32_t i = 0; i < tw->n_warps; i++) {
        warp_lines *w = &tw->warps[i];
        fprintf(o, "warp = %u\ninsts = %llu\n", i, (unsigned long long)w->insts);
        if (w->spill) {
            char chunk[65536];
            size_t got;
            rewind(w->spill);
            while ((got = fread(chunk, 1, sizeof chunk, w->spill)) > 0)
                if (fwrite(chunk, 1, got, o) != got) fail(tw, tw->path);
            if (ferror(w->spill)) fail(tw, "temporary trace file");
            fclose(w->spill);
            w->spill = NULL;
        }
        if (w->len && fwrite(w->data, 1, w->len, o) != w->len) fail(tw, tw->path);
        fputc('\n', o);
        tw->warp_insn += w->insts;
        w->len = 0;
        w->insts = 0;
    }
    if (fputs("#END_TB\n", o) < 0) fail(tw, tw->path);
    tw->ctas++;
    tw->have_cta = 0;
}

/* Another CTA runs before the current one finished: set the current one's lines aside and take
 * up the other's (or fresh buffers). */
static void switch_cta(trace_writer *tw, const uint32_t cta[3])
{
    if (tw->n_parked == tw->cap_parked) {
        size_t nc = tw->cap_parked ? 2 * tw->cap_parked : 4;
        struct parked_cta *p = realloc(tw->parked, nc * sizeof *p);
        if (!p) {
            errno = ENOMEM;
            fail(tw, "trace buffers");
            return;
        }
        tw->parked = p, tw->cap_parked = nc;
    }
    size_t i = 0;
    while (i < tw->n_parked && memcmp(tw->parked[i].cta, cta, sizeof tw->cta) != 0) i++;
    warp_lines *next = i < tw->n_parked ? tw->parked[i].warps : calloc(tw->n_warps, sizeof *next);
    if (!next) {
        errno = ENOMEM;
        fail(tw, "trace buffers");
        return;
    }
    if (i < tw->n_parked) tw->parked[i] = tw->parked[--tw->n_parked];
    memcpy(tw->parked[tw->n_parked].cta, tw->cta, sizeof tw->cta);
    tw->parked[tw->n_parked++].warps = tw->warps;
    tw->warps = next;
    memcpy(tw->cta, cta, sizeof tw->cta);
}

/* A CTA finished: its lines are complete. */
static void on_cta_done(const simt_launch *l, const simt_cta *c, void *ctx)
{
    (void)l;
    trace_writer *tw = ctx;
    if (tw->failed) return;
    if (tw->have_cta && memcmp(tw->cta, c->ctaid, sizeof tw->cta) == 0) {
        flush_cta(tw);
        return;
    }
    for (size_t i = 0; i < tw->n_parked; i++) {
        if (memcmp(tw->parked[i].cta, c->ctaid, sizeof tw->cta) != 0) continue;
        struct parked_cta mine = tw->parked[i];
        uint32_t cur[3];
        memcpy(cur, tw->cta, sizeof cur);
        warp_lines *cur_warps = tw->warps;
        int had = tw->have_cta;
        tw->warps = mine.warps;
        memcpy(tw->cta, mine.cta, sizeof cur);
        flush_cta(tw); /* empties the buffers, which stay parked for reuse by no one: free them */
        free_warps(tw->warps, tw->n_warps);
        tw->parked[i] = tw->parked[--tw->n_parked];
        tw->warps = cur_warps;
        memcpy(tw->cta, cur, sizeof cur);
        tw->have_cta = had;
        return;
    }
}

static void on_insn(const simt_launch *l, const simt_warp *w, uint32_t func, uint32_t pc, const ptx_instr *in,
                    uint32_t mask, const simt_mem_access *acc, void *ctx)
{
    trace_writer *tw = ctx;
    if (tw->failed) return;
    const simt_cta *c = w->cta;
    if (tw->have_cta && memcmp(tw->cta, c->ctaid, sizeof tw->cta) != 0) switch_cta(tw, c->ctaid);
    if (!tw->have_cta) {
        memcpy(tw->cta, c->ctaid, sizeof tw->cta);
        tw->have_cta = 1;
    }
    char line[1024];
    uint64_t pc_bytes = ((uint64_t)tw->code_start[func] + pc) * 16u;
    size_t n = format_line(line, sizeof line, pc_bytes, in, l->mod->ptx.funcs[func].is_entry, mask, acc);
    warp_append(tw, &tw->warps[w->id], line, n);
}

/* ---- kernels ---- */

int trace_writer_kernel_begin(trace_writer *tw, simt_launch *l, unsigned nregs, char *err, size_t len)
{
    if (tw->out) {
        snprintf(err, len, "a traced kernel is still open");
        return -1;
    }
    const ptx_module *m = &l->mod->ptx;
    uint32_t id = ++tw->kernels;
    char name[40];
    snprintf(name, sizeof name, "kernel-%u.traceg", id);
    tw->failed = 0;
    tw->have_cta = 0;
    tw->warp_insn = tw->ctas = 0;
    tw->n_warps = l->warps_per_cta;
    tw->path = join(tw->dir, name);
    tw->code_start = calloc(m->n_funcs ? m->n_funcs : 1, sizeof *tw->code_start);
    tw->warps = calloc(tw->n_warps ? tw->n_warps : 1, sizeof *tw->warps);
    if (!tw->path || !tw->code_start || !tw->warps) {
        free_kernel(tw);
        snprintf(err, len, "out of memory");
        return -1;
    }
    /* Functions' code laid end to end in module order, so PCs of different functions differ. */
    uint64_t at = 0;
    for (uint32_t f = 0; f < m->n_funcs; f++) {
        tw->code_start[f] = (uint32_t)at;
        at += m->funcs[f].n_instrs;
    }
    if (!(tw->out = fopen(tw->path, "w"))) {
        snprintf(err, len, "%s: %s", tw->path, strerror(errno));
        free_kernel(tw);
        return -1;
    }
    tw->launch = l;
    fprintf(tw->out,
            "-kernel name = %s\n-kernel id = %u\n-grid dim = (%u,%u,%u)\n-block dim = (%u,%u,%u)\n-shmem = %llu\n"
            "-nregs = %u\n-binary version = %u\n-cuda stream id = 0\n-shmem base_addr = 0x%016llx\n"
            "-local mem base_addr = 0x%016llx\n-nvbit version = gtlm\n-accelsim tracer version = 5\n"
            "-enable lineinfo = 0\n\n"
            "#traces format = [line_num] PC mask dest_num [reg_dests] opcode src_num [reg_srcs] mem_width "
            "[adrrescompress?] [mem_addresses] immediate\n\n\n",
            l->kernel->name, id, l->grid[0], l->grid[1], l->grid[2], l->block[0], l->block[1], l->block[2],
            (unsigned long long)(l->static_shared + l->dyn_shared), nregs, tw->binary_version,
            (unsigned long long)TRACE_SHMEM_BASE, (unsigned long long)TRACE_LOCAL_BASE);
    l->on_insn = on_insn;
    l->on_insn_ctx = tw;
    l->on_cta_done = on_cta_done;
    return 0;
}

int trace_writer_kernel_end(trace_writer *tw, int keep, trace_written_kernel *info, char *err, size_t len)
{
    if (!tw->out) {
        snprintf(err, len, "no traced kernel is open");
        return -1;
    }
    if (keep && tw->have_cta) flush_cta(tw);
    if (fclose(tw->out) != 0) fail(tw, tw->path);
    tw->out = NULL;
    int rc = 0;
    if (!keep || tw->failed) {
        remove(tw->path);
        if (tw->failed) {
            snprintf(err, len, "%s", tw->why);
            rc = -1;
        }
    } else {
        const char *name = tw->path + strlen(tw->dir) + 1;
        if (fprintf(tw->list, "%s\n", name) < 0 || fflush(tw->list) != 0) {
            snprintf(err, len, "%s/kernelslist.g: %s", tw->dir, strerror(errno));
            rc = -1;
        } else {
            tw->listed++;
            tw->total_insn += tw->warp_insn;
            if (info) {
                info->kernel_id = tw->kernels;
                info->warp_insn = tw->warp_insn;
                info->ctas = tw->ctas;
            }
        }
    }
    free_kernel(tw);
    return rc;
}

uint32_t trace_writer_kernels(const trace_writer *tw) { return tw->listed; }
uint64_t trace_writer_warp_insn(const trace_writer *tw) { return tw->total_insn; }
