/* Registration of the trace front end's options. */
#include "trace_config.h"

#include "../config/opt_check.h"
#include "trace_opcodes.h"

GSIM_INT_LIST_TYPE(lat_init_type, 2, 2, 1, 65535);

static const char *const lat_names[5] = {
    "-trace_opcode_latency_initiation_int", "-trace_opcode_latency_initiation_sp",
    "-trace_opcode_latency_initiation_dp", "-trace_opcode_latency_initiation_sfu",
    "-trace_opcode_latency_initiation_tensor",
};

int trace_options_register(opt_registry *r, trace_config *c, strbuf *e)
{
    const char *b = "trace";
    /* Defaults: Accel-Sim's Volta tested configuration (configs/tested-cfgs/SM7_TITANV/trace.config). */
    static const char *const defaults[5] = {"2,2", "2,2", "8,4", "20,8", "8,4"};
    static const char *const descs[5] = {
        "integer SASS ops (and branches, exits): latency,initiation interval in core cycles",
        "single-precision SASS ops: latency,initiation interval in core cycles",
        "double-precision SASS ops: latency,initiation interval in core cycles",
        "special-function SASS ops (MUFU): latency,initiation interval in core cycles",
        "tensor-core SASS ops (HMMA, IMMA, ...): latency,initiation interval in core cycles",
    };
    int rc = 0;
    for (int i = 0; i < 5; i++)
        rc |= opt_add_custom(r, b, lat_names[i], &lat_init_type, &c->lat_init[i], defaults[i], descs[i], e);
    rc |= opt_add_bool(r, b, "-gtlm_trace_unknown_opcode_as_alu", &c->unknown_as_alu, "0",
                       "run a SASS opcode the trace reader cannot classify as an integer op (counted) instead of failing",
                       e);
    return rc ? -1 : 0;
}

int trace_config_check(const opt_registry *r, const trace_config *c, strbuf *e)
{
    int rc = 0;
    for (int i = 0; i < 5; i++)
        rc |= opt_check(r, e, lat_names[i], c->lat_init[i].n == 2, "must be latency,initiation (two numbers)");
    return rc;
}

int trace_latency(const trace_config *c, int cls, uint16_t *lat, uint16_t *init)
{
    int i;
    if (cls >= TOC_INT && cls <= TOC_TENSOR) i = cls;
    else if (cls == TOC_BRANCH || cls == TOC_EXIT || cls == TOC_NOP || cls == TOC_BARRIER || cls == TOC_MEMBAR) i = 0;
    else return -1;
    if (c->lat_init[i].n != 2) return -1;
    *lat = (uint16_t)c->lat_init[i].v[0];
    *init = (uint16_t)c->lat_init[i].v[1];
    return 0;
}
