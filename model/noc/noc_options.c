#include "noc_config.h"

#include "../config/opt_check.h"

int noc_options_register(opt_registry *r, noc_config *c, strbuf *e)
{
    const char *b = "icnt";
    int rc = 0;
    rc |= opt_add_int(r, b, "-network_mode", &c->network_mode, "2",
                      "1: Booksim network (gtlm models it as its crossbar), 2: local crossbar", e);
    rc |= opt_add_int(r, b, "-icnt_flit_size", &c->flit_size, "32", "bytes per interconnect flit", e);
    rc |= opt_add_int(r, b, "-icnt_in_buffer_limit", &c->in_buffer_limit, "64", "flits buffered at each input port", e);
    rc |= opt_add_int(r, b, "-icnt_out_buffer_limit", &c->out_buffer_limit, "64", "flits buffered at each output port", e);
    rc |= opt_add_int(r, b, "-icnt_subnets", &c->subnets, "2", "1: one network for requests and replies, 2: separate", e);
    rc |= opt_add_int(r, b, "-icnt_arbiter_algo", &c->arbiter, "1", "output arbitration: 0 round-robin, 1 iSLIP", e);
    rc |= opt_add_int(r, b, "-icnt_latency", &c->latency, "1",
                      "interconnect cycles a flit takes through the crossbar beyond its serialisation", e);
    return rc ? -1 : 0;
}

int noc_config_check(const opt_registry *r, const noc_config *c, strbuf *e)
{
    int bad = opt_check(r, e, "-network_mode", c->network_mode == 1 || c->network_mode == 2,
                        "expected 1 or 2, got %d", c->network_mode);
    bad |= opt_check(r, e, "-icnt_flit_size", c->flit_size > 0, "must be positive, got %d", c->flit_size);
    bad |= opt_check(r, e, "-icnt_in_buffer_limit", c->in_buffer_limit > 0, "must be positive, got %d", c->in_buffer_limit);
    bad |= opt_check(r, e, "-icnt_out_buffer_limit", c->out_buffer_limit > 0, "must be positive, got %d", c->out_buffer_limit);
    bad |= opt_check(r, e, "-icnt_subnets", c->subnets == 1 || c->subnets == 2, "expected 1 or 2, got %d", c->subnets);
    bad |= opt_check(r, e, "-icnt_arbiter_algo", c->arbiter == 0 || c->arbiter == 1, "expected 0 or 1, got %d", c->arbiter);
    bad |= opt_check(r, e, "-icnt_latency", c->latency >= 0, "must not be negative, got %d", c->latency);
    return bad ? -1 : 0;
}
