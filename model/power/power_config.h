/*
 * The energy table of a configuration (-power_* options): energy per event in pJ, leakage per
 * structure in mW, the constant clock power of an active SM and the share of it an idle SM gates,
 * the power modes of each gated block type and the power-management policy.
 * Sources of every default and every config value: docs/power.md.
 */
#ifndef GTLM_POWER_CONFIG_H
#define GTLM_POWER_CONFIG_H

#include "../common/strbuf.h"
#include "../config/opt.h"
#include "policy_slumber.h"
#include "power_mode.h"

/* Events with an energy (pJ each). Warp-level events are per warp instruction or per 128-byte
 * warp register access. */
typedef enum pwr_event {
    PWR_EV_INT = 0,      /* integer-unit warp instruction */
    PWR_EV_FP32,         /* SP (FP32) unit */
    PWR_EV_FP64,         /* DP unit */
    PWR_EV_SFU,          /* special-function unit */
    PWR_EV_LDST,         /* LD/ST unit: address generation and coalescing */
    PWR_EV_FETCH,        /* instruction fetch and decode */
    PWR_EV_SCHED,        /* warp scheduler: one issue */
    PWR_EV_RF_READ,      /* register file read, 128 B */
    PWR_EV_RF_WRITE,     /* register file write, 128 B */
    PWR_EV_OC,           /* operand collector: one source operand routed */
    PWR_EV_L1D_TAG,      /* L1 data cache tag lookup (every access) */
    PWR_EV_L1D_READ,     /* L1D data read (a read hit) */
    PWR_EV_L1D_WRITE,    /* L1D data write (a write access) */
    PWR_EV_L1D_FILL,     /* L1D line fill */
    PWR_EV_L1C_TAG,      /* constant cache tag lookup */
    PWR_EV_L1C_READ,     /* constant cache data read (a hit) */
    PWR_EV_L1C_FILL,     /* constant cache fill */
    PWR_EV_SMEM,         /* shared memory: one bank pass (up to 128 B) */
    PWR_EV_L2_TAG,       /* L2 tag lookup, per slice access */
    PWR_EV_L2_READ,      /* L2 data read (a read hit) */
    PWR_EV_L2_WRITE,     /* L2 data write */
    PWR_EV_L2_FILL,      /* L2 line fill from DRAM */
    PWR_EV_FLIT,         /* one flit across the crossbar */
    PWR_EV_DRAM_ACT,     /* DRAM activate (per channel command) */
    PWR_EV_DRAM_PRE,     /* DRAM precharge */
    PWR_EV_DRAM_RD,      /* DRAM read burst (array and periphery, per request) */
    PWR_EV_DRAM_WR,      /* DRAM write burst */
    PWR_EV_DRAM_REF,     /* DRAM refresh, per channel every -power_dram_refresh_ns */
    PWR_EV_DRAM_IO,      /* DRAM interface, per byte moved */
    PWR_EV_TABLE_BIT,    /* a technique's small table: per bit read, written or compared (APRES' LLT, WGT, PT, DRQ, WQ) */
    PWR_EV_N
} pwr_event;

/* Structures with a leakage power (mW each, per instance). */
typedef enum pwr_leak {
    PWR_LK_SM = 0,       /* per SM, everything but its register file and L1 arrays */
    PWR_LK_RF,           /* per SM register file */
    PWR_LK_L1D,          /* per SM L1 data cache (the constant cache and shared memory in PWR_LK_SM) */
    PWR_LK_L2,           /* per L2 slice */
    PWR_LK_MC,           /* per memory controller (channel) */
    PWR_LK_NOC,          /* the whole interconnect */
    PWR_LK_DRAM,         /* per channel: DRAM background (standby) power */
    PWR_LK_N
} pwr_leak;

/* Block types with power modes. */
typedef enum pwr_gated { PWR_G_L1D = 0, PWR_G_L2, PWR_G_REG, PWR_G_SM, PWR_G_N } pwr_gated;

typedef struct power_config {
    double ev_pj[PWR_EV_N];
    double leak_mw[PWR_LK_N];
    double sm_clock_mw;        /* clock tree and pipeline registers of an SM while a CTA is resident */
    double idle_sm_gating;     /* fraction of sm_clock_mw an SM without a CTA saves (clock gating) */
    double dram_refresh_ns;    /* refresh interval of a channel */
    pm_table modes[PWR_G_N];   /* power modes per gated block type */
    int lines_per_block[2];    /* L1D, L2: cache lines per power block (0: the whole cache, a bank) */
    int sector_blocks[2];      /* L1D, L2: a sectored cache gated per line has a block per 32-byte sector */
    char *policy;              /* power-management policy: always_on, off_when_unused */
    int snooze_resq;           /* -snooze_resq_entries: Snooze's reservation queue per L1 / L2 bank (0: unbounded) */
    slumber_config slumber;    /* -slumber_*, -wrf_* (register-file policies) */
    int rtl_power;             /* -rtl_power: the Verilated Snooze controller decides (tlm/rtl, issue 24) */
    char *rtl_record_power;    /* -rtl_record_power: file recording SM 0's L1D controller, "" = none */
} power_config;

/* Names: "int", "rf_read", ... (option -power_<name>_pj, statistic suffixes). */
const char *pwr_event_name(int ev);
const char *pwr_leak_name(int lk);
const char *pwr_gated_name(int g); /* "l1d", "l2", "reg", "sm" */

int power_options_register(opt_registry *r, power_config *c, strbuf *e);
int slumber_options_register(opt_registry *r, slumber_config *c, strbuf *e);
int power_config_check(const opt_registry *r, const power_config *c, strbuf *e);

/* The power-mode option type: "shallow=F:W:B,sleep=F:W:B,off=F:W:B" (leakage fraction, wake
 * cycles, break-even cycles per low-power mode). */
extern const opt_custom_type pwr_opt_modes;

#endif
