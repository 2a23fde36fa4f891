#include "noc_config.h"

#include "../config/opt_check.h"
#include "../config/opt_limits.h"

int noc_options_register(opt_registry *r, noc_config *c, strbuf *e)
{
    const char *b = "icnt";
    int rc = 0;
    rc |= opt_add_int(r, b, "-network_mode", &c->network_mode, "2", 1, 2,
                      "1: Booksim network (gtlm models it as its crossbar), 2: local crossbar", e);
    rc |= opt_add_int(r, b, "-icnt_flit_size", &c->flit_size, "32", 1, 4096, "bytes per interconnect flit", e);
    rc |= opt_add_int(r, b, "-icnt_in_buffer_limit", &c->in_buffer_limit, "64", 1, 65535, "flits buffered at each input port", e);
    rc |= opt_add_int(r, b, "-icnt_out_buffer_limit", &c->out_buffer_limit, "64", 1, 65535, "flits buffered at each output port", e);
    rc |= opt_add_int(r, b, "-icnt_subnets", &c->subnets, "2", 1, 2, "1: one network for requests and replies, 2: separate", e);
    rc |= opt_add_int(r, b, "-icnt_arbiter_algo", &c->arbiter, "1", 0, 1, "output arbitration: 0 round-robin, 1 iSLIP", e);
    rc |= opt_add_int(r, b, "-icnt_latency", &c->latency, "1", 0, SM_MAX_LATENCY,
                      "interconnect cycles a flit takes through the crossbar beyond its serialisation", e);
    rc |= opt_add_int(r, b, "-gtlm_icnt_local_xbar", &c->local_xbar, "-1", -1, 1,
                      "GPGPU-Sim's local crossbar: one FIFO per input, whole packets (-1: with --gpgpusim-compat and -network_mode 2)", e);
    return rc ? -1 : 0;
}

int noc_config_check(const opt_registry *r, const noc_config *c, strbuf *e)
{
    /* Every value is range-checked where it is declared; nothing here depends on two options. */
    (void)r;
    (void)c;
    (void)e;
    return 0;
}
