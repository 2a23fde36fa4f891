/*
 * One DRAM channel: the memory controller's request queue and scheduler, the banks with their
 * row buffers, GDDR command timing and the data bus. Cycle-driven in the DRAM command clock.
 *
 * Use: dram_core_init(), then per command cycle c (non-decreasing):
 *   dram_enqueue(d, c, &req)   accept a request (DRAM_QUEUE_FULL when the queue is full)
 *   dram_tick(d, c, out, n)    return requests whose data finished by c, then issue <= 1 command
 *   dram_next_work_cycle(d, c) first cycle >= c at which dram_tick would do anything
 *                              (UINT64_MAX when idle): the wrapper skips the cycles in between.
 *
 * Requests: a read or write of size bytes at a physical address; the request is split into
 * ceil-aligned bursts of bus_width * chips_per_channel * burst_length bytes (64 B on GDDR5 x2 x32:
 * a 32 B sector is one burst, a 128 B line two). Every burst is one column command (RD/WR) to
 * the row and bank of the request's first byte (lines never cross a row in the shipped mappings).
 * A read completes when its last burst's data has crossed the bus (RD + CL + burst cycles), a
 * write when its last burst's data has been written (WR + WL + burst cycles).
 *
 * Timing (command-clock cycles, -gpgpu_dram_timing_opt):
 *   ACT->RD/WR same bank RCD; ACT->PRE same bank RAS; PRE->ACT same bank RP; ACT->ACT same bank
 *   RC; ACT->ACT any bank RRD; RD/WR->RD/WR any bank CCD, same bank group max(CCD, CCDL);
 *   RD->PRE RTPL; end of write data->PRE WR; end of write data->RD CDLR (write-to-read
 *   turnaround); read data and write data share one bus: a command is issued only if its data
 *   (CL resp. WL after it, burst_length / data_command_ratio cycles long) starts after the bus
 *   is free (this is the read-to-write turnaround). Bank group of bank b: b % nbkgrp.
 * Scheduling (-gpgpu_dram_scheduler):
 *   1 FR-FCFS: the oldest request whose row is open and whose column command can issue now;
 *     else the oldest request whose ACT (closed bank) or PRE (bank open at another row that no
 *     queued request hits) can issue now.
 *   0 FIFO: only the oldest request; its next command issues when ready.
 *   A queue slot is held from enqueue until the request's last column command.
 * Not modelled here (wrapper's job): -dram_latency (core-cycle pipeline delay),
 * -gpgpu_dram_return_queue_size (back-pressure toward L2), refresh, write-drain watermarks.
 */
#ifndef GTLM_DRAM_CORE_H
#define GTLM_DRAM_CORE_H

#include <stdint.h>

#include "dram_addr.h"
#include "dram_config.h"

#define DRAM_UNLIMITED_QUEUE 1024 /* queue slots when -gpgpu_frfcfs_dram_sched_queue_size is 0 */
#define DRAM_NO_WORK UINT64_MAX
#define DRAM_QUEUE_FULL 1 /* dram_enqueue: back-pressure, not an error */

typedef enum { DRAM_CMD_NONE = 0, DRAM_CMD_ACT, DRAM_CMD_PRE, DRAM_CMD_RD, DRAM_CMD_WR } dram_cmd;

typedef struct dram_request {
    uint64_t addr;
    uint32_t size; /* bytes, > 0 */
    int is_write;
    void *cookie;  /* returned untouched on completion */
} dram_request;

typedef struct dram_completion {
    void *cookie;
    uint64_t addr;
    int is_write;
    uint64_t enqueue_cycle, done_cycle;
} dram_completion;

typedef struct dram_stats {
    uint64_t reads, writes;            /* requests accepted */
    uint64_t read_bursts, write_bursts; /* RD and WR commands */
    uint64_t activates, precharges;
    uint64_t row_hits;      /* first command of the request was a column command */
    uint64_t row_misses;    /* ... an ACT to a closed bank */
    uint64_t row_conflicts; /* ... a PRE of another row */
    uint64_t bus_busy_cycles;          /* data-bus cycles carrying data */
    uint64_t queue_occupancy_integral; /* sum over cycles of queued requests */
    uint64_t refused;                  /* enqueues refused (queue full) */
    uint64_t completed;
    uint64_t latency_sum;              /* sum of done - enqueue cycles */
    uint64_t tagged_reads, tagged_writes; /* requests inside [tag_lo, tag_hi) (Linebacker's backup region) */
} dram_stats;

typedef struct dram_bank_stats {
    uint64_t activates, precharges, reads, writes; /* reads/writes: bursts */
} dram_bank_stats;

/* Internal state, exposed so the struct can live by value in a wrapper. */
typedef struct dram_bank {
    int64_t open_row; /* -1: closed */
    uint64_t act_ok, col_ok, pre_ok;
} dram_bank;

typedef struct dram_slot {
    uint64_t addr, enqueue_cycle, done_cycle;
    void *cookie;
    uint32_t row, bank;
    uint16_t bursts, issued;
    uint8_t is_write, classified;
} dram_slot;

typedef struct dram_core {
    /* configuration, in command cycles */
    gsim_dram_timing t;
    int burst_cycles, burst_bytes, fifo;
    dram_addr_map map;
    /* state */
    dram_bank *banks;
    uint64_t *group_col_ok;
    uint64_t act_any_ok, col_any_ok, rd_after_wr_ok, bus_free;
    dram_slot *queue; /* age order */
    int qn, qcap;
    dram_slot *fly;   /* ring of requests whose commands are all issued, in data order */
    int fly_head, fly_n, fly_cap;
    uint64_t occ_cycle; /* occupancy integrated up to this cycle */
    /* The scheduler's answer depends only on the state above, which changes only at enqueue and
     * issue: while sched_known, no queued command can issue before sched_earliest (DRAM_NO_WORK:
     * none can), so ticks and next-work questions before it need no scan. An issue drops the
     * memo; an enqueue updates it with the new request's own candidate when that is exact. */
    uint64_t sched_earliest;
    int sched_known;
    int sched_pick; /* with sched_known: the request the scheduler picks at cycle sched_earliest (-1: not known) */
    dram_cmd last_cmd;  /* command issued by the last dram_tick (DRAM_CMD_NONE if none), */
    uint32_t last_bank, last_row; /* ... to this bank and row (for traces and tests) */
    /* statistics */
    dram_stats st;
    uint64_t tag_lo, tag_hi; /* an address range whose requests are also counted apart (empty: equal) */
    dram_bank_stats *bank_st; /* nbk entries */
} dram_core;

/* n_channels: -gpgpu_n_mem (for the address mapping). Returns GTLM_ST_OK, GTLM_ST_ECONFIG or
 * GTLM_ST_ENOMEM; the core keeps no pointer into cfg. */
int dram_core_init(dram_core *d, const dram_config *cfg, int n_channels);
void dram_core_free(dram_core *d);

/* GTLM_ST_OK; DRAM_QUEUE_FULL (> 0) when the queue is full: retry later; GTLM_ST_EINVAL for size 0
 * or a cycle earlier than the last one seen. */
int dram_enqueue(dram_core *d, uint64_t cycle, const dram_request *r);
int dram_can_accept(const dram_core *d);
/* Writes up to max_out completions (done_cycle <= cycle) to out and returns their count, then
 * issues at most one command at cycle. Completions beyond max_out stay for the next call; while
 * uncollected completions fill the in-flight ring no command issues. A cycle earlier than the last
 * one seen does nothing. */
int dram_tick(dram_core *d, uint64_t cycle, dram_completion *out, int max_out);
uint64_t dram_next_work_cycle(const dram_core *d, uint64_t cycle);
int dram_idle(const dram_core *d);
int dram_queue_length(const dram_core *d);

/* Decodes addr with this channel's mapping. */
void dram_core_decode(const dram_core *d, uint64_t addr, dram_addr *out);

/* Peak data bandwidth of one channel in GB/s (1e9 B/s): dram_mhz * 1e6 command cycles/s *
 * data_command_ratio beats * bus_width * chips_per_channel bytes. */
double dram_peak_bandwidth_gbps(const dram_config *cfg, double dram_mhz);

#endif
