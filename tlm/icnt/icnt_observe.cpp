// The interconnect's waveform observables (see wave/probe.h): flits buffered at every input and
// output port of each network, and the packets that left it.
#include "icnt/icnt.h"

namespace gtlm {

namespace {

void observe_net(ProbeList &out, const std::string &scope, const xbar *x)
{
    out.scope(scope);
    for (int i = 0; i < x->p.n_in; i++)
        out.level("in[" + std::to_string(i) + "].flits", 16, [x, i] { return static_cast<uint64_t>(x->in[i].used); });
    for (int j = 0; j < x->p.n_out; j++)
        out.level("out[" + std::to_string(j) + "].flits", 16, [x, j] { return static_cast<uint64_t>(x->out[j].used); });
    out.level("packets_out", 32, [x] { return x->packets_out; });
}

} // namespace

void Icnt::observe(ProbeList &out) const
{
    if (shared_network()) {
        observe_net(out, "gpu.icnt.net.", &req_net_->core());
        return;
    }
    observe_net(out, "gpu.icnt.req.", &req_net_->core());
    observe_net(out, "gpu.icnt.rsp.", &rsp_net_->core());
}

} // namespace gtlm
