/* SM modes (DESIGN.md §10 seam, Morpheus §3.1): every SM runs application CTAs (compute), serves the
 * extended LLC (cache) or is power-gated (gated). Resolved once per run from the -morpheus_* counts
 * or lists; a count takes the highest-numbered SMs, the gated ones just below the cache-mode ones. */
#ifndef GTLM_SM_MODES_H
#define GTLM_SM_MODES_H

#include <stdint.h>

#include "../common/strbuf.h"
#include "llc_config.h"

typedef enum sm_mode { SM_MODE_COMPUTE = 0, SM_MODE_CACHE, SM_MODE_GATED } sm_mode;

const char *sm_mode_name(int mode); /* "compute", "cache", "gated" */

struct opt_registry;
/* Fills modes[0..n_sms) (sm_mode values). Returns 0, or -1 with a message in err for an SM id out of
 * range, a malformed list, an SM in both lists, or no compute SM left; with `where` (the registry the
 * options were read into) the message starts with the place the offending option was set. */
int sm_modes_resolve(const llc_config *c, int n_sms, uint8_t *modes, const struct opt_registry *where, strbuf *err);
/* Number of SMs in mode m. */
int sm_modes_count(const uint8_t *modes, int n_sms, int m);

#endif
