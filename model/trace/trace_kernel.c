/* Opening a kernel trace, its header, and the thread-block structure of its body. */
#define _POSIX_C_SOURCE 200809L /* getline, popen */
#include "trace_internal.h"

#include <stdlib.h>
#include <string.h>
#include <sys/types.h>

#include "../common/launch_limits.h"

/* Next line without its line ending; NULL at end of file. */
static char *read_line(trace_kernel *k)
{
    ssize_t n = getline(&k->buf, &k->bufcap, k->f);
    if (n < 0) return NULL;
    k->line++;
    while (n > 0 && (k->buf[n - 1] == '\n' || k->buf[n - 1] == '\r' || k->buf[n - 1] == ' ' || k->buf[n - 1] == '\t'))
        k->buf[--n] = '\0';
    return k->buf;
}

/* Next line that is not blank, with leading blanks skipped. */
static char *read_nonblank(trace_kernel *k)
{
    char *s;
    while ((s = read_line(k))) {
        while (*s == ' ' || *s == '\t') s++;
        if (*s) return s;
    }
    return NULL;
}

static char *trim(char *s)
{
    while (*s == ' ' || *s == '\t') s++;
    size_t n = strlen(s);
    while (n > 0 && (s[n - 1] == ' ' || s[n - 1] == '\t')) s[--n] = '\0';
    return s;
}

/* "x,y,z" (parens optional around it) -> three positive numbers when positive, else >= 0. */
static int parse_dim3(char *v, uint32_t out[3], int positive)
{
    size_t n = strlen(v);
    if (n >= 2 && v[0] == '(' && v[n - 1] == ')') {
        v[n - 1] = '\0';
        v++;
    }
    for (int i = 0; i < 3; i++) {
        char *end = i < 2 ? strchr(v, ',') : v + strlen(v);
        if (!end) return -1;
        char save = *end;
        *end = '\0';
        uint64_t x;
        int bad = trace_parse_u64(trim(v), UINT32_MAX, &x) || (positive && x == 0);
        *end = save;
        if (bad) return -1;
        out[i] = (uint32_t)x;
        v = end + 1;
    }
    return 0;
}

/* "-key = value" -> 0 when understood (unknown keys are ignored), -1 with err. */
static int header_line(trace_kernel *k, char *s, int *have, strbuf *err)
{
    trace_kernel_info *in = &k->info;
    char *eq = strchr(s, '=');
    if (!eq) {
        trace_err(k, err, "expected a header line '-key = value', found '%.60s'", s);
        return -1;
    }
    *eq = '\0';
    char *key = trim(s + 1), *val = trim(eq + 1);
    uint64_t x = 0;
    int bad = 0;
    const char *want = "a decimal number";
    if (strcmp(key, "kernel name") == 0) {
        snprintf(in->name, sizeof in->name, "%s", val);
    } else if (strcmp(key, "grid dim") == 0 || strcmp(key, "block dim") == 0) {
        int grid = key[0] == 'g';
        bad = parse_dim3(val, grid ? in->grid : in->block, 1);
        want = "(x,y,z) with positive sizes";
        *have |= grid ? 1 : 2;
    } else if (strcmp(key, "shmem base_addr") == 0 || strcmp(key, "local mem base_addr") == 0) {
        bad = trace_parse_hex(val, key[0] == 's' ? &in->shmem_base : &in->local_base);
        want = "a hex address";
    } else if (strcmp(key, "cuda stream id") == 0) {
        bad = trace_parse_u64(val, UINT64_MAX, &in->stream_id);
        in->stream = in->stream_id <= UINT32_MAX ? (uint32_t)in->stream_id : UINT32_MAX;
    } else {
        static const char *const keys[] = {"kernel id", "shmem", "nregs", "binary version", "accelsim tracer version",
                                           "enable lineinfo"};
        uint32_t *dst[] = {&in->id, &in->shmem, &in->nregs, &in->binary_version, &in->tracer_version, &in->lineinfo};
        for (size_t i = 0; i < sizeof keys / sizeof keys[0]; i++)
            if (strcmp(key, keys[i]) == 0) {
                bad = trace_parse_u64(val, i == 5 ? 1 : UINT32_MAX, &x);
                if (i == 5) want = "0 or 1";
                if (!bad) *dst[i] = (uint32_t)x;
                if (i == 3) {
                    *have |= 4;
                    if (!bad && trace_opcode_family(in->binary_version) < 0) {
                        trace_err(k, err, "unsupported binary version %u (expected 60..90: Pascal to Hopper)",
                                  in->binary_version);
                        return -1;
                    }
                }
            }
    }
    if (bad) {
        trace_err(k, err, "expected %s for '-%s', found '%.60s'", want, key, val);
        return -1;
    }
    return 0;
}

static int read_header(trace_kernel *k, strbuf *err)
{
    int have = 0;
    char *s;
    while ((s = read_nonblank(k)) && s[0] != '#') {
        if (s[0] != '-') {
            trace_err(k, err, "expected a header line '-key = value' or '#traces format', found '%.60s'", s);
            return -1;
        }
        if (header_line(k, s, &have, err)) return -1;
    }
    if (!s) {
        trace_err(k, err, "expected the '#traces format' line ending the header, found end of file");
        return -1;
    }
    /* Every tracer version writes it; without it a '#BEGIN_TB' would end the header and the
       first thread block would be misreported as a body error. */
    if (strncmp(s, "#traces format", 14) != 0) {
        trace_err(k, err, "expected the '#traces format' line ending the header, found '%.60s'", s);
        return -1;
    }
    static const char *const missing[3] = {"-grid dim", "-block dim", "-binary version"};
    for (int i = 0; i < 3; i++)
        if (!(have & (1 << i))) {
            trace_err(k, err, "the header has no '%s' line", missing[i]);
            return -1;
        }
    trace_kernel_info *in = &k->info;
    char why[160];
    if (launch_dims_check(in->grid, in->block, why, sizeof why) != 0) {
        trace_err(k, err, "%s", why);
        return -1;
    }
    uint64_t threads = (uint64_t)in->block[0] * in->block[1] * in->block[2];
    in->warps_per_tb = (uint32_t)((threads + 31) / 32);
    in->n_tbs = (uint64_t)in->grid[0] * in->grid[1] * in->grid[2];
    return 0;
}

static int ends_with(const char *s, const char *suffix)
{
    size_t n = strlen(s), m = strlen(suffix);
    return n >= m && strcmp(s + n - m, suffix) == 0;
}

/* popen command "xz -dc -- 'path'" with the path single-quoted for the shell. */
static char *xz_command(const char *path)
{
    size_t n = strlen(path);
    char *cmd = malloc(16 + 4 * n), *p = cmd;
    if (!cmd) return NULL;
    p += sprintf(p, "xz -dc -- '");
    for (const char *c = path; *c; c++) {
        if (*c == '\'') p += sprintf(p, "'\\''");
        else *p++ = *c;
    }
    strcpy(p, "'");
    return cmd;
}

trace_kernel *trace_kernel_open(const char *path, trace_opcode_table *ops, int unknown_as_alu, strbuf *err)
{
    trace_kernel *k = calloc(1, sizeof *k);
    if (!k || !(k->path = strdup(path))) {
        free(k);
        if (err) strbuf_line(err, "%s: out of memory", path);
        return NULL;
    }
    k->ops = ops;
    k->unknown_as_alu = unknown_as_alu;
    k->f = fopen(path, "r");
    if (!k->f) {
        if (err) strbuf_line(err, "%s: cannot open the kernel trace", path);
        trace_kernel_close(k);
        return NULL;
    }
    if (ends_with(path, ".xz")) {
        fclose(k->f);
        char *cmd = xz_command(path);
        k->f = cmd ? popen(cmd, "r") : NULL;
        free(cmd);
        k->is_pipe = 1;
        if (!k->f) {
            if (err) strbuf_line(err, "%s: cannot start 'xz -dc' to decompress it", path);
            trace_kernel_close(k);
            return NULL;
        }
    }
    if (read_header(k, err)) {
        trace_kernel_close(k);
        return NULL;
    }
    k->seen = calloc(k->info.warps_per_tb, 1);
    if (!k->seen) {
        trace_err(k, err, "out of memory");
        trace_kernel_close(k);
        return NULL;
    }
    return k;
}

const trace_kernel_info *trace_kernel_info_of(const trace_kernel *k) { return &k->info; }

void trace_kernel_close(trace_kernel *k)
{
    if (!k) return;
    if (k->f) {
        if (k->is_pipe) pclose(k->f);
        else fclose(k->f);
    }
    free(k->buf);
    free(k->seen);
    free(k->path);
    free(k);
}

void trace_tb_free(trace_tb *tb)
{
    free(tb->warps);
    free(tb->insns);
    free(tb->addrs);
    memset(tb, 0, sizeof *tb);
}

/* "key = value" lines of the body: returns the value text, or NULL when s is not that key. */
static char *body_value(char *s, const char *key)
{
    size_t n = strlen(key);
    if (strncmp(s, key, n) != 0) return NULL;
    s += n;
    while (*s == ' ' || *s == '\t') s++;
    if (*s != '=') return NULL;
    return trim(s + 1);
}

static int is_body_keyword(const char *s)
{
    return s[0] == '#' || strncmp(s, "warp", 4) == 0 || strncmp(s, "insts", 5) == 0 || strncmp(s, "thread", 6) == 0;
}

static int begin_tb(trace_kernel *k, trace_tb *tb, strbuf *err)
{
    uint32_t nw = k->info.warps_per_tb;
    if (tb->cap_warps < nw) {
        trace_warp *w = realloc(tb->warps, nw * sizeof *w);
        if (!w) {
            trace_err(k, err, "out of memory");
            return -1;
        }
        tb->warps = w;
        tb->cap_warps = nw;
    }
    memset(tb->warps, 0, nw * sizeof *tb->warps);
    memset(k->seen, 0, nw);
    tb->n_warps = nw;
    tb->n_insns = tb->n_addrs = 0;
    return 0;
}

/* The warps of one block, after "thread block = ..."; ends at "#END_TB". */
static int read_warps(trace_kernel *k, trace_tb *tb, strbuf *err)
{
    char *s, *v;
    while ((s = read_nonblank(k))) {
        if (strcmp(s, "#END_TB") == 0) return 0;
        uint64_t w, n;
        if (!(v = body_value(s, "warp")) || trace_parse_u64(v, UINT32_MAX, &w)) {
            trace_err(k, err, "expected 'warp = N' or '#END_TB', found '%.60s'", s);
            return -1;
        }
        if (w >= k->info.warps_per_tb) {
            trace_err(k, err, "warp %llu is outside the thread block: block dim (%u,%u,%u) has %u warps",
                      (unsigned long long)w, k->info.block[0], k->info.block[1], k->info.block[2],
                      k->info.warps_per_tb);
            return -1;
        }
        if (k->seen[w]) {
            trace_err(k, err, "warp %llu appears twice in this thread block", (unsigned long long)w);
            return -1;
        }
        k->seen[w] = 1;
        s = read_nonblank(k);
        if (!s || !(v = body_value(s, "insts")) || trace_parse_u64(v, UINT32_MAX, &n)) {
            trace_err(k, err, "expected 'insts = N' after 'warp = %llu', found %s%.60s%s", (unsigned long long)w,
                      s ? "'" : "", s ? s : "end of file", s ? "'" : "");
            return -1;
        }
        uint64_t insts_line = k->line;
        tb->warps[w].first = tb->n_insns;
        for (uint64_t i = 0; i < n; i++) {
            s = read_nonblank(k);
            if (!s || is_body_keyword(s)) {
                trace_err(k, err, "expected instruction %llu of %llu of warp %llu ('insts = %llu' at line %llu), found %s%.60s%s",
                          (unsigned long long)i + 1, (unsigned long long)n, (unsigned long long)w,
                          (unsigned long long)n, (unsigned long long)insts_line, s ? "'" : "", s ? s : "end of file",
                          s ? "'" : "");
                return -1;
            }
            if (trace_parse_insn(k, s, tb, (uint32_t)w, err)) return -1;
        }
        tb->warps[w].n = (uint32_t)n;
    }
    trace_err(k, err, "expected '#END_TB', found end of file");
    return -1;
}

int trace_kernel_next_tb(trace_kernel *k, trace_tb *tb, strbuf *err)
{
    if (k->done) return 0;
    char *s = read_nonblank(k), *v;
    if (!s) {
        if (k->tbs_read == k->info.n_tbs) {
            k->done = 1;
            return 0;
        }
        trace_err(k, err, "end of file after %llu of the grid's %llu thread blocks", (unsigned long long)k->tbs_read,
                  (unsigned long long)k->info.n_tbs);
        return -1;
    }
    if (strcmp(s, "#BEGIN_TB") != 0) {
        trace_err(k, err, "expected '#BEGIN_TB', found '%.60s'", s);
        return -1;
    }
    if (k->tbs_read == k->info.n_tbs) {
        trace_err(k, err, "more thread blocks than the grid's %llu", (unsigned long long)k->info.n_tbs);
        return -1;
    }
    if (begin_tb(k, tb, err)) return -1;
    s = read_nonblank(k);
    uint32_t id[3];
    if (!s || !(v = body_value(s, "thread block")) || parse_dim3(v, id, 0)) {
        trace_err(k, err, "expected 'thread block = x,y,z', found %s%.60s%s", s ? "'" : "", s ? s : "end of file",
                  s ? "'" : "");
        return -1;
    }
    for (int i = 0; i < 3; i++)
        if (id[i] >= k->info.grid[i]) {
            trace_err(k, err, "thread block (%u,%u,%u) is outside the grid (%u,%u,%u)", id[0], id[1], id[2],
                      k->info.grid[0], k->info.grid[1], k->info.grid[2]);
            return -1;
        }
    memcpy(tb->ctaid, id, sizeof id);
    if (read_warps(k, tb, err)) return -1;
    k->tbs_read++;
    return 1;
}
