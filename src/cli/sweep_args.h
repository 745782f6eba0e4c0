/* sweep_args: what `rpcbench sweep` adds to run's command line: the
 * options only sweep has, and the lists of --rate, --connections, --vms,
 * --proto and --verb (their rows in option_rows.c say so; options_parse
 * reads them in its one pass, with these files' parsers, into struct
 * sweep_args); then the grid's cells (the cross product) and each cell's
 * run_config, all checked before anything is sent. Internal to cli/. */
#ifndef RPCBENCH_SWEEP_ARGS_H
#define RPCBENCH_SWEEP_ARGS_H

#include <stddef.h>

#include "cli/options.h"
#include "judge/condition.h"
#include "model/sweep.h"

#define SWEEP_MAX_LIST 64     /* values in one list (a range included) */
#define SWEEP_MAX_CELLS 256   /* cells of a grid */
#define SWEEP_MAX_RUNS 400    /* cells x --repeat: each run's result (its
                                 histograms) is kept to the end */
#define SWEEP_MAX_SEARCHES 16 /* --find-max: --proto x --verb */
#define SWEEP_MAX_PROTOS 2

/* What sweep adds to run's options. A list not given holds run's one
 * value (its default or the single value given). */
struct sweep_args {
    double rates[SWEEP_MAX_LIST];
    size_t nrates;
    int conns[SWEEP_MAX_LIST];
    size_t nconns;
    int vms[SWEEP_MAX_LIST];
    size_t nvms;
    char protos[SWEEP_MAX_PROTOS][16]; /* "" when not given: run's default */
    size_t nprotos;
    char verbs[SWEEP_MAX_LIST][128];  /* one cell's mix each, with ',' ("list:4,ping:1") */
    size_t nverbs;
    int rate_given, vms_given, verb_given;
    int repeat;               /* --repeat, default 1 */
    char csv[512];            /* --csv FILE, "" none */
    int find_max;             /* --find-max given */
    char find_text[256];
    struct cond_list find;    /* its conditions */
    double rate_min, rate_max, resolution; /* resolution a fraction (0.05) */
};

/* Checks what needs both halves (o parsed by options_parse, only read):
 * --vms against --url, --find-max against the lists, the run options
 * sweep does not take; then fills the lists not given from o.
 * @return 0, or -1 with err. */
int sweep_args_check(struct sweep_args *a, const struct options *o, char *err);

/* The run_config of parameters p (o and p only read) into *cfg: run's
 * options with p's rate, connections, vms, proto and verb mix; its label
 * names the cell. @return 0, or -1 with err (what options_arm refuses). */
int sweep_cell_config(const struct options *o, const struct sweep_params *p,
                      struct run_config *cfg, char *err);

/* The grid's cells, in order (vms, then proto, then verb, then
 * connections, then rate: the rate varies fastest), added to s with
 * sweep_add_cell and their configs into *cfgs (malloc'd, the caller's to
 * free, s->ncells entries), each checked. For --find-max: nothing is
 * added (the search makes its cells). @return 0, or -1 with err. */
int sweep_args_cells(const struct sweep_args *a, const struct options *o, struct sweep *s,
                     struct run_config **cfgs, char *err);

#endif
