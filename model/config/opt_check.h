/* Consistency checks after parsing, reported at the place the offending value came from. */
#ifndef GTLM_OPT_CHECK_H
#define GTLM_OPT_CHECK_H

#include "opt.h"

#if defined(__GNUC__)
#define GTLM_PRINTF(f, a) __attribute__((format(printf, f, a)))
#else
#define GTLM_PRINTF(f, a)
#endif

/* When cond is false, appends "<source>: option '<name>': <message>" and returns 1; else 0. */
int opt_check(const opt_registry *r, strbuf *err, const char *name, int cond, const char *fmt, ...) GTLM_PRINTF(5, 6);

/* The same for a check between two options: located at `name` where it was set, else at `other`
 * (the option whose value, set in a file or on the command line, made the default of `name` wrong). */
int opt_check_pair(const opt_registry *r, strbuf *err, const char *name, const char *other, int cond, const char *fmt,
                   ...) GTLM_PRINTF(6, 7);

#endif
