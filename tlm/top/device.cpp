#include "device.h"

#include <chrono>
#include <ctime>
#include <cstdio>
#include <cstdlib>
#include <cstring>

extern "C" {
#include "common/status.h"
#include "ptx/ptx_parse.h"
}

#include "top/simulator.h"

namespace gtlm {

namespace {

std::string hex(uint64_t v)
{
    char b[32];
    std::snprintf(b, sizeof b, "0x%llx", static_cast<unsigned long long>(v));
    return b;
}

const ptx_symbol *module_symbol(const Module *m, const std::string &name)
{
    for (uint32_t i = 0; i < m->sm.ptx.n_syms; i++)
        if (name == m->sm.ptx.syms[i].name) return &m->sm.ptx.syms[i];
    return nullptr;
}

// "-nregs" of a traced kernel: the ptxas report's registers when the module has one, else the
// PTX register slots capped at 255, the most a SASS thread can have (slots over-count).
unsigned trace_nregs(const Module *m, const ptx_func *k)
{
    for (const ptxas_func &f : m->resources)
        if (f.is_entry && std::strcmp(f.name, k->name) == 0) return f.registers;
    return k->n_regs < 255 ? k->n_regs : 255;
}

} // namespace

Device::Device() { dmem_init(&mem_); }

Device::~Device()
{
    trace_writer_close(trace_);
    for (auto &m : modules_) simt_module_free(&m->sm, &mem_);
    dmem_free_all(&mem_);
}

uint64_t Device::malloc_bytes(uint64_t bytes)
{
    uint64_t p = 0;
    if (dmem_alloc_bytes(&mem_, bytes, &p) != 0)
        throw Error(GTLM_ST_ENOMEM, "gtlm_malloc: cannot allocate " + std::to_string(bytes) + " bytes");
    return p;
}

void Device::free_bytes(uint64_t ptr)
{
    if (ptr == 0) return;
    if (dmem_release(&mem_, ptr) != 0)
        throw Error(GTLM_ST_EINVAL, "gtlm_free: " + hex(ptr) + " is not the start of a live allocation");
}

void Device::check_range(uint64_t addr, uint64_t bytes, const char *what)
{
    if (bytes == 0) return;
    if (!dmem_valid(&mem_, addr, bytes))
        throw Error(GTLM_ST_EINVAL, std::string(what) + ": device range " + hex(addr) + " + " + std::to_string(bytes) +
                                        " bytes is not inside one allocation");
}

void Device::copy_in(uint64_t dst, const void *src, uint64_t bytes)
{
    check_range(dst, bytes, "gtlm_memcpy_htod");
    if (bytes && dmem_write(&mem_, dst, src, bytes) != 0) throw Error(GTLM_ST_ENOMEM, "gtlm_memcpy_htod: out of memory");
    char err[256];
    if (trace_ && trace_writer_memcpy(trace_, dst, bytes, err, sizeof err) != 0)
        throw Error(GTLM_ST_EIO, std::string("-gtlm_trace_out: ") + err);
}

void Device::enable_trace(const std::string &dir, unsigned binary_version)
{
    trace_writer_opts o{};
    o.binary_version = binary_version;
    trace_writer *tw = nullptr;
    char err[512];
    if (trace_writer_open(&tw, dir.c_str(), &o, err, sizeof err) != 0)
        throw Error(GTLM_ST_EIO, std::string("-gtlm_trace_out: ") + err);
    trace_writer_close(trace_);
    trace_ = tw;
}

void Device::copy_out(void *dst, uint64_t src, uint64_t bytes)
{
    check_range(src, bytes, "gtlm_memcpy_dtoh");
    if (bytes) dmem_read(&mem_, src, dst, bytes);
}

void Device::fill(uint64_t dst, int value, uint64_t bytes)
{
    check_range(dst, bytes, "gtlm_memset");
    if (bytes && dmem_fill(&mem_, dst, value, bytes) != 0) throw Error(GTLM_ST_ENOMEM, "gtlm_memset: out of memory");
}

Module *Device::load_ptx(const std::string &text, const std::string &name, std::string *warnings)
{
    ptx_module pm{};
    strbuf err, warn;
    strbuf_init(&err);
    strbuf_init(&warn);
    int rc = ptx_parse(name.c_str(), text.data(), text.size(), &pm, &err, &warn);
    std::string e = strbuf_str(&err), w = strbuf_str(&warn);
    strbuf_free(&err);
    strbuf_free(&warn);
    if (warnings) *warnings = w;
    if (rc != 0) {
        if (!e.empty() && e.back() == '\n') e.pop_back();
        throw Error(GTLM_ST_ECONFIG, e);
    }
    auto m = std::make_unique<Module>();
    m->name = name;
    char msg[512] = "";
    if (simt_module_load(&m->sm, &pm, &mem_, msg, sizeof msg) != 0) throw Error(GTLM_ST_ECONFIG, msg);
    modules_.push_back(std::move(m));
    return modules_.back().get();
}

bool Device::owns(const Module *m) const
{
    for (const auto &p : modules_)
        if (p.get() == m) return true;
    return false;
}

void Device::copy_to_symbol(Module *m, const std::string &symbol, const void *src, uint64_t bytes, uint64_t offset)
{
    const ptx_symbol *s = module_symbol(m, symbol);
    if (!s || (s->space != PS_CONST && s->space != PS_GLOBAL))
        throw Error(GTLM_ST_ENOTFOUND, "gtlm_memcpy_to_symbol: module '" + m->name + "' has no .const or .global variable '" +
                                           symbol + "'");
    if (offset > s->size || bytes > s->size - offset)
        throw Error(GTLM_ST_EINVAL, "gtlm_memcpy_to_symbol: " + std::to_string(bytes) + " bytes at offset " +
                                        std::to_string(offset) + " do not fit '" + symbol + "' (" +
                                        std::to_string(s->size) + " bytes)");
    if (s->space == PS_CONST) std::memcpy(m->sm.const_bank + s->offset + offset, src, bytes);
    else copy_in(m->sm.global_base + s->offset + offset, src, bytes);
}

uint64_t Device::symbol_address(Module *m, const std::string &symbol)
{
    const ptx_symbol *s = module_symbol(m, symbol);
    if (!s || s->space != PS_GLOBAL)
        throw Error(GTLM_ST_ENOTFOUND, "gtlm_symbol_address: module '" + m->name + "' has no .global variable '" + symbol + "'");
    return m->sm.global_base + s->offset;
}

void Device::set_ptxas_info(Module *m, const std::string &report)
{
    ptxas_func *v = nullptr;
    size_t n = 0;
    char err[256] = "";
    if (ptxas_info_parse(report.c_str(), &v, &n, err, sizeof err) != 0)
        throw Error(GTLM_ST_ECONFIG, "gtlm_module_set_ptxas_info: " + std::string(err));
    std::vector<ptxas_func> funcs(v, v + n);
    std::free(v);
    if (funcs.empty())
        throw Error(GTLM_ST_ECONFIG, "gtlm_module_set_ptxas_info: the report describes no function (expected the "
                                     "output of ptxas -v: \"ptxas info : Compiling entry function '...'\" lines)");
    for (const ptxas_func &f : funcs) {
        // PTX ISA / CUDA limits: 255 registers per thread, 16 named barriers, 32-bit shared sizes.
        if (f.registers > 255 || f.barriers > 16 || f.shared_bytes > UINT32_MAX || f.stack_bytes > UINT32_MAX)
            throw Error(GTLM_ST_ECONFIG, "gtlm_module_set_ptxas_info: function '" + std::string(f.name) + "': " +
                                             std::to_string(f.registers) + " registers, " + std::to_string(f.barriers) +
                                             " barriers, " + std::to_string(f.shared_bytes) + " bytes smem, " +
                                             std::to_string(f.stack_bytes) + " bytes stack: beyond what a GPU allows "
                                             "(255 registers, 16 barriers, 4 GiB)");
        const ptx_func *pf = ptx_module_find_func(&m->sm.ptx, f.name);
        if (!pf || (f.is_entry && !pf->is_entry))
            throw Error(GTLM_ST_ECONFIG, "gtlm_module_set_ptxas_info: the report names '" + std::string(f.name) +
                                             "', which module '" + m->name + "' does not define as such");
    }
    m->resources = std::move(funcs);
}

void Device::kernel_resources(Module *m, const std::string &kernel, unsigned *regs, unsigned *barriers,
                              uint64_t *shared, uint64_t *stack, uint64_t *params)
{
    const ptx_func *k = ptx_module_find_func(&m->sm.ptx, kernel.c_str());
    if (!k || !k->is_entry)
        throw Error(GTLM_ST_ENOTFOUND, "gtlm_kernel_resources_get: module '" + m->name + "' has no kernel '" + kernel + "'");
    *regs = 0;
    *barriers = 0;
    *shared = ptx_kernel_static_shared(&m->sm.ptx, k);
    *stack = m->sm.stack_bytes[k - m->sm.ptx.funcs];
    *params = k->param_bytes;
    for (const ptxas_func &f : m->resources) {
        if (kernel != f.name) continue;
        *regs = f.registers;
        *barriers = f.barriers;
        *shared = f.shared_bytes;
        *stack = f.stack_bytes;
    }
}

void Device::prepare_launch(Module *m, const std::string &kernel, const unsigned grid[3], const unsigned block[3],
                            uint64_t dyn_shared, const void *const *args, const size_t *arg_sizes, size_t n_args,
                            uint32_t n_sms, PreparedLaunch &out)
{
    const ptx_func *k = ptx_module_find_func(&m->sm.ptx, kernel.c_str());
    if (!k || !k->is_entry)
        throw Error(GTLM_ST_ENOTFOUND, "gtlm_launch: module '" + m->name + "' has no kernel '" + kernel + "'");
    simt_launch &l = out.l;
    l.mod = &m->sm;
    l.kernel = k;
    l.func_index = static_cast<uint32_t>(k - m->sm.ptx.funcs);
    for (int i = 0; i < 3; i++) {
        l.grid[i] = grid[i];
        l.block[i] = block[i];
    }
    l.dyn_shared = dyn_shared;
    l.n_sms = n_sms;
    l.mem = &mem_;
    out.hook.dev = this;
    out.hook.mod = m;
    if (mem_hook_) {
        l.on_mem = [](const simt_launch *sl, const simt_warp *w, uint32_t func, uint32_t pc, const simt_mem_access *acc,
                      void *ctx) {
            auto *h = static_cast<PreparedLaunch::HookCtx *>(ctx);
            h->dev->mem_hook_(h->mod, sl, w, func, pc, acc);
        };
        l.on_mem_ctx = &out.hook;
    }
    char msg[512] = "";
    if (simt_launch_prepare(&l, msg, sizeof msg) != 0) throw Error(GTLM_ST_EINVAL, std::string("gtlm_launch: ") + msg);
    if (simt_pack_params(k, args, arg_sizes, n_args, &l.params, msg, sizeof msg) != 0)
        throw Error(GTLM_ST_EINVAL, std::string("gtlm_launch: ") + msg);
    l.grid_id = next_grid_id_++; // only a launch that passed its checks takes a grid id
    if (launch_hook_) launch_hook_(m, &l);
}

LaunchResult Device::launch_functional(Module *m, PreparedLaunch &p, uint64_t max_insn)
{
    char terr[512];
    if (trace_ && trace_writer_kernel_begin(trace_, &p.l, trace_nregs(m, p.l.kernel), terr, sizeof terr) != 0)
        throw Error(GTLM_ST_EIO, std::string("-gtlm_trace_out: ") + terr);
    LaunchResult r;
    simt_error err{};
    auto t0 = std::chrono::steady_clock::now();
    std::clock_t c0 = std::clock();
    simt_status st = simt_run_functional(&p.l, max_insn, &r.stats, &err);
    r.seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
    r.cpu_seconds = static_cast<double>(std::clock() - c0) / CLOCKS_PER_SEC;
    if (trace_ && trace_writer_kernel_end(trace_, st == SIMT_OK, nullptr, terr, sizeof terr) != 0 && st == SIMT_OK)
        throw Error(GTLM_ST_EIO, std::string("-gtlm_trace_out: ") + terr);
    if (st != SIMT_OK) {
        char buf[1024];
        simt_format_error(&p.l, &err, buf, sizeof buf);
        throw Error(GTLM_ST_ESIM, buf);
    }
    return r;
}

} // namespace gtlm
