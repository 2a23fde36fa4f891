/* gtlm run: the progress line on stderr and the per-kernel rows of the run summary, both fed by
 * the library's progress callback (gtlm_set_progress_callback). Host wall time decides only when
 * a line is printed, never what is simulated. */
#ifndef GTLM_CLI_PROGRESS_H
#define GTLM_CLI_PROGRESS_H

#include <stdio.h>

#include <gtlm/gtlm.h>

/* One kernel name's launches, summed (its rows in the summary). */
typedef struct cli_kernel_row {
    char name[96];
    unsigned long long launches;
    double cycles, insn, warp_insn, l1_acc, l1_miss, l2_acc, l2_miss, dram_busy, dram_cycles;
} cli_kernel_row;

#define CLI_MAX_KERNEL_ROWS 64

typedef struct cli_progress {
    gtlm_sim *sim;
    FILE *out;          /* stderr */
    int show;           /* 0 with --quiet */
    int tty;            /* one updating line instead of periodic lines */
    double interval;    /* seconds between lines when not a terminal */
    double t0, last_print, last_cycles_t; /* host times (s) */
    unsigned long long last_cycles, last_insn; /* totals at the last printed line: the current IPC */
    int line_open;      /* a terminal line waits to be cleared */
    unsigned long long lines;
    cli_kernel_row rows[CLI_MAX_KERNEL_ROWS];
    int n_rows;
    unsigned long long other_launches; /* launches of kernels beyond the row limit */
} cli_progress;

/* Starts reporting on sim: show 0 only collects the kernel rows. interval <= 0 prints a line at
 * every report (every_cycles core cycles). */
void cli_progress_start(cli_progress *p, gtlm_sim *sim, int show, double interval);
/* Stops the reports and clears a terminal line. */
void cli_progress_stop(cli_progress *p);
/* Prints the per-kernel rows and the run's GPU-level summary to f. */
void cli_print_summary(const cli_progress *p, gtlm_sim *sim, FILE *f);

#endif
