/* Consistency checks after parsing, reported at the place the offending value came from. */
#ifndef GTLM_OPT_CHECK_H
#define GTLM_OPT_CHECK_H

#include "opt.h"

/* When cond is false, appends "<source>: option '<name>': <message>" and returns 1; else 0. */
int opt_check(const opt_registry *r, strbuf *err, const char *name, int cond, const char *fmt, ...)
#if defined(__GNUC__)
    __attribute__((format(printf, 5, 6)))
#endif
    ;

#endif
