/* The local backend: each pending point as a child `gtlm run` of this very binary. */
#define _POSIX_C_SOURCE 200809L
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/types.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "cli.h"
#include "sweep.h"

/* In the child: output to log.txt, then become `gtlm run` for this point. Never returns. */
static void exec_point(const sw_point *p)
{
    char log[SW_LINE + 16], stats[SW_LINE + 16];
    snprintf(log, sizeof log, "%s/log.txt", p->dir);
    snprintf(stats, sizeof stats, "%s/stats.txt", p->dir);
    int fd = open(log, O_WRONLY | O_CREAT | O_TRUNC, 0666);
    if (fd < 0 || dup2(fd, 1) < 0 || dup2(fd, 2) < 0) _exit(127);
    close(fd);
    const char *argv[2 * SW_MAX_ARGS + 16];
    sw_point_argv(p, "gtlm", NULL, stats, argv);
    /* The running binary, so a sweep never mixes gtlm versions. */
    execv("/proc/self/exe", (char *const *)argv);
    fprintf(stderr, "gtlm: cannot execute /proc/self/exe: %s\n", strerror(errno));
    _exit(127);
}

/* Clears what a previous attempt left, records the arguments, then forks the point's run. */
static pid_t start_point(const sw_point *p)
{
    char path[SW_LINE + 16];
    if (sw_make_dirs(p->dir) != 0) {
        fprintf(stderr, "gtlm: cannot create '%s': %s\n", p->dir, strerror(errno));
        return -1;
    }
    snprintf(path, sizeof path, "%s/stats.txt", p->dir);
    unlink(path);
    snprintf(path, sizeof path, "%s/status", p->dir);
    unlink(path);
    if (sw_write_args(p) != 0) {
        fprintf(stderr, "gtlm: cannot write '%s/args'\n", p->dir);
        return -1;
    }
    fflush(NULL); /* or the child would repeat buffered output */
    pid_t pid = fork();
    if (pid == 0) exec_point(p);
    if (pid < 0) fprintf(stderr, "gtlm: fork failed: %s\n", strerror(errno));
    return pid;
}

static int exit_code(int st)
{
    if (WIFEXITED(st)) return WEXITSTATUS(st);
    return WIFSIGNALED(st) ? 128 + WTERMSIG(st) : 255;
}

void sw_run_local(sw_run *r, int jobs, int verbose)
{
    for (int i = 0; i < r->n; i++) {
        const sw_point *p = &r->pts[i];
        if (verbose && p->ok && sw_point_in_run(r, p)) printf("skipped %s (status ok)\n", p->dir);
    }
    sw_point **todo = sw_grow(NULL, (size_t)(r->n + 1) * sizeof *todo);
    int n = sw_pending(r, todo);
    pid_t *pids = sw_grow(NULL, (size_t)(n + 1) * sizeof *pids);
    sw_progress *pr = sw_progress_start(n);
    int next = 0, running = 0, done = 0;
    for (;;) {
        while (running < jobs && next < n) {
            if ((pids[next] = start_point(todo[next])) > 0) {
                running++;
            } else {
                sw_write_status(todo[next], 255);
                sw_progress_point(pr, 0);
            }
            next++;
        }
        if (running == 0) break;
        int st;
        pid_t pid = waitpid(-1, &st, WNOHANG);
        if (pid == 0) {
            /* none finished yet: let the terminal's line show time passing */
            struct timespec nap = {0, 100 * 1000 * 1000};
            nanosleep(&nap, NULL);
            sw_progress_tick(pr);
            continue;
        }
        if (pid < 0) break;
        for (int i = 0; i < next; i++) {
            if (pids[i] != pid) continue;
            pids[i] = 0;
            running--;
            sw_write_status(todo[i], exit_code(st));
            if (verbose) printf("[%d] %s: %s\n", ++done, todo[i]->dir, todo[i]->status);
            fflush(stdout);
            sw_progress_point(pr, todo[i]->ok);
        }
    }
    sw_progress_end(pr);
    free(pids);
    free(todo);
}
