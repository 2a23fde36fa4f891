#include "top/trace_source.h"

#include <utility>

#include "kernel/error.h"

extern "C" {
#include "common/status.h"
}

namespace gtlm {

TraceKernelSource::TraceKernelSource(const std::string &path, trace_opcode_table *ops, bool unknown_as_alu)
{
    strbuf err;
    strbuf_init(&err);
    k_ = trace_kernel_open(path.c_str(), ops, unknown_as_alu ? 1 : 0, &err);
    if (!k_) {
        std::string msg = strbuf_str(&err);
        strbuf_free(&err);
        throw Error(GTLM_ST_EINVAL, msg);
    }
    strbuf_free(&err);
    const trace_kernel_info &i = info();
    src_.get_tb = &TraceKernelSource::get_tb;
    src_.ctx = this;
    src_.ops = ops;
    src_.binary_version = i.binary_version;
    src_.shmem_base = i.shmem_base;
    src_.shmem_per_cta = i.shmem;
    src_.local_base = i.local_base;
}

TraceKernelSource::~TraceKernelSource()
{
    for (auto &kv : kept_) trace_tb_free(&kv.second);
    trace_kernel_close(k_);
}

uint64_t TraceKernelSource::linear(const uint32_t id[3]) const
{
    const trace_kernel_info &i = info();
    return id[0] + static_cast<uint64_t>(i.grid[0]) * (id[1] + static_cast<uint64_t>(i.grid[1]) * id[2]);
}

int TraceKernelSource::get_tb(void *ctx, const uint32_t ctaid[3], trace_tb *tb, strbuf *err)
{
    auto *self = static_cast<TraceKernelSource *>(ctx);
    uint64_t want = self->linear(ctaid);
    auto it = self->kept_.find(want);
    if (it != self->kept_.end()) {
        std::swap(*tb, it->second); // tb's old buffers go with the kept entry, freed here
        trace_tb_free(&it->second);
        self->kept_.erase(it);
        return 0;
    }
    for (;;) {
        int r = trace_kernel_next_tb(self->k_, tb, err);
        if (r <= 0) self->bad_input_ = true;
        if (r < 0) return -1;
        if (r == 0) {
            strbuf_printf(err, "the trace has no thread block (%u,%u,%u) (all %llu read)", ctaid[0], ctaid[1], ctaid[2],
                          static_cast<unsigned long long>(self->info().n_tbs));
            return -1;
        }
        uint64_t got = self->linear(tb->ctaid);
        if (got == want) return 0;
        trace_tb &slot = self->kept_[got]; // read ahead: keep it for its own dispatch
        std::swap(slot, *tb);
        *tb = trace_tb{};
    }
}

} // namespace gtlm
