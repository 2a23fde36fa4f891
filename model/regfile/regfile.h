/*
 * The SM register file as addressable storage (Linebacker, issue 18; spec linebacker.md §3.1):
 * physical register numbers RN 0..n_regs-1 of 128-byte warp registers (2048 for a 256 KB file),
 * banked (bank = RN mod banks), CTAs allocated contiguously by CTA slot (FRN = slot * #reg), and an
 * arbiter that serves, per cycle, the operand reads of issued instructions together with the
 * non-operand accesses (victim-line insert/read, register backup/restore), which then queue behind
 * the operand reads of the same bank (bank conflicts).
 *
 * Operand reads keep the baseline rule of the former sm_issue bank model bit for bit: the bank of
 * source register r of a warp whose frame starts at base is (r + base [+ slot]) mod banks, one extra
 * cycle per extra read of the busiest bank; with a single bank there is no delay. With sub-cores
 * (n_groups > 1) the banks are split among the schedulers: slot w's register r is in bank
 * g * (banks / n_groups) + (r + base [+ slot]) mod (banks / n_groups), g = w mod n_groups. A bank
 * serves port_reads reads per cycle: k reads of one bank take ceil(k / port_reads) cycles.
 *
 * Victim-cache register numbers (Eq. 2): RN = base + N * (#sets * #ways) + X * #ways + Y for VP N,
 * set X, way Y (0-based). The document's Offset 511 gives 511..2046 while the text says 512..2047
 * (Gap G1): vc_base selects the variant (512 is the PROPOSAL default, 511 the verbatim Offset).
 */
#ifndef GTLM_REGFILE_H
#define GTLM_REGFILE_H

#include <stdint.h>

#define REGFILE_LINE_BYTES 128u /* one warp register: 32 lanes x 4 bytes = one L1 line */
#define REGFILE_NO_RN UINT32_MAX

typedef struct regfile_config {
    uint32_t n_regs;     /* warp registers (32-bit registers per SM / 32) */
    uint32_t n_banks;    /* -gpgpu_num_reg_banks */
    int bank_use_warp_id; /* -gpgpu_reg_bank_use_warp_id */
    uint32_t port_reads; /* -gpgpu_reg_file_port_throughput: reads one bank serves per cycle (0 = 1) */
    uint32_t n_groups;   /* -gpgpu_sub_core_model: the schedulers, each with n_banks / n_groups banks
                            of its own (warp slot w reads group w mod n_groups); 0 or 1: shared */
    uint32_t n_cta_slots;
    uint32_t vc_base;    /* RN of VP 0, set 0, way 0 (512 PROPOSAL, 511 verbatim Offset) */
    uint32_t vtt_sets;   /* 48 */
    uint32_t vp_ways;    /* ways per VTT partition (4) */
} regfile_config;

typedef struct regfile_stats {
    uint64_t operand_reads;
    uint64_t nonop_reads, nonop_writes;
    uint64_t operand_conflict_cycles; /* extra operand-read cycles (the baseline bank_conflict_cycles) */
    uint64_t nonop_conflict_cycles;   /* cycles non-operand accesses waited behind the same bank */
    uint64_t indirect_reads;          /* mov.indirect's second, serial reads (also in operand_reads) */
    uint64_t indirect_conflict_cycles;/* cycles those waited for their bank beyond the serial delay */
} regfile_stats;

typedef struct regfile {
    regfile_config cfg;
    uint32_t *bank_use;  /* accesses per bank in bank_cycle */
    uint64_t bank_cycle;
    uint32_t cta_nreg;   /* warp registers of one CTA (#reg) in the running kernel */
    uint32_t resident;   /* CTA slots the kernel can use at once */
    uint8_t *cta_alloc;  /* per CTA slot: registers allocated */
    uint8_t *cta_active; /* per CTA slot: allocated and not throttled (its registers hold live values) */
    regfile_stats st;
} regfile;

/* Returns 0, or -1 (nothing allocated) for a bad configuration or no memory. */
int regfile_init(regfile *rf, const regfile_config *cfg);
void regfile_free(regfile *rf);
/* Kernel launch: every CTA slot free, #reg = warp registers per CTA, at most resident_ctas CTAs at
 * once. Returns -1 (state unchanged) if those CTAs do not fit in the file or exceed the slots. */
int regfile_kernel_start(regfile *rf, uint32_t cta_nreg, uint32_t resident_ctas);

/* Eq. 2. Returns REGFILE_NO_RN when (vp, set, way) is out of range or the RN is past the file. */
uint32_t regfile_victim_rn(const regfile_config *cfg, uint32_t vp, uint32_t set, uint32_t way);
/* First register number of VP n (its set 0, way 0), REGFILE_NO_RN past the file. */
uint32_t regfile_vp_first_rn(const regfile_config *cfg, uint32_t vp);

/* Contiguous allocation by slot: FRN(slot) = slot * #reg. */
uint32_t regfile_frn(const regfile *rf, uint32_t cta_slot);
/* Allocates / releases the slot's registers; -1 for a slot out of range or a double allocate/release. */
int regfile_alloc_cta(regfile *rf, uint32_t cta_slot);
int regfile_release_cta(regfile *rf, uint32_t cta_slot);
/* Throttling: an allocated CTA made inactive keeps its range, whose values are backed up (DUR). */
int regfile_set_cta_active(regfile *rf, uint32_t cta_slot, int active);
/* LRN: the largest register number of the active CTAs (0 when none: the CTL's initial value). */
uint32_t regfile_lrn(const regfile *rf);
/* Statically unused registers (SUR): n_regs - resident * #reg, never given to a CTA of this kernel.
 * Dynamically unused (DUR): the registers of allocated but inactive (throttled) CTAs. */
uint32_t regfile_sur(const regfile *rf);
uint32_t regfile_dur(const regfile *rf);

/* Arbiter, operand side: the sources src[0..n) (PTX_NO_REG-like values >= UINT32_MAX skipped by
 * the caller) of a warp in slot with frame base. Returns the extra read cycles of the busiest bank. */
uint32_t regfile_operand_reads(regfile *rf, uint32_t slot, const uint32_t *src, int n, uint32_t base,
                               uint64_t cycle);
/* Arbiter, mov.indirect's second reads (docs/morpheus.md, "The native Indirect-MOV"): after the
 * instruction's first reads (first_cycles collector cycles, 1 + the extra cycles
 * regfile_operand_reads returned) and delay more cycles, the collector reads the indexed registers
 * reg[0..n) one after the other (one per distinct register the lanes index). Each waits for its
 * bank's reads of this cycle: a bank with k reads is busy for ceil(k / port_reads) collector
 * cycles. The reads do not occupy the banks for the instructions issued later (the arbiter keeps
 * one cycle). Returns the cycles the instruction's operands take beyond first_cycles. */
uint32_t regfile_indirect_reads(regfile *rf, uint32_t slot, const uint32_t *reg, int n, uint32_t base,
                                uint32_t first_cycles, uint32_t delay, uint64_t cycle);
/* Arbiter, non-operand side: one 128-byte read or write of register rn in cycle. Returns the cycles
 * it waits behind earlier accesses to its bank in that cycle. */
uint32_t regfile_nonop_access(regfile *rf, uint32_t rn, int is_write, uint64_t cycle);

#endif
