#include "mem/mem_ext.h"

namespace gtlm {

const char *mem_kind_name(MemKind k)
{
    switch (k) {
    case MemKind::Load: return "load";
    case MemKind::Store: return "store";
    case MemKind::Atomic: return "atomic";
    case MemKind::Prefetch: return "prefetch";
    case MemKind::Writeback: return "writeback";
    case MemKind::RegBackup: return "reg_backup";
    case MemKind::ExtLlc: return "ext_llc";
    }
    return "?";
}

tlm::tlm_extension_base *gtlm_mem_ext::clone() const { return new gtlm_mem_ext(*this); }

void gtlm_mem_ext::copy_from(const tlm::tlm_extension_base &other)
{
    *this = static_cast<const gtlm_mem_ext &>(other);
}

uint32_t mem_request_bytes(const tlm::tlm_generic_payload &gp)
{
    return kMemCtrlBytes + (gp.is_write() ? gp.get_data_length() : 0);
}

uint32_t mem_response_bytes(const tlm::tlm_generic_payload &gp)
{
    const gtlm_mem_ext *e = gp.get_extension<gtlm_mem_ext>();
    bool returns_data = gp.is_read() || (e && e->kind == MemKind::Atomic);
    return kMemCtrlBytes + (returns_data ? gp.get_data_length() : 0);
}

} // namespace gtlm
