/* config_keys: the one list of a run's configuration fields (every field
 * of struct run_config has its row: test_config_keys checks that the rows
 * cover the struct): each field's
 * JSON key, where it is in struct run_config (the only offsetof of a
 * run_config field: the option rows of cli/option_rows.c name their field
 * by its key here, C_KEY), how it is saved and read back. result_json.c
 * writes the "config" object by walking this table and result_load.c
 * reads it by walking the same table, so a field saved is a field loaded,
 * under one key, with one default; compare's diff (cli/options_diff.c)
 * reads each option's field where its row here says, and an MPI rank's
 * result carries its configuration row by row (dist/dist_pack.c).
 *
 * A new field of the config object is one row here. The rows are in the
 * order the object is written; CFK_UNSAVED rows (an option's field a
 * saved file does not keep) are not written. */
#ifndef RPCBENCH_CONFIG_KEYS_H
#define RPCBENCH_CONFIG_KEYS_H

#include <stddef.h>

#include "model/run_result.h"

enum config_key_kind {
    CFK_BOOL,       /* int: true / false; absent: 0 */
    CFK_INT,        /* int in [lo, hi]; absent or outside: dflt */
    CFK_U64,        /* uint64_t, saved as an integer */
    CFK_DOUBLE,     /* double; absent: dflt */
    CFK_SECONDS,    /* int64_t ns, saved in s; absent: dflt s */
    CFK_SECONDS_OR_NULL, /* the same, where -1 ns is null: "not known" (or,
                       for --idle-baseline, "the default"); absent: dflt s,
                       -1 when dflt < 0 */
    CFK_SIZE,       /* size_t bytes; absent, negative or above hi: dflt */
    CFK_WINDOW_US,  /* int64_t ns of --pacer-window, saved in us; outside its range: 0 */
    CFK_CHOICE,     /* an enum (int): choices[value]; an unknown name: dflt */
    CFK_TEXT,       /* char[size]; absent: dflt_text */
    CFK_VERBS,      /* the verb mix: [{name, weight}] */
    CFK_PCTS,       /* the percentiles: [50, 99] */
    CFK_STAGES,     /* --stages (result_stages.h) */
    CFK_BYTES       /* bytes no file keeps (CFK_UNSAVED): a count the rows above
                       save with their arrays, a secret, what the ranks share */
};

#define CFK_OMIT_EMPTY 1 /* not written when empty (text), absent (stages), false
                          (bool) or the default (double) */
#define CFK_UNSAVED 2    /* an option's field no saved file holds (a path to a
                            secret, a switch of this process's output) */
#define CFK_SHOWN 4      /* a line of its own in the report's configuration
                            section (text and page, "KEY value"), a column
                            config_KEY of csv-summary, and compared by compare
                            (named KEY) when no option row compares it: a new
                            field is then seen everywhere by its one row */

struct config_key {
    const char *key;           /* in the config object: "timeout_s" */
    enum config_key_kind kind;
    size_t off, size;          /* in struct run_config */
    const char *const *choices; /* CFK_CHOICE */
    int nchoices;
    double dflt, lo, hi;       /* see the kinds */
    const char *dflt_text;     /* CFK_TEXT: NULL for "" */
    int flags;                 /* CFK_OMIT_EMPTY, CFK_UNSAVED, CFK_SHOWN */
};

extern const struct config_key config_keys[];
extern const size_t config_nkeys;

/* The rows every walker walks (save, load, compare's diff, the report's
 * header and csv-summary, the MPI pack): config_keys, and a test's own
 * row after them (config_keys_testing.h). @return how many. */
size_t config_keys_n(void);
/* @return row i (i < config_keys_n()). */
const struct config_key *config_key_i(size_t i);
/* @return the row whose key is key, or NULL. */
const struct config_key *config_key_find(const char *key);
/* k's value in c as a report shows it ("on", "10s", "xmlrpc", "none" for
 * an empty text) into out (len bytes, the caller's, always terminated);
 * "" for the kinds a line of their own does not show (verbs, stages...). */
void config_key_text(const struct config_key *k, const struct run_config *c, char *out,
                     size_t len);

/* @return the address of k's field in c (the caller's, as c is). */
static inline void *config_key_at(const struct config_key *k, struct run_config *c)
{
    return (char *)c + k->off;
}

/* @return the same, read only. */
static inline const void *config_key_in(const struct config_key *k, const struct run_config *c)
{
    return (const char *)c + k->off;
}

#endif
