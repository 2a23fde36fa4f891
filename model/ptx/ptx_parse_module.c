/* The entry point: module header, module-scope statements, then resolution, layout and CFG. */
#include <stdlib.h>
#include <string.h>

#include "ptx_internal.h"
#include "ptx_parse.h"

static void version(pp *p)
{
    const ptx_tok *d = pp_next(p);
    const ptx_tok *t = pp_peek(p);
    const char *s = pp_text(p, t);
    unsigned maj = 0, min = 0;
    size_t i = 0;
    int ok = t->kind == TK_NUM;
    for (; ok && i < t->len && s[i] >= '0' && s[i] <= '9' && maj < 1000; i++) maj = maj * 10 + (unsigned)(s[i] - '0');
    ok = ok && i > 0 && i + 1 < t->len && s[i] == '.';
    for (i++; ok && i < t->len; i++) {
        if (s[i] < '0' || s[i] > '9' || min >= 1000) ok = 0;
        else min = min * 10 + (unsigned)(s[i] - '0');
    }
    if (!ok) {
        char got[64];
        pp_describe(p, t, got, sizeof got);
        pp_error(p, t, "expected a version number MAJOR.MINOR after %.*s, got %s", (int)d->len, pp_text(p, d), got);
        pp_skip_module_statement(p);
        return;
    }
    pp_next(p);
    p->m->version_major = maj;
    p->m->version_minor = min;
}

static void target(pp *p)
{
    pp_next(p);
    do {
        const ptx_tok *t = pp_next(p);
        if (t->kind != TK_WORD || !pp_is_ident(pp_text(p, t), t->len, 0)) {
            char got[64];
            pp_describe(p, t, got, sizeof got);
            pp_error(p, t, "expected a target name, got %s", got);
            return;
        }
        const char *s = pp_text(p, t);
        int arch = (t->len > 3 && memcmp(s, "sm_", 3) == 0) || (t->len > 8 && memcmp(s, "compute_", 8) == 0);
        if (arch && !p->m->target[0] && t->len < sizeof p->m->target) memcpy(p->m->target, s, t->len);
    } while (pp_accept(p, ','));
}

static void address_size(pp *p)
{
    pp_next(p);
    const ptx_tok *t = pp_peek(p);
    uint64_t v;
    if (pp_uint(p, &v, "32 or 64")) return;
    if (v != 32 && v != 64) {
        pp_error(p, t, ".address_size must be 32 or 64");
        return;
    }
    p->m->address_size = (uint32_t)v;
}

/* What of the module header has been seen (a bit set in top_level's *header). */
enum { HDR_STARTED = 1, HDR_VERSION = 2, HDR_TARGET = 4, HDR_ADDRESS_SIZE = 8, HDR_NO_VERSION_REPORTED = 16 };

/* One module-scope statement. */
static void top_level(pp *p, int *header)
{
    const ptx_tok *first = pp_peek(p);
    int is_extern = 0, is_visible = 0;
    if (*header == 0 && !pp_is_word(p, first, ".version")) {
        char got[64];
        pp_describe(p, first, got, sizeof got);
        pp_error(p, first, "expected '.version' at the start of the module, got %s", got);
        *header = HDR_STARTED | HDR_NO_VERSION_REPORTED;
    }
    if (pp_is_word(p, first, ".version") || pp_is_word(p, first, ".target") || pp_is_word(p, first, ".address_size")) {
        int bit = pp_is_word(p, first, ".version") ? HDR_VERSION
                  : pp_is_word(p, first, ".target") ? HDR_TARGET
                                                     : HDR_ADDRESS_SIZE;
        if (*header & bit) {
            pp_error(p, first, "duplicate '%.*s'", (int)first->len, pp_text(p, first));
            pp_skip_directive(p, 1);
            return;
        }
        *header |= HDR_STARTED | bit;
        if (bit == HDR_VERSION) version(p);
        else if (bit == HDR_TARGET) target(p);
        else address_size(p);
        return;
    }
    for (;;) {
        const ptx_tok *t = pp_peek(p);
        if (pp_is_word(p, t, ".visible")) is_visible = 1;
        else if (pp_is_word(p, t, ".extern")) is_extern = 1;
        else if (!pp_is_word(p, t, ".weak") && !pp_is_word(p, t, ".common")) break;
        pp_next(p);
    }
    const ptx_tok *t = pp_peek(p);
    if (pp_is_word(p, t, ".entry") || pp_is_word(p, t, ".func")) {
        if (!(*header & HDR_TARGET)) {
            pp_error(p, t, "'.target' must come before the first function");
            *header |= HDR_TARGET;
        }
        pp_next(p);
        pp_function(p, pp_is_word(p, t, ".entry"), is_extern, is_visible);
    } else if (pp_is_word(p, t, ".global") || pp_is_word(p, t, ".const") || pp_is_word(p, t, ".shared")) {
        ptx_space sp = pp_is_word(p, t, ".global") ? PS_GLOBAL : pp_is_word(p, t, ".const") ? PS_CONST : PS_SHARED;
        pp_next(p);
        pp_var_decl(p, 1, sp, is_extern, is_visible);
    } else if (pp_is_word(p, t, ".local")) {
        pp_error(p, t, "module-scope .local variables are not supported");
        pp_skip_module_statement(p);
    } else if (pp_is_word(p, t, ".tex") || pp_is_word(p, t, ".texref") || pp_is_word(p, t, ".surfref") ||
               pp_is_word(p, t, ".samplerref")) {
        pp_error(p, t, "texture and surface references are not supported");
        pp_skip_module_statement(p);
    } else if (t != first) {
        char got[64];
        pp_describe(p, t, got, sizeof got);
        pp_error(p, t, "expected .entry, .func or a variable after '%.*s', got %s", (int)first->len,
                 pp_text(p, first), got);
        pp_skip_module_statement(p);
    } else if (pp_is_word(p, t, ".pragma")) {
        pp_next(p);
        pp_skip_module_statement(p);
    } else if (t->kind == TK_WORD && pp_text(p, t)[0] == '.') {
        pp_skip_directive(p, 1);
    } else {
        char got[64];
        pp_describe(p, t, got, sizeof got);
        pp_error(p, t, "expected a directive at module scope, got %s", got);
        int stray = pp_is(t, '}'); /* skipping stops before it */
        pp_skip_module_statement(p);
        if (stray) pp_next(p);
    }
}

static void free_state(pp *p)
{
    ptx_map_free(&p->funcs);
    ptx_map_free(&p->msyms);
    ptx_map_free(&p->all_labels);
    ptx_map_free(&p->warned);
    free(p->calls);
    free(p->lost_labels);
    pp_func_end(p);
    pp_window_free(p);
}

int ptx_parse(const char *name, const char *text, size_t len, ptx_module *out, strbuf *err, strbuf *warn)
{
    memset(out, 0, sizeof *out);
    if (!name) name = "<ptx>";
    if (!text) len = 0;
    pp p;
    memset(&p, 0, sizeof p);
    p.name = name;
    p.src = text ? text : "";
    p.err = err;
    p.warn = warn;
    p.m = out;
    ptx_map_init(&p.funcs);
    ptx_map_init(&p.msyms);
    ptx_map_init(&p.all_labels);
    ptx_map_init(&p.warned);
    out->name = pp_strndup(&p, name, strlen(name));
    if (pp_window_init(&p, p.src, len)) {
        if (err) strbuf_line(err, "%s: %s", name, len >= UINT32_MAX ? "file too large" : "out of memory");
        free_state(&p);
        ptx_module_free(out);
        return -1;
    }
    out->address_size = 64;

    int header = 0;
    while (!p.stop) {
        if (pp_window_refill(&p)) {
            pp_oom(&p);
            break;
        }
        if (pp_peek(&p)->kind == TK_EOF) break;
        top_level(&p, &header);
    }
    if (!(header & (HDR_VERSION | HDR_NO_VERSION_REPORTED)) && !p.stop) pp_error_at(&p, 1, 1, "missing '.version'");
    if (!p.stop) pp_resolve_module(&p);
    if (!p.nerr && ptx_layout_module(out)) pp_oom(&p);
    for (uint32_t i = 0; !p.nerr && i < out->n_funcs; i++)
        if (ptx_cfg_build(&out->funcs[i])) pp_oom(&p);

    free_state(&p);
    if (p.nerr) {
        ptx_module_free(out);
        return -1;
    }
    return 0;
}
