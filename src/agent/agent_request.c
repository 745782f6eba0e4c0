/* agent_request: the agent's request head (agent_request.h). Strict on
 * purpose: the agent is reachable from the network and answers only
 * what a run sends, so anything unusual is refused, not guessed at. */
#include "agent/agent_request.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "base/err.h"
#include "net/http_head.h"

__attribute__((format(printf, 4, 5))) static int refuse(struct agent_request *r, int status,
                                                        char *err, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(err, ERR_LEN, fmt, ap);
    va_end(ap);
    r->status = status;
    return -1;
}

/* A decimal int64 in [min, max], the whole of s. @return 0, or -1. */
static int int_in(const char *s, long long min, long long max, int64_t *out)
{
    char *end;
    if (*s < '0' || *s > '9' || strlen(s) > 19)
        return -1;
    long long v = strtoll(s, &end, 10);
    if (*end || v < min || v > max)
        return -1;
    *out = v;
    return 0;
}

static int parse_pids(struct agent_request *r, char *s, char *err)
{
    for (char *save = NULL, *p = strtok_r(s, ",", &save); p; p = strtok_r(NULL, ",", &save)) {
        int64_t v;
        if (r->npids == AGENT_PIDS_MAX)
            return refuse(r, 400, err, "more than %d pids", AGENT_PIDS_MAX);
        if (int_in(p, 1, 0x7fffffff, &v))
            return refuse(r, 400, err, "bad pid");
        r->pids[r->npids++] = (pid_t)v;
    }
    return r->npids ? 0 : refuse(r, 400, err, "empty pid list");
}

/* A process name as /proc's comm holds it, without anything to escape. */
static int parse_name(struct agent_request *r, const char *s, char *err)
{
    size_t n = strlen(s);
    if (n == 0 || n >= sizeof r->name || strspn(s, "abcdefghijklmnopqrstuvwxyz"
                                                   "ABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789._-+") != n)
        return refuse(r, 400, err, "bad process name");
    memcpy(r->name, s, n + 1);
    return 0;
}

/* One key=value of the query; *seen has a bit per key already given
 * (each may come once). */
static int parse_param(struct agent_request *r, char *key, char *val, unsigned *seen, char *err)
{
    static const char *const keys[] = {"interval_ns", "start_ns", "lead_ns", "pid", "name"};
    size_t i = 0;
    while (i < sizeof keys / sizeof keys[0] && strcmp(key, keys[i]))
        i++;
    if (i == sizeof keys / sizeof keys[0] || (*seen & (1u << i)))
        return refuse(r, 400, err, "unknown or repeated parameter");
    *seen |= 1u << i;
    switch (i) {
    case 0:
        return int_in(val, AGENT_MIN_INTERVAL_NS, AGENT_MAX_INTERVAL_NS, &r->interval_ns)
                   ? refuse(r, 400, err, "bad interval_ns")
                   : 0;
    case 1:
        return int_in(val, 0, INT64_MAX, &r->start_ns) ? refuse(r, 400, err, "bad start_ns") : 0;
    case 2:
        return int_in(val, 0, AGENT_MAX_INTERVAL_NS, &r->lead_ns) ? refuse(r, 400, err, "bad lead_ns")
                                                                  : 0;
    case 3: return parse_pids(r, val, err);
    default: return parse_name(r, val, err);
    }
}

static int parse_query(struct agent_request *r, char *q, char *err)
{
    unsigned seen = 0;
    r->interval_ns = r->start_ns = -1;
    for (char *save = NULL, *p = strtok_r(q, "&", &save); p; p = strtok_r(NULL, "&", &save)) {
        char *eq = strchr(p, '=');
        if (!eq)
            return refuse(r, 400, err, "a parameter without a value");
        *eq = '\0';
        if (parse_param(r, p, eq + 1, &seen, err))
            return -1;
    }
    if (r->npids && r->name[0])
        return refuse(r, 400, err, "pid or name, not both");
    if (r->path == AGENT_SERVER)
        return seen != (1u << 3) && seen != (1u << 4)
                   ? refuse(r, 400, err, "pid or name, and nothing else")
                   : 0;
    if (r->interval_ns < 0 || r->start_ns < 0)
        return refuse(r, 400, err, "interval_ns and start_ns are required");
    if (r->lead_ns >= r->interval_ns)
        return refuse(r, 400, err, "lead_ns must be under interval_ns");
    return 0;
}

/* The request line as http_head read it: only GET, one of our paths. */
static int parse_target(struct agent_request *r, const struct http_head *h, char *err)
{
    char target[AGENT_REQUEST_MAX + 1];
    if (strcmp(h->method, "GET"))
        return refuse(r, 405, err, "only GET");
    if (!h->target || h->target_len > AGENT_REQUEST_MAX)
        return refuse(r, 400, err, "no request target");
    memcpy(target, h->target, h->target_len);
    target[h->target_len] = '\0';
    char *q = strchr(target, '?');
    if (q)
        *q++ = '\0';
    if (!strcmp(target, "/v1/clock") && !q) {
        r->path = AGENT_CLOCK;
        return 0;
    }
    if (!strcmp(target, "/v1/samples") && q) {
        r->path = AGENT_SAMPLES;
        return parse_query(r, q, err);
    }
    if (!strcmp(target, "/v1/server") && q) {
        r->path = AGENT_SERVER;
        return parse_query(r, q, err);
    }
    return refuse(r, 404, err, "no such path");
}

/* The headers' state: the first header refused is answered only after
 * the request line is judged, as it comes first. */
struct fields {
    struct agent_request *r;
    int status;
    char why[ERR_LEN];
};

/* Each header (http_head's callback): only Authorization is read. */
static int on_header(void *ctx, const char *name, size_t nlen, const char *v, size_t vlen)
{
    struct fields *f = ctx;
    struct agent_request *r = f->r;
    if (f->status || nlen != 13 || strncasecmp(name, "authorization", 13))
        return 0;
    size_t n = 0;
    if (vlen < 7 || strncmp(v, "Bearer ", 7) || r->token[0]) {
        f->status = 400;
        snprintf(f->why, sizeof f->why, "Authorization: Bearer TOKEN, once");
        return 0;
    }
    v += 7, vlen -= 7;
    while (n < vlen && v[n] != ' ' && v[n] != '\t')
        n++;
    size_t rest = n;
    while (rest < vlen && (v[rest] == ' ' || v[rest] == '\t'))
        rest++;
    if (n == 0 || n > AUTH_TOKEN_MAX || rest != vlen) {
        f->status = 400;
        snprintf(f->why, sizeof f->why, "malformed token");
        return 0;
    }
    memcpy(r->token, v, n);
    r->token[n] = '\0';
    return 0;
}

int agent_request_parse(const char *buf, size_t len, struct agent_request *r, char *err)
{
    memset(r, 0, sizeof *r);
    struct fields f = {.r = r};
    struct http_head h = {.on_field = on_header, .ctx = &f};
    int end = http_head_parse(buf, len, AGENT_REQUEST_MAX, HTTP_HEAD_STRICT, &h);
    if (end < 0 && h.too_long)
        return refuse(r, 431, err, "request head too long");
    if (end < 0)
        return refuse(r, h.bad_method ? 405 : 400, err, "%s", h.bad_method ? "only GET" : h.why);
    if (end == 0)
        return 0;
    if (parse_target(r, &h, err))
        return -1;
    if (f.status)
        return refuse(r, f.status, err, "%s", f.why);
    return end;
}
