#include "ptxas_info.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* The number before `unit` on the line ("Used 24 registers" -> 24), or 0 when absent. */
static unsigned long number_before(const char *line, const char *end, const char *unit)
{
    size_t ul = strlen(unit);
    for (const char *p = line; p + ul <= end; p++) {
        if (strncmp(p, unit, ul) != 0 || p == line || p[-1] != ' ') continue;
        const char *q = p - 1;
        while (q > line && q[-1] >= '0' && q[-1] <= '9') q--;
        if (q < p - 1) return strtoul(q, NULL, 10);
    }
    return 0;
}

/* Copies the text between the first pair of quotes (or after "for ") into name. */
static int quoted_name(const char *line, const char *end, char *name, size_t len)
{
    const char *a = memchr(line, '\'', (size_t)(end - line));
    if (!a) return -1;
    const char *b = memchr(a + 1, '\'', (size_t)(end - a - 1));
    if (!b || (size_t)(b - a - 1) >= len) return -1;
    memcpy(name, a + 1, (size_t)(b - a - 1));
    name[b - a - 1] = '\0';
    return 0;
}

int ptxas_info_parse(const char *text, ptxas_func **out, size_t *n, char *err, size_t len)
{
    ptxas_func *v = NULL, *cur = NULL;
    size_t count = 0, cap = 0;
    int line_no = 0;
    *out = NULL;
    *n = 0;
    for (const char *line = text; *line;) {
        const char *end = strchr(line, '\n');
        if (!end) end = line + strlen(line);
        line_no++;
        int entry = strstr(line, "Compiling entry function") && strstr(line, "Compiling entry function") < end;
        int func = !entry && strstr(line, "Function properties for ") && strstr(line, "Function properties for ") < end;
        if (entry || func) {
            char name[256];
            if (entry ? quoted_name(line, end, name, sizeof name) != 0 : 0) {
                snprintf(err, len, "line %d: expected a quoted function name", line_no);
                free(v);
                return -1;
            }
            if (func) {
                const char *s = strstr(line, "Function properties for ") + strlen("Function properties for ");
                size_t l = (size_t)(end - s);
                while (l && (s[l - 1] == '\r' || s[l - 1] == ' ')) l--;
                if (!l || l >= sizeof name) {
                    snprintf(err, len, "line %d: expected a function name after 'Function properties for'", line_no);
                    free(v);
                    return -1;
                }
                memcpy(name, s, l);
                name[l] = '\0';
            }
            cur = NULL;
            for (size_t i = 0; i < count; i++)
                if (strcmp(v[i].name, name) == 0) cur = &v[i];
            if (!cur) {
                if (count == cap) {
                    cap = cap ? cap * 2 : 16;
                    ptxas_func *nv = realloc(v, cap * sizeof *nv);
                    if (!nv) {
                        free(v);
                        snprintf(err, len, "out of memory");
                        return -1;
                    }
                    v = nv;
                }
                cur = &v[count++];
                memset(cur, 0, sizeof *cur);
                snprintf(cur->name, sizeof cur->name, "%s", name);
            }
            if (entry) cur->is_entry = 1;
        } else if (cur && strstr(line, "bytes stack frame") && strstr(line, "bytes stack frame") < end) {
            cur->stack_bytes = number_before(line, end, "bytes stack frame");
            cur->spill_store_bytes = number_before(line, end, "bytes spill stores");
            cur->spill_load_bytes = number_before(line, end, "bytes spill loads");
        } else if (cur && strstr(line, "Used ") && strstr(line, "Used ") < end) {
            cur->registers = (unsigned)number_before(line, end, "registers");
            cur->barriers = (unsigned)number_before(line, end, "barriers");
            cur->shared_bytes = number_before(line, end, "bytes smem");
            cur->const0_bytes = number_before(line, end, "bytes cmem[0]");
        }
        line = *end ? end + 1 : end;
    }
    *out = v;
    *n = count;
    return 0;
}
