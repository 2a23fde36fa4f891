/* The C core behind the external-controller seam (pm_ext, power_mode.h): one op on a domain that
 * has no ext, answered as an external controller answers it. The RTL testbench's reference model
 * and the recorder's shadow core (tlm/rtl/power_recorder.cpp). */
#include <stddef.h>

#include "power_mode.h"

void pm_op_c(pm_domain *d, uint32_t block, int op, uint64_t now, pm_ext_out *out)
{
    uint64_t wakes = d->st.wakes, lost = d->st.lost;
    out->wait = 0;
    if (op == PM_OP_BEGIN) {
        if (block == 0) pm_kernel_begin(d, now); /* the whole domain, at its first block's op */
    } else if (op == PM_OP_FILLED) {
        pm_filled(d, block);
    } else if (op == PM_OP_ON) {
        pm_set(d, block, PM_ON, now);
    } else if (op == PM_EV_ACCESS) {
        out->wait = pm_access(d, block, now, NULL);
    } else {
        pm_event_report(d, block, (pm_event)op, now);
    }
    out->mode = (uint8_t)pm_get(d, block);
    out->woke = d->st.wakes != wakes;
    out->lost = d->st.lost != lost;
}
