/* result: what one run measured, and its configuration.
 *
 * Everything counted per request lives in fixed-size histograms and
 * counters; only the timeline (one record per --interval) grows with the
 * run's length, by a few dozen bytes per interval. */
#ifndef RPCBENCH_RESULT_H
#define RPCBENCH_RESULT_H

#include <stddef.h>
#include <stdint.h>
#include <sys/types.h>

#include "base/err.h"
#include "stats/hist.h"
#include "stats/procstat.h"

enum err_kind {
    ERR_CONNECT, /* could not connect */
    ERR_TIMEOUT, /* no complete answer within --timeout */
    ERR_CLOSED,  /* peer closed or reset mid-response */
    ERR_HTTP,    /* non-2xx status */
    ERR_FAULT,   /* XML-RPC fault, JSON-RPC error, VDSM status.code != 0 */
    ERR_DECODE,  /* not a valid response */
    ERR_HANDSHAKE, /* connected, but the TLS handshake or the STOMP login failed */
    ERR_KINDS
};
extern const char *const err_kind_names[ERR_KINDS];

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

enum validate { VALIDATE_NONE, VALIDATE_CHEAP, VALIDATE_FULL };

#define RUN_MAX_VERBS 8
#define RUN_MAX_PCTS 16
#define RUN_MAX_BUCKETS 64
#define RUN_MAX_PIDS 16
#define RUN_MAX_WARNINGS 16
#define RUN_WARNING_LEN 240
#define ERR_SAMPLE_LEN 160   /* the first error of each kind, as text */

/* Exit codes of `run` beyond 0 (ok), 1 (runtime failure) and 2 (usage). */
#define RUN_EXIT_NO_SUCCESS 3    /* requests were sent and none succeeded */
#define RUN_EXIT_INTERRUPTED 130 /* ended early by SIGINT, as shells report it */

struct verb_spec {
    char name[64];     /* verb ("list") or, with --method, the method name */
    unsigned weight;   /* share in the mix */
};

struct interval_rec;

/* How requests arrive: t0 + k/R, or a seeded Poisson process. */
enum arrival { ARRIVAL_CONSTANT, ARRIVAL_POISSON };

/* Called for every measured interval with the histogram of the latencies
 * (us, from the intended send time) of the requests answered ok in it; the
 * last call covers the drain after the window, so the calls' counts add up
 * to requests.ok. start_s is since the measured window's start. */
typedef void (*interval_hook)(void *ctx, const struct interval_rec *rec, const struct hist *h,
                              double start_s, double len_s);

/* What the engine hands run_config.on_tick when it closes an interval,
 * before the interval's percentiles are taken (a distributed run merges
 * the other ranks' intervals into it there: dist.h). last: the call after
 * the drain, with no interval (rec, pt and ival NULL) but the drain's
 * counts, which go to the last interval. Everything stays the engine's. */
struct tick_data {
    int64_t k;                /* grid index; k <= 0: warmup */
    int last;
    struct interval_rec *rec;
    struct proc_point *pt;
    struct hist *ival;        /* ok latencies of the interval (warmup too) */
    struct hist *hook;        /* measured ok latencies since the last hook call */
    int64_t *sent, *ok, *errors; /* last: the drain's counts */
};
/* Called once the connections are up, before the first send: may set
 * *t0_ns (CLOCK_MONOTONIC, in the future) as the common start. @return 0,
 * or -1 with err (ERR_LEN): the run does not start, engine_run fails. */
typedef int (*start_hook)(void *ctx, int64_t *t0_ns, char *err);
typedef void (*tick_hook)(void *ctx, struct tick_data *t);

struct run_config {
    char url[512];           /* empty: the embedded simulator */
    char encoding[16];       /* "xmlrpc" | "jsonrpc" (the user's --proto) */
    char label[64];          /* compare's arm label; defaults to encoding */
    struct verb_spec verbs[RUN_MAX_VERBS];
    size_t nverbs;
    char method_params[1024]; /* --params JSON for --method */
    char vm_id[64];          /* getVmStats' argument */
    int custom_method;       /* verbs[0].name is a raw method */
    double rate;             /* per second; 0 = closed loop (max) */
    int64_t duration_ns, warmup_ns, timeout_ns, interval_ns;
    int connections;
    enum arrival arrival;
    int busy_poll;           /* the pacer polls instead of sleeping (--busy-poll) */
    uint64_t seed;
    enum validate validate;
    int vms;                 /* embedded simulator size */
    char buckets[256];       /* --buckets spec */
    double pcts[RUN_MAX_PCTS];
    size_t npcts;
    pid_t server_pids[RUN_MAX_PIDS];
    size_t nserver_pids;
    char server_name[64];
    double cpu_saturation;   /* % of one core */
    size_t max_response;     /* bytes */
    int quiet;
    /* TLS (https://, stomps://) and STOMP */
    char cacert[256], cert[256], key[256];
    int tls_insecure;
    char stomp_destination[128];
    interval_hook on_interval; /* may be NULL */
    void *on_interval_ctx;
    /* A distributed run (dist.h): this process sends the requests
     * k * split_ranks + split_rank of the schedule (0 or 1 ranks: all). */
    unsigned split_ranks, split_rank;
    start_hook on_start;     /* may be NULL: start now */
    tick_hook on_tick;       /* may be NULL */
    void *dist_ctx;          /* both hooks' */
};

/* One rank of a distributed run (dist.h), as rank 0 saw it. */
struct rank_rec {
    int rank;
    char host[64];
    int64_t sent, ok, errors;
    double achieved;         /* per second */
    double send_lag_p99_ms;
    double client_cpu_pct;   /* mean over the window; -1 unknown */
    double clock_offset_us;  /* its monotonic clock minus rank 0's */
    int lost;                /* stopped answering mid-run: figures as last heard */
};

struct verb_result {
    char name[64];
    int64_t requests, ok, errors;
    struct hist latency;
};

/* One --interval of the timeline (t = seconds since the measured start, at
 * the interval's end). */
struct interval_rec {
    double t;
    int64_t sent, ok, errors;
    double p50_ms, p99_ms;
    double server_cpu_pct, client_cpu_pct;
    int64_t server_rss_kb;
};

struct run_result {
    struct run_config cfg;
    char target_url[512];    /* the URL actually measured */
    pid_t watched_pids[RUN_MAX_PIDS];
    size_t nwatched;
    double start_unix;       /* wall clock (CLOCK_REALTIME) at the measured
                                window's start, s since the epoch; 0 unknown
                                (files saved before it was recorded) */
    double duration_s;       /* measured window */
    double rate_achieved;    /* sent / duration */
    int64_t sent, ok, errors, unfinished;
    int64_t err[ERR_KINDS];
    int64_t queued;          /* sent late because every connection was busy */
    int64_t reconnects;      /* connections opened again after the first time */
    int64_t conn_failures[CONN_CAUSES]; /* connections that failed, by cause */
    int64_t handshakes;      /* TLS handshakes done (not counted in latency) */
    struct hist handshake;   /* their times (us), connect included */
    int64_t tls_failures;
    char tls_error[ERR_LEN]; /* the last TLS failure */
    int64_t stomp_errors;    /* STOMP ERROR frames received */
    int64_t stomp_bad_frames; /* STOMP frames that did not parse */
    int64_t stray_replies;   /* STOMP replies matching no request in flight */
    char stomp_error[160];   /* the last one's message */
    int64_t bytes_sent, bytes_received;
    struct hist latency;     /* from the intended send time: the headline */
    struct hist service;     /* from the actual write */
    struct hist send_lag;    /* actual - intended */
    struct hist pacing_lag;  /* the same, for sends that found a free connection */
    struct verb_result verbs[RUN_MAX_VERBS];
    size_t nverbs;
    struct interval_rec *intervals;
    size_t nintervals, cap_intervals;
    struct proc_point *samples;
    size_t nsamples, cap_samples;
    /* CPU summary */
    double server_cpu_ms;    /* CPU time the server used in the window */
    char server_cpu_source[16]; /* "schedstat", "ticks", "schedstat+ticks"; "" unknown */
    int server_vanished;
    int64_t rss_start_kb, rss_end_kb;
    long server_threads;
    double machine_busy_pct, loadavg1;
    int machine_cores;       /* CPUs online on the client's machine; 0 unknown */
    double machine_steal_pct; /* hypervisor steal over the window, % of all
                                 cores' time; -1 unknown */
    /* The first error of each kind, described ("HTTP 404 Not Found");
     * "" when none. Filled once per kind into this fixed space. */
    char error_samples[ERR_KINDS][ERR_SAMPLE_LEN];
    char warnings[RUN_MAX_WARNINGS][RUN_WARNING_LEN];
    size_t nwarnings;
    int interrupted;         /* ended early by SIGINT */
    int closed_loop;
    /* A distributed run: its ranks (NULL, 0 otherwise; owned, freed by
     * result_free) and the largest clock offset error estimated (us). */
    struct rank_rec *ranks;
    size_t nranks;
    double clock_error_us;
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
/* Appends a copy of *rec (or *p) to the timeline, growing it by doubling.
 * @return 0, or -1 when memory cannot be had (the timeline unchanged). */
int result_add_interval(struct run_result *r, const struct interval_rec *rec);
int result_add_sample(struct run_result *r, const struct proc_point *p);
/* Adds a warning line (truncated to RUN_WARNING_LEN); past
 * RUN_MAX_WARNINGS it is dropped. Never allocates. */
void result_warn(struct run_result *r, const char *fmt, ...)
    __attribute__((format(printf, 2, 3)));
/* Keeps the first error of kind described (later ones cost one test).
 * Never allocates: safe on the hot path. */
void result_note_error(struct run_result *r, int kind, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));
/* The first error of kind in general terms (connect: host:port; timeout:
 * the --timeout), when the site that failed said nothing more specific. */
void result_note_default(struct run_result *r, int kind, const char *host, int port);
/* The exit code the run's outcome calls for: RUN_EXIT_NO_SUCCESS when
 * requests were sent and none succeeded, else RUN_EXIT_INTERRUPTED after
 * SIGINT, else 0. */
int result_exit_code(const struct run_result *r);
/* Server CPU figures over the samples into *mean, *p50 (median), *max
 * (%); -1 in all three if none (or no memory for the median). */
void result_cpu_summary(const struct run_result *r, double *mean, double *p50, double *max);
/* Writes start_unix (s since the epoch) as ISO-8601 UTC with microseconds,
 * "2026-12-01T05:44:37.123456Z", into out (len >= 32 holds it); "" when
 * unknown (<= 0). */
void result_format_start(double start_unix, char *out, size_t len);
/* @return the client's mean CPU % over the samples, with its max in *max
 * (max may be NULL); -1 for both when no sample has it. */
double result_client_cpu_mean(const struct run_result *r, double *max);
/* @return reconnects per second of the measured window (0 when it is 0). */
double result_reconnects_per_s(const struct run_result *r);
/* @return the connection failures of every cause. */
int64_t result_conn_failures(const struct run_result *r);
/* @return the server CPU-ms per answered request; -1 when unknown. */
double result_cpu_ms_per_call(const struct run_result *r);
/* What limited a run's figures, as result_limits' bits: the server reached
 * --cpu-saturation; the client was busy (over 80 % of a core, unless
 * --busy-poll); or, with an idle client, the pacer sent late (lag p99 over
 * 1 ms); and, for an open loop, the rate achieved was under 99 % of the
 * target. The warnings below say the same in words. */
#define RESULT_SATURATED 1u
#define RESULT_CLIENT_BOUND 2u
#define RESULT_LATE_PACER 4u
#define RESULT_RATE_NOT_HELD 8u
/* @return the RESULT_* bits that apply to r (0: nothing limited it). */
unsigned result_limits(const struct run_result *r);
/* Adds the warnings that the figures call for (failures, interruption,
 * saturation, client-bound or late pacer, hypervisor steal, rate). */
void result_check_warnings(struct run_result *r);

#endif
