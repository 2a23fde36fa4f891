// Device memory, modules and launches.
#include <cstdio>
#include <cerrno>
#include <cstring>
#include <memory>

#include "api_guard.h"

using gtlm_api::guard;
using gtlm_api::set_error;

// The opaque module handle is the device's module.
struct gtlm_module {
    gtlm::Module m;
};

static gtlm::Module *unwrap(gtlm_sim *sim, gtlm_module *mod, const char *fn)
{
    auto *m = reinterpret_cast<gtlm::Module *>(mod);
    if (!mod || !sim->sim.device().owns(m))
        throw gtlm::Error(GTLM_ST_EINVAL, std::string(fn) + ": module is NULL or not loaded by this simulator");
    return m;
}

#define NEED(cond, fn, what)                                                                      \
    if (!(cond)) return set_error(GTLM_EINVAL, std::string(fn) + ": " + what)

extern "C" int gtlm_malloc(gtlm_sim *sim, size_t bytes, gtlm_devptr *out)
{
    return guard([&] {
        NEED(sim, "gtlm_malloc", "sim is NULL");
        gtlm_api::Busy busy(sim, "gtlm_malloc");
        NEED(out, "gtlm_malloc", "out is NULL");
        *out = sim->sim.device().malloc_bytes(bytes);
        return static_cast<int>(GTLM_OK);
    });
}

extern "C" int gtlm_free(gtlm_sim *sim, gtlm_devptr ptr)
{
    return guard([&] {
        NEED(sim, "gtlm_free", "sim is NULL");
        gtlm_api::Busy busy(sim, "gtlm_free");
        sim->sim.device().free_bytes(ptr);
        return static_cast<int>(GTLM_OK);
    });
}

extern "C" int gtlm_memcpy_htod(gtlm_sim *sim, gtlm_devptr dst, const void *src, size_t bytes)
{
    return guard([&] {
        NEED(sim, "gtlm_memcpy_htod", "sim is NULL");
        gtlm_api::Busy busy(sim, "gtlm_memcpy_htod");
        NEED(src || !bytes, "gtlm_memcpy_htod", "src is NULL");
        sim->sim.device().copy_in(dst, src, bytes);
        return static_cast<int>(GTLM_OK);
    });
}

extern "C" int gtlm_memcpy_dtoh(gtlm_sim *sim, void *dst, gtlm_devptr src, size_t bytes)
{
    return guard([&] {
        NEED(sim, "gtlm_memcpy_dtoh", "sim is NULL");
        gtlm_api::Busy busy(sim, "gtlm_memcpy_dtoh");
        NEED(dst || !bytes, "gtlm_memcpy_dtoh", "dst is NULL");
        sim->sim.device().copy_out(dst, src, bytes);
        return static_cast<int>(GTLM_OK);
    });
}

extern "C" int gtlm_memset(gtlm_sim *sim, gtlm_devptr dst, int value, size_t bytes)
{
    return guard([&] {
        NEED(sim, "gtlm_memset", "sim is NULL");
        gtlm_api::Busy busy(sim, "gtlm_memset");
        sim->sim.device().fill(dst, value, bytes);
        return static_cast<int>(GTLM_OK);
    });
}

// -gtlm_max_module_bytes: the largest module text accepted (reading stops one byte past it).
static uint64_t module_limit(gtlm_sim *sim) { return static_cast<uint64_t>(sim->sim.config().gpu.max_module_bytes); }

static std::string too_large(const char *fn, const std::string &what, uint64_t limit)
{
    return std::string(fn) + ": " + what + " is larger than -gtlm_max_module_bytes (" + std::to_string(limit) +
           " bytes); raise the option to load it";
}

extern "C" int gtlm_module_load_ptx(gtlm_sim *sim, const char *text, const char *name, gtlm_module **out)
{
    return guard([&] {
        NEED(sim, "gtlm_module_load_ptx", "sim is NULL");
        gtlm_api::Busy busy(sim, "gtlm_module_load_ptx");
        NEED(text, "gtlm_module_load_ptx", "text is NULL");
        NEED(out, "gtlm_module_load_ptx", "out is NULL");
        *out = nullptr;
        uint64_t limit = module_limit(sim);
        size_t n = strnlen(text, limit < SIZE_MAX ? static_cast<size_t>(limit) + 1 : SIZE_MAX);
        if (n > limit) return set_error(GTLM_EINVAL, too_large("gtlm_module_load_ptx", "the text", limit));
        std::string warnings;
        gtlm::Module *m = sim->sim.device().load_ptx(std::string(text, n), name ? name : "module.ptx", &warnings);
        *out = reinterpret_cast<gtlm_module *>(m);
        return static_cast<int>(GTLM_OK);
    });
}

// Reads at most limit + 1 bytes of path into text; a status and message on failure.
static int read_bounded(const char *path, uint64_t limit, std::string &text)
{
    const char *fn = "gtlm_module_load_ptx_file";
    FILE *f = std::fopen(path, "rb");
    if (!f) return set_error(GTLM_EIO, std::string(fn) + ": cannot open '" + path + "': " + std::strerror(errno));
    std::unique_ptr<FILE, int (*)(FILE *)> closer(f, std::fclose);
    // A regular file's size, when it can be told, sizes the text at once: grown by appending,
    // it would hold up to twice the module (a device or pipe reports none and grows).
    if (std::fseek(f, 0, SEEK_END) == 0) {
        long size = std::ftell(f);
        if (size > 0 && (uint64_t)size <= limit) text.reserve((size_t)size);
        std::rewind(f);
    }
    char buf[65536];
    size_t got;
    while ((got = std::fread(buf, 1, sizeof buf, f)) > 0) {
        text.append(buf, got);
        if (text.size() > limit) return set_error(GTLM_EINVAL, too_large(fn, std::string("'") + path + "'", limit));
    }
    if (std::ferror(f))
        return set_error(GTLM_EIO, std::string(fn) + ": cannot read '" + path + "': " + std::strerror(errno));
    return GTLM_OK;
}

extern "C" int gtlm_module_load_ptx_file(gtlm_sim *sim, const char *path, gtlm_module **out)
{
    return guard([&] {
        NEED(sim, "gtlm_module_load_ptx_file", "sim is NULL");
        gtlm_api::Busy busy(sim, "gtlm_module_load_ptx_file");
        NEED(path, "gtlm_module_load_ptx_file", "path is NULL");
        NEED(out, "gtlm_module_load_ptx_file", "out is NULL");
        *out = nullptr;
        std::string text;
        int rc = read_bounded(path, module_limit(sim), text);
        if (rc != GTLM_OK) return rc;
        std::string warnings;
        gtlm::Module *m = sim->sim.device().load_ptx(text, path, &warnings);
        *out = reinterpret_cast<gtlm_module *>(m);
        return static_cast<int>(GTLM_OK);
    });
}

extern "C" int gtlm_memcpy_to_symbol(gtlm_sim *sim, gtlm_module *module, const char *symbol, const void *src,
                                     size_t bytes, size_t offset)
{
    return guard([&] {
        NEED(sim, "gtlm_memcpy_to_symbol", "sim is NULL");
        gtlm_api::Busy busy(sim, "gtlm_memcpy_to_symbol");
        NEED(symbol, "gtlm_memcpy_to_symbol", "symbol is NULL");
        NEED(src || !bytes, "gtlm_memcpy_to_symbol", "src is NULL");
        sim->sim.device().copy_to_symbol(unwrap(sim, module, "gtlm_memcpy_to_symbol"), symbol, src, bytes, offset);
        return static_cast<int>(GTLM_OK);
    });
}

extern "C" int gtlm_symbol_address(gtlm_sim *sim, gtlm_module *module, const char *symbol, gtlm_devptr *out)
{
    return guard([&] {
        NEED(sim, "gtlm_symbol_address", "sim is NULL");
        NEED(symbol, "gtlm_symbol_address", "symbol is NULL");
        NEED(out, "gtlm_symbol_address", "out is NULL");
        *out = sim->sim.device().symbol_address(unwrap(sim, module, "gtlm_symbol_address"), symbol);
        return static_cast<int>(GTLM_OK);
    });
}

extern "C" int gtlm_launch(gtlm_sim *sim, gtlm_module *module, const char *kernel, const unsigned grid[3],
                           const unsigned block[3], size_t dynamic_shared_bytes, const void *const *args,
                           const size_t *arg_sizes, size_t n_args)
{
    return guard([&] {
        NEED(sim, "gtlm_launch", "sim is NULL");
        gtlm_api::Busy busy(sim, "gtlm_launch");
        NEED(kernel, "gtlm_launch", "kernel is NULL");
        NEED(grid && block, "gtlm_launch", "grid or block is NULL");
        NEED(!n_args || (args && arg_sizes), "gtlm_launch", "args or arg_sizes is NULL");
        int rc = GTLM_OK;
        try {
            sim->sim.launch(unwrap(sim, module, "gtlm_launch"), kernel, grid, block, dynamic_shared_bytes, args,
                            arg_sizes, n_args);
        } catch (const gtlm::Error &e) {
            rc = set_error(e.status(), e.what());
            if (e.status() == GTLM_ST_ESIM && sim->pending == GTLM_OK) {
                sim->pending = rc;
                sim->pending_msg = e.what();
            }
        }
        return rc;
    });
}

extern "C" int gtlm_run_trace(gtlm_sim *sim, const char *dir, char *report, size_t report_len)
{
    return guard([&] {
        NEED(sim, "gtlm_run_trace", "sim is NULL");
        gtlm_api::Busy busy(sim, "gtlm_run_trace");
        NEED(dir, "gtlm_run_trace", "dir is NULL");
        NEED(!report || report_len, "gtlm_run_trace", "report_len is 0");
        gtlm::Simulator::TraceRun run = sim->sim.run_trace(dir);
        std::string text;
        char line[512];
        for (const auto &k : run.kernels) {
            std::snprintf(line, sizeof line, "kernel %s cycles %llu warp_insn %llu ctas %llu seconds %.3f\n", k.name.c_str(),
                          static_cast<unsigned long long>(k.cycles), static_cast<unsigned long long>(k.warp_insn),
                          static_cast<unsigned long long>(k.ctas), k.seconds);
            text += line;
        }
        if (run.unknown_opcode_lines) {
            text += "unknown_opcodes " + std::to_string(run.unknown_opcode_lines);
            for (const std::string &o : run.unknown_opcodes) text += " " + o;
            text += "\n";
        }
        if (report) std::snprintf(report, report_len, "%s", text.c_str());
        return static_cast<int>(GTLM_OK);
    });
}

extern "C" int gtlm_synchronize(gtlm_sim *sim)
{
    return guard([&] {
        NEED(sim, "gtlm_synchronize", "sim is NULL");
        gtlm_api::Busy busy(sim, "gtlm_synchronize");
        int rc = sim->pending;
        sim->pending = GTLM_OK;
        return rc == GTLM_OK ? rc : set_error(rc, sim->pending_msg);
    });
}

extern "C" int gtlm_module_set_ptxas_info(gtlm_sim *sim, gtlm_module *module, const char *report)
{
    return guard([&] {
        NEED(sim, "gtlm_module_set_ptxas_info", "sim is NULL");
        gtlm_api::Busy busy(sim, "gtlm_module_set_ptxas_info");
        NEED(report, "gtlm_module_set_ptxas_info", "report is NULL");
        sim->sim.device().set_ptxas_info(unwrap(sim, module, "gtlm_module_set_ptxas_info"), report);
        return static_cast<int>(GTLM_OK);
    });
}

extern "C" int gtlm_kernel_resources_get(gtlm_sim *sim, gtlm_module *module, const char *kernel,
                                         gtlm_kernel_resources *out)
{
    return guard([&] {
        NEED(sim, "gtlm_kernel_resources_get", "sim is NULL");
        NEED(kernel, "gtlm_kernel_resources_get", "kernel is NULL");
        NEED(out, "gtlm_kernel_resources_get", "out is NULL");
        uint64_t shared = 0, stack = 0, params = 0;
        sim->sim.device().kernel_resources(unwrap(sim, module, "gtlm_kernel_resources_get"), kernel, &out->registers,
                                           &out->barriers, &shared, &stack, &params);
        out->shared_bytes = shared;
        out->stack_bytes = stack;
        out->param_bytes = params;
        return static_cast<int>(GTLM_OK);
    });
}

extern "C" int gtlm_set_mem_callback(gtlm_sim *sim, gtlm_mem_callback cb, void *payload)
{
    return guard([&] {
        NEED(sim, "gtlm_set_mem_callback", "sim is NULL");
        gtlm_api::Busy busy(sim, "gtlm_set_mem_callback");
        if (!cb) {
            sim->sim.device().set_mem_hook(nullptr);
            return static_cast<int>(GTLM_OK);
        }
        sim->sim.device().set_mem_hook([cb, payload](gtlm::Module *m, const simt_launch *l, const simt_warp *w,
                                                     uint32_t func, uint32_t pc, const simt_mem_access *acc) {
            const ptx_func *f = &l->mod->ptx.funcs[func];
            const simt_cta *c = w->cta;
            gtlm_mem_event e{};
            e.module = reinterpret_cast<gtlm_module *>(m);
            e.kernel = l->kernel->name;
            e.function = f->name;
            e.pc = pc;
            e.line = pc < f->n_instrs ? f->instrs[pc].line : 0;
            static const int spaces[] = {0, GTLM_SPACE_GLOBAL, GTLM_SPACE_SHARED, GTLM_SPACE_LOCAL, GTLM_SPACE_CONST,
                                         GTLM_SPACE_PARAM};
            e.space = acc->space < 6 ? spaces[acc->space] : 0;
            e.is_store = acc->is_store;
            e.is_atomic = acc->is_atomic;
            e.bytes = acc->bytes;
            for (int i = 0; i < 3; i++) e.cta[i] = c->ctaid[i];
            e.warp = w->id;
            unsigned long long linear =
                (static_cast<unsigned long long>(c->ctaid[2]) * l->grid[1] + c->ctaid[1]) * l->grid[0] + c->ctaid[0];
            e.global_warp = linear * l->threads_per_cta / 32 + w->id;
            e.mask = acc->mask;
            e.addr = acc->addr;
            for (int i = 0; i < 3; i++) e.grid[i] = l->grid[i];
            e.cta_linear = linear;
            e.launch = l->grid_id;
            cb(&e, payload);
        });
        return static_cast<int>(GTLM_OK);
    });
}

extern "C" int gtlm_module_describe_instr(gtlm_sim *sim, gtlm_module *module, const char *function, unsigned pc,
                                          char *buf, size_t len)
{
    return guard([&] {
        NEED(sim, "gtlm_module_describe_instr", "sim is NULL");
        NEED(function, "gtlm_module_describe_instr", "function is NULL");
        NEED(buf && len, "gtlm_module_describe_instr", "buf is NULL or len is 0");
        gtlm::Module *m = unwrap(sim, module, "gtlm_module_describe_instr");
        const ptx_func *f = ptx_module_find_func(&m->sm.ptx, function);
        if (!f || pc >= f->n_instrs)
            return set_error(GTLM_ENOTFOUND, std::string("gtlm_module_describe_instr: no instruction ") +
                                                 std::to_string(pc) + " in '" + function + "'");
        ptx_describe_instr(&m->sm.ptx, f, pc, buf, len);
        return static_cast<int>(GTLM_OK);
    });
}
