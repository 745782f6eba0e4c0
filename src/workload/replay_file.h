/* replay_file: a recording of `rpcbench record` (JSON Lines), read for
 * replay. Line 1 is the header {"rpcbench_recording": 1, ...}; then one
 * line per call {"t": s since the start, "conn": N (from 1), "encoding":
 * "xmlrpc"|"jsonrpc", "method": ..., "params": ..., ...}; a trailer
 * {"end": true, ...} may close it. Unknown keys and lines are skipped.
 *
 * The calls become a workload (workload.h): one call per distinct method
 * and params, named by the recorded method ("list", "list#2" for a second
 * set of params), rendered once by the engine as a workload's calls are;
 * and a schedule: each recorded call as its time, its connection and
 * which of those calls it is (16 bytes a call, the whole recording held
 * once, bounded by REPLAY_FILE_MAX_CALLS). */
#ifndef RPCBENCH_REPLAY_FILE_H
#define RPCBENCH_REPLAY_FILE_H

#include <stddef.h>
#include <stdint.h>

#include "workload/workload.h"

#define REPLAY_FILE_MAX_CALLS 2000000
#define REPLAY_FILE_MAX_CONNS 10000 /* --connections' bound */

struct rec_call {
    int64_t t_ns;   /* since the recording's start */
    uint32_t conn;  /* 0-based, dense: its connection's place in the recording */
    uint16_t verb;  /* its call in the workload */
};

struct replay_file {
    struct workload wl;      /* the distinct calls (wl.path: the file) */
    struct rec_call *calls;  /* owned: ncalls, by conn then time */
    size_t ncalls;
    size_t *first;           /* owned: conn k's calls are [first[k], first[k+1]) */
    uint32_t nconns;
    int64_t span_ns;         /* the last call's time, or the trailer's "t" if later */
    int64_t period_ns;       /* --loop's round: span plus the mean gap (> 0) */
    char encoding[16];       /* what the calls are sent as */
    int translated;          /* calls translated from the other encoding */
};

/* Reads the recording at path into r (the caller's; zeroed here), every
 * call in the encoding as ("xmlrpc", "jsonrpc"; NULL or "": each call
 * as recorded, which must then be one encoding). A call recorded in the
 * other encoding is translated (vdsm_verbs.h). @return 0, or -1 with a
 * one-line err (ERR_LEN) naming the file and line: not a recording, a
 * bad call line, no calls, more than REPLAY_FILE_MAX_CALLS calls, more than
 * WL_MAX_CALLS distinct calls, or a call with no counterpart in as (its
 * method named). Free with recording_free (after -1 too). */
int replay_file_load(struct replay_file *r, const char *path, const char *as, char *err);
void replay_file_free(struct replay_file *r);

#endif
