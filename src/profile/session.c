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
#include "base/child.h"

/* Too many stacks cut short or unsymbolised above these shares gets the
 * report's note. */
#define TRUNCATED_NOTE_SHARE 0.2
#define UNKNOWN_NOTE_SHARE 0.1

int profile_check(const struct profile_opts *o, int server, char *err)
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
    if (o->cmd[0] || o->mode == PROFILE_MODE_PYTHON ||
        (o->mode == PROFILE_MODE_AUTO && server))
        return 0; /* no perf, or not yet known whether perf: profile_begin */
    return perf_check(err);
}

/* --profile-mode python, or auto on a CPython server: the Python sampler
 * starts. @return 1 started, 0 perf's to sample, -1 with err. */
static int begin_python(struct profile_session *s, int simulator, int hz, char *err)
{
    int mode = s->o->mode;
    int python = !simulator && pysample_is_python(s->pids[0]);
    if (mode == PROFILE_MODE_PERF || (mode == PROFILE_MODE_AUTO && !python)) {
        s->interpreter = python;
        return mode == PROFILE_MODE_AUTO ? perf_check(err) : 0;
    }
    char path[128];
    snprintf(path, sizeof path, "%s/pysample.rec", s->tmp);
    s->py = pysample_start(s->pids, s->npids, hz, path, s->py_version, err);
    return s->py ? 1 : -1;
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
    int py = o->cmd[0] ? 0 : begin_python(s, simulator, hz, err);
    if (py == 1 || (py == 0 && (o->cmd[0] || perf_start(&s->perf, s->tmp, s->pids, s->npids,
                                                         hz, dwarf, err) == 0)))
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
    struct child_spec c = {.argv = argv, .log = log, .flags = CHILD_GROUP};
    s->cmd_pid = child_spawn(&c, NULL, s->err);
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

/* The window's stacks into s->fold, from perf, the Python sampler or the
 * --profiler's file. *cpu_ms gets the profiler's own CPU, *samples the
 * samples taken in the window (the Python sampler's stacks are weighted
 * by CPU ns, not counted), *outside those left out. */
static int collect(struct profile_session *s, double *cpu_ms, int64_t *samples,
                   int64_t *outside, char *err)
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
        rc = rc || fold_read(s->fold, s->cmd_out, err) ? -1 : 0;
        *samples = fold_samples(s->fold);
        return rc;
    }
    if (s->py ? pysample_stop(s->py, cpu_ms, err) : perf_stop(&s->perf, cpu_ms, err))
        return -1;
    if (!s->to_ns) {
        snprintf(err, ERR_LEN, "--profile: the run had no measured window");
        return -1;
    }
    if (s->py) {
        struct pysample_window w;
        if (pysample_fold(s->py, s->from_ns, s->to_ns, s->fold, &w, err))
            return -1;
        *samples = w.samples;
        *outside = w.outside;
        *cpu_ms = w.own_cpu_ms >= 0 ? w.own_cpu_ms : *cpu_ms; /* the window's, as the run's CPU */
        return 0;
    }
    if (perf_fold(&s->perf, s->from_ns, s->to_ns, s->fold, outside, err))
        return -1;
    *samples = fold_samples(s->fold);
    return 0;
}

/* Under this many samples in the window a function's share is known to
 * +-10 % of the whole or worse (a share of 1/4 from 100 samples: +-0.04
 * absolute, one standard error), and the report says so. */
#define FEW_SAMPLES 100

/* The caveats of the stacks, with the likely fix: perf's cut short or
 * without symbols, or of an interpreter whose Python frames it cannot
 * see; n samples in the window (the Python sampler's: its own caveats
 * are not perf's). */
static void note(const struct profile_session *s, int64_t n, struct profile_summary *p)
{
    const struct fold *f = s->fold;
    int64_t w = fold_samples(f);
    /* frame pointers and -dbgsym packages are perf's cures for C code, not
     * for an interpreter's stacks: its note says what is */
    int perf_advice = w && !s->py && !s->interpreter;
    double cut = perf_advice ? (double)fold_truncated(f) / (double)w : 0;
    double unk = perf_advice ? (double)fold_unsymbolised(f) / (double)w : 0;
    p->note[0] = '\0';
    if (s->interpreter)
        snprintf(p->note, sizeof p->note, "the server runs CPython: perf sees the "
                 "interpreter's C functions; its Python frames are not visible: use "
                 "--profile-mode python%s", n < FEW_SAMPLES || cut > TRUNCATED_NOTE_SHARE ||
                 unk > UNKNOWN_NOTE_SHARE ? "; " : "");
    if (n < FEW_SAMPLES)
        snprintf(p->note + strlen(p->note), sizeof p->note - strlen(p->note),
                 "only %lld samples: the shares are rough; a longer "
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

/* What sampled, into p->profiler and p->sampler. */
static void describe(const struct profile_session *s, struct profile_summary *p)
{
    int hz = s->o->hz > 0 ? s->o->hz : PERF_DEFAULT_HZ;
    if (s->o->cmd[0]) {
        snprintf(p->sampler, sizeof p->sampler, "command");
        snprintf(p->profiler, sizeof p->profiler, "command: %.50s", s->o->cmd);
    } else if (s->py) {
        snprintf(p->sampler, sizeof p->sampler, "python");
        snprintf(p->profiler, sizeof p->profiler, "python sampler, CPython %.8s, %d Hz, CPU",
                 s->py_version, hz);
    } else {
        snprintf(p->sampler, sizeof p->sampler, "perf");
        snprintf(p->profiler, sizeof p->profiler, "perf cpu-clock %d Hz, call graphs %s",
                 s->perf.hz, s->perf.dwarf ? "dwarf" : "fp");
    }
}

int profile_end(struct profile_session *s, struct run_result *res, const char *name, char *err)
{
    struct profile_summary *p = &res->profile;
    double cpu_ms = FIG_UNKNOWN;
    int64_t outside = 0, samples = 0;
    if (collect(s, &cpu_ms, &samples, &outside, err))
        return -1;
    struct cpu_per_call cpc;
    result_cpu_per_call(res, &cpc);
    memset(p, 0, sizeof *p);
    p->taken = 1;
    describe(s, p);
    p->samples = samples;
    p->profiled_cpu_ms = s->py ? (double)fold_samples(s->fold) / 1e6 : FIG_UNKNOWN;
    p->outside = outside;
    p->window_s = (double)(s->to_ns - s->from_ns) / 1e9;
    p->rate_hz = p->window_s > 0 ? (double)p->samples / p->window_s : NAN;
    p->profiler_cpu_ms = cpu_ms;
    p->cpu_ms_per_call = cpc.raw;
    p->saturated = (result_limits(res) & RESULT_SATURATED) != 0;
    if (!s->o->cmd[0])
        note(s, samples, p);
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
                                        "perf.ack", "profiler.folded", "profiler.log",
                                        "pysample.rec"};
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
    pysample_free(s->py);
    s->py = NULL;
    if (s->tmp[0])
        remove_tmp(s->tmp);
    s->tmp[0] = '\0';
    fold_free(s->fold);
    s->fold = NULL;
}
