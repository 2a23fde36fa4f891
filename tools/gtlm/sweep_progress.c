/* Progress of a sweep on stderr: points done / total, failures, elapsed and estimated remaining
 * time (elapsed / done x remaining). On a terminal one line is rewritten in place; otherwise
 * (logs, CI, SLURM output) each finished point prints a plain line. */
#define _POSIX_C_SOURCE 200809L
#include <stdio.h>
#include <stdlib.h>
#include <time.h>
#include <unistd.h>

#include "sweep.h"

struct sw_progress {
    int total, done, failed, tty;
    struct timespec start;
    double shown; /* elapsed seconds at the last line */
};

static double seconds_since(const struct timespec *t0)
{
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return (double)(t.tv_sec - t0->tv_sec) + 1e-9 * (double)(t.tv_nsec - t0->tv_nsec);
}

static void show(sw_progress *pr)
{
    double el = seconds_since(&pr->start);
    pr->shown = el;
    char left[32] = "?";
    if (pr->done > 0) snprintf(left, sizeof left, "%.0f s", el / pr->done * (pr->total - pr->done));
    fprintf(stderr, "%sprogress: %d/%d points done, %d failed, %.0f s elapsed, %s left%s", pr->tty ? "\r\033[K" : "",
            pr->done, pr->total, pr->failed, el, left, pr->tty ? "" : "\n");
    fflush(stderr);
}

sw_progress *sw_progress_start(int total)
{
    sw_progress *pr = sw_grow(NULL, sizeof *pr);
    pr->total = total;
    pr->done = pr->failed = 0;
    pr->shown = 0.0;
    pr->tty = isatty(2);
    clock_gettime(CLOCK_MONOTONIC, &pr->start);
    if (total > 0) show(pr);
    return pr;
}

void sw_progress_point(sw_progress *pr, int ok)
{
    pr->done++;
    pr->failed += !ok;
    show(pr);
}

void sw_progress_tick(sw_progress *pr)
{
    if (pr->tty && pr->total > 0 && seconds_since(&pr->start) - pr->shown >= 1.0) show(pr);
}

void sw_progress_end(sw_progress *pr)
{
    if (pr->tty && pr->total > 0) fputc('\n', stderr);
    free(pr);
}
