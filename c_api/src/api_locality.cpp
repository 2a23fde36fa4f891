// gtlm_set_locality_callback: LocalityGuru's trees and static TB locality graph of every launch.
#include <chrono>
#include <cstdio>
#include <string>

#include "api_guard.h"

extern "C" {
#include "analysis/guru_eval.h"
#include "analysis/guru_sym.h"
}

namespace {

// The symbolic closed form of the same launch against the stepped graph g: one report line.
std::string symbolic_check(const guru_kernel *k, const simt_launch *l, int lines, const lg_graph *g)
{
    auto t0 = std::chrono::steady_clock::now();
    char why[300] = "", line[400];
    lg_graph s{};
    int rc = guru_sym_graph(k, l, lines ? LG_LINE : LG_ELEMENT, &s, why, sizeof why);
    double sec = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
    uint32_t i = 0, j = 0;
    if (rc > 0)
        std::snprintf(line, sizeof line, "symbolic: falls back to stepping: %s\n", why);
    else if (rc < 0)
        std::snprintf(line, sizeof line, "symbolic: error: %s\n", why);
    else if (lg_graph_equal(&s, g, &i, &j))
        std::snprintf(line, sizeof line, "symbolic: closed form equal to the stepped graph element for element (%.3f s)\n",
                      sec);
    else
        std::snprintf(line, sizeof line, "symbolic: closed form DIFFERS from the stepped graph at TBs %u, %u: %llu vs %llu\n",
                      i, j, (unsigned long long)lg_graph_get(&s, i, j), (unsigned long long)lg_graph_get(g, i, j));
    lg_graph_free(&s);
    return line;
}

// Analyses one launch and hands the result to the callback.
void analyse(gtlm_locality_callback cb, void *payload, int lines, const simt_launch *l)
{
    auto t0 = std::chrono::steady_clock::now();
    gtlm_locality_event e{};
    e.kernel = l->kernel->name;
    for (int i = 0; i < 3; i++) e.grid[i] = l->grid[i], e.block[i] = l->block[i];
    e.launch = l->grid_id;
    std::string report;
    guru_kernel k;
    lg_graph g{};
    if (guru_analyse(&l->mod->ptx, l->kernel, &k) != 0) {
        report = "LocalityGuru: out of memory\n";
    } else {
        e.loads = k.n_loads;
        e.unresolved = k.n_unresolved;
        for (uint32_t i = 0; i < k.n_loads; i++) {
            char tree[400], line[720];
            guru_tree_text(&k, i, tree, sizeof tree);
            if (k.loads[i].resolved)
                std::snprintf(line, sizeof line, "line %u: resolved (tree %u): %s\n", k.loads[i].line, k.loads[i].tree,
                              tree);
            else
                std::snprintf(line, sizeof line, "line %u: unresolved: %s\n", k.loads[i].line, k.loads[i].why);
            report += line;
        }
        if (!k.n_unresolved) {
            char msg[256] = "";
            if (guru_eval_graph(&k, l, lines ? LG_LINE : LG_ELEMENT, 0, &g, msg, sizeof msg) == 0)
                e.has_graph = 1;
            else
                report += std::string(msg[0] ? msg : "LocalityGuru: out of memory") + "\n";
            if (e.has_graph) report += symbolic_check(&k, l, lines, &g);
        }
        guru_kernel_free(&k);
    }
    if (e.has_graph) {
        e.n_tbs = g.n;
        e.row = g.row;
        e.col = g.col;
        e.val = g.val;
    }
    e.report = report.c_str();
    e.seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
    cb(&e, payload);
    lg_graph_free(&g);
}

#define NEED(cond, fn, what)                                                                      \
    if (!(cond)) return gtlm_api::set_error(GTLM_EINVAL, std::string(fn) + ": " + what)

} // namespace

extern "C" int gtlm_set_locality_callback(gtlm_sim *sim, gtlm_locality_callback cb, void *payload, int lines)
{
    return gtlm_api::guard([&] {
        NEED(sim, "gtlm_set_locality_callback", "sim is NULL");
        gtlm_api::Busy busy(sim, "gtlm_set_locality_callback");
        if (!cb) {
            sim->sim.device().set_launch_hook(nullptr);
            return static_cast<int>(GTLM_OK);
        }
        sim->sim.device().set_launch_hook(
            [cb, payload, lines](gtlm::Module *, const simt_launch *l) { analyse(cb, payload, lines, l); });
        return static_cast<int>(GTLM_OK);
    });
}
