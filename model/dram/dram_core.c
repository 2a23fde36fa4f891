#include "dram_core.h"

#include <stdlib.h>
#include <string.h>

#include "../common/status.h"

static uint64_t max64(uint64_t a, uint64_t b) { return a > b ? a : b; }
static uint64_t min64(uint64_t a, uint64_t b) { return a < b ? a : b; }

int dram_core_init(dram_core *d, const dram_config *cfg, int n_channels)
{
    memset(d, 0, sizeof *d);
    const gsim_dram_timing *t = &cfg->timing;
    if (t->nbk <= 0 || cfg->burst_length <= 0 || cfg->data_command_ratio <= 0 || cfg->bus_width <= 0 ||
        cfg->chips_per_channel <= 0 || cfg->sched_queue_size < 0)
        return GTLM_ST_ECONFIG;
    d->t = *t;
    if (d->t.nbkgrp <= 0) d->t.nbkgrp = 1;
    d->burst_cycles = (cfg->burst_length + cfg->data_command_ratio - 1) / cfg->data_command_ratio;
    d->burst_bytes = cfg->burst_length * cfg->bus_width * cfg->chips_per_channel;
    d->fifo = cfg->scheduler == 0;
    int rc = dram_addr_map_init(&d->map, cfg->addr_mapping, n_channels, t->nbk, NULL, 0);
    if (rc) return rc;
    d->qcap = cfg->sched_queue_size > 0 ? cfg->sched_queue_size : DRAM_UNLIMITED_QUEUE;
    /* One column command per cycle at most, each finishing within max(CL, WL) + burst cycles. */
    int lat = (t->CL > t->WL ? t->CL : t->WL) + d->burst_cycles;
    d->fly_cap = lat + 2;
    d->banks = calloc((size_t)t->nbk, sizeof *d->banks);
    d->bank_st = calloc((size_t)t->nbk, sizeof *d->bank_st);
    d->group_col_ok = calloc((size_t)d->t.nbkgrp, sizeof *d->group_col_ok);
    d->queue = calloc((size_t)d->qcap, sizeof *d->queue);
    d->fly = calloc((size_t)d->fly_cap, sizeof *d->fly);
    if (!d->banks || !d->bank_st || !d->group_col_ok || !d->queue || !d->fly) {
        dram_core_free(d);
        return GTLM_ST_ENOMEM;
    }
    for (int b = 0; b < t->nbk; b++) d->banks[b].open_row = -1;
    return GTLM_ST_OK;
}

void dram_core_free(dram_core *d)
{
    free(d->banks);
    free(d->bank_st);
    free(d->group_col_ok);
    free(d->queue);
    free(d->fly);
    d->banks = NULL;
    d->bank_st = NULL;
    d->group_col_ok = NULL;
    d->queue = NULL;
    d->fly = NULL;
}

void dram_core_decode(const dram_core *d, uint64_t addr, dram_addr *out) { dram_addr_decode(&d->map, addr, out); }

double dram_peak_bandwidth_gbps(const dram_config *cfg, double dram_mhz)
{
    return dram_mhz * 1e6 * cfg->data_command_ratio * cfg->bus_width * cfg->chips_per_channel / 1e9;
}

static void integrate(dram_core *d, uint64_t cycle)
{
    if (cycle > d->occ_cycle) {
        d->st.queue_occupancy_integral += (uint64_t)d->qn * (cycle - d->occ_cycle);
        d->occ_cycle = cycle;
    }
}

int dram_can_accept(const dram_core *d) { return d->qn < d->qcap; }
int dram_queue_length(const dram_core *d) { return d->qn; }
int dram_idle(const dram_core *d) { return d->qn == 0 && d->fly_n == 0; }

static int memo_after_enqueue(dram_core *d, const dram_slot *s);

int dram_enqueue(dram_core *d, uint64_t cycle, const dram_request *r)
{
    if (!r || r->size == 0 || cycle < d->occ_cycle) return GTLM_ST_EINVAL;
    integrate(d, cycle);
    if (d->qn >= d->qcap) {
        d->st.refused++;
        return DRAM_QUEUE_FULL;
    }
    uint64_t bb = (uint64_t)d->burst_bytes;
    uint64_t bursts = (r->addr + r->size - 1) / bb - r->addr / bb + 1;
    if (bursts > 0xffff) return GTLM_ST_EINVAL;
    dram_addr a;
    dram_addr_decode(&d->map, r->addr, &a);
    dram_slot *s = &d->queue[d->qn++];
    memset(s, 0, sizeof *s);
    s->addr = r->addr;
    s->enqueue_cycle = cycle;
    s->cookie = r->cookie;
    s->row = a.row;
    s->bank = a.bank;
    s->bursts = (uint16_t)bursts;
    s->is_write = r->is_write != 0;
    if (d->sched_known) d->sched_known = memo_after_enqueue(d, s);
    if (s->is_write)
        d->st.writes++;
    else
        d->st.reads++;
    if (r->addr >= d->tag_lo && r->addr < d->tag_hi) {
        if (s->is_write) d->st.tagged_writes++;
        else d->st.tagged_reads++;
    }
    return GTLM_ST_OK;
}

/* The command a queued request needs next, whether the scheduler may issue it at all (FR-FCFS
 * precharges only rows no queued request hits), and the first cycle its constraints allow. */
typedef struct cand {
    dram_cmd cmd;
    uint64_t ready;
} cand;

static int group_of(const dram_core *d, uint32_t bank) { return (int)(bank % (uint32_t)d->t.nbkgrp); }

static int row_has_hit(const dram_core *d, uint32_t bank, int64_t row)
{
    for (int i = 0; i < d->qn; i++)
        if (d->queue[i].bank == bank && (int64_t)d->queue[i].row == row) return 1;
    return 0;
}

/* Banks with a queued row hit, one bit each, gathered by the scheduler's first pass (which visits
 * every row hit when it picks none), so its second pass asks a bit instead of rescanning the queue
 * for every precharge candidate. Banks beyond the bit set take the scan. */
#define DRAM_HIT_WORDS 4
typedef struct hit_banks {
    uint64_t w[DRAM_HIT_WORDS];
} hit_banks;

static int bank_has_hit(const dram_core *d, const hit_banks *h, uint32_t bank)
{
    if (bank < 64u * DRAM_HIT_WORDS) return (int)(h->w[bank >> 6] >> (bank & 63) & 1);
    return row_has_hit(d, bank, d->banks[bank].open_row);
}

/* check_hits: NULL for no check (FIFO, issue), else the banks with a queued row hit. */
static cand next_cmd(const dram_core *d, const dram_slot *s, const hit_banks *check_hits)
{
    const dram_bank *b = &d->banks[s->bank];
    cand c = {DRAM_CMD_NONE, 0};
    if (b->open_row == (int64_t)s->row) {
        uint64_t r = max64(max64(b->col_ok, d->col_any_ok), d->group_col_ok[group_of(d, s->bank)]);
        if (s->is_write) {
            c.cmd = DRAM_CMD_WR;
            if (d->bus_free > (uint64_t)d->t.WL) r = max64(r, d->bus_free - (uint64_t)d->t.WL);
        } else {
            c.cmd = DRAM_CMD_RD;
            r = max64(r, d->rd_after_wr_ok);
            if (d->bus_free > (uint64_t)d->t.CL) r = max64(r, d->bus_free - (uint64_t)d->t.CL);
        }
        c.ready = r;
    } else if (b->open_row < 0) {
        c.cmd = DRAM_CMD_ACT;
        c.ready = max64(b->act_ok, d->act_any_ok);
    } else if (!check_hits || !bank_has_hit(d, check_hits, s->bank)) {
        c.cmd = DRAM_CMD_PRE;
        c.ready = b->pre_ok;
    }
    return c;
}

/* The scheduler's remembered earliest cycle (sched_earliest) after s was appended to the queue:
 * enqueues change no bank or bus state, so every other candidate keeps its ready cycle, and s
 * only adds its own. The one exception is a row hit in a bank that had none: that bank's
 * precharge candidates stop being eligible, so the memo is dropped (returns 0: rescan). */
static int memo_after_enqueue(dram_core *d, const dram_slot *s)
{
    cand c;
    int hit = 0; /* s is a row hit: at equal ready cycles it goes before any other kind */
    if (d->fifo) {
        if (d->qn > 1) return 1; /* only the head counts */
        c = next_cmd(d, s, NULL);
    } else {
        const dram_bank *b = &d->banks[s->bank];
        int bank_hit = 0; /* a request queued before s hits the bank's open row */
        for (int i = 0; i < d->qn - 1 && b->open_row >= 0 && !bank_hit; i++)
            bank_hit = d->queue[i].bank == s->bank && (int64_t)d->queue[i].row == b->open_row;
        if (b->open_row == (int64_t)s->row) {
            if (!bank_hit) return 0;
            c = next_cmd(d, s, NULL); /* a column command */
            hit = 1;
        } else if (b->open_row >= 0 && bank_hit) {
            return 1; /* its bank's open row has hits: no precharge, no candidate */
        } else {
            c = next_cmd(d, s, NULL); /* an activate, or a precharge no hit holds back */
        }
    }
    if (c.cmd == DRAM_CMD_NONE) return 1;
    int me = d->qn - 1;
    if (c.ready < d->sched_earliest) {
        d->sched_earliest = c.ready;
        d->sched_pick = me;
    } else if (c.ready == d->sched_earliest && hit && d->sched_pick >= 0) {
        const dram_slot *p = &d->queue[d->sched_pick];
        if (d->banks[p->bank].open_row != (int64_t)p->row) d->sched_pick = me; /* the first hit at that cycle */
    }
    return 1;
}

/* The oldest eligible request whose next command can issue at cycle (-1: none); *earliest gets
 * the first cycle at which any eligible command could issue (DRAM_NO_WORK: none), and, when
 * nothing is picked, *pick_at gets the request this function would pick at cycle *earliest (the
 * oldest row hit ready then, else the oldest other candidate ready then; -1: none). */
static int schedule(const dram_core *d, uint64_t cycle, uint64_t *earliest, int *pick_at)
{
    uint64_t e = DRAM_NO_WORK;
    int pick = -1, at = -1;
    if (d->fifo) {
        if (d->qn) {
            cand c = next_cmd(d, &d->queue[0], NULL);
            e = c.ready;
            at = 0;
            if (c.ready <= cycle) pick = 0;
        }
    } else {
        /* Pass 0: row hits (column commands), oldest first; pass 1: ACT/PRE, oldest first. The
         * strict minimum keeps each pass's oldest request at its earliest cycle. */
        hit_banks hits = {{0}};
        uint64_t pass_e[2] = {DRAM_NO_WORK, DRAM_NO_WORK};
        int pass_first[2] = {-1, -1};
        for (int pass = 0; pass < 2 && pick < 0; pass++) {
            for (int i = 0; i < d->qn; i++) {
                const dram_slot *s = &d->queue[i];
                int hit = d->banks[s->bank].open_row == (int64_t)s->row;
                if (hit != (pass == 0)) continue;
                if (hit && s->bank < 64u * DRAM_HIT_WORDS) hits.w[s->bank >> 6] |= 1ull << (s->bank & 63);
                cand c = next_cmd(d, s, &hits);
                if (c.cmd == DRAM_CMD_NONE) continue;
                if (c.ready < pass_e[pass]) {
                    pass_e[pass] = c.ready;
                    pass_first[pass] = i;
                }
                if (c.ready <= cycle) {
                    pick = i;
                    break;
                }
            }
        }
        e = min64(pass_e[0], pass_e[1]);
        at = pass_e[0] <= pass_e[1] ? pass_first[0] : pass_first[1];
    }
    *earliest = e;
    *pick_at = pick < 0 ? at : -1;
    return pick;
}

static void issue(dram_core *d, int qi, uint64_t now)
{
    dram_slot *s = &d->queue[qi];
    dram_bank *b = &d->banks[s->bank];
    dram_bank_stats *bs = &d->bank_st[s->bank];
    const gsim_dram_timing *t = &d->t;
    cand c = next_cmd(d, s, NULL);
    d->sched_known = 0;
    d->last_cmd = c.cmd;
    d->last_bank = s->bank;
    d->last_row = c.cmd == DRAM_CMD_PRE ? (uint32_t)b->open_row : s->row;
    switch (c.cmd) {
    case DRAM_CMD_ACT:
        if (!s->classified) d->st.row_misses++;
        s->classified = 1;
        b->open_row = s->row;
        b->col_ok = now + (uint64_t)t->tRCD;
        b->pre_ok = max64(b->pre_ok, now + (uint64_t)t->tRAS);
        b->act_ok = max64(b->act_ok, now + (uint64_t)t->tRC);
        d->act_any_ok = now + (uint64_t)t->tRRD;
        d->st.activates++;
        bs->activates++;
        return;
    case DRAM_CMD_PRE:
        if (!s->classified) d->st.row_conflicts++;
        s->classified = 1;
        b->open_row = -1;
        b->act_ok = max64(b->act_ok, now + (uint64_t)t->tRP);
        d->st.precharges++;
        bs->precharges++;
        return;
    case DRAM_CMD_RD:
    case DRAM_CMD_WR: {
        if (!s->classified) d->st.row_hits++;
        s->classified = 1;
        int ccd_group = t->tCCDL > t->tCCD ? t->tCCDL : t->tCCD;
        d->col_any_ok = now + (uint64_t)t->tCCD;
        d->group_col_ok[group_of(d, s->bank)] = now + (uint64_t)ccd_group;
        uint64_t data_end;
        if (c.cmd == DRAM_CMD_RD) {
            data_end = now + (uint64_t)t->CL + (uint64_t)d->burst_cycles;
            b->pre_ok = max64(b->pre_ok, now + (uint64_t)t->tRTPL);
            d->st.read_bursts++;
            bs->reads++;
        } else {
            data_end = now + (uint64_t)t->WL + (uint64_t)d->burst_cycles;
            b->pre_ok = max64(b->pre_ok, data_end + (uint64_t)t->tWR);
            d->rd_after_wr_ok = max64(d->rd_after_wr_ok, data_end + (uint64_t)t->tCDLR);
            d->st.write_bursts++;
            bs->writes++;
        }
        d->bus_free = data_end;
        d->st.bus_busy_cycles += (uint64_t)d->burst_cycles;
        if (++s->issued < s->bursts) return;
        /* Last burst: the request leaves the queue and waits for its data (data order = issue order). */
        s->done_cycle = data_end;
        d->fly[(d->fly_head + d->fly_n) % d->fly_cap] = *s;
        d->fly_n++;
        memmove(&d->queue[qi], &d->queue[qi + 1], (size_t)(d->qn - qi - 1) * sizeof *d->queue);
        d->qn--;
        return;
    }
    case DRAM_CMD_NONE: return;
    }
}

int dram_tick(dram_core *d, uint64_t cycle, dram_completion *out, int max_out)
{
    if (cycle < d->occ_cycle) return 0;
    integrate(d, cycle);
    int n = 0;
    while (d->fly_n && n < max_out && d->fly[d->fly_head].done_cycle <= cycle) {
        const dram_slot *s = &d->fly[d->fly_head];
        dram_completion *o = &out[n++];
        o->cookie = s->cookie;
        o->addr = s->addr;
        o->is_write = s->is_write;
        o->enqueue_cycle = s->enqueue_cycle;
        o->done_cycle = s->done_cycle;
        d->st.completed++;
        d->st.latency_sum += s->done_cycle - s->enqueue_cycle;
        d->fly_head = (d->fly_head + 1) % d->fly_cap;
        d->fly_n--;
    }
    d->last_cmd = DRAM_CMD_NONE;
    if (d->fly_n == d->fly_cap) return n; /* completions not collected: hold the commands */
    if (d->sched_known && d->sched_earliest > cycle) return n; /* nothing can issue yet */
    int qi;
    if (d->sched_known && d->sched_earliest == cycle && d->sched_pick >= 0) {
        qi = d->sched_pick; /* what a scan at this cycle would pick */
    } else {
        uint64_t e;
        int at;
        qi = schedule(d, cycle, &e, &at);
        if (qi < 0) { /* no pick: e is the minimum over every candidate */
            d->sched_earliest = e;
            d->sched_pick = at;
            d->sched_known = 1;
        }
    }
    if (qi >= 0) issue(d, qi, cycle);
    return n;
}

/* The first cycle at which any queued command could issue (DRAM_NO_WORK: none), remembered until
 * the next enqueue or issue. The memo is not part of the observable state, hence the cast. */
static uint64_t sched_earliest(const dram_core *d)
{
    if (!d->sched_known) {
        dram_core *m = (dram_core *)d;
        /* cycle 0 never picks past the first candidates' minimum; a pick at 0 leaves the pick unknown */
        schedule(d, 0, &m->sched_earliest, &m->sched_pick);
        m->sched_known = 1;
    }
    return d->sched_earliest;
}

uint64_t dram_next_work_cycle(const dram_core *d, uint64_t cycle)
{
    uint64_t e = DRAM_NO_WORK;
    if (d->fly_n < d->fly_cap) e = sched_earliest(d);
    if (d->fly_n) e = e < d->fly[d->fly_head].done_cycle ? e : d->fly[d->fly_head].done_cycle;
    if (e == DRAM_NO_WORK) return e;
    return e > cycle ? e : cycle;
}
