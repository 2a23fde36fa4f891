/* Shared between the trace reader's files: the open kernel and small token helpers. */
#ifndef GTLM_TRACE_INTERNAL_H
#define GTLM_TRACE_INTERNAL_H

#include <stdio.h>

#include "trace_reader.h"

struct trace_kernel {
    FILE *f;
    int is_pipe;              /* f comes from popen("xz -dc ...") */
    char *path;
    uint64_t line;            /* number of the line last read (1-based) */
    char *buf;                /* getline buffer */
    size_t bufcap;
    trace_kernel_info info;
    trace_opcode_table *ops;
    int unknown_as_alu;
    uint64_t tbs_read;
    uint8_t *seen;            /* warps seen in the current block */
    int done;                 /* end of file reached after all blocks */
};

/* Appends "path:line: <message>" to err. */
void trace_err(const trace_kernel *k, strbuf *err, const char *fmt, ...)
#if defined(__GNUC__)
    __attribute__((format(printf, 3, 4)))
#endif
    ;

/* Splits the next whitespace-separated token off *s (NUL-terminating it); NULL at end of line. */
char *trace_next_token(char **s);
/* Whole-token parsers: 0 on success, -1 when the token is not of that form or out of range. */
int trace_parse_u64(const char *t, uint64_t max, uint64_t *out);     /* decimal */
int trace_parse_i64(const char *t, int64_t *out);                    /* signed decimal */
int trace_parse_hex(const char *t, uint64_t *out);                   /* hex, optional 0x */

/* Parses one instruction line of warp `warp` into tb (appends an insn and its addresses). */
int trace_parse_insn(trace_kernel *k, char *s, trace_tb *tb, uint32_t warp, strbuf *err);

#endif
