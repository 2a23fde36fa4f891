/* The progress line of gtlm run (see progress.h). */
#define _POSIX_C_SOURCE 200809L
#include "progress.h"

#include <string.h>
#include <time.h>
#include <unistd.h>

/* Core cycles between two library reports: frequent enough for a smooth line, rare enough to cost
 * nothing next to a core cycle's simulation. */
#define CLI_PROGRESS_EVERY_CYCLES 1000ULL
/* A terminal line is redrawn at most this often (seconds). */
#define CLI_TTY_REFRESH 0.25

static double now_s(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

static double kstat(gtlm_sim *sim, const char *name)
{
    double v = 0;
    return gtlm_stat_get_kernel(sim, name, &v) == GTLM_OK ? v : 0;
}

static void add_row(cli_progress *p, const gtlm_progress *g)
{
    cli_kernel_row *r = NULL;
    for (int i = 0; i < p->n_rows && !r; i++)
        if (strcmp(p->rows[i].name, g->kernel_name) == 0) r = &p->rows[i];
    if (!r) {
        if (p->n_rows == CLI_MAX_KERNEL_ROWS) {
            p->other_launches++;
            return;
        }
        r = &p->rows[p->n_rows++];
        memset(r, 0, sizeof *r);
        snprintf(r->name, sizeof r->name, "%s", g->kernel_name);
    }
    r->launches++;
    r->cycles += (double)g->cycles;
    r->warp_insn += (double)g->warp_insn;
    r->insn += kstat(p->sim, "gpu_sim_insn");
    r->l1_acc += kstat(p->sim, "gpu.l1d.accepted");
    r->l1_miss += kstat(p->sim, "gpu.l1d.misses");
    r->l2_acc += kstat(p->sim, "gpu.l2.accepted");
    r->l2_miss += kstat(p->sim, "gpu.l2.misses");
    r->dram_busy += kstat(p->sim, "gpu.dram.bus_busy_cycles");
    r->dram_cycles += kstat(p->sim, "gpu.dram.cycles");
}

/* "12.3k", "4.56M": the progress line's counts. */
static const char *human(double v, char *buf, size_t n)
{
    const char *unit = "";
    if (v >= 1e9) v /= 1e9, unit = "G";
    else if (v >= 1e6) v /= 1e6, unit = "M";
    else if (v >= 1e4) v /= 1e3, unit = "k";
    snprintf(buf, n, unit[0] ? "%.3g%s" : "%.0f%s", v, unit);
    return buf;
}

static void print_line(cli_progress *p, const gtlm_progress *g, double t)
{
    double elapsed = t - p->t0;
    double dc = (double)(g->total_cycles - p->last_cycles), di = (double)(g->total_warp_insn - p->last_insn);
    double ipc = dc > 0 ? di / dc : 0;
    char kn[48] = "", c[16], w[16], rate[16];
    if (g->n_kernels) snprintf(kn, sizeof kn, " of %llu", g->n_kernels);
    fprintf(p->out, "%sgtlm: kernel %llu%s %.40s: %s cycles, %s warp insn, warp IPC %.2f, %s warp insn/s, %.1f s%s",
            p->tty ? "\r" : "", g->kernel, kn, g->kernel_name, human((double)g->total_cycles, c, sizeof c),
            human((double)g->total_warp_insn, w, sizeof w), ipc,
            human(elapsed > 0 ? (double)g->total_warp_insn / elapsed : 0, rate, sizeof rate), elapsed,
            p->tty ? "\033[K" : "\n");
    fflush(p->out);
    p->line_open = p->tty;
    p->last_print = t;
    p->last_cycles = g->total_cycles;
    p->last_insn = g->total_warp_insn;
    p->lines++;
}

static void on_progress(const gtlm_progress *g, void *payload)
{
    cli_progress *p = payload;
    if (g->kernel_done) add_row(p, g);
    if (!p->show) return;
    if (g->kernel_done && p->tty) {
        /* the workload may print between kernels: leave it a clean line; redraw at the next report */
        if (p->line_open) fprintf(p->out, "\r\033[K");
        fflush(p->out);
        p->line_open = 0;
        p->last_print = 0;
        return;
    }
    double t = now_s();
    double wait = p->tty ? CLI_TTY_REFRESH : p->interval;
    if (t - p->last_print >= wait) print_line(p, g, t);
}

void cli_progress_start(cli_progress *p, gtlm_sim *sim, int show, double interval)
{
    memset(p, 0, sizeof *p);
    p->sim = sim;
    p->out = stderr;
    p->show = show;
    p->tty = isatty(fileno(stderr));
    p->interval = interval;
    p->t0 = p->last_print = now_s();
    gtlm_set_progress_callback(sim, on_progress, p, CLI_PROGRESS_EVERY_CYCLES);
}

void cli_progress_stop(cli_progress *p)
{
    gtlm_set_progress_callback(p->sim, NULL, NULL, 0);
    if (p->line_open) fprintf(p->out, "\r\033[K");
    p->line_open = 0;
    fflush(p->out);
}
