/* fuzz_agent_request: what `rpcbench agent` does with the bytes a peer
 * sends before it has shown the token: the request head parser
 * (agent/agent_request.h), fed the stream as a connection reads it (in
 * reads of a given size, each parse over everything read so far, as
 * agent_conn.c's read_request does), then in one read: both must agree
 * (complete or not, the head's length, refused or not, the status), and
 * what is accepted must respect the documented bounds. The sample lines a
 * run parses (proc/agent_wire.h) get the same bytes, line by line.
 *
 * Byte 0: the read size (0: everything at once, else 1..255 bytes per
 * read). The rest is the byte stream. */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "agent/agent_request.h"
#include "base/err.h"
#include "proc/agent_wire.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

/* The bounds agent_request.h promises for an accepted head. */
static void check_accepted(const struct agent_request *r, int rc, size_t len)
{
    if (rc <= 0 || (size_t)rc > len || rc > AGENT_REQUEST_MAX)
        abort();
    if (memchr(r->token, '\0', sizeof r->token) == NULL ||
        memchr(r->name, '\0', sizeof r->name) == NULL || r->npids > AGENT_PIDS_MAX)
        abort();
    if (r->path == AGENT_SAMPLES &&
        (r->interval_ns < AGENT_MIN_INTERVAL_NS || r->interval_ns > AGENT_MAX_INTERVAL_NS ||
         r->start_ns < 0 || r->lead_ns < 0 || r->lead_ns >= r->interval_ns ||
         (r->npids && r->name[0])))
        abort();
    for (size_t i = 0; i < r->npids; i++)
        if (r->pids[i] <= 0)
            abort();
}

/* Parses the stream as a connection would read it, step bytes a read.
 * @return the last parse's value (r holds its status when refused). */
static int as_read(const char *p, size_t n, size_t step, struct agent_request *r)
{
    char err[ERR_LEN];
    size_t have = 0;
    int rc = 0;
    while (rc == 0 && have < n && have < AGENT_REQUEST_MAX) {
        size_t take = step && n - have > step ? step : n - have;
        if (have + take > AGENT_REQUEST_MAX)
            take = AGENT_REQUEST_MAX - have;
        have += take;
        rc = agent_request_parse(p, have, r, err);
        if (memchr(err, '\0', sizeof err) == NULL)
            abort();
    }
    if (rc > 0)
        check_accepted(r, rc, have);
    return rc;
}

static void wire_lines(const char *p, size_t n)
{
    char line[AGENT_LINE_MAX + 1];
    struct agent_sample s;
    int64_t now;
    int cores;
    while (n) {
        const char *nl = memchr(p, '\n', n);
        size_t len = nl ? (size_t)(nl - p) : n;
        size_t keep = len < AGENT_LINE_MAX ? len : AGENT_LINE_MAX;
        memcpy(line, p, keep);
        line[keep] = '\0';
        if (agent_wire_parse(line, &s) == 0 && (s.k < 1 || s.npids > AGENT_WIRE_PIDS))
            abort();
        (void)agent_wire_parse_clock(line, &now, &cores);
        p += nl ? len + 1 : len;
        n -= nl ? len + 1 : len;
    }
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    if (size < 1)
        return 0;
    static struct agent_request a, b;
    const char *p = (const char *)data + 1;
    size_t n = size - 1;
    int ra = as_read(p, n, data[0], &a), rb = as_read(p, n, 0, &b);
    /* a head is whole at its blank line however TCP cut it */
    if (ra != rb || (ra < 0 && a.status != b.status))
        abort();
    wire_lines(p, n);
    return 0;
}
