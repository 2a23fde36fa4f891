#include "tbsched_config.h"

static const gsim_policy_choice tb_policies[] = {
    {"lrr", 0, 0, ""},
    /* PAVER (thesis Ch. 3): x 1..1024, maxTB 2..1024, stealing 0/1, METIS seed */
    {"mst", 0, 2, ":x[:stealing]"},
    {"kway", 0, 2, ":stealing[:seed]"},
    {"rbts", 0, 3, ":maxTB[:stealing[:seed]]"},
    {NULL, 0, 0, NULL},
};
GSIM_POLICY_TYPE(tb_policy_type, tb_policies);

int tbsched_options_register(opt_registry *r, tbsched_config *c, strbuf *e)
{
    return opt_add_custom(r, "tbsched", "-gtlm_tb_scheduler", &tb_policy_type, &c->policy, "lrr",
                          "thread-block scheduler: lrr (one CTA per SM in turn, as GPGPU-Sim); PAVER's mst, kway, rbts "
                          "(from the kernel's profiled TB locality graph, docs/paver.md)", e);
}
