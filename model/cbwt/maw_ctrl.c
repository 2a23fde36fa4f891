/* The CBWT MAW controller (steps 1-6, semantics in maw_ctrl.h). */
#include "maw_ctrl.h"

#include <math.h>
#include <string.h>

int maw_reset(maw_ctrl *c, const maw_params *p)
{
    if (!p || p->n_max < 1 || p->t_w < 1 || p->t_noc_l > p->t_noc_h || p->t_noc_g < 0 ||
        (unsigned)p->trigger > MAW_TRIGGER_CONGESTION)
        return -1;
    memset(c, 0, sizeof *c);
    c->p = *p;
    c->maw = c->prev_maw = p->n_max;
    return 0;
}

static int in_range(const maw_params *p, double lat) { return lat >= p->t_noc_l && lat <= p->t_noc_h; }

static maw_step move(maw_ctrl *c, int to, maw_dir d, maw_step s)
{
    c->prev_maw = c->maw;
    c->maw = to < 1 ? 1 : to > c->p.n_max ? c->p.n_max : to;
    c->dir = d;
    return s;
}

static maw_step coarse(maw_ctrl *c, const maw_inputs *in)
{
    int contention = in->lls_rate > c->p.t_lls, congestion = in->noc_lat > c->p.t_noc_h;
    if (!(congestion && (contention || c->p.trigger == MAW_TRIGGER_CONGESTION))) {
        if (c->p.coarse_up && in->noc_lat < c->p.t_noc_l && c->maw < c->p.n_max)
            return move(c, c->maw + 1, MAW_DIR_INC, MAW_STEP_3);
        c->dir = MAW_DIR_NONE;
        return MAW_STEP_NONE;
    }
    double ratio = in->m ? (double)in->m_b / (double)in->m : 0.0;
    int nt = (int)lround((1.0 - ratio) * c->p.n_max);
    if (nt < 1) nt = 1;
    c->congestion_only += (uint64_t)!contention;
    if (nt < c->maw) return move(c, nt, MAW_DIR_DEC, MAW_STEP_1);
    return move(c, c->maw - 1, MAW_DIR_DEC, MAW_STEP_1_DEC);
}

static maw_step fine(maw_ctrl *c, const maw_inputs *in)
{
    double lat = in->noc_lat;
    double drop = c->have_prev_lat && c->prev_lat > 0 ? (c->prev_lat - lat) / c->prev_lat : 0.0;
    if (c->dir != MAW_DIR_NONE && c->have_prev_lat && in_range(&c->p, c->prev_lat) && !in_range(&c->p, lat)) {
        int back = c->prev_maw;
        c->prev_maw = c->maw;
        c->maw = back;
        c->dir = MAW_DIR_NONE;
        return MAW_STEP_4;
    }
    if (lat > c->p.t_noc_h || (c->dir == MAW_DIR_DEC && drop > c->p.t_noc_g))
        return move(c, c->maw - 1, MAW_DIR_DEC, MAW_STEP_2);
    if (lat < c->p.t_noc_l) return move(c, c->maw + 1, MAW_DIR_INC, MAW_STEP_3);
    maw_step s = c->dir == MAW_DIR_DEC ? MAW_STEP_5 : MAW_STEP_6;
    c->dir = MAW_DIR_NONE;
    return s;
}

maw_step maw_period(maw_ctrl *c, const maw_inputs *in)
{
    maw_step s = c->maw >= c->p.t_w ? coarse(c, in) : fine(c, in);
    c->prev_lat = in->noc_lat;
    c->have_prev_lat = 1;
    c->periods++;
    c->steps[s]++;
    return s;
}

const char *maw_step_name(maw_step s)
{
    static const char *const names[MAW_STEP_COUNT] = {"none", "1", "1dec", "2", "3", "4", "5", "6"};
    return (unsigned)s < MAW_STEP_COUNT ? names[s] : "?";
}
