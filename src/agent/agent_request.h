/* agent_request: the one request head `rpcbench agent` accepts, parsed
 * with bounds and no allocation (the fuzzer's target, fuzz_agent_request):
 *
 *   GET /v1/clock HTTP/1.1            the agent's clock ("C" line)
 *   GET /v1/samples?interval_ns=I&start_ns=T[&lead_ns=L][&pid=P,P|&name=N] HTTP/1.1
 *                                     a sample every I ns at T - L + k*I
 *                                     (the agent's clock), streamed
 *   GET /v1/server?pid=P,P|name=N HTTP/1.1
 *                                     is that server there? (200, or 404
 *                                     with why): asked before a run
 *   Authorization: Bearer TOKEN       on both (auth_token.h)
 *
 * Any other header is skipped; no body is read. Nothing here checks the
 * token: the caller compares it (auth_token_equal). */
#ifndef RPCBENCH_AGENT_REQUEST_H
#define RPCBENCH_AGENT_REQUEST_H

#include <stddef.h>
#include <stdint.h>
#include <sys/types.h>

#include "net/auth_token.h"
#include "proc/procstat.h"

#define AGENT_REQUEST_MAX 4096 /* bytes of a head; more is refused (431) */
#define AGENT_PIDS_MAX 16      /* pids one request may watch */
#define AGENT_MIN_INTERVAL_NS 10000000LL       /* 10 ms */
#define AGENT_MAX_INTERVAL_NS 3600000000000LL  /* 1 h */

enum agent_path { AGENT_CLOCK, AGENT_SAMPLES, AGENT_SERVER };

struct agent_request {
    enum agent_path path;
    char token[AUTH_TOKEN_MAX + 1]; /* "" when no Authorization: Bearer */
    pid_t pids[AGENT_PIDS_MAX];
    size_t npids;
    char name[64];                  /* "" when by pid (or neither) */
    int64_t interval_ns, start_ns, lead_ns;
    int status;                     /* when refused: the HTTP status to answer */
};

/* Parses the head in buf[0..len) (not NUL-terminated; it may hold bytes
 * after the head) into r (the caller's).
 * @return the head's length (> 0) when it is complete and valid, 0 when
 * more bytes are needed (len < AGENT_REQUEST_MAX, no blank line yet), or
 * -1 when refused: r->status says how (400 malformed, 404 unknown path,
 * 405 not GET, 431 too long) and err (ERR_LEN, caller-owned) why. */
int agent_request_parse(const char *buf, size_t len, struct agent_request *r, char *err);

#endif
