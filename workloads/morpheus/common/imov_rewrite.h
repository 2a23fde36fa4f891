/* Rewrites Algorithm 2's software Indirect-MOV (a brx.idx switch whose every case is one mov and a
 * branch to a common join label) into gtlm's native mov.indirect (docs/morpheus.md, "The native
 * Indirect-MOV"). nvcc cannot emit the instruction, so the ext_llc workload derives its native
 * variant from the committed PTX at load time with this, and nothing else has to be kept in step.
 *
 * A site, as ext_llc.cu's inline assembly gives it (leading blanks ignored, one statement a line
 * except that a case's mov and its branch share one):
 *     T: .branchtargets L0, L1, ..., Ln-1;
 *     brx.idx IDX, T;
 *     L0: [@g] mov.TY D0, S0; bra.uni J;      (the last case may fall through to J)
 *     ...
 *     J:
 * becomes, when every case writes the same D (a read of S[IDX]),
 *     [@g] mov.indirect.TY D, {S0, ..., Sn-1}[IDX];
 * or, when every case reads the same S (a write of D[IDX]),
 *     [@g] mov.indirect.TY {D0, ..., Dn-1}[IDX], S;
 * Every other line is copied unchanged; a .branchtargets list that does not start such a site
 * (another use of brx.idx) is left alone. */
#ifndef GTLM_WL_MORPHEUS_IMOV_REWRITE_H
#define GTLM_WL_MORPHEUS_IMOV_REWRITE_H

#include <stddef.h>

/* Returns the rewritten text (malloc'd, NUL-terminated; the caller frees it) and the number of
 * sites rewritten in *sites, or NULL when out of memory. */
char *imov_rewrite(const char *ptx, int *sites);

#endif
