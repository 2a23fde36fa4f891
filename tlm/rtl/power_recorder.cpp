// Records one Snooze power-mode controller's op sequence from a real run (-rtl_record_power FILE,
// or `gtlm run --record-block power FILE`): SM 0's L1D, every op of the pm_ext seam (event, block,
// the owner's cycle) with the controller's answer (mode after it, wake counted, access wait and
// lost), for replay by the RTL testbench (testbenches/rtl/tb_snooze_ctrl.sv +replay=FILE). It wraps
// the domain's RTL controller when -rtl_power is on, else a shadow C core (pm_op_c on a copy of
// the domain), and changes nothing of the run: the seam counts the statistics as the C core does.
#include <cinttypes>
#include <cstdio>

#include "rtl/rtl_blocks.h"

namespace gtlm {
namespace {

class PowerRecorder {
public:
    PowerRecorder(pm_domain *d, std::FILE *f) : inner_(d->ext), f_(f)
    {
        if (!inner_.op) {
            shadow_ok_ = pm_domain_init(&shadow_, d->n, &d->table, d->block_leak_mw, d->mhz, d->pol) == 0;
        }
        std::fprintf(f_, "# gtlm block recording: power (SM 0's L1D); e OP BLOCK NOW MODE WOKE WAIT LOST\n");
        std::fprintf(f_, "policy %s blocks %u wake_sleep %d wake_off %d\n", d->pol->name, d->n,
                     d->table.m[PM_SLEEP].wake_cycles, d->table.m[PM_OFF].wake_cycles);
    }
    ~PowerRecorder()
    {
        std::fclose(f_);
        if (inner_.destroy) inner_.destroy(inner_.ctx);
        pm_domain_free(&shadow_);
    }
    bool ok() const { return inner_.op || shadow_ok_; }
    void op(uint32_t b, int op, uint64_t now, pm_ext_out *o)
    {
        if (inner_.op) inner_.op(inner_.ctx, b, op, now, o);
        else pm_op_c(&shadow_, b, op, now, o);
        std::fprintf(f_, "e %d %u %" PRIu64 " %u %u %d %u\n", op, b, now, o->mode, o->woke, o->wait, o->lost);
    }

private:
    pm_ext inner_;
    pm_domain shadow_{};
    bool shadow_ok_ = false;
    std::FILE *f_;
};

} // namespace

int rtl_power_record(pm_domain *d, const char *path, std::string &err)
{
    if (d->pol != &pm_policy_snooze && d->pol != &pm_policy_snooze_destroy) {
        err = "recording covers Snooze's controller (-power_policy snooze, snooze_destroy)";
        return -1;
    }
    std::FILE *f = std::fopen(path, "w");
    if (!f) {
        err = std::string("cannot write ") + path;
        return -1;
    }
    auto *r = new PowerRecorder(d, f);
    if (!r->ok()) {
        delete r;
        err = "out of memory";
        return -1;
    }
    d->ext.ctx = r;
    d->ext.op = [](void *ctx, uint32_t b, int op, uint64_t now, pm_ext_out *o) {
        static_cast<PowerRecorder *>(ctx)->op(b, op, now, o);
    };
    d->ext.destroy = [](void *ctx) { delete static_cast<PowerRecorder *>(ctx); };
    return 0;
}

} // namespace gtlm
