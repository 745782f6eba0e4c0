/* run_result: what one run measured (with its configuration, cfg).
 *
 * Everything counted per request lives in fixed-size histograms and
 * counters; only the timeline (one record per --interval) grows with the
 * run's length, by a few dozen bytes per interval. */
#ifndef RPCBENCH_RUN_RESULT_H
#define RPCBENCH_RUN_RESULT_H

#include <stddef.h>
#include <stdint.h>
#include <sys/types.h>

#include "base/err.h"
#include "base/figure.h"
#include "stats/hist.h"
#include "proc/sampler.h"
#include "model/profile_sum.h"
#include "model/run_config.h"
#include "model/run_hooks.h"

#define RUN_MAX_WARNINGS 16
#define RUN_WARNING_LEN 240
#define ERR_SAMPLE_LEN 160   /* the first error of each kind, as text */

enum err_kind {
    ERR_CONNECT, /* could not connect */
    ERR_TIMEOUT, /* no complete answer within --timeout */
    ERR_CLOSED,  /* peer closed or reset mid-response */
    ERR_HTTP,    /* non-2xx status */
    ERR_FAULT,   /* XML-RPC fault, JSON-RPC error, VDSM status.code != 0 */
    ERR_DECODE,  /* not a valid response */
    ERR_HANDSHAKE, /* connected, but the TLS handshake or the STOMP login failed */
    ERR_AUTH,    /* HTTP 401 or 403: credentials missing or refused */
    ERR_CHECK,   /* a valid answer that broke an --expect check */
    ERR_KINDS
};
extern const char *const err_kind_names[ERR_KINDS];
/* The kind of a request answered well, where a request's end is told as
 * a kind (client/request.h's request_end_fn, conn_request_done, the HTTP
 * and STOMP classifiers): every ERR_* is >= 0, so it is no error kind. */
#define REQ_OK (-1)
/* @return whether kind (REQ_OK or an ERR_*) says the request was answered
 * well. */
static inline int req_ok(int kind) { return kind < 0; }

/* Why a connection failed (every failure is counted by cause, whether a
 * request was lost with it or not): transport.connection_failures. */
enum conn_cause {
    CAUSE_CONNECT,   /* the TCP connect failed or timed out */
    CAUSE_RESET,     /* the peer reset the connection (or a write broke) */
    CAUSE_CLOSED,    /* the peer closed it with something pending */
    CAUSE_TIMEOUT,   /* no answer in time: handshake, login, request, heart-beat */
    CAUSE_TLS,       /* the TLS handshake failed, or TLS broke after it */
    CAUSE_LOGIN,     /* the STOMP broker refused the login (ERROR to CONNECT) */
    CAUSE_NOT_STOMP, /* no CONNECTED frame came back to CONNECT */
    CAUSE_PROTOCOL,  /* malformed answer or frame, STOMP ERROR frame, wrong protocol */
    CONN_CAUSES
};
extern const char *const conn_cause_names[CONN_CAUSES];

/* One rank of a distributed run (dist.h), as rank 0 saw it. */
struct rank_rec {
    int rank;
    char host[64];
    int64_t sent, ok, errors; /* sent: written to the wire */
    int64_t unsent;          /* offered to this rank and never written */
    double achieved;         /* per second */
    double send_lag_p99_ms;
    double client_cpu_pct;   /* mean over the window (FIG_UNKNOWN: base/figure.h) */
    double clock_offset_us;  /* its monotonic clock minus rank 0's */
    int lost;                /* stopped answering mid-run: figures as last heard */
};

/* The unfinished requests whose latency is censored: never answered, each
 * is recorded in the latency histogram as the time it had waited when the
 * run was over (a lower bound of its latency). A figure of that
 * histogram at or above the smallest such value is itself only a lower
 * bound (result_censored_at). */
struct censor {
    int64_t n;      /* values recorded so; 0: every figure is exact */
    int64_t min_us; /* the smallest of them (meaningful when n > 0) */
};

/* Printed before a figure that is only a lower bound ("≥ 1.84s"). */
#define RESULT_LOWER_BOUND_MARK "\xe2\x89\xa5"

/* One verb's share of the run: requests (offered) = ok + errors +
 * unfinished + unsent, and the verbs' rows add up to the run's offered,
 * ok, errors, unfinished and unsent (a request never written counts under
 * the verb the mix gave it). */
struct verb_result {
    char name[64];
    int64_t requests, ok, errors, unfinished, unsent;
    int64_t unsent_failed;        /* of the unsent, given up at once (no connection) */
    struct hist latency;          /* ok latencies and the censored waits */
    struct censor censored;
};

/* One --interval of the timeline (t = seconds since the measured start, at
 * the interval's end). Each count by its own stamp (client/ledger.c): due
 * (offered) and unsent by the intended send time, sent by the write, ok
 * and errors by the answer's arrival (the kernel's stamp). So a row need
 * not balance, but the rows add up to the run's offered, sent, unsent, ok
 * and errors. */
struct interval_rec {
    double t;
    int64_t sent, ok, errors;
    int64_t due, unsent;
    double offered;          /* the schedule's mean rate over the interval, /s
                                (the whole schedule's, every rank's share) */
    double p50_ms, p99_ms;   /* of the answers that arrived in it; FIG_UNKNOWN
                                (base/figure.h) when none did */
    /* the samples' figures: FIG_UNKNOWN where not measured */
    double server_cpu_pct, client_cpu_pct;
    double server_rss_kb;
};

/* One stage of a --stages run (cfg.stages[i]): its measured requests, by
 * their intended send time. offered = sent + unsent, sent = ok + errors +
 * unfinished. */
struct stage_result {
    int64_t offered, sent, ok, errors, unfinished, unsent;
    int64_t unsent_failed;   /* of the unsent, given up at once (no connection) */
    /* The calls the server answered (result_kind_answered) while the stage
     * ran, by the answer's arrival (client/ledger.c; an answer after the
     * window joins the stage it ended in): what its CPU was spent on. -1:
     * unknown (a file saved before it was counted). */
    int64_t answered;
    struct hist latency;     /* ok latencies (us), allocated with the result */
    double server_cpu_pct;   /* mean server CPU over the stage, % of a core */
    double server_cpu_ms;    /* the server's CPU time in the part of the stage
                                where it was read (result_stages_cpu) */
};

/* One target of a --targets run (the fleet: client/engine_lanes.c): its
 * measured requests, by the same rules as the run's, so sent = ok + errors
 * + unfinished and the targets' rows add up to requests.* (one process:
 * under mpirun each rank has its own targets' rows only). */
struct target_result {
    char url[256];
    size_t index;           /* its line's place among the targets file's hosts */
    double rate;            /* its offered rate, per second */
    double start_s;         /* its first intended send, s after the sends began */
    int64_t offered, sent, ok, errors, unfinished, unsent;
    struct hist latency;    /* ok latencies (us), 2 significant digits (1 %) */
};

struct run_result {
    struct run_config cfg;
    char build[64];          /* the rpcbench version that measured it ("" unknown) */
    char target_url[512];    /* the URL actually measured */
    pid_t watched_pids[RUN_MAX_PIDS];
    size_t nwatched;
    /* A result merged from several (result_merge): how many runs, how they
     * were merged (enum result_merge, result_merge.h) and every arrival
     * process among them (a bit per enum arrival). runs 0: one run. */
    struct merged_from {
        int runs;
        int how;
        unsigned arrivals;
    } merged;
    double start_unix;       /* wall clock (CLOCK_REALTIME) at the measured
                                window's start, s since the epoch; 0 unknown
                                (files saved before it was recorded) */
    double duration_s;       /* measured window */
    double rate_achieved;    /* sent / duration */
    double share_offered;    /* a rank of a fleet split by mpirun: what its own
                                hosts were offered in the window, per s (0: none) */
    /* The ledger (client/ledger.c): offered (due in the window) = sent
     * (written to the wire) + unsent (never written); sent = ok + errors
     * (answered wrongly or failed after the write: err by kind) +
     * unfinished (no answer when the run was over). Of the unsent,
     * unsent_failed were given up at once because no connection could take
     * them (unsent_kind: the connections' failure, an ERR_* kind); the
     * others were still waiting for a connection at the end. */
    int64_t offered, sent, ok, errors, unfinished, unsent;
    int64_t unsent_failed;
    int unsent_kind;
    int64_t err[ERR_KINDS];
    int64_t queued;          /* found every connection busy when due: sent late,
                                or never; -1 unknown (result_count_known) */
    /* The warmup's requests (intended before the measured window): in no
     * figure above, but the server got them all the same (sent). */
    struct warmup_counts {
        int64_t sent, ok, errors, unsent;
    } warmup;
    /* The pacer's timer wakes in the measured window, and the window each
     * used (--pacer-window): fixed, or chosen by auto. wakes = 0: none
     * (closed loop, --busy-poll, or a file saved before it was counted). */
    struct pacer_stats {
        int64_t wakes;
        int64_t window_min_ns, window_max_ns;
        double window_sum_ns;  /* over the wakes: their mean is sum / wakes */
    } pacer;
    int64_t reconnects;      /* connections opened again after the first time */
    int64_t conn_failures[CONN_CAUSES]; /* connections that failed, by cause */
    int64_t handshakes;      /* TLS handshakes done (not counted in latency) */
    struct hist handshake;   /* their times (us), connect included */
    int64_t tls_failures;
    char tls_error[ERR_LEN]; /* the last TLS failure */
    int64_t stomp_errors;    /* STOMP ERROR frames received */
    int64_t stomp_bad_frames; /* STOMP frames that did not parse */
    int64_t stray_replies;   /* replies matching no request in flight (STOMP), or
                                bytes no request asked for (HTTP) */
    char stomp_error[160];   /* the last one's message */
    int64_t bytes_sent, bytes_received;
    /* --expect: answers checked (warmup too), how many broke a check, and
     * the client CPU the full decode and the checks took (ns, summed) */
    struct answer_checks {
        int64_t checked, failed, ns;
    } checks;
    struct hist latency;     /* from the intended send time: the headline; the
                                unfinished requests' waits too (censored) */
    struct censor censored;
    struct hist service;     /* from the actual write */
    struct hist send_lag;    /* actual - intended */
    struct hist pacing_lag;  /* the same, for sends that found a free connection */
    struct verb_result verbs[RUN_MAX_VERBS];
    size_t nverbs;
    struct interval_rec *intervals;
    size_t nintervals, cap_intervals;
    struct proc_point *samples;
    size_t nsamples, cap_samples;
    /* CPU summary. Every figure (a double) of a result is FIG_UNKNOWN
     * (base/figure.h) where it was not measured; fig_known tells. */
    double server_cpu_ms;    /* CPU time the server used in the window */
    char server_cpu_source[32]; /* "schedstat", "ticks", "schedstat+ticks", each
                                   maybe after "agent " (--server-agent); "" unknown */
    int server_vanished;
    struct agent_info {      /* --server-agent: url "" when the CPU was sampled here */
        char url[256];
        double clock_offset_us; /* the agent's monotonic clock minus ours */
        double clock_error_us;  /* its bound: half the best round trip */
    } agent;
    struct idle_cpu {        /* the server alone before the load (n = 0: not
                                measured, or refused: result_refuse_idle):
                                time-weighted mean % of a core over n
                                intervals, its standard error, and its
                                quietest interval's % (unknown as figures are) */
        double duration_s, mean_pct, se_pct, quiet_pct;
        int n;
    } idle;
    double rss_start_kb, rss_end_kb; /* the server's resident memory */
    long server_threads;
    double machine_busy_pct, loadavg1;
    int machine_cores;       /* CPUs online on the client's machine; 0 unknown */
    double machine_steal_pct; /* hypervisor steal over the window, % of all
                                 cores' time */
    /* The first error of each kind, described ("HTTP 404 Not Found");
     * "" when none. Filled once per kind into this fixed space. */
    char error_samples[ERR_KINDS][ERR_SAMPLE_LEN];
    char warnings[RUN_MAX_WARNINGS][RUN_WARNING_LEN];
    size_t nwarnings;
    int interrupted;         /* the signal that ended the run early (SIGINT,
                                SIGTERM); 0 when it ran to its end */
    int closed_loop;
    /* A distributed run: its ranks (NULL, 0 otherwise; owned, freed by
     * result_free) and the largest clock offset error estimated (us). */
    struct rank_rec *ranks;
    size_t nranks;
    double clock_error_us;
    /* --stages: one per cfg.stages (nstages as cfg's; 0 without stages) */
    struct stage_result stages[RUN_MAX_STAGES];
    size_t nstages;
    /* --targets: one row per target this process drove (NULL, 0 without) */
    struct target_result *targets;
    size_t ntargets;
    struct profile_summary profile; /* --profile (taken 0: none) */
};

/* A struct run_result is large (keep it off the stack) and its user's; it
 * owns its histograms and its timeline arrays, freed by result_free.
 * Functions that take a result only to read it leave it the caller's. */

/* Zeroes r, copies *cfg (NULL: a zeroed config) and initialises its
 * histograms, one per verb of cfg. @return 0, or -1 when memory cannot be
 * had (r is then still safe to result_free). */
int result_init(struct run_result *r, const struct run_config *cfg);
/* Frees what r owns and leaves its pointers NULL; safe twice, and on a
 * result whose init or load failed. */
void result_free(struct run_result *r);
/* result_stages.c: the stages of a --stages run.
 * result_stages_init: r->nstages from r->cfg, each stage's histogram
 * allocated (result_init calls it; result_free frees them). @return 0, or
 * -1 when memory cannot be had. */
int result_stages_init(struct run_result *r);
/* Fills every stage's server CPU from r's samples (t_ns since the start)
 * once r->duration_s is known: the mean %, weighted by how much of each
 * sample's interval overlaps the stage, and the CPU time of the part of
 * the stage where the server was read (where it lived: an interval that
 * could not read it adds no time); FIG_UNKNOWN for both when no sample
 * measured the server there. */
void result_stages_cpu(struct run_result *r);
/* @return the mean rate stage i offered over the time it ran, per second. */
double result_stage_offered_rate(const struct run_result *r, size_t i);
/* @return stage i's achieved rate, per second: its requests that went out
 * and ended (ok + errors; not the unfinished) over the time it ran, as the
 * run's rate_achieved is. */
double result_stage_achieved(const struct run_result *r, size_t i);
/* @return stage i's server CPU-ms per call it answered: its CPU time over
 * the calls it answered in the part of the stage where it was read (the
 * stage's answered, less those of its intervals that could not read the
 * server, reckoned as server_cpu.h's window does); FIG_UNKNOWN when not
 * measured, or none answered there. */
double result_stage_cpu_per_call(const struct run_result *r, size_t i);
/* The stages' warnings, for result_check_warnings: k = 0, their counts
 * not adding up to the run's (a bug); k = 1..nstages, stage k ran whole
 * and achieved under 99 % of what it offered (the run's mean may hide a
 * ramp's top). @return 1 with the warning's text in out (len bytes, the
 * caller's), or 0 when there is none. */
int result_stage_warning(const struct run_result *r, size_t k, char *out, size_t len);

/* result_targets.c. result_targets_init: n zeroed target rows, each
 * with its histogram. @return 0, or -1 without memory (r->targets NULL).
 * result_targets_free: frees them (result_free calls it; safe twice). */
int result_targets_init(struct run_result *r, size_t n);
void result_targets_free(struct run_result *r);
/* result_targets_json: adds "targets": [{url, rate, start_s, sent, ok,
 * errors, unfinished, p50_ms, p99_ms, latency_us (HdrHistogram, base64)}]
 * to root (a json_object *, the caller's) when r has targets (else
 * nothing). */
void result_targets_json(void *root, const struct run_result *r);
/* result_targets_load: the rows of a saved result's "targets" (a
 * json_object *root), each row's histogram from its latency_us (rows
 * saved without it: counts only). @return 0 (none: nothing), or -1 with
 * err: out of memory, a histogram that does not decode. */
int result_targets_load(void *root, struct run_result *r, char *err);
/* result_targets_merge: src's rows added to dst's (a fleet dealt out to
 * ranks, or saved results of concurrent parts of one), then put in the
 * targets file's order (index, then url). @return 0, or -1 out of memory
 * or histograms of another layout (dst as it was). */
int result_targets_merge(struct run_result *dst, const struct run_result *src);

/* Appends a copy of *rec (or *p) to the timeline, growing it by doubling.
 * @return 0, or -1 when memory cannot be had (the timeline unchanged). */
int result_add_interval(struct run_result *r, const struct interval_rec *rec);
int result_add_sample(struct run_result *r, const struct proc_point *p);
/* Adds a warning line, made safe (base/safetext.h: whatever the arguments
 * quote, valid UTF-8 without controls, cut at a character with "..." past
 * RUN_WARNING_LEN); past RUN_MAX_WARNINGS it is dropped. Never allocates. */
void result_warn(struct run_result *r, const char *fmt, ...)
    __attribute__((format(printf, 2, 3)));
/* Keeps the first error of kind described (later ones cost one test),
 * made safe as result_warn's line is. Never allocates: safe on the hot
 * path. */
void result_note_error(struct run_result *r, int kind, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));
/* The first error of kind in general terms (connect: host:port and
 * tls_error, "" for none; timeout: the --timeout), when the site that
 * failed said nothing more specific. */
void result_note_default(struct run_result *r, int kind, const char *host, int port,
                         const char *tls_error);
/* @return the requests whose answer was read whole: ok, and the errors
 * found in an answer (http, fault, decode, auth, check), the divisor of
 * the mean response size. */
int64_t result_answers_read(const struct run_result *r);
/* The exit code the run's outcome calls for (base/exit_code.h):
 * EXIT_NO_SUCCESS when requests were offered and none succeeded, else
 * EXIT_SIGNAL(sig) after the signal sig ended it (130 SIGINT, 143
 * SIGTERM), else EXIT_OK. */
int result_exit_code(const struct run_result *r);
/* @return the name of signal sig ("SIGINT", "SIGTERM", "SIGHUP",
 * "SIGQUIT"; else "signal N" in a static buffer, overwritten by the next
 * call), for the reports. */
const char *result_signal_name(int sig);
/* @return the number of a name result_signal_name gives ("SIGTERM": 15),
 * or 0 when it is not one. */
int result_signal_number(const char *name);
/* Records an unfinished request of verb (an index into r->verbs) that had
 * waited waited_us since its intended send time when the run was over:
 * into r's and the verb's latency histograms, as a censored value. Not on
 * the hot path: only at the run's end. */
void result_censor(struct run_result *r, int verb, int64_t waited_us);
/* Adds src's censored values to dst's (a merge of their histograms). */
void result_censor_merge(struct censor *dst, const struct censor *src);
/* @return 1 when value_us, a figure of the latency histogram cs goes with,
 * is only a lower bound: some censored value is at or below it (the true
 * latencies of those requests may lie above it, and so may the figure);
 * 0 when it is exact: every censored value is above it, so whatever their
 * true latencies, the figure is the same. */
int result_censored_at(const struct censor *cs, double value_us);
/* The same for any latency figure: a mean (mean set) takes every censored
 * value in, so it is a lower bound as soon as one is there; any other
 * figure (a percentile, min, max) as result_censored_at says. */
int result_lower_bound(const struct censor *cs, int mean, double value_us);

/* Unknown, in memory: a figure (double) that was not measured is
 * FIG_UNKNOWN, and fig_known tells (base/figure.h); a count that could
 * not be had (queued and the warmup's counts of a result rebuilt from a
 * --requests-log, which holds neither) is -1, and this tells. Every
 * writer asks them: null in JSON, empty in CSV, n/a in text and HTML.
 * @return 1 when known, else 0. */
int result_count_known(int64_t n);
/* The pacer of an open-loop run in words, into out (len >= 112 holds it):
 * "busy-poll pacer", "pacer window 50us; 0.80 wakes/request", or in auto
 * "pacer window auto: 50us to 210us, mean 62us; 0.31 wakes/request" (the
 * windows its wakes used; the wakes are in the measured window). */
void result_pacer_text(const struct run_result *r, char *out, size_t len);

/* Server CPU figures over the samples into *mean (weighted by each
 * interval's length, so a short last interval after SIGINT counts for its
 * length), *p50 (median) and *max (%) of the intervals at least half as
 * long as --interval (all of them when none is); FIG_UNKNOWN in all three
 * if the server CPU was not measured (or no memory for the median). */
void result_cpu_summary(const struct run_result *r, double *mean, double *p50, double *max);
/* Writes start_unix (s since the epoch) as ISO-8601 UTC with microseconds,
 * "2026-12-01T05:44:37.123456Z", into out (len >= 32 holds it); "" when
 * unknown (<= 0). */
void result_format_start(double start_unix, char *out, size_t len);
/* @return the client's mean CPU % over the samples, with its max in *max
 * (max may be NULL); FIG_UNKNOWN for both when no sample has it. */
double result_client_cpu_mean(const struct run_result *r, double *max);
/* @return reconnects per second of the measured window (0 when it is 0). */
double result_reconnects_per_s(const struct run_result *r);
/* @return the connection failures of every cause. */
int64_t result_conn_failures(const struct run_result *r);
/* @return the server's CPU-ms per call it answered, over the window where
 * it lived (server_cpu.h's Estimator); FIG_UNKNOWN when not measured or
 * none answered. server_cpu.h has it net of the idle baseline. */
double result_cpu_ms_per_call(const struct run_result *r);
/* What limited a run's figures, as result_limits' bits, the one diagnosis
 * that run's warnings, sweep's flags and --find-max's reasons all use: the
 * server reached --cpu-saturation (never when it is off: 0); every
 * connection was busy for RESULT_QUEUED_PCT % of the sends or more (the
 * server answers slower than the rate: server-bound, unless the client was
 * busy, which keeps connections busy itself); the client was busy
 * (over RESULT_CLIENT_BUSY_PCT % of a core, unless --busy-poll); or, with
 * an idle client, the pacer sent late (lag p99 over 1 ms: the machine);
 * and, for an open loop, the rate achieved was under 99 % of the target
 * (result_rate_holder says whose doing). */
#define RESULT_SATURATED 1u
#define RESULT_CLIENT_BOUND 2u
#define RESULT_LATE_PACER 4u
#define RESULT_RATE_NOT_HELD 8u
#define RESULT_SERVER_BOUND 16u
/* The connections failed (timed out, closed, refused) so that at least
 * RESULT_QUEUED_PCT % of the requests offered were given up unsent: the
 * server held the rate back. */
#define RESULT_CONNS_FAILED 32u
#define RESULT_QUEUED_PCT 1.0
#define RESULT_CLIENT_BUSY_PCT 80
/* @return the RESULT_* bits that apply to r (0: nothing limited it). */
unsigned result_limits(const struct run_result *r);
/* @return who held the rate back, given result_limits' bits f: "the
 * client", "the server", "the machine" or "neither side measurably"
 * (static). */
const char *result_rate_holder(unsigned f);
/* Each rule of f that r met, named with its figure and its threshold,
 * "server saturated (CPU 99% >= --cpu-saturation 95%); rate not held
 * (...)", into out (len bytes, the caller's); "" for none. A rate not held
 * is blamed from every rule r met, shown in f or not. */
void result_limits_text(const struct run_result *r, unsigned f, char *out, size_t len);
/* Adds the warnings that the figures call for (failures, interruption,
 * saturation, client-bound or late pacer, hypervisor steal, rate). */
void result_check_warnings(struct run_result *r);
/* Adds the warning when the server's idle CPU (--idle-baseline) is more
 * than SERVER_CPU_IDLE_WARN_SHARE of its loaded CPU: most of the CPU per
 * call is then its own background. */
void result_warn_idle(struct run_result *r);
/* Refuses r's idle baseline when the server was not idle while it was
 * taken: its mean above the CPU under load (net of idle would be below
 * 0), or above its own quiet level (the quietest interval, by more than
 * SERVER_CPU_IDLE_QUIET_PTS points and twice over: busy with something
 * else for part of it, such as a socket left half-closed by a previous
 * run). A refused baseline is dropped (idle.n 0: no figure uses it) with
 * a warning that gives its figures. @return 1 when refused, else 0. */
int result_refuse_idle(struct run_result *r);
/* The same, against the server's quiet level quiet_pct (%) as another run
 * of it measured (compare's other rounds): refused when r's baseline is
 * above it by the same rule. @return 1 when refused, else 0. */
int result_refuse_idle_above(struct run_result *r, double quiet_pct);

#endif
