/* The profiled TB locality graph of one launch (PAVER, thesis Sec. 3.3.2): the kernel runs
 * functionally on a copy of device memory, every global read is recorded per TB, and the
 * program's memory is left as it was. */
#ifndef GTLM_LOCALITY_PROFILE_H
#define GTLM_LOCALITY_PROFILE_H

#include <stddef.h>

#include "../simt/simt.h"
#include "locality_graph.h"
#include "locality_refs.h"

/* The launch's TB count into n; -1 with a message when the graph cannot index that many TBs. */
int lg_launch_tbs(const simt_launch *l, uint32_t *n, char *msg, size_t len);
/* l must be prepared with its parameters packed (l->on_mem is ignored). Returns 0, or -1 with a
 * message (kernel error, out of memory); g is zeroed then. */
int lg_profile_launch(const simt_launch *l, int granularity, lg_graph *g, char *msg, size_t len);

/* Fig. 3.2's reference categories of launch l's global reads (lane accesses), from the same kind
 * of functional run on a copy (locality_refs.h). Returns 0, or -1 with a message. */
int lg_profile_refs(const simt_launch *l, int granularity, lg_ref_breakdown *out, char *msg, size_t len);

#endif
