/* session: a run's profile, from the profiler's start to the result's
 * summary (session.h). */
#include "profile/session.h"

#include <errno.h>
#include <math.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "model/server_cpu.h"
#include "profile/child.h"

/* Too many stacks cut short or unsymbolised above these shares gets the
 * report's note. */
#define TRUNCATED_NOTE_SHARE 0.2
#define UNKNOWN_NOTE_SHARE 0.1

int profile_check(const struct profile_opts *o, char *err)
{
    if (!o->on)
        return 0;
    if (o->cmd[0] && !strstr(o->cmd, "{out}")) {
        snprintf(err, ERR_LEN, "--profiler: '%.60s' has no {out}: where it writes its folded "
                 "stacks (also {pid}, {seconds})", o->cmd);
        return -1;
    }
    if (o->out_dir[0] && mkdir(o->out_dir, 0777) != 0 && errno != EEXIST) {
        snprintf(err, ERR_LEN, "--profile-out: %.160s: %s", o->out_dir, strerror(errno));
        return -1;
    }
    return o->cmd[0] ? 0 : perf_check(err);
}

int profile_begin(struct profile_session *s, const struct profile_opts *o, const pid_t *pids,
                  size_t n, int simulator, char *err)
{
    memset(s, 0, sizeof *s);
    s->o = o;
    s->npids = n < PERF_MAX_PIDS ? n : PERF_MAX_PIDS;
    memcpy(s->pids, pids, s->npids * sizeof *pids);
    snprintf(s->tmp, sizeof s->tmp, "/tmp/rpcbench-profile-XXXXXX");
    if (!mkdtemp(s->tmp)) {
        snprintf(err, ERR_LEN, "--profile: mkdtemp: %s", strerror(errno));
        s->tmp[0] = '\0';
        return -1;
    }
    snprintf(s->cmd_out, sizeof s->cmd_out, "%s/profiler.folded", s->tmp);
    int dwarf = o->call_graph == PROFILE_CG_DWARF || (o->call_graph == PROFILE_CG_AUTO && simulator);
    int hz = o->hz > 0 ? o->hz : PERF_DEFAULT_HZ;
    if (o->cmd[0] || perf_start(&s->perf, s->tmp, s->pids, s->npids, hz, dwarf, err) == 0)
        return 0;
    profile_free(s);
    return -1;
}

/* Appends src to out (len bytes) with {pid}, {seconds} and {out} replaced. */
static void expand(const struct profile_session *s, int64_t seconds, char *out, size_t len)
{
    char pids[PERF_MAX_PIDS * 12] = "", secs[24];
    for (size_t i = 0; i < s->npids; i++)
        snprintf(pids + strlen(pids), sizeof pids - strlen(pids), "%s%d", i ? "," : "",
                 (int)s->pids[i]);
    snprintf(secs, sizeof secs, "%lld", (long long)seconds);
    size_t k = 0;
    for (const char *p = s->o->cmd; *p && k + 1 < len;) {
        const char *v = !strncmp(p, "{pid}", 5) ? pids : !strncmp(p, "{seconds}", 9) ? secs
                        : !strncmp(p, "{out}", 5) ? s->cmd_out : NULL;
        if (v) {
            k += (size_t)snprintf(out + k, len - k, "%s", v);
            k = k < len ? k : len - 1;
            p += strcspn(p, "}") + 1;
        } else {
            out[k++] = *p++;
        }
    }
    out[k] = '\0';
}

/* The window opens: a --profiler starts, told the window's length. */
static void start_command(struct profile_session *s, int64_t from_ns, int64_t to_ns)
{
    char cmd[2048], log[128];
    int64_t secs = (to_ns - from_ns + 999999999) / 1000000000;
    expand(s, secs > 0 ? secs : 1, cmd, sizeof cmd);
    snprintf(log, sizeof log, "%s/profiler.log", s->tmp);
    const char *argv[] = {"/bin/sh", "-c", cmd, NULL};
    s->cmd_pid = child_start(argv, log, 1, s->err);
    if (s->cmd_pid < 0) {
        s->cmd_pid = 0;
        s->failed = 1;
    }
}

void profile_window(void *ctx, int end, int64_t from_ns, int64_t to_ns)
{
    struct profile_session *s = ctx;
    if (!end) {
        if (s->o->cmd[0] && !s->cmd_pid && !s->failed)
            start_command(s, from_ns, to_ns);
        return;
    }
    s->from_ns = from_ns;
    s->to_ns = to_ns > from_ns ? to_ns : from_ns;
    if (s->cmd_pid > 0 && s->to_ns == s->from_ns)
        kill(-s->cmd_pid, SIGINT); /* no window: nothing to wait for */
}

/* A --profiler had {seconds} to finish: it gets 10 s more to write its
 * file, then SIGINT, then SIGKILL. @return 0, or -1 with err. */
static int stop_command(struct profile_session *s, char *err)
{
    const struct timespec tick = {0, 20 * 1000 * 1000};
    for (int i = 0; i < 500 && !child_exited(s->cmd_pid); i++)
        nanosleep(&tick, NULL);
    int code = child_stop(s->cmd_pid, child_exited(s->cmd_pid) ? 0 : SIGINT, 5000,
                          &s->cmd_cpu_ms);
    s->cmd_pid = 0;
    if (code != 0 && code != 128 + SIGINT) {
        snprintf(err, ERR_LEN, "--profiler: '%.80s' failed (status %d)", s->o->cmd, code);
        return -1;
    }
    return 0;
}

/* The window's stacks into s->fold, from perf or the --profiler's file.
 * *cpu_ms gets the profiler's own CPU, *outside the samples left out. */
static int collect(struct profile_session *s, double *cpu_ms, int64_t *outside, char *err)
{
    *outside = 0;
    if (!(s->fold = fold_new())) {
        snprintf(err, ERR_LEN, "--profile: out of memory");
        return -1;
    }
    if (s->o->cmd[0]) {
        if (s->failed || !s->cmd_pid) {
            snprintf(err, ERR_LEN, "--profiler never started: %.200s",
                     s->failed ? s->err : "the run had no measured window");
            return -1;
        }
        int rc = stop_command(s, err);
        *cpu_ms = s->cmd_cpu_ms;
        return rc || fold_read(s->fold, s->cmd_out, err) ? -1 : 0;
    }
    if (perf_stop(&s->perf, cpu_ms, err))
        return -1;
    if (!s->to_ns) {
        snprintf(err, ERR_LEN, "--profile: the run had no measured window");
        return -1;
    }
    return perf_fold(&s->perf, s->from_ns, s->to_ns, s->fold, outside, err);
}

/* Under this many samples in the window a function's share is known to
 * +-10 % of the whole or worse (a share of 1/4 from 100 samples: +-0.04
 * absolute, one standard error), and the report says so. */
#define FEW_SAMPLES 100

/* The caveats of perf's stacks, with the likely fix. */
static void note(const struct fold *f, struct profile_summary *p)
{
    int64_t n = fold_samples(f);
    double cut = n ? (double)fold_truncated(f) / (double)n : 0;
    double unk = n ? (double)fold_unsymbolised(f) / (double)n : 0;
    p->note[0] = '\0';
    if (n < FEW_SAMPLES)
        snprintf(p->note, sizeof p->note, "only %lld samples: the shares are rough; a longer "
                 "-d, or a higher --profile-freq (costlier to the server), gives more%s",
                 (long long)n, cut > TRUNCATED_NOTE_SHARE || unk > UNKNOWN_NOTE_SHARE ? "; " : "");
    if (cut > TRUNCATED_NOTE_SHARE)
        snprintf(p->note + strlen(p->note), sizeof p->note - strlen(p->note),
                 "%.0f%% of the stacks stop short of main or a "
                 "thread's start: build the server with -fno-omit-frame-pointer (or use "
                 "--profile-call-graph dwarf); totals are then low%s", 100 * cut,
                 unk > UNKNOWN_NOTE_SHARE ? "; " : "");
    if (unk > UNKNOWN_NOTE_SHARE)
        snprintf(p->note + strlen(p->note), sizeof p->note - strlen(p->note),
                 "%.0f%% of the samples have frames without symbols: install the server's "
                 "debug symbols (-dbgsym packages) or do not strip it", 100 * unk);
}

int profile_end(struct profile_session *s, struct run_result *res, const char *name, char *err)
{
    struct profile_summary *p = &res->profile;
    double cpu_ms = FIG_UNKNOWN;
    int64_t outside = 0;
    if (collect(s, &cpu_ms, &outside, err))
        return -1;
    struct cpu_per_call cpc;
    result_cpu_per_call(res, &cpc);
    memset(p, 0, sizeof *p);
    p->taken = 1;
    if (s->o->cmd[0])
        snprintf(p->profiler, sizeof p->profiler, "command: %.50s", s->o->cmd);
    else
        snprintf(p->profiler, sizeof p->profiler, "perf cpu-clock %d Hz, call graphs %s",
                 s->perf.hz, s->perf.dwarf ? "dwarf" : "fp");
    p->samples = fold_samples(s->fold);
    p->outside = outside;
    p->window_s = (double)(s->to_ns - s->from_ns) / 1e9;
    p->rate_hz = p->window_s > 0 ? (double)p->samples / p->window_s : NAN;
    p->profiler_cpu_ms = cpu_ms;
    p->cpu_ms_per_call = cpc.raw;
    p->saturated = (result_limits(res) & RESULT_SATURATED) != 0;
    if (!s->o->cmd[0])
        note(s->fold, p);
    if (fold_summarise(s->fold, cpc.raw, s->o->top, p) ||
        fold_summarise_modules(s->fold, cpc.raw, p) ||
        fold_flame(s->fold, PROFILE_FLAME_MIN_SHARE, p)) {
        snprintf(err, ERR_LEN, "--profile: out of memory");
        return -1;
    }
    if (!s->o->out_dir[0])
        return 0;
    char path[700];
    snprintf(path, sizeof path, "%s/%s.folded", s->o->out_dir, name);
    return fold_write(s->fold, path, err);
}

/* Removes the files of our temporary directory, then it. */
static void remove_tmp(const char *dir)
{
    static const char *const names[] = {"perf.data", "perf.data.old", "perf.log", "perf.ctl",
                                        "perf.ack", "profiler.folded", "profiler.log"};
    char path[128];
    for (size_t i = 0; i < sizeof names / sizeof *names; i++) {
        snprintf(path, sizeof path, "%s/%s", dir, names[i]);
        unlink(path);
    }
    rmdir(dir);
}

void profile_free(struct profile_session *s)
{
    if (s->perf.pid > 0)
        child_stop(s->perf.pid, SIGINT, 10000, NULL);
    s->perf.pid = 0;
    if (s->cmd_pid > 0)
        child_stop(s->cmd_pid, SIGINT, 5000, NULL);
    s->cmd_pid = 0;
    if (s->tmp[0])
        remove_tmp(s->tmp);
    s->tmp[0] = '\0';
    fold_free(s->fold);
    s->fold = NULL;
}
