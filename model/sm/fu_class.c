#include "fu_class.h"

#include "../ptx/ptx_ir.h"
#include "sm_config.h"

enum { IDX_ADD = 0, IDX_MAX, IDX_MUL, IDX_MAD, IDX_DIV };

const char *fu_unit_name(int unit)
{
    static const char *const names[FU_N] = {"sp", "sfu", "dp", "int", "mem"};
    return unit >= 0 && unit < FU_N ? names[unit] : "?";
}

static int op_index(int op)
{
    switch (op) {
    case OP_MIN: case OP_MAX: return IDX_MAX;
    case OP_MUL: case OP_MUL24: return IDX_MUL;
    case OP_MAD: case OP_MAD24: case OP_FMA: case OP_SAD: case OP_MADC: return IDX_MAD;
    case OP_DIV: case OP_REM: return IDX_DIV;
    default: return IDX_ADD;
    }
}

static int list_at(const gsim_int_list *l, int i, int dflt)
{
    return i < l->n && l->v[i] > 0 ? l->v[i] : dflt;
}

static fu_timing make(int unit, int lat, int init)
{
    fu_timing t;
    t.unit = (uint8_t)unit;
    t.latency = (uint16_t)(lat < 1 ? 1 : lat > 60000 ? 60000 : lat);
    t.initiation = (uint16_t)(init < 1 ? 1 : init > 60000 ? 60000 : init);
    return t;
}

fu_timing fu_timing_of(const sm_config *c, const ptx_instr *in)
{
    switch (in->op) {
    case OP_LD: case OP_ST: case OP_ATOM: case OP_RED:
        return make(FU_MEM, 1, 1);
    case OP_RCP: case OP_SQRT: case OP_RSQRT: case OP_EX2: case OP_LG2: case OP_SIN: case OP_COS:
    case OP_TANH:
        if (in->type != PT_F64) return make(FU_SFU, c->lat_sfu, c->init_sfu);
        break;
    default: break;
    }
    int idx = op_index(in->op);
    if (in->type == PT_F64) {
        int unit = c->n_dp_units > 0 ? FU_DP : FU_SFU;
        return make(unit, list_at(&c->lat_dp, idx, 8), list_at(&c->init_dp, idx, 8));
    }
    int unit_div = idx == IDX_DIV;
    if (in->type == PT_F32 || in->type == PT_F16) {
        return make(unit_div ? FU_SFU : FU_SP, list_at(&c->lat_fp, idx, 4), list_at(&c->init_fp, idx, 1));
    }
    int unit = unit_div ? FU_SFU : c->n_int_units > 0 ? FU_INT : FU_SP;
    return make(unit, list_at(&c->lat_int, idx, 4), list_at(&c->init_int, idx, 1));
}

int fu_unit_count(const sm_config *c, int unit)
{
    switch (unit) {
    case FU_SP: return c->n_sp_units > 0 ? c->n_sp_units : 1;
    case FU_SFU: return c->n_sfu_units > 0 ? c->n_sfu_units : 1;
    case FU_DP: return c->n_dp_units;
    case FU_INT: return c->n_int_units;
    case FU_MEM: return 1;
    default: return 0;
    }
}
