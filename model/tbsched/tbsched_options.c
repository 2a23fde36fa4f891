#include "tbsched_config.h"

static const gsim_policy_choice tb_policies[] = {
    {"lrr", 0, 0, ""},
    {NULL, 0, 0, NULL},
};
GSIM_POLICY_TYPE(tb_policy_type, tb_policies);

int tbsched_options_register(opt_registry *r, tbsched_config *c, strbuf *e)
{
    return opt_add_custom(r, "tbsched", "-gtlm_tb_scheduler", &tb_policy_type, &c->policy, "lrr",
                          "thread-block scheduler: lrr (one CTA per SM in turn, as GPGPU-Sim)", e);
}
