/*
 * PTX text -> ptx_module (ptx_ir.h). One call parses, resolves names, lays out every state
 * space, builds each function's control-flow graph with immediate post-dominators, and
 * rejects anything the executor cannot run, so that nothing is discovered at run time.
 */
#ifndef GTLM_PTX_PARSE_H
#define GTLM_PTX_PARSE_H

#include <stddef.h>

#include "../common/strbuf.h"
#include "ptx_ir.h"

/* Parses len bytes of PTX text (need not be NUL-terminated). name is used in messages
 * ("name:line:col: what was expected, got '...'" and the offending instruction's text).
 * Returns 0 with *out filled, or -1 with every error in err (capped) and *out left empty.
 * Warnings (ignored directives such as .file/.loc/.section, unknown .pragma) go to warn. */
int ptx_parse(const char *name, const char *text, size_t len, ptx_module *out, strbuf *err, strbuf *warn);

#endif
