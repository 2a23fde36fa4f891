/*
 * Linebacker CTA Throttling Logic (CTL, spec linebacker.md §3.4-3.5): the IPC monitor (Eq. 1 with
 * the +-10% bounds) and the CTA manager's bookkeeping (Common Info #reg, LRN, BP; Per-CTA Info ACT,
 * C, FRN, BA). The register traffic itself (#reg x 128-byte writes / reads through the 6-entry
 * buffer) is the SM's job; this core says what to do and records it when done.
 * Backups are a stack (LIFO region): BP grows by #reg x 128 per backup, a restore takes the CTA
 * backed up last (BA == BP - #reg x 128) and gives its space back.
 */
#ifndef GTLM_LB_CTL_H
#define GTLM_LB_CTL_H

#include <stdint.h>

#define LB_CTL_MAX_CTAS 32
/* The backup region (the Common Info's initial BP per SM): a constant range below the device heap,
 * 8 MB per SM (32 CTAs x 256 KB at most); the DRAM counts its traffic apart (Fig. 17's overhead). */
#define LB_BACKUP_BASE 0x0000000F00000000ull
#define LB_BACKUP_SM_BYTES 0x800000ull
#define LB_CTL_NONE UINT32_MAX

typedef enum lb_ctl_action { LB_CTL_KEEP = 0, LB_CTL_THROTTLE = 1, LB_CTL_RESTORE = 2 } lb_ctl_action;

typedef struct lb_ctl_cta {
    uint8_t used;   /* the slot holds a CTA (active or throttled) */
    uint8_t act;    /* ACT: schedulable */
    uint8_t c;      /* C: backup completed */
    uint32_t frn;   /* FRN: first register number while its registers are in the file */
    uint64_t ba;    /* BA: backup address */
} lb_ctl_cta;

typedef struct lb_ctl {
    /* IPC monitor */
    double prev_ipc, cur_ipc;
    uint64_t insn;       /* instructions retired in this period */
    uint32_t periods;    /* ended periods since activation */
    double upper, lower; /* +0.10, -0.10 */
    /* Common Info */
    uint32_t nreg;       /* #reg: warp registers of one CTA */
    uint64_t bp, bp0;    /* backup pointer and its initial constant */
    uint32_t lrn;
    uint32_t n_slots;
    lb_ctl_cta cta[LB_CTL_MAX_CTAS];
} lb_ctl;

/* Kernel launch: #reg, resident CTA slots (<= 32), the backup region's base, the bounds. */
int lb_ctl_reset(lb_ctl *t, uint32_t nreg, uint32_t n_slots, uint64_t backup_base, double upper, double lower);
/* A CTA starts in slot k (registers from FRN = k * #reg). */
void lb_ctl_cta_start(lb_ctl *t, uint32_t k);
/* A CTA of slot k completes: the slot is free. */
void lb_ctl_cta_done(lb_ctl *t, uint32_t k);
void lb_ctl_retire(lb_ctl *t, uint64_t insn);
/* End of a period of cycles: IPC_Cur = insn / cycles, Eq. 1 against IPC_Prev (the kernel's first
 * period only records its IPC; the caller ignores the action while the Load Monitor still
 * monitors). Returns the action the bounds ask for, already limited
 * to what is possible (throttle keeps one active CTA; restore needs a throttled one). */
lb_ctl_action lb_ctl_period_end(lb_ctl *t, uint64_t cycles);
uint32_t lb_ctl_n_active(const lb_ctl *t);
/* The CTA to throttle: the active one with the largest slot, or LB_CTL_NONE. ACT is cleared. */
uint32_t lb_ctl_throttle(lb_ctl *t);
/* Backup of slot k finished: BA = BP, BP += #reg x 128, C = 1, LRN recomputed. Returns BA. */
uint64_t lb_ctl_backup_done(lb_ctl *t, uint32_t k);
/* The throttled CTA to restore (LIFO: BA == BP - #reg x 128), or LB_CTL_NONE. */
uint32_t lb_ctl_restore_pick(const lb_ctl *t);
/* Restore of the CTA of slot from into free slot to (to == from when it stays) finished: ACT = 1,
 * C = 0, FRN = to * #reg, BP -= #reg x 128, LRN recomputed. -1 when from is not the LIFO top. */
int lb_ctl_restore_done(lb_ctl *t, uint32_t from, uint32_t to);
/* LRN: largest register number of the active CTAs (0 when none). */
uint32_t lb_ctl_lrn(const lb_ctl *t);
/* VTT partitions usable as victim storage: VP n (registers [base + n * vp_regs, + vp_regs)) is
 * active when its first register is above LRN (or no CTA is active) and it ends inside the file. */
uint32_t lb_ctl_vp_mask(uint32_t lrn, int any_active, uint32_t vc_base, uint32_t vp_regs, uint32_t n_vp, uint32_t n_regs);

#endif
