/* Options owned by the thread-block (CTA) scheduler that places CTAs on SMs. */
#ifndef GTLM_TBSCHED_CONFIG_H
#define GTLM_TBSCHED_CONFIG_H

#include "../common/strbuf.h"
#include "../config/gpgpusim_formats.h"

typedef struct tbsched_config {
    gsim_policy_spec policy; /* lrr (GPGPU-Sim's round-robin); PAVER policies join later */
    int graph_source;        /* PAVER's locality graph: enum lg_source (auto, static, profiled) */
    int graph_lines;         /* 1: 128-byte line granules, 0: elements */
    int graph_refs;          /* 1: each timing launch also profiles Fig. 3.2's reference categories */
    int graph_eval;          /* LocalityGuru's evaluation: enum lg_eval (0 closed, 1 per thread, 2 symbolic) */
    int fetch_latency;       /* PAVER's nextTB fetch in core cycles; -1: the L2's -rop_latency */
} tbsched_config;

int tbsched_options_register(opt_registry *r, tbsched_config *c, strbuf *err);

#endif
