/* sweep: what `rpcbench sweep` measured: a grid of cells (one parameter
 * set each, run once per repeat), and, for --find-max, the capacity
 * searches whose probes are cells too. Owned here: the cells, their
 * results, the searches and their probes; struct sweep itself is the
 * caller's (it may live on the stack). */
#ifndef RPCBENCH_SWEEP_H
#define RPCBENCH_SWEEP_H

#include <stddef.h>

#include "base/err.h"
#include "model/metric.h"
#include "model/run_result.h"

/* What varies from cell to cell. Fields a sweep does not vary still hold
 * the value every cell used. vms is 0 against --url (not applicable).
 * verb is the mix as given to run's --verb ("getAllVmStats", "list:4,ping:1"). */
struct sweep_params {
    double rate;              /* offered, per second; 0 = closed loop */
    int connections;
    int vms;
    char proto[16];           /* "xmlrpc" | "jsonrpc" */
    char verb[128];
};

/* One cell: its parameters and one result per repeat done so far. */
struct sweep_cell {
    struct sweep_params p;
    struct run_result *reps;  /* [nreps], each owned (result_free'd by sweep_free) */
    size_t nreps, cap_reps;
};

/* A cell's figures over its repeats, indexed by enum metric (model/metric.h:
 * the sweep's table shows those with a sweep_col): the median and the min and max.
 * A figure unknown in every repeat (no answer, no CPU reading) is
 * FIG_UNKNOWN (base/figure.h) in all three. flags: what limited any repeat, from result_limits (the one
 * diagnosis of run, sweep and --find-max): a rate not held is put on the
 * side that held it back (result_rate_holder). */
#define SWEEP_SATURATED 1     /* the server reached --cpu-saturation */
#define SWEEP_CLIENT_BOUND 2  /* the client's CPU was the limit */
#define SWEEP_CUT_SHORT 4     /* a repeat ended early by SIGINT (added by sweep_cell_row) */
#define SWEEP_SERVER_BOUND 8  /* every connection busy: the server slower than the rate */
#define SWEEP_LATE_PACER 16   /* an idle client sent late: the machine held it back */
#define SWEEP_RATE_NOT_HELD 32 /* under 99 % of the rate, neither side to blame */
#define SWEEP_UNFINISHED 64   /* a repeat left requests unanswered: its latencies
                                  hold their waits, lower bounds (result.h) */
#define SWEEP_NFLAGS 7
struct sweep_row {
    double med[METRIC_N], min[METRIC_N], max[METRIC_N];
    unsigned flags;
    size_t nreps;
};

/* One probe of a capacity search: the rate tried, whether the condition
 * held, why not (the failed condition, "server saturated", "client could
 * not hold the rate"; "" when it passed), and its result's cell. */
struct sweep_probe {
    double rate;
    int pass;
    char reason[RUN_WARNING_LEN];
    size_t cell;
};

enum capacity_outcome {
    CAPACITY_FOUND,           /* exit 0 */
    CAPACITY_MIN_BREAKS,      /* even --rate-min breaks: exit 3 */
    CAPACITY_MAX_HOLDS,       /* --rate-max still holds: exit 4 */
    CAPACITY_INTERRUPTED      /* SIGINT before the search ended */
};

/* One capacity search (per --proto x --verb listed). max_good_rate and
 * first_bad_rate are -1 when there is none. */
struct sweep_capacity {
    char proto[16];
    char verb[128];
    char condition[256];      /* the --find-max text */
    double max_good_rate, first_bad_rate;
    enum capacity_outcome outcome;
    struct sweep_probe *probes; /* [nprobes], owned */
    size_t nprobes, cap_probes;
};

struct sweep {
    struct sweep_cell *cells; /* [ncells], owned */
    size_t ncells, cap_cells;
    size_t repeats;           /* planned repeats per cell */
    struct sweep_capacity *caps; /* [ncaps], owned */
    size_t ncaps, cap_caps;
    int interrupted;          /* SIGINT ended it early */
};

/* Zeroes s. */
void sweep_init(struct sweep *s);
/* Frees every cell, result, search and probe; s is then as from sweep_init. */
void sweep_free(struct sweep *s);
/* Appends a cell with parameters *p and no result yet.
 * @return its index, or -1 when memory cannot be had. */
long sweep_add_cell(struct sweep *s, const struct sweep_params *p);
/* Moves *r (a whole result, from result_init or a load) into cell i's
 * repeats: the sweep owns it from here, and *r is zeroed (result_free on
 * it is then a no-op). @return 0, or -1 when memory cannot be had (*r is
 * then still the caller's). */
int sweep_add_rep(struct sweep *s, size_t i, struct run_result *r);
/* Appends a capacity search for proto and verb under condition.
 * @return its index, or -1 when memory cannot be had. */
long sweep_add_capacity(struct sweep *s, const char *proto, const char *verb,
                        const char *condition);
/* Appends a probe to search c. @return 0, or -1 when memory cannot be had. */
int sweep_add_probe(struct sweep_capacity *c, const struct sweep_probe *p);

/* ---- rows and selection (sweep_row.c) -------------------------------------- */

/* The parameters of struct sweep_params, as bits, in column order. */
#define SWEEP_P_RATE 1u
#define SWEEP_P_CONNECTIONS 2u
#define SWEEP_P_VMS 4u
#define SWEEP_P_PROTO 8u
#define SWEEP_P_VERB 16u
#define SWEEP_P_ALL 31u
/* The selector keys, in the order of the bits above. */
extern const char *const sweep_param_names[5]; /* "rate", "connections", ... */

/* @return the SWEEP_P_* bits of the parameters that differ between some
 * two cells of s (0 with fewer than two cells). */
unsigned sweep_varying(const struct sweep *s);
/* Parameter bit's value of p ("8", "jsonrpc") into out (len bytes, the
 * caller's, always terminated). */
void sweep_param_value(const struct sweep_params *p, unsigned bit, char *out, size_t len);
/* "rate=8,proto=jsonrpc": the parameters of p named by the bits of which,
 * in column order, into out (len bytes, the caller's, always terminated;
 * "" when which is 0). Rates print as "%g". */
void sweep_params_text(const struct sweep_params *p, unsigned which, char *out, size_t len);
/* c's figures over its repeats into *row (the caller's): median, min and
 * max of each of compare's figures (enum metric), over the repeats where it is
 * known; FIG_UNKNOWN in all three where it is known in none (or c has no
 * repeat);
 * flags from result_limits of every repeat (sweep_limit_flags),
 * SWEEP_CUT_SHORT for a repeat SIGINT ended early, SWEEP_UNFINISHED for one
 * with unfinished requests. c is only read.
 * @return 0, or -1 when memory cannot be had (*row then all unknown). */
int sweep_cell_row(const struct sweep_cell *c, struct sweep_row *row);
/* One cell of s from spec: a cell number as the table shows it (1-based),
 * or "key=value,..." with keys rate, connections, vms, proto, verb (a verb
 * mix's own commas are kept: "verb=list:4,ping:1"), which must match
 * exactly one cell. @return 0 with its index (0-based) in *cell, or -1
 * with a one-line reason in err (ERR_LEN, caller-owned, without the
 * option's name: "no cell has rate=7 (rates: 2, 4, 8)", "rate=8 matches 2
 * cells; name more of rate, connections, vms, proto, verb"). */
int sweep_select(const struct sweep *s, const char *spec, size_t *cell, char *err);

#endif
