/* run_config: how one run is asked for: its target, rate and time,
 * verbs or workload, connections, checks and stages. It holds no pointer
 * (it is saved, compared and sent to MPI ranks as the rows of
 * model/config_keys.h); what a run calls back while it goes is
 * run_hooks.h, what it measured run_result.h. */
#ifndef RPCBENCH_RUN_CONFIG_H
#define RPCBENCH_RUN_CONFIG_H

#include <stddef.h>
#include <stdint.h>
#include <sys/types.h>

enum validate { VALIDATE_NONE, VALIDATE_CHEAP, VALIDATE_FULL, VALIDATE_N };
/* By enum validate, as --validate, the JSON and the report spell them: the
 * one list of these names. */
extern const char *const validate_names[VALIDATE_N];

/* --pacer-window D: its cap (client/pacer_window.h says why there is a
 * window; the default is auto) */
#define PACER_WINDOW_MAX_NS (10 * 1000000LL)

/* Verbs or --workload calls of one run. A slot unused costs a
 * verb_result and a verb_spec; the latency histograms, the bulk, are
 * allocated for the verbs used only (result_init; bench/RESULTS.md). */
#define RUN_MAX_VERBS 64
#define RUN_MAX_PCTS 16
#define RUN_MAX_PIDS 16
#define RUN_MAX_EXPECTS 8    /* workload/expect.h's EXPECT_MAX */
#define RUN_EXPECT_LEN 160   /* and EXPECT_TEXT */

struct verb_spec {
    char name[64];     /* verb ("list"), with --method the method name, with
                          --workload the call's name */
    unsigned weight;   /* share in the mix; 0: a --workload call with its own period */
    int64_t every_ns;  /* that period (0: in the mix) */
};

/* How requests arrive: t0 + k/R, or a seeded Poisson process. */
enum arrival { ARRIVAL_CONSTANT, ARRIVAL_POISSON, ARRIVAL_N };
/* By enum arrival, as --arrival, the JSON and the report spell them: the
 * one list of these names. */
extern const char *const arrival_names[ARRIVAL_N];

/* --stages: at most RUN_MAX_STAGES stages end to end make the measured
 * window, each a hold (from == to) or a linear ramp from one rate to the
 * other (per second, >= 0) over its duration. */
#define RUN_MAX_STAGES 16
struct run_stage {
    int64_t duration_ns; /* > 0 */
    double from, to;
};

struct run_config {
    char url[512];           /* empty: the embedded simulator */
    char encoding[16];       /* "xmlrpc" | "jsonrpc" (the user's --proto) */
    char label[64];          /* compare's arm label; defaults to encoding */
    struct verb_spec verbs[RUN_MAX_VERBS];
    size_t nverbs;
    char method_params[1024]; /* --params JSON for --method */
    char vm_id[64];          /* getVmStats' argument */
    int custom_method;       /* verbs[0].name is a raw method */
    char workload[256];      /* --workload FILE: verbs are its calls ("" none) */
    double rate;             /* per second; 0 = closed loop (max) */
    int64_t duration_ns, warmup_ns, timeout_ns, interval_ns;
    int connections;
    enum arrival arrival;
    int busy_poll;           /* the pacer polls instead of sleeping (--busy-poll) */
    int pacer_window_auto;   /* --pacer-window auto (the default): the engine
                                chooses the window from its timer's lateness */
    int64_t pacer_window_ns; /* otherwise: sends due within it share a wake */
    uint64_t seed;
    enum validate validate;
    int vms;                 /* embedded simulator size */
    char buckets[256];       /* --buckets spec */
    double pcts[RUN_MAX_PCTS];
    size_t npcts;
    pid_t server_pids[RUN_MAX_PIDS];
    size_t nserver_pids;
    char server_name[64];
    char agent_url[256];     /* --server-agent: the server sampled there; "" here */
    char agent_token_file[256]; /* --token-file: the agent's token (not the token) */
    int64_t idle_baseline_ns; /* --idle-baseline: the server sampled idle for
                                 this long before the load; -1: the default
                                 (server_cpu.h), 0: none */
    double cpu_saturation;   /* % of one core */
    size_t max_response;     /* bytes */
    int quiet;
    /* TLS (https://, stomps://) and STOMP */
    char cacert[256], cert[256], key[256];
    int tls_insecure;
    char stomp_destination[128];
    /* Headers and auth (--header, --user, --bearer, --stomp-login): the
     * lines every HTTP request carries ("Name: value\r\n" each, an
     * Authorization line included) and the STOMP CONNECT's login. The
     * secrets stay here, in this process and its MPI ranks; reports,
     * saved files and pages show auth_shown and headers_shown instead,
     * and a saved file has neither headers nor login (result_json). */
    char headers[2048];
    char stomp_login[128], stomp_passcode[128];
    char auth_shown[160];     /* "--user alice:***", "--bearer ***", "" */
    char headers_shown[1024]; /* "X-Trace: 7; Cookie: ***", "" */
    /* How the run was asked for: the options given on the command line
     * and those a --config job file added, as "--name value" (secrets
     * "***"), and the job file's name ("" none). */
    char options_given[2048], options_from_job[2048], job_file[256];
    /* --expect: checks on every answer's decoded result, as written
     * (workload/expect.h parses them); they imply --validate full. */
    char expects[RUN_MAX_EXPECTS][RUN_EXPECT_LEN];
    size_t nexpects;
    /* A distributed run (dist.h): this process sends the requests
     * k * split_ranks + split_rank of the schedule (0 or 1 ranks: all). */
    unsigned split_ranks, split_rank;
    /* --stages (nstages 0: none). With stages, rate is their mean offered
     * rate (requests offered / duration_ns, their sum), so that every
     * "rate not held" figure still compares against what was asked. */
    struct run_stage stages[RUN_MAX_STAGES];
    size_t nstages;
    char targets_file[256];  /* --targets FILE ("" none): a fleet (run only) */
};

/* @return the index of the stage of cfg that off_ns (since the measured
 * window's start) falls in, or -1 outside every stage (or none). */
int result_stage_of(const struct run_config *cfg, int64_t off_ns);
/* @return where stage i of cfg starts, ns since the measured window's start. */
int64_t result_stage_start(const struct run_config *cfg, size_t i);
/* @return the requests stage st offers: the integral of its rate. */
double result_stage_offered(const struct run_stage *st);
/* result_stages_parse: "D:R[-R2],..." (--stages' syntax; a rate 0 is
 * allowed, "max" is not) into st[0..*n) (RUN_MAX_STAGES of the caller's).
 * @return 0, or -1 with why (ERR_LEN: "stage 2 '5s:x': ...", *n 0). */
int result_stages_parse(const char *arg, struct run_stage *st, size_t *n, char *why);
/* "constant" or "poisson" (arrival_names). */
const char *result_arrival_name(enum arrival a);
/* @return the index of s in names[0..n), or def when it is none of them
 * (a saved file's unknown or missing name). */
int result_name_index(const char *s, const char *const *names, int n, int def);
/* Every arrival process in a (a bit per enum arrival), " + " between
 * them, into out (len bytes): "constant + poisson". */
void result_arrivals_text(unsigned a, char *out, size_t len);

#endif
