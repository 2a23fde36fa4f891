/* One instruction line of an Accel-Sim trace (grammar in trace_reader.h). */
#include "trace_internal.h"

#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

void trace_err(const trace_kernel *k, strbuf *err, const char *fmt, ...)
{
    if (!err) return;
    strbuf_printf(err, "%s:%llu: ", k->path, (unsigned long long)k->line);
    va_list ap;
    va_start(ap, fmt);
    strbuf_vprintf(err, fmt, ap);
    va_end(ap);
    strbuf_printf(err, "\n");
    err->lines++;
}

char *trace_next_token(char **s)
{
    char *p = *s;
    while (*p == ' ' || *p == '\t') p++;
    if (!*p) {
        *s = p;
        return NULL;
    }
    char *t = p;
    while (*p && *p != ' ' && *p != '\t') p++;
    if (*p) *p++ = '\0';
    *s = p;
    return t;
}

int trace_parse_u64(const char *t, uint64_t max, uint64_t *out)
{
    uint64_t v = 0;
    if (!*t) return -1;
    for (; *t; t++) {
        if (*t < '0' || *t > '9') return -1;
        uint64_t d = (uint64_t)(*t - '0');
        if (d > max || v > (max - d) / 10) return -1;
        v = v * 10 + d;
    }
    *out = v;
    return 0;
}

int trace_parse_i64(const char *t, int64_t *out)
{
    int neg = *t == '-';
    uint64_t v;
    if (trace_parse_u64(t + neg, neg ? (uint64_t)INT64_MAX + 1 : (uint64_t)INT64_MAX, &v)) return -1;
    *out = neg ? (int64_t)(0 - v) : (int64_t)v;
    return 0;
}

int trace_parse_hex(const char *t, uint64_t *out)
{
    if (t[0] == '0' && (t[1] == 'x' || t[1] == 'X')) t += 2;
    size_t n = strlen(t);
    if (n == 0 || n > 16) return -1;
    uint64_t v = 0;
    for (; *t; t++) {
        int c = *t, d;
        if (c >= '0' && c <= '9') d = c - '0';
        else if (c >= 'a' && c <= 'f') d = c - 'a' + 10;
        else if (c >= 'A' && c <= 'F') d = c - 'A' + 10;
        else return -1;
        v = v << 4 | (uint64_t)d;
    }
    *out = v;
    return 0;
}

/* Shows a token in a message; NULL is the end of the line. */
#define FOUND(t) (t) ? "'" : "", (t) ? (t) : "end of line", (t) ? "'" : ""

/* "R0".."R65535" -> 0..65535 (above R255 only in traces gtlm writes from PTX virtual registers). */
static int parse_reg(const char *t)
{
    uint64_t v;
    if (!t || t[0] != 'R' || trace_parse_u64(t + 1, TRACE_MAX_REG, &v)) return -1;
    return (int)v;
}

static int is_register_like(const char *t)
{
    uint64_t v;
    return t[0] == 'R' && trace_parse_u64(t + 1, UINT64_MAX, &v) == 0;
}

static int grow_addrs(trace_tb *tb, uint32_t more)
{
    if (tb->n_addrs + (uint64_t)more <= tb->cap_addrs) return 0;
    uint64_t cap = tb->cap_addrs ? tb->cap_addrs : 256;
    while (cap < tb->n_addrs + (uint64_t)more) cap *= 2;
    if (cap > UINT32_MAX) return -1;
    uint64_t *a = realloc(tb->addrs, cap * sizeof *a);
    if (!a) return -1;
    tb->addrs = a;
    tb->cap_addrs = (uint32_t)cap;
    return 0;
}

/* Reads a register list of `count` entries (the count token already parsed); R255 dropped. */
static int parse_regs(trace_kernel *k, char **s, uint64_t count, uint16_t *out, uint8_t *n, const char *what,
                      strbuf *err)
{
    *n = 0;
    for (uint64_t i = 0; i < count; i++) {
        char *t = trace_next_token(s);
        int r = parse_reg(t);
        if (r < 0) {
            trace_err(k, err, "expected %s register %llu of %llu (R0..R65535), found %s%s%s", what,
                      (unsigned long long)i + 1, (unsigned long long)count, FOUND(t));
            return -1;
        }
        if (r != TRACE_RZ) out[(*n)++] = (uint16_t)r;
    }
    return 0;
}

/* The addresses after "mem_width": "mode ...", decoded into lane order (trace_reader.h). */
static int parse_addrs(trace_kernel *k, char **s, uint32_t mask, trace_tb *tb, strbuf *err)
{
    uint32_t lanes = (uint32_t)__builtin_popcount(mask);
    char *t = trace_next_token(s);
    uint64_t mode, base, v;
    if (!t || trace_parse_u64(t, 99, &mode)) {
        trace_err(k, err, "expected an address compression mode (0, 1 or 2), found %s%s%s", FOUND(t));
        return -1;
    }
    if (mode > 2) {
        trace_err(k, err, "unknown address compression mode %llu (expected 0 list, 1 base+stride, 2 base+deltas)",
                  (unsigned long long)mode);
        return -1;
    }
    if (grow_addrs(tb, 32)) {
        trace_err(k, err, "out of memory for addresses");
        return -1;
    }
    uint64_t *a = tb->addrs + tb->n_addrs;
    if (mode == 0) {
        for (uint32_t i = 0; i < lanes; i++) {
            t = trace_next_token(s);
            if (!t || trace_parse_hex(t, &a[i])) {
                trace_err(k, err, "expected address %u of %u (hex, one per active lane of mask %08x), found %s%s%s",
                          i + 1, lanes, mask, FOUND(t));
                return -1;
            }
        }
    } else {
        t = trace_next_token(s);
        if (!t || trace_parse_hex(t, &base)) {
            trace_err(k, err, "expected a hex base address (compression mode %llu), found %s%s%s",
                      (unsigned long long)mode, FOUND(t));
            return -1;
        }
        int64_t step = 0;
        if (mode == 1) {
            t = trace_next_token(s);
            if (!t || trace_parse_i64(t, &step) || step < INT32_MIN || step > INT32_MAX) {
                trace_err(k, err, "expected a decimal stride after the base address, found %s%s%s", FOUND(t));
                return -1;
            }
        }
        v = base;
        for (uint32_t i = 0; i < lanes; i++) {
            if (i > 0 && mode == 2) {
                t = trace_next_token(s);
                if (!t || trace_parse_i64(t, &step)) {
                    trace_err(k, err, "expected delta %u of %u (decimal, one per active lane after the first), found %s%s%s",
                              i, lanes - 1, FOUND(t));
                    return -1;
                }
            }
            if (i > 0) v += (uint64_t)step; /* wraps like the tracer's unsigned arithmetic */
            a[i] = v;
        }
    }
    tb->n_addrs += lanes;
    return 0;
}

static int push_insn(trace_tb *tb, const trace_insn *in)
{
    if (tb->n_insns == tb->cap_insns) {
        uint64_t cap = tb->cap_insns ? (uint64_t)tb->cap_insns * 2 : 256;
        if (cap > UINT32_MAX) return -1;
        trace_insn *v = realloc(tb->insns, cap * sizeof *v);
        if (!v) return -1;
        tb->insns = v;
        tb->cap_insns = (uint32_t)cap;
    }
    tb->insns[tb->n_insns++] = *in;
    return 0;
}

/* The old format's "tb_x tb_y tb_z warpid_tb" prefix must name the block and warp being read. */
static int parse_prefix(trace_kernel *k, char **s, const trace_tb *tb, uint32_t warp, strbuf *err)
{
    static const char *const what[4] = {"thread block x", "thread block y", "thread block z", "warp id"};
    const uint32_t want[4] = {tb->ctaid[0], tb->ctaid[1], tb->ctaid[2], warp};
    for (int i = 0; i < 4; i++) {
        char *t = trace_next_token(s);
        uint64_t v;
        if (!t || trace_parse_u64(t, UINT32_MAX, &v) || v != want[i]) {
            trace_err(k, err, "expected %s %u (old-format line prefix), found %s%s%s", what[i], want[i], FOUND(t));
            return -1;
        }
    }
    return 0;
}

int trace_parse_insn(trace_kernel *k, char *s, trace_tb *tb, uint32_t warp, strbuf *err)
{
    trace_insn in;
    memset(&in, 0, sizeof in);
    in.addr_at = TRACE_NO_ADDR;
    char *t;
    uint64_t v;
    if (k->info.tracer_version < 3 && parse_prefix(k, &s, tb, warp, err)) return -1;
    if (k->info.lineinfo) {
        t = trace_next_token(&s);
        if (!t || trace_parse_u64(t, UINT32_MAX, &v)) {
            trace_err(k, err, "expected a source line number (-enable lineinfo = 1), found %s%s%s", FOUND(t));
            return -1;
        }
    }
    t = trace_next_token(&s);
    if (!t || trace_parse_hex(t, &in.pc)) {
        trace_err(k, err, "expected a hex PC, found %s%s%s", FOUND(t));
        return -1;
    }
    t = trace_next_token(&s);
    if (!t || strlen(t) != 8 || trace_parse_hex(t, &v)) {
        trace_err(k, err, "expected an active mask of 8 hex digits, found %s%s%s", FOUND(t));
        return -1;
    }
    in.mask = (uint32_t)v;
    t = trace_next_token(&s);
    if (!t || trace_parse_u64(t, TRACE_MAX_DST, &v)) {
        trace_err(k, err, "expected a destination register count 0..%d, found %s%s%s", TRACE_MAX_DST, FOUND(t));
        return -1;
    }
    if (parse_regs(k, &s, v, in.dst, &in.ndst, "destination", err)) return -1;
    char *opcode = trace_next_token(&s);
    if (!opcode || opcode[0] < 'A' || opcode[0] > 'Z' || is_register_like(opcode)) {
        trace_err(k, err, "expected an opcode (after %llu destination registers), found %s%s%s",
                  (unsigned long long)v, FOUND(opcode));
        return -1;
    }
    int id = trace_opcode_intern(k->ops, opcode, k->info.binary_version, k->unknown_as_alu);
    if (id < 0 || id > UINT16_MAX) {
        if (id < 0)
            trace_err(k, err, "unknown opcode '%s' for binary version %u (-gtlm_trace_unknown_opcode_as_alu 1 "
                      "reads it as an integer op)", opcode, k->info.binary_version);
        else
            trace_err(k, err, "more than %d distinct opcodes", UINT16_MAX + 1);
        return -1;
    }
    in.op = (uint16_t)id;
    const trace_op_info *info = trace_opcode_info(k->ops, id);
    t = trace_next_token(&s);
    if (!t || trace_parse_u64(t, TRACE_MAX_SRC, &v)) {
        trace_err(k, err, "expected a source register count 0..%d after %s, found %s%s%s", TRACE_MAX_SRC, opcode,
                  FOUND(t));
        return -1;
    }
    if (parse_regs(k, &s, v, in.src, &in.nsrc, "source", err)) return -1;
    t = trace_next_token(&s);
    uint64_t width;
    if (!t || trace_parse_u64(t, 255, &width)) {
        trace_err(k, err, "expected a memory width in bytes 0..255, found %s%s%s", FOUND(t));
        return -1;
    }
    int mem = trace_op_is_memory(info->cls);
    if (width > 0 && !mem && !info->unknown) {
        trace_err(k, err, "'%s' (%s) is not a memory instruction but has memory width %llu", opcode,
                  trace_op_class_name(info->cls), (unsigned long long)width);
        return -1;
    }
    if (width == 0 && mem) {
        trace_err(k, err, "memory instruction '%s' has memory width 0 (no addresses)", opcode);
        return -1;
    }
    if (width > 0) {
        uint32_t at = tb->n_addrs;
        if (parse_addrs(k, &s, in.mask, tb, err)) return -1;
        if (mem) {
            in.addr_at = at;
            in.mem_width = info->width ? info->width : (uint8_t)width;
        } else {
            tb->n_addrs = at; /* unknown opcode read as ALU: addresses checked, then dropped */
        }
    }
    if (k->info.tracer_version >= 5) {
        int64_t imm;
        t = trace_next_token(&s);
        if (!t || trace_parse_i64(t, &imm)) {
            trace_err(k, err, "expected the immediate ending a tracer-version-%u line, found %s%s%s",
                      k->info.tracer_version, FOUND(t));
            return -1;
        }
    }
    t = trace_next_token(&s);
    if (t) {
        trace_err(k, err, "expected end of line after '%s', found '%s'", opcode, t);
        return -1;
    }
    if (push_insn(tb, &in)) {
        trace_err(k, err, "out of memory for instructions");
        return -1;
    }
    return 0;
}
