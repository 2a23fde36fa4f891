/* DPI-C side of tb_snooze_ctrl.sv: Snooze's C core (model/power: one pm_domain of n blocks with the
 * snooze or snooze_destroy policy) as the reference model, one op at a time through pm_op_c, the
 * form the model's external-controller seam has (power_mode.h's pm_ext). */
#include <stdint.h>

#include "power/power_mode.h"

enum { OP_CLEAR = 12 }; /* the RTL's RAM initialisation: pm_domain_init's state, nothing to do here */

static pm_domain ref;
static int ref_ready;

int ref_pm_init(int destroy, int blocks, int wake_sleep, int wake_off)
{
    if (ref_ready) pm_domain_free(&ref);
    pm_table t = {{{1.0, 0, 0}, {0.5, 1, 5}, {0.3, wake_sleep, 10}, {0.0, wake_off, 20}}};
    int rc = pm_domain_init(&ref, (uint32_t)blocks, &t, 1.0, 1000.0,
                            destroy ? &pm_policy_snooze_destroy : &pm_policy_snooze);
    ref_ready = rc == 0;
    return rc;
}

int ref_pm_mode(int blk) { return (int)pm_get(&ref, (uint32_t)blk); }

/* The op of cycle now on block blk: the mode after it, whether it woke the block, and for an access
 * what pm_access returns. */
void ref_pm_op(int op, int blk, long long now, int *mode, int *woke, int *wait, int *lost)
{
    pm_ext_out o = {(uint8_t)pm_get(&ref, (uint32_t)blk), 0, 0, 0};
    if (op != OP_CLEAR) pm_op_c(&ref, (uint32_t)blk, op, (uint64_t)now, &o);
    *mode = o.mode;
    *woke = o.woke;
    *wait = o.wait;
    *lost = o.lost;
}
