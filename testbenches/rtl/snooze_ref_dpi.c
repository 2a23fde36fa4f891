/* DPI-C side of tb_snooze_ctrl.sv: Snooze's C core (model/power: one pm_domain of one block with
 * the snooze or snooze_destroy policy) as the reference model. */
#include <stdint.h>

#include "power/power_mode.h"

enum { EV_BEGIN = 9, EV_FILLED = 10 }; /* the RTL's codes for pm_kernel_begin and pm_filled */

static pm_domain ref;
static int ref_ready;

int ref_pm_init(int destroy, int wake_sleep, int wake_off)
{
    if (ref_ready) pm_domain_free(&ref);
    pm_table t = {{{1.0, 0, 0}, {0.5, 1, 5}, {0.3, wake_sleep, 10}, {0.0, wake_off, 20}}};
    int rc = pm_domain_init(&ref, 1, &t, 1.0, 1000.0, destroy ? &pm_policy_snooze_destroy : &pm_policy_snooze);
    ref_ready = rc == 0;
    return rc;
}

int ref_pm_mode(void) { return (int)pm_get(&ref, 0); }

/* The event of cycle now; for an access, what pm_access returns. */
void ref_pm_event(int ev, long long now, int *wait, int *lost)
{
    *wait = 0;
    *lost = 0;
    if (ev == EV_BEGIN) pm_kernel_begin(&ref, (uint64_t)now);
    else if (ev == EV_FILLED) pm_filled(&ref, 0);
    else if (ev == PM_EV_ACCESS) *wait = pm_access(&ref, 0, (uint64_t)now, lost);
    else pm_event_report(&ref, 0, (pm_event)ev, (uint64_t)now);
}
