/* config_diff: what differs between the configurations of two results, so
 * that compare calls two arms an A/A only when nothing but noise separates
 * them, and otherwise names each parameter that differs.
 *
 * Which parameters are compared is not listed here: the caller hands a
 * list of fields, one per option that changes a run, built from the
 * option table (cli/options_diff.c), so that a new option is compared
 * without anyone remembering to. This file only knows how to read and
 * show each kind of field. */
#ifndef RPCBENCH_CONFIG_DIFF_H
#define RPCBENCH_CONFIG_DIFF_H

#include <stddef.h>

#include "model/run_result.h"

#define CONFIG_DIFF_MAX 48 /* differences kept: one per field at most */
#define CONFIG_FIELDS_MAX 64 /* fields of a list */

/* How a field is read and shown. The CK_ values up to CK_TEXT read the
 * run_config bytes at off (size bytes); the others read the result. */
enum config_kind {
    CK_BY_TYPE,     /* an option row's default: the kind its value type gives */
    CK_INT,         /* int */
    CK_U64,         /* uint64_t */
    CK_DURATION,    /* int64_t ns, shown as "30s" */
    CK_RATE,        /* double per second, "10/s" */
    CK_SIZE,        /* size_t bytes */
    CK_CHOICE,      /* an enum: choices[value] */
    CK_FLAG,        /* int: "on" / "off" */
    CK_TEXT,        /* char[size] */
    CK_STAGES,      /* --stages: "2s:5/s-20/s,2s:20/s" */
    CK_EXPECTS,     /* --expect: the checks, "; " between */
    CK_VERBS,       /* the verb mix or --method ("verb" or "method") */
    CK_URL,         /* the URL, or "built-in simulator" */
    CK_VMS,         /* the simulator's size: only when both arms run it */
    CK_ENCODING,    /* the protocol */
    CK_SERVER,      /* the server sampled: its pids, its name, or none */
    CK_PACER_WINDOW,/* "auto" or the window */
    CK_AUTH,        /* headers and credentials, as shown (secrets "***") */
    CK_PROFILE      /* whether the server was profiled, and how */
};

/* One field compared: its name as reports say it ("timeout", "verb"). */
struct config_field {
    const char *name;    /* static */
    enum config_kind kind;
    size_t off, size;    /* in struct run_config (kinds up to CK_TEXT) */
    const char *const *choices; /* CK_CHOICE */
    int nchoices;
};

/* One parameter that differs: its name ("verb", "connections") and each
 * side's value as a report shows it. */
struct config_diff {
    const char *name; /* static */
    char a[96], b[96];
};

/* Compares the n fields of a and b (and their builds), in order. Fills
 * out (CONFIG_DIFF_MAX entries, the caller's) with those that differ.
 * @return how many differ (0: an A/A). a, b and fields are only read. */
size_t config_diff(const struct run_result *a, const struct run_result *b,
                   const struct config_field *fields, size_t n, struct config_diff *out);

/* "verb (list:1 vs getAllVmStats:1), connections (1 vs 4)" into text (len
 * bytes, the caller's, always terminated; cut short at len). */
void config_diff_text(const struct config_diff *d, size_t n, char *text, size_t len);

#endif
