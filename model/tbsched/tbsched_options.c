#include "tbsched_config.h"

static const gsim_policy_choice tb_policies[] = {
    {"lrr", 0, 0, ""},
    /* PAVER (thesis Ch. 3): x 1..1024, maxTB 2..1024 (0, the default: the kernel's occupancy),
     * stealing 0/1, MST-TS fill 0/1 (x capped at floor(TBs / SMs)), METIS seed, RB-TS leaf test
     * le 0 (< maxTB, as printed) / 1 (<= maxTB) */
    {"mst", 0, 3, ":x[:stealing[:fill]]"},
    {"kway", 0, 2, ":stealing[:seed]"},
    {"rbts", 0, 4, ":maxTB[:stealing[:seed[:le]]]"},
    /* PAVER's competitors (thesis Sec. 3.5): BCS pairs, cache-fit's cap of CTAs per SM (1..1024) */
    {"bcs", 0, 0, ""},
    {"cachefit", 0, 1, "[:cap]"},
    {NULL, 0, 0, NULL},
};
GSIM_POLICY_TYPE(tb_policy_type, tb_policies);

int tbsched_options_register(opt_registry *r, tbsched_config *c, strbuf *e)
{
    static const char *const sources[] = {"auto", "static", "profiled", NULL};
    static const char *const evals[] = {"closed", "thread", "symbolic", NULL};
    int rc = opt_add_custom(r, "tbsched", "-gtlm_tb_scheduler", &tb_policy_type, &c->policy, "lrr",
                            "thread-block scheduler: lrr (one CTA per SM in turn, as GPGPU-Sim); PAVER's mst, kway, rbts "
                            "(from the kernel's TB locality graph); bcs (neighbouring pairs); cachefit:cap (at most "
                            "cap CTAs per SM); docs/paver.md", e);
    rc |= opt_add_enum(r, "tbsched", "-gtlm_tb_graph", &c->graph_source, sources, "auto",
                       "source of PAVER's TB locality graph: static (LocalityGuru's PTX analysis), profiled (a "
                       "functional run), auto (static when every global load resolves, else profiled)", e);
    rc |= opt_add_bool(r, "tbsched", "-gtlm_tb_graph_lines", &c->graph_lines, "0",
                       "PAVER's locality graph counts shared 128-byte lines instead of shared elements", e);
    rc |= opt_add_enum(r, "tbsched", "-gtlm_tb_graph_eval", &c->graph_eval, evals, "symbolic",
                       "LocalityGuru's evaluation of the address trees: closed (a warp load whose lanes step by at "
                       "most one granule is one run; TB sets as merged spans), thread (lane by lane) or symbolic "
                       "(affine closed form from the PTX, closed where a load is not affine); same graph", e);
    rc |= opt_add_bool(r, "tbsched", "-gtlm_tb_graph_refs", &c->graph_refs, "0",
                       "profile each timing launch's global reads into the thesis' Fig. 3.2 categories (unshared, "
                       "intra-TB, inter-TB, both; statistics tbsched.refs_*; host time outside the JIT time)", e);
    rc |= opt_add_int(r, "tbsched", "-gtlm_tb_fetch_latency", &c->fetch_latency, "-1", -1, 1000000,
                      "PAVER: core cycles to fetch an SM's next TB id from the TB-group store after it takes a group "
                      "or issues a TB (spec A.8.9: one L2 hit); -1: the L2's -rop_latency", e);
    return rc;
}
