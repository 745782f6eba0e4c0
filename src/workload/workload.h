/* workload: a file of calls, one a line, in JSON, that drives either
 * encoding (README, Workload files):
 *
 *   {"name": "status", "method": "aria2.tellStatus",
 *    "params": ["${pick:gids.txt}"], "weight": 3}
 *   {"name": "stats", "method": "getAllVmStats", "every": "15s"}
 *
 * Blank lines and lines starting with '#' are skipped. params: a JSON array
 * (or, for JSON-RPC only, an object), its values mapped to XML-RPC's types
 * as xmlconv.h says, tagged values ({"$base64": ...}, {"$datetime": ...},
 * {"$i8": ...}) included, and templates in its strings (tmpl.h). weight
 * (1..1000, default 1) is the call's share of the weighted mix; a call
 * with "every" is instead sent on its own fixed period and takes no
 * weight. "expect" (a check, or an array of up to WL_MAX_EXPECTS, in
 * expect.h's grammar) checks that call's answers only, on top of the
 * run's --expect, which checks every call's: both apply.
 *
 * One file serves both encodings: "method" may name the call per encoding,
 * {"xmlrpc": "list", "jsonrpc": "Host.getVMList"}, and then "params" may
 * too, {"xmlrpc": [...], "jsonrpc": {...}} (else both take the one given);
 * a plain method that is a VDSM verb of the other encoding maps itself,
 * params included (vdsm_verbs.h). workload_resolve makes the choice once
 * the encoding is known; the call's default name is the method as written
 * (the XML-RPC one of a pair). */
#ifndef RPCBENCH_WORKLOAD_H
#define RPCBENCH_WORKLOAD_H

#include <json-c/json.h>
#include <stdint.h>

#include "encoders/encoder.h"
#include "workload/expect.h"
#include "workload/tmpl.h"

#define WL_MAX_CALLS 64 /* model/run_result.h's RUN_MAX_VERBS */
#define WL_NAME_LEN 64 /* and its verb_spec's name */
#define WL_MAX_EXPECTS 4 /* a line's own checks */

struct wl_call {
    char name[WL_NAME_LEN];
    char method[ENC_METHOD_MAX]; /* for the encoding resolved (as written before) */
    json_object *params; /* owned; templates replaced by markers; NULL: none */
    char by_enc[2][ENC_METHOD_MAX]; /* "method" per encoding (0 XML-RPC, 1
                                       JSON-RPC; "" none): both empty when
                                       it was one string */
    int params_by_enc;   /* params is {"xmlrpc": ..., "jsonrpc": ...} */
    int verb;            /* given as "verb": one of VDSM's, named per encoding */
    int named;           /* params is an object (JSON-RPC only) */
    unsigned weight;     /* 0 with every */
    int64_t every_ns;    /* 0: the call is in the weighted mix */
    int line;            /* where it is in the file */
    int templated;       /* it has templates */
    char head[TMPL_HEAD_LEN + 1]; /* its markers' (tmpl_head): text it has not */
    struct expect expects[WL_MAX_EXPECTS]; /* "expect": this call's own checks */
    size_t nexpects;
};

struct workload {
    char path[512];
    struct wl_call call[WL_MAX_CALLS];
    size_t ncalls;
    struct tmpl_var vars[TMPL_MAX_VARS];
    size_t nvars;
    struct tmpl_file files[TMPL_MAX_FILES];
    size_t nfiles;
};

/* Reads the workload at path into w (the caller's; zeroed here), with the
 * files of its templates (relative to the workload's directory).
 * @return 0, or -1 with err "PATH:LINE: what was wrong" (ERR_LEN), w then
 * freed. Free a loaded w with workload_free. */
int workload_load(struct workload *w, const char *path, char *err);
void workload_free(struct workload *w);
/* Fits every call of w to the encoding (xml 1: XML-RPC): its method and
 * params for it, per encoding or translated (a VDSM verb of the other).
 * Once per loaded w. @return 0, or -1 with err "PATH:LINE: what" (no
 * method for this encoding, params that do not translate). */
int workload_resolve(struct workload *w, int xml, char *err);
/* @return c's params in the encoding's terms, a new reference (NULL:
 * none): XML-RPC as they are (xmlconv renders the tagged values), JSON-RPC
 * with each tagged value as plain JSON (the base64 and datetime text, the
 * i8 as an integer). */
json_object *workload_params(const struct wl_call *c, int xml);

#endif
