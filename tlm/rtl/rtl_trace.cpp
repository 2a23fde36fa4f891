#include "rtl/rtl_trace.h"

#include <systemc>

namespace gtlm {

namespace {

std::weak_ptr<RtlTrace> current;
std::string current_path;

std::string rtl_vcd_path(std::string p)
{
    const std::string ext = ".vcd";
    if (p.size() > ext.size() && p.compare(p.size() - ext.size(), ext.size(), ext) == 0) p.resize(p.size() - ext.size());
    return p + ".rtl.vcd";
}

} // namespace

std::shared_ptr<RtlTrace> RtlTrace::get(const char *vcd_file)
{
    if (!vcd_file || !vcd_file[0]) return nullptr;
    std::string path = rtl_vcd_path(vcd_file);
    std::shared_ptr<RtlTrace> t = current.lock();
    if (t && current_path == path) return t;
    t = std::make_shared<RtlTrace>(path);
    current = t;
    current_path = path;
    return t;
}

RtlTrace::RtlTrace(const std::string &path) : ctx_(std::make_unique<VerilatedContext>()), path_(path)
{
    ctx_->traceEverOn(true);
    vcd_.set_time_unit("1fs");
    vcd_.set_time_resolution("1fs");
}

RtlTrace::~RtlTrace()
{
    if (!open_) return;
    if (has_pending_) vcd_.dump(pending_);
    vcd_.close();
}

void RtlTrace::touch()
{
    uint64_t now = static_cast<uint64_t>(sc_core::sc_time_stamp() / sc_core::sc_time(1, sc_core::SC_FS));
    if (!open_) {
        vcd_.open(path_.c_str());
        open_ = true;
    }
    if (has_pending_ && now > pending_) vcd_.dump(pending_);
    pending_ = now;
    has_pending_ = true;
}

} // namespace gtlm
