/* Interim model of the interconnect between the Morpheus controllers and the cache-mode SMs
 * (until the controller has its own crossbar sockets): a packet of B bytes sent at cycle d arrives
 *   start + ceil((1 + flits + icnt_latency) x l2_per_icnt)      start = max(d, both ports' free cycle)
 * (the next interconnect edge, one flit per cycle, the switch latency: the crossbar's rule for an
 * uncontended packet, flits = ceil(B / flit size)), and holds the sender's output port and the
 * receiver's input port for ceil(flits x l2_per_icnt) cycles, so a controller and a cache-mode SM
 * each move one flit per interconnect cycle and direction. It does not contend with the compute
 * SMs' traffic in the crossbar. Cycles are the controllers' (L2) clock. */
#ifndef GTLM_EXT_LINK_H
#define GTLM_EXT_LINK_H

#include <stdint.h>

typedef struct ext_link {
    double l2_per_icnt;      /* L2 cycles per interconnect cycle */
    uint32_t flit_bytes, latency, n_ctl, n_sms;
    uint64_t *ctl_out, *ctl_in, *sm_in, *sm_out; /* first free cycle of each port */
    uint64_t packets, flits; /* statistics */
} ext_link;

int ext_link_init(ext_link *l, uint32_t n_ctl, uint32_t n_sms, uint32_t flit_bytes, uint32_t latency, double l2_mhz,
                  double icnt_mhz);
void ext_link_free(ext_link *l);
/* Arrival cycle of a packet of `bytes` sent at `send` from controller ctl to cache-mode SM rank. */
uint64_t ext_link_to_sm(ext_link *l, uint32_t ctl, uint32_t rank, uint64_t send, uint32_t bytes);
/* ... and back. */
uint64_t ext_link_to_ctl(ext_link *l, uint32_t rank, uint32_t ctl, uint64_t send, uint32_t bytes);
/* Uncontended one-way latency of a packet of `bytes` (the formula above with start = send). */
uint64_t ext_link_latency(const ext_link *l, uint32_t bytes);

#endif
