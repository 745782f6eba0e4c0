/* server_cpu: the server's CPU figures of a result, once, for every
 * format: whether they were measured at all (a figure never measured is
 * "n/a", never a number), the time-weighted CPU %, and the CPU per call
 * raw and net of the server's idle background, with their uncertainty.
 *
 * Estimator. The window is where the server lived: the whole measured
 * window, or when some intervals could not read it (it exited, or was
 * not found yet) those that did. Its N calls are those the server
 * answered in it (ok, and the errors it answered: HTTP status, fault,
 * decode, auth, check; never connect, timeout, closed or handshake
 * failures, which it did not answer). Over that window of T seconds:
 *   raw = cpu_ms / N,   net = raw - I/100 * T*1000/N
 * with I the time-weighted idle CPU %. raw's standard error is the ratio
 * estimator's over the intervals (cpu_i ms, a_i calls answered in each):
 *   se_raw^2 = n/(n-1) * sum (cpu_i - raw * a_i)^2 / (sum a_i)^2
 * so that a ramp, whose CPU % follows its rate, is not read as noise; a
 * result without a timeline falls back to the spread of CPU % (se_L/100 *
 * T*1000/N). se_net = sqrt(se_raw^2 + (se_I/100 * T*1000/N)^2), se_I from
 * the spread of the idle intervals:
 *   se^2 = n/(n-1) * sum w_i^2 (x_i - mean)^2 / (sum w_i)^2.
 * No figure is negative: a baseline above the load's CPU, or above its
 * own quiet level, is refused (result_refuse_idle) and net is then n/a.
 * The idle baseline (--idle-baseline D) is sampled before the load; by
 * default it is taken (SERVER_CPU_AUTO_IDLE_NS) when the user names the
 * server (--server-pid, --server-name) and the rate is below
 * SERVER_CPU_AUTO_IDLE_RATE calls per second, where background CPU
 * weighs most per call. */
#ifndef RPCBENCH_SERVER_CPU_H
#define RPCBENCH_SERVER_CPU_H

#include <stddef.h>

#include "model/run_result.h"

#define SERVER_CPU_AUTO_IDLE_NS 3000000000LL
#define SERVER_CPU_AUTO_IDLE_RATE 5.0
/* A baseline whose mean exceeds its quietest interval by more than this
 * many points of a core (and twice over) was not idle (result_refuse_idle). */
#define SERVER_CPU_IDLE_QUIET_PTS 5.0
/* Warn when the idle CPU exceeds this share of the loaded CPU. */
#define SERVER_CPU_IDLE_WARN_SHARE 0.2

/* CPU-ms per call; FIG_UNKNOWN where unknown (never negative). */
struct cpu_per_call {
    double raw, raw_se, net, net_se;
};

/* @return the idle baseline a run of cfg takes, in ns: --idle-baseline
 * when given (>= 0), else the default above. */
int64_t server_cpu_idle_ns(const struct run_config *cfg);

/* The time-weighted mean of the n values x (weights w > 0) into *mean and
 * its standard error into *se (FIG_UNKNOWN when n < 2); both FIG_UNKNOWN
 * when n == 0. */
void server_cpu_wstats(const double *x, const double *w, size_t n, double *mean, double *se);

/* @return 1 when sample i of r covers at least half an --interval (the
 * short last interval after SIGINT does not: it weighs in means by its
 * length, but says little of a median, a peak or saturation), else 0. */
int result_sample_is_full(const struct run_result *r, size_t i);

/* @return 1 when the server was watched at all (--server-pid,
 * --server-name, --server-agent, or the simulator run spawned), whatever
 * the readings gave; 0: nothing of the server was sampled, and its
 * figures are unknown (JSON server_cpu null, text n/a). */
int result_server_sampled(const struct run_result *r);

/* @return 1 when r's server CPU was measured (a watched process read at
 * both ends of an interval), else 0. */
int result_server_measured(const struct run_result *r);

/* @return why r's server CPU is n/a, in under 48 characters ("not
 * sampled: no --server-pid or --server-name"); a static string. */
const char *server_cpu_na_reason(const struct run_result *r);

/* The time-weighted loaded CPU % and its standard error; FIG_UNKNOWN
 * where unknown. */
void result_cpu_loaded(const struct run_result *r, double *mean, double *se);

/* @return 1 when a request that ended with kind (REQ_OK or an ERR_*) was
 * answered by the server: ok, or an error found in its answer (HTTP
 * status, fault, decode, auth, check); 0 for connect, timeout, closed and
 * handshake failures, which it never answered. */
int result_kind_answered(int kind);

/* @return the calls r's server answered: ok plus the errors it answered
 * (result_kind_answered). */
int64_t result_answered_calls(const struct run_result *r);

/* @return interval i's calls the server answered: its ok, and its errors
 * in the run's share of answered errors (intervals count errors, not
 * their kinds). */
double result_interval_answered(const struct run_result *r, size_t i);

/* Fills out with r's CPU per call (FIG_UNKNOWN where unknown: not measured,
 * nothing answered, no idle baseline for the net figures, or net below 0). */
void result_cpu_per_call(const struct run_result *r, struct cpu_per_call *out);

/* "CPU mean 9.5% p50 9.1% max 12.0%, 0.450 CPU-ms/call" or "CPU n/a (why)"
 * into out (len bytes). */
void server_cpu_text(const struct run_result *r, char *out, size_t len);

/* "idle 2.1% +/- 0.1% (3.0s before the load); net of idle 0.450 +/- 0.020
 * CPU-ms/call (raw 1.920 +/- 0.015)" into out; "" without an idle baseline. */
void server_cpu_idle_text(const struct run_result *r, char *out, size_t len);


#endif
