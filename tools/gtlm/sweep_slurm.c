/* The SLURM backend: the pending points as one job array (`sbatch --array`), one point per task.
 * Everything a task needs is staged in a shared folder every node sees:
 *   SHARED/bin/gtlm, SHARED/lib/ (this binary and its gtlm and SystemC libraries),
 *   SHARED/configs/<config>.config (the option files), SHARED/job.sh (the array's script),
 *   SHARED/runs/<task>/ (log.txt, stats.txt, status written by the task).
 * squeue is polled until the array has left the queue (sacct needs accounting storage, which a
 * small cluster may lack); then each task's files are copied into its point's folder. A task
 * that left no status (cancelled, node failure, time limit) is recorded as 'failed 255', so a
 * re-run submits exactly the points that are still missing. */
#define _XOPEN_SOURCE 700 /* realpath */
#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "cli.h"
#include "sweep.h"

static int copy_file(const char *src, const char *dst, mode_t mode)
{
    FILE *in = fopen(src, "rb");
    if (!in) return -1;
    char tmp[SW_LINE + 16];
    snprintf(tmp, sizeof tmp, "%s.tmp", dst);
    FILE *out = fopen(tmp, "wb");
    if (!out) {
        fclose(in);
        return -1;
    }
    char buf[1 << 16];
    size_t n;
    int rc = 0;
    while ((n = fread(buf, 1, sizeof buf, in)) > 0)
        if (fwrite(buf, 1, n, out) != n) rc = -1;
    fclose(in);
    if (fclose(out) != 0) rc = -1;
    if (rc == 0 && chmod(tmp, mode) != 0) rc = -1;
    /* rename: a task of an earlier array still reading the old file keeps it */
    if (rc == 0 && rename(tmp, dst) != 0) rc = -1;
    return rc;
}

/* Single-quoted for sh: ' becomes '\''. */
static void sh_quote(FILE *f, const char *s)
{
    fputc('\'', f);
    for (; *s; s++) {
        if (*s == '\'') fputs("'\\''", f);
        else fputc(*s, f);
    }
    fputc('\'', f);
}

/* The binary and the shared libraries it loaded from outside the system (libgtlm, SystemC). */
static int stage_binary(const char *shared)
{
    char path[SW_LINE + 64], line[SW_LINE];
    snprintf(path, sizeof path, "%s/bin/gtlm", shared);
    if (copy_file("/proc/self/exe", path, 0755) != 0) return -1;
    FILE *maps = fopen("/proc/self/maps", "r");
    if (!maps) return -1;
    int rc = 0;
    while (fgets(line, sizeof line, maps)) {
        char *lib = strchr(line, '/');
        if (!lib) continue;
        lib[strcspn(lib, "\n")] = '\0';
        const char *base = strrchr(lib, '/') + 1;
        if (strncmp(base, "libgtlm", 7) != 0 && strncmp(base, "libsystemc", 10) != 0) continue;
        snprintf(path, sizeof path, "%s/lib/%s", shared, base);
        if (copy_file(lib, path, 0755) != 0) rc = -1;
    }
    fclose(maps);
    return rc;
}

static int write_job(const sw_run *r, sw_point **todo, int n, const char *shared)
{
    char path[SW_LINE + 64];
    snprintf(path, sizeof path, "%s/job.sh", shared);
    FILE *f = fopen(path, "w");
    if (!f) return -1;
    fprintf(f, "#!/bin/sh\n# One gtlm point per array task (written by gtlm reproduce --backend slurm).\n");
    fprintf(f, "LD_LIBRARY_PATH=");
    sh_quote(f, shared);
    fprintf(f, "/lib${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}\nexport LD_LIBRARY_PATH\ncase \"$SLURM_ARRAY_TASK_ID\" in\n");
    for (int k = 0; k < n; k++) {
        char exe[SW_LINE + 64], cfg[SW_LINE + 256], stats[SW_LINE + 64];
        snprintf(exe, sizeof exe, "%s/bin/gtlm", shared);
        snprintf(cfg, sizeof cfg, "%s/configs/%s.config", shared, r->spec->configs[todo[k]->c].name);
        snprintf(stats, sizeof stats, "%s/runs/%d/stats.txt", shared, k);
        const char *argv[2 * SW_MAX_ARGS + 16];
        int argc = sw_point_argv(todo[k], exe, cfg, stats, argv);
        fprintf(f, "%d) set --", k);
        for (int i = 0; i < argc; i++) {
            fputc(' ', f);
            sh_quote(f, argv[i]);
        }
        fprintf(f, " ;;\n");
    }
    fprintf(f, "*) exit 2 ;;\nesac\nd=");
    sh_quote(f, shared);
    fprintf(f, "/runs/$SLURM_ARRAY_TASK_ID\n\"$@\" >\"$d/log.txt\" 2>&1\ncode=$?\n"
               "if [ $code -eq 0 ]; then echo ok >\"$d/status\"; else echo \"failed $code\" >\"$d/status\"; fi\n");
    return fclose(f);
}

/* Stages the option files and clears the task folders. */
static int stage_points(const sw_run *r, sw_point **todo, int n, const char *shared)
{
    char path[SW_LINE + 256];
    for (int k = 0; k < n; k++) {
        const sw_config *c = &r->spec->configs[todo[k]->c];
        snprintf(path, sizeof path, "%s/configs/%s.config", shared, c->name);
        if (copy_file(c->args[0], path, 0644) != 0) {
            fprintf(stderr, "gtlm: cannot stage option file '%s' as '%s': %s\n", c->args[0], path, strerror(errno));
            return -1;
        }
        snprintf(path, sizeof path, "%s/runs/%d", shared, k);
        if (sw_make_dirs(path) != 0) return -1;
        static const char *files[] = {"log.txt", "stats.txt", "status"};
        for (int i = 0; i < 3; i++) {
            snprintf(path, sizeof path, "%s/runs/%d/%s", shared, k, files[i]);
            unlink(path);
        }
    }
    return 0;
}

/* Runs a command, returns its first output line (the job id of sbatch --parsable). */
static int first_line(const char *cmd, char *out, size_t n)
{
    FILE *p = popen(cmd, "r");
    if (!p) return -1;
    out[0] = '\0';
    if (!fgets(out, (int)n, p)) out[0] = '\0';
    char rest[256];
    while (fgets(rest, sizeof rest, p)) {
    }
    int st = pclose(p);
    out[strcspn(out, "\r\n;")] = '\0';
    return st;
}

static int task_done(const char *shared, int k)
{
    char path[SW_LINE + 64];
    snprintf(path, sizeof path, "%s/runs/%d/status", shared, k);
    return access(path, F_OK) == 0;
}

/* Polls squeue once a second until the job has left the queue, reporting finished tasks. */
static void wait_job(const char *job, const char *shared, int n)
{
    char cmd[256], line[64];
    snprintf(cmd, sizeof cmd, "squeue -h -j %s -o %%i 2>/dev/null", job);
    char *seen = sw_grow(NULL, (size_t)n);
    memset(seen, 0, (size_t)n);
    sw_progress *pr = sw_progress_start(n);
    for (;;) {
        for (int k = 0; k < n; k++)
            if (!seen[k] && task_done(shared, k)) {
                seen[k] = 1;
                sw_progress_point(pr, 1);
            }
        if (first_line(cmd, line, sizeof line) != 0 || line[0] == '\0') break;
        sleep(1);
        sw_progress_tick(pr);
    }
    /* A shared file system may show a task's last files a little after the job has left the
     * queue: wait up to 10 s for the missing statuses before calling those tasks failed. */
    for (int grace = 0; grace < 10; grace++) {
        int missing = 0;
        for (int k = 0; k < n; k++) missing += !task_done(shared, k);
        if (!missing) break;
        sleep(1);
    }
    sw_progress_end(pr);
    free(seen);
}

/* Copies a task's files into its point's folder and records its status. */
static void collect(sw_point *p, const char *shared, int k, const char *job)
{
    char src[SW_LINE + 64], dst[SW_LINE + 16];
    sw_make_dirs(p->dir);
    sw_write_args(p);
    snprintf(dst, sizeof dst, "%s/stats.txt", p->dir);
    unlink(dst);
    snprintf(src, sizeof src, "%s/runs/%d/stats.txt", shared, k);
    copy_file(src, dst, 0644);
    snprintf(src, sizeof src, "%s/runs/%d/log.txt", shared, k);
    snprintf(dst, sizeof dst, "%s/log.txt", p->dir);
    if (copy_file(src, dst, 0644) != 0) {
        FILE *f = fopen(dst, "w");
        if (f) {
            fprintf(f, "SLURM task %s_%d left no log (see %s/runs/slurm-%s_%d.out)\n", job, k, shared, job, k);
            fclose(f);
        }
    }
    static sw_point task; /* only its folder and status */
    snprintf(task.dir, sizeof task.dir, "%.3900s/runs/%d", shared, k);
    sw_read_status(&task);
    int code = task.ok ? 0 : 255;
    if (!task.ok && strncmp(task.status, "failed ", 7) == 0) code = atoi(task.status + 7);
    sw_write_status(p, code ? code : task.ok ? 0 : 255);
}

int sw_run_slurm(sw_run *r, const char *shared_arg, int verbose)
{
    sw_point **todo = sw_grow(NULL, (size_t)(r->n + 1) * sizeof *todo);
    int n = sw_pending(r, todo);
    if (n == 0) {
        free(todo);
        return CLI_OK;
    }
    char shared[PATH_MAX], sub[PATH_MAX + 16];
    if (sw_make_dirs(shared_arg) != 0 || !realpath(shared_arg, shared)) {
        fprintf(stderr, "gtlm: cannot create the shared folder '%s': %s\n", shared_arg, strerror(errno));
        return CLI_FAIL;
    }
    static const char *dirs[] = {"bin", "lib", "configs", "runs"};
    for (int i = 0; i < 4; i++) {
        snprintf(sub, sizeof sub, "%s/%s", shared, dirs[i]);
        if (sw_make_dirs(sub) != 0) {
            fprintf(stderr, "gtlm: cannot create '%s': %s\n", sub, strerror(errno));
            return CLI_FAIL;
        }
    }
    if (stage_binary(shared) != 0 || stage_points(r, todo, n, shared) != 0 || write_job(r, todo, n, shared) != 0) {
        fprintf(stderr, "gtlm: cannot stage the run in '%s'\n", shared);
        return CLI_FAIL;
    }
    char cmd[2 * PATH_MAX + 256], job[64];
    snprintf(cmd, sizeof cmd,
             "sbatch --parsable --array=0-%d --job-name=gtlm-reproduce --output='%s/runs/slurm-%%A_%%a.out' '%s/job.sh'",
             n - 1, shared, shared);
    fflush(NULL);
    if (first_line(cmd, job, sizeof job) != 0 || job[0] < '0' || job[0] > '9') {
        fprintf(stderr, "gtlm: sbatch failed (is SLURM installed and the cluster up? SLURM_CONF=%s): %s\n",
                getenv("SLURM_CONF") ? getenv("SLURM_CONF") : "(default)", cmd);
        free(todo);
        return CLI_FAIL;
    }
    fprintf(stderr, "gtlm: submitted %d point(s) as SLURM job array %s\n", n, job);
    wait_job(job, shared, n);
    for (int k = 0; k < n; k++) {
        collect(todo[k], shared, k, job);
        if (verbose) printf("[%d] %s: %s\n", k + 1, todo[k]->dir, todo[k]->status);
    }
    free(todo);
    return CLI_OK;
}
