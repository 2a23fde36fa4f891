/*
 * Hierarchical-name patterns for selecting signals (-vcd_signals): a comma-separated list of
 * patterns, a name is selected when any pattern matches the whole name.
 *   *        any run of characters (dots included)
 *   ?        one character
 *   [a-b]    a bracketed decimal index between a and b inclusive: "gpu.sm[0-3].*" matches
 *            "gpu.sm[2].active_warps" but not "gpu.sm[12].active_warps"; [n] is [n-n] and
 *            [a-b,c,d-e] a union. The name's brackets are part of the match.
 *   other    itself
 * Commas inside brackets belong to the index list, not the pattern list.
 */
#ifndef GTLM_COMMON_NAME_MATCH_H
#define GTLM_COMMON_NAME_MATCH_H

#include "strbuf.h"

/* 1 when pattern (one, no list) matches all of name. */
int name_match(const char *pattern, size_t pattern_len, const char *name);
/* 1 when any pattern of the comma-separated list matches name. */
int name_match_list(const char *patterns, const char *name);
/* 0, or -1 with "pattern N (col C): ..." in err for an unclosed or malformed bracket or an empty
 * pattern. */
int name_pattern_check(const char *patterns, strbuf *err);

#endif
