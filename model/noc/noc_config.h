/* Options owned by the interconnect between SMs and memory sub-partitions. */
#ifndef GTLM_NOC_CONFIG_H
#define GTLM_NOC_CONFIG_H

#include "../common/strbuf.h"
#include "../config/opt.h"

/* Bytes of control header every interconnect packet carries (plus a write's or a read reply's data). */
#define NOC_HEADER_BYTES 8

typedef struct noc_config {
    int network_mode;   /* 1: GPGPU-Sim's Booksim (modelled as our crossbar), 2: local crossbar */
    int flit_size;      /* bytes per flit */
    int in_buffer_limit, out_buffer_limit; /* flits buffered per port */
    int subnets;        /* 1: shared, 2: separate request and reply networks */
    int arbiter;        /* 0: round-robin, 1: iSLIP */
    int latency;        /* icnt cycles a flit spends in the crossbar, beyond serialisation */
    int local_xbar;     /* 1: GPGPU-Sim's local crossbar rules, 0: gtlm's, -1: by compat mode */
} noc_config;

/* Whether the crossbar follows GPGPU-Sim's local-crossbar rules (-gtlm_icnt_local_xbar; -1 = under
 * --gpgpusim-compat with -network_mode 2). */
static inline int noc_local_xbar(const noc_config *c, int compat)
{
    return c->local_xbar < 0 ? (compat && c->network_mode == 2) : c->local_xbar;
}

int noc_options_register(opt_registry *r, noc_config *c, strbuf *err);
int noc_config_check(const opt_registry *r, const noc_config *c, strbuf *err);

#endif
