/* profile_sum: what a run keeps of the server's profile (issue 27): the
 * functions that cost most, as shares of the server's samples in the
 * measured window and as CPU-ms per call (share x the run's measured
 * CPU-ms per call), with what the profiler itself cost and the caveats
 * (saturation, truncated stacks, missing symbols). It is saved in the
 * result's JSON ("profile") and re-rendered by `report`; the stacks
 * themselves live in the profile layer (profile/fold.h) and the files of
 * --profile-out. Plain data: nothing here allocates. */
#ifndef RPCBENCH_PROFILE_SUM_H
#define RPCBENCH_PROFILE_SUM_H

#include <stdint.h>
#include <json-c/json.h>

#define PROFILE_MAX_ROWS 64
#define PROFILE_MAX_MODULES 12
#define PROFILE_FUNC_LEN 256 /* a JIT's names carry their paths; the JSON keeps them whole */
#define PROFILE_MODULE_LEN 48
#define PROFILE_NOTE_LEN 400
#define PROFILE_DEFAULT_TOP 15
/* The flame graph's tree: at most this many frames, each over this share
 * of the window's samples (the --html page draws it; the JSON keeps it). */
#define PROFILE_MAX_FLAME 256
#define PROFILE_FLAME_MIN_SHARE 0.005
/* What a profile taken under saturation is called, everywhere. */
#define PROFILE_SATURATED_TEXT "taken under saturation: it shows overload, not cost"

struct profile_row {
    char func[PROFILE_FUNC_LEN];
    char module[PROFILE_MODULE_LEN]; /* "" unknown (a --profiler's stacks) */
    double self_pct, total_pct;      /* of the window's samples */
    double self_ms, total_ms;        /* CPU-ms per call; NAN when the CPU per
                                        call is unknown */
};

/* One frame of the flame graph's tree: a function at one place in the
 * stacks (the same function under two callers is two frames). */
struct profile_flame_node {
    char func[PROFILE_FUNC_LEN];
    int parent;                 /* the caller's index (always lower); -1: the root */
    int64_t self, total;        /* samples: at the leaf here, and with the callees */
};

struct profile_summary {
    int taken;                  /* 0: no profile (every other field unset) */
    int lost;                   /* asked for, but the profiler failed (taken 0):
                                   the command's exit code says so; not saved */
    char profiler[64];          /* "perf cpu-clock 999 Hz, call graphs fp" or
                                   "command: py-spy ..." (cut) */
    char sampler[16];           /* "perf", "python", "command" ("" saved before
                                   there was a choice) */
    int64_t samples;            /* stacks in the measured window */
    int64_t outside;            /* stacks before or after it, left out */
    double window_s;            /* the window the samples cover */
    double rate_hz;             /* samples per second of the window */
    double profiler_cpu_ms;     /* the profiler's own CPU (FIG_UNKNOWN: base/figure.h) */
    double profiled_cpu_ms;     /* the server's CPU the stacks add up to: the Python
                                   sampler weighs them in CPU ns (FIG_UNKNOWN: perf's
                                   and a command's are counts) */
    double cpu_ms_per_call;     /* what the shares were multiplied by (or FIG_UNKNOWN) */
    int saturated;              /* the server reached --cpu-saturation */
    char note[PROFILE_NOTE_LEN]; /* truncated stacks, missing symbols, and
                                    the likely fix ("" none) */
    struct profile_row rows[PROFILE_MAX_ROWS]; /* by self share, descending */
    int nrows;
    int top;                    /* rows the table shows (--profile-top) */
    /* by module (func: the module's name, module ""): self is its own CPU
     * and the libc and kernel time it called, total with its callees */
    struct profile_row modules[PROFILE_MAX_MODULES];
    int nmodules;
    /* the stacks' tree, pruned to frames over PROFILE_FLAME_MIN_SHARE:
     * flame[0] is the root ("all", every sample), callers before callees */
    struct profile_flame_node flame[PROFILE_MAX_FLAME];
    int nflame;
};

/* compare --profile: B - A per function, in CPU-ms per call, each round
 * paired (its own profile per arm), with a confidence interval across the
 * rounds; rows by how much of the difference they explain (|self change|,
 * which sums to the whole difference), descending. */
struct profile_diff_row {
    char func[PROFILE_FUNC_LEN];
    char module[PROFILE_MODULE_LEN];
    double a_self, b_self;          /* mean CPU-ms per call */
    double d_self, lo, hi;          /* B - A, and its interval */
    double d_total;                 /* B - A with the callees */
    double ratio;                   /* b_self / a_self; NAN when a_self is 0 */
    int significant;                /* the interval excludes 0 */
};

struct profile_diff {
    int taken;                      /* 0: no diff (no --profile) */
    char refused[PROFILE_NOTE_LEN]; /* why there is no diff ("" there is) */
    char names[2][64];              /* the arms' labels */
    int rounds;
    double conf;                    /* the interval's confidence, e.g. 0.95 */
    double d_cpu, d_cpu_lo, d_cpu_hi; /* B - A of the whole CPU-ms per call */
    char summary[PROFILE_NOTE_LEN]; /* the one-line sum */
    struct profile_diff_row rows[PROFILE_MAX_ROWS];
    int nrows;
    int top;                        /* rows the table shows */
    int modules;                    /* the rows are modules (fold_by_module's) */
    /* Each arm's profiler and its caveat (its first round's words: "python
     * sampler, CPython 3.11, 99 Hz, CPU"; perf on CPython says its Python
     * frames are not visible) and its own CPU beside the server's, both
     * summed over the rounds (FIG_UNKNOWN where a round did not measure it):
     * a reader of B - A sees which profiler made each side and what it cost. */
    struct profile_diff_arm {
        char profiler[64];
        char note[PROFILE_NOTE_LEN];
        double own_cpu_ms;
        double server_cpu_ms;
    } arm[2];
};

/* @return d as a new JSON object (the caller's), d only read. */
json_object *profile_diff_json(const struct profile_diff *d);

/* @return s as a new JSON object (the caller's), s only read. */
json_object *profile_sum_json(const struct profile_summary *s);
/* Fills s (zeroed first) from a saved "profile" object (borrowed; NULL:
 * s->taken stays 0). */
void profile_sum_load(json_object *o, struct profile_summary *s);

#endif
