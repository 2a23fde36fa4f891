// Transactor for Snooze's power-mode controller: the Verilated rtl/power/snooze_ctrl.sv (one
// vectorised instance per cache: every power block of an L1D or an L2 slice) decides the blocks'
// modes in place of the C policy, through power_mode.h's pm_ext seam (power_mode.c keeps the mirror
// of the modes and every statistic).
//
// One op = the pins (event, block, the owner's cycle), an evaluation (the outputs: mode after the
// event, the wake it counts, pm_access's wait and lost answer) and one rising edge that commits the
// block's new state. The cycle is an input, so an idle block costs nothing: no edge per owner cycle.

#include "Vsnooze_ctrl.h"

#include "rtl/rtl_blocks.h"
#include "rtl/rtl_trace.h"

extern "C" {
#include "config/opt_check.h"
}

namespace gtlm {
namespace {

// The Verilated instance's size (rtl/CMakeLists.txt): blocks per cache.
constexpr uint32_t kBlocks = 16384;
constexpr int kClear = 12; // the RTL's RAM initialisation op

bool is_snooze(const pm_policy *p) { return p == &pm_policy_snooze || p == &pm_policy_snooze_destroy; }

class PowerTransactor {
public:
    PowerTransactor(const pm_domain *d, const std::string &name, const char *vcd_file) : top_(vcd_file, name)
    {
        top_->destroy = d->pol == &pm_policy_snooze_destroy;
        top_->wake_sleep = static_cast<uint32_t>(d->table.m[PM_SLEEP].wake_cycles);
        top_->wake_off = static_cast<uint32_t>(d->table.m[PM_OFF].wake_cycles);
        top_->rst_n = 1;
        top_->clk = 0;
        top_->eval();
        pm_ext_out o;
        for (uint32_t b = 0; b < d->n; b++) apply(b, kClear, 0, &o); // pm_domain_init's state (not traced)
    }
    void op(uint32_t block, int op, uint64_t now, pm_ext_out *out)
    {
        top_.touch();
        apply(block, op, now, out);
    }

private:
    void apply(uint32_t block, int op, uint64_t now, pm_ext_out *out)
    {
        top_->ev_valid = 1;
        top_->ev = static_cast<uint8_t>(op);
        top_->blk = block;
        top_->now = now;
        top_->clk = 0;
        top_->eval();
        out->mode = top_->next_mode;
        out->woke = top_->woke;
        out->wait = op == PM_EV_ACCESS ? static_cast<int>(top_->access_wait) : 0;
        out->lost = op == PM_EV_ACCESS ? top_->access_lost : 0;
        top_->clk = 1;
        top_->eval();
    }

    RtlModel<Vsnooze_ctrl> top_;
};

} // namespace

int rtl_power_check(const opt_registry *r, const gtlm_config *cfg, strbuf *err)
{
    const power_config &c = cfg->power;
    if (!c.rtl_power) return 0;
    // (wake latencies: -power_modes_* keeps them below 10^6, within the RTL's 20 bits)
    return opt_check(r, err, "-rtl_power", is_snooze(pm_policy_find(c.policy)),
                     "the RTL controller implements -power_policy snooze and snooze_destroy, not %s", c.policy);
}

int rtl_power_attach(pm_domain *d, const std::string &name, const char *vcd_file, std::string &err)
{
    if (!is_snooze(d->pol)) return 0; // always ON, or not a cache domain
    if (d->n > kBlocks) {
        err = "the RTL controller holds " + std::to_string(kBlocks) + " power blocks per cache, this one has " +
              std::to_string(d->n) + " (raise -power_gating_lines_l1d/_l2)";
        return -1;
    }
    auto *t = new PowerTransactor(d, name, vcd_file);
    d->ext.ctx = t;
    d->ext.op = [](void *ctx, uint32_t b, int op, uint64_t now, pm_ext_out *o) {
        static_cast<PowerTransactor *>(ctx)->op(b, op, now, o);
    };
    d->ext.destroy = [](void *ctx) { delete static_cast<PowerTransactor *>(ctx); };
    return 0;
}

} // namespace gtlm
