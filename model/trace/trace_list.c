/* kernelslist.g: the commands of a traced run, in order. */
#define _POSIX_C_SOURCE 200809L /* getline */
#include "trace_reader.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/types.h>

#include "trace_internal.h"

void trace_list_free(trace_cmd *cmds, size_t n)
{
    for (size_t i = 0; i < n; i++) free(cmds[i].path);
    free(cmds);
}

static int ends_with(const char *s, const char *suffix)
{
    size_t n = strlen(s), m = strlen(suffix);
    return n >= m && strcmp(s + n - m, suffix) == 0;
}

/* "MemcpyHtoD,0xADDR,BYTES" (after the name) -> 0, or -1; the line is left as it was. */
static int parse_memcpy(const char *s, trace_cmd *c)
{
    if (*s++ != ',') return -1;
    const char *comma = strchr(s, ',');
    char addr[24];
    if (!comma || (size_t)(comma - s) >= sizeof addr) return -1;
    memcpy(addr, s, (size_t)(comma - s));
    addr[comma - s] = '\0';
    if (addr[0] != '0' || (addr[1] != 'x' && addr[1] != 'X') || trace_parse_hex(addr, &c->addr)) return -1;
    return trace_parse_u64(comma + 1, UINT64_MAX, &c->bytes);
}

static int add_cmd(trace_cmd **cmds, size_t *n, size_t *cap, const trace_cmd *c)
{
    if (*n == *cap) {
        size_t nc = *cap ? *cap * 2 : 16;
        trace_cmd *v = realloc(*cmds, nc * sizeof *v);
        if (!v) return -1;
        *cmds = v;
        *cap = nc;
    }
    (*cmds)[(*n)++] = *c;
    return 0;
}

int trace_list_read(const char *dir, trace_cmd **cmds, size_t *n, strbuf *err)
{
    *cmds = NULL;
    *n = 0;
    size_t dlen = strlen(dir), cap = 0;
    char *list = malloc(dlen + 16);
    if (!list) return -1;
    sprintf(list, "%s/kernelslist.g", dir);
    FILE *f = fopen(list, "r");
    if (!f) {
        if (err) strbuf_line(err, "%s: cannot open the trace's command list", list);
        free(list);
        return -1;
    }
    char *buf = NULL;
    size_t bufcap = 0;
    ssize_t len;
    uint32_t line = 0;
    int rc = 0;
    while (rc == 0 && (len = getline(&buf, &bufcap, f)) >= 0) {
        line++;
        while (len > 0 && strchr("\r\n \t", buf[len - 1])) buf[--len] = '\0';
        char *s = buf;
        while (*s == ' ' || *s == '\t') s++;
        if (!*s) continue;
        trace_cmd c = {0};
        c.line = line;
        if (strncmp(s, "MemcpyHtoD", 10) == 0) {
            c.kind = TRACE_CMD_MEMCPY_HTOD;
            if (parse_memcpy(s + 10, &c)) {
                if (err) strbuf_line(err, "%s:%u: expected MemcpyHtoD,0xADDRESS,BYTES, found '%.60s'", list, line, s);
                rc = -1;
            }
        } else if (strncmp(s, "kernel", 6) == 0 && (ends_with(s, ".traceg") || ends_with(s, ".traceg.xz")) &&
                   !strpbrk(s, " \t")) {
            c.kind = TRACE_CMD_KERNEL;
            c.path = malloc(dlen + strlen(s) + 2);
            if (c.path) sprintf(c.path, "%s/%s", dir, s);
            else rc = -1;
        } else {
            if (err)
                strbuf_line(err, "%s:%u: expected a kernel trace name (kernel-N.traceg or .traceg.xz) or "
                            "MemcpyHtoD,0xADDRESS,BYTES, found '%.60s'", list, line, s);
            rc = -1;
        }
        if (rc == 0 && add_cmd(cmds, n, &cap, &c)) {
            free(c.path);
            rc = -1;
        }
    }
    if (rc == 0 && ferror(f)) { /* a directory opens but does not read (EISDIR) */
        if (err) strbuf_line(err, "%s: cannot read the trace's command list: %s", list, strerror(errno));
        rc = -1;
    }
    free(buf);
    fclose(f);
    free(list);
    if (rc) {
        trace_list_free(*cmds, *n);
        *cmds = NULL;
        *n = 0;
    }
    return rc;
}
