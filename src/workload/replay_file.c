/* replay_file: a recording read for replay (replay_file.h). Each line is
 * parsed once, its call found among the distinct ones or added, and its
 * time and connection kept in 16 bytes; the calls are then sorted by
 * connection and time, so a connection's calls are one run of the array. */
#include "workload/replay_file.h"

#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "encoders/vdsm_verbs.h"

#define LINE_LIMIT (1 << 20) /* a call's params, as the recorder wrote them */

/* The header: {"rpcbench_recording": 1, ...}. */
static int is_header(json_object *o)
{
    json_object *v = NULL;
    return json_object_object_get_ex(o, "rpcbench_recording", &v) &&
           json_object_is_type(v, json_type_int) && json_object_get_int(v) == 1;
}

/* The call method(params) as one of r's distinct calls, added when new.
 * @return its index, or -1 with why (too many). */
static int find_call(struct replay_file *r, const char *name, const char *method,
                     json_object *params, char *why)
{
    struct workload *w = &r->wl;
    int same_name = 0;
    for (size_t i = 0; i < w->ncalls; i++) {
        if (!strcmp(w->call[i].method, method) && json_object_equal(w->call[i].params, params))
            return (int)i;
        size_t n = strlen(name);
        same_name += !strncmp(w->call[i].name, name, n) &&
                     (w->call[i].name[n] == '\0' || w->call[i].name[n] == '#');
    }
    if (w->ncalls == WL_MAX_CALLS) {
        snprintf(why, ERR_LEN, "more than %d distinct calls (method and params): replay renders "
                 "each once", WL_MAX_CALLS);
        return -1;
    }
    struct wl_call *c = &w->call[w->ncalls];
    memset(c, 0, sizeof *c);
    if (same_name)
        snprintf(c->name, sizeof c->name, "%.50s#%d", name, (same_name + 1) % 100);
    else
        snprintf(c->name, sizeof c->name, "%s", name);
    snprintf(c->method, sizeof c->method, "%s", method);
    c->params = json_object_get(params);
    c->named = json_object_is_type(params, json_type_object);
    return (int)w->ncalls++;
}

/* A call line's method and params in r's encoding (translated when it
 * was recorded in the other). @return its distinct call's index, or -1
 * with why. */
static int take_method(struct replay_file *r, json_object *o, char *why)
{
    json_object *m = NULL, *enc = NULL, *params = NULL;
    json_object_object_get_ex(o, "params", &params);
    json_object_object_get_ex(o, "encoding", &enc);
    if (!json_object_object_get_ex(o, "method", &m) || !json_object_is_type(m, json_type_string) ||
        json_object_get_string_len(m) == 0 ||
        (size_t)json_object_get_string_len(m) >= ENC_METHOD_MAX - 1) {
        snprintf(why, ERR_LEN, "\"method\": want a string of 1..%d bytes", ENC_METHOD_MAX - 2);
        return -1;
    }
    const char *was = json_object_get_string(enc), *method = json_object_get_string(m);
    if (!was || (strcmp(was, "xmlrpc") && strcmp(was, "jsonrpc"))) {
        snprintf(why, ERR_LEN, "\"encoding\": want \"xmlrpc\" or \"jsonrpc\"");
        return -1;
    }
    if (params && json_object_is_type(params, json_type_null))
        params = NULL;
    if (!r->encoding[0])
        snprintf(r->encoding, sizeof r->encoding, "%s", was);
    if (!strcmp(was, r->encoding))
        return find_call(r, method, method, params, why);
    json_object *p = NULL;
    const char *to;
    if (vdsm_translate(method, params, !strcmp(r->encoding, "xmlrpc"), &to, &p, why))
        return -1;
    r->translated = 1;
    int i = find_call(r, method, to, p, why);
    json_object_put(p);
    return i;
}

/* One call line: its time, connection and call. @return 0, or -1 with why. */
static int take_call(struct replay_file *r, json_object *o, size_t *cap, char *why)
{
    json_object *t = NULL, *conn = NULL;
    json_object_object_get_ex(o, "t", &t);
    json_object_object_get_ex(o, "conn", &conn);
    double ts = json_object_get_double(t);
    int64_t cn = json_object_get_int64(conn);
    if (!(json_object_is_type(t, json_type_double) || json_object_is_type(t, json_type_int)) ||
        !isfinite(ts) || ts < 0 || ts > 1e9) {
        snprintf(why, ERR_LEN, "\"t\": want the seconds since the start (a number >= 0)");
        return -1;
    }
    if (!json_object_is_type(conn, json_type_int) || cn < 1 || cn > UINT32_MAX) {
        snprintf(why, ERR_LEN, "\"conn\": want the connection's number, from 1");
        return -1;
    }
    if (r->ncalls == REPLAY_FILE_MAX_CALLS) {
        snprintf(why, ERR_LEN, "more than %d calls: too large to replay (cut it; --loop "
                 "repeats a part)", REPLAY_FILE_MAX_CALLS);
        return -1;
    }
    int verb = take_method(r, o, why);
    if (verb < 0)
        return -1;
    if (r->ncalls == *cap) {
        size_t n = *cap ? *cap * 2 : 4096;
        struct rec_call *c = realloc(r->calls, n * sizeof *c);
        if (!c) {
            snprintf(why, ERR_LEN, "out of memory");
            return -1;
        }
        r->calls = c;
        *cap = n;
    }
    r->calls[r->ncalls++] =
        (struct rec_call){.t_ns = llround(ts * 1e9), .conn = (uint32_t)cn, .verb = (uint16_t)verb};
    return 0;
}

/* One line (lineno from 1). Lines that are no call (not JSON, or a kind
 * a later recorder writes) are skipped, as the format says.
 * @return 0, 1 at the trailer, or -1 with why. */
static int take_line(struct replay_file *r, const char *text, int lineno, size_t *cap, char *why)
{
    json_object *o = json_tokener_parse(text);
    int rc = 0;
    if (lineno == 1 && !is_header(o)) {
        snprintf(why, ERR_LEN, "not a recording (line 1 is no {\"rpcbench_recording\": 1} "
                 "header)");
        rc = -1;
    } else if (json_object_object_get_ex(o, "end", NULL)) {
        json_object *t = NULL;
        if (json_object_object_get_ex(o, "t", &t))
            r->span_ns = llround(json_object_get_double(t) * 1e9);
        rc = 1;
    } else if (json_object_object_get_ex(o, "method", NULL)) { /* other lines: skipped */
        rc = take_call(r, o, cap, why);
    }
    json_object_put(o);
    return rc;
}

static int by_conn_time(const void *a, const void *b)
{
    const struct rec_call *x = a, *y = b;
    if (x->conn != y->conn)
        return x->conn < y->conn ? -1 : 1;
    return (x->t_ns > y->t_ns) - (x->t_ns < y->t_ns);
}

/* Sorted by connection and time; the connections numbered densely from
 * 0; the span and the loop's round. @return 0, or -1 with why. */
static int finish(struct replay_file *r, char *why)
{
    qsort(r->calls, r->ncalls, sizeof *r->calls, by_conn_time);
    int64_t last = 0;
    uint32_t raw = 0, k = 0;
    for (size_t i = 0; i < r->ncalls; i++) {
        if (i == 0 || r->calls[i].conn != raw)
            k += i > 0;
        raw = r->calls[i].conn;
        r->calls[i].conn = k;
        if (r->calls[i].t_ns > last)
            last = r->calls[i].t_ns;
    }
    r->nconns = k + 1;
    if (r->nconns > REPLAY_FILE_MAX_CONNS) {
        snprintf(why, ERR_LEN, "%u connections: replay opens one per recorded connection, "
                 "%d at most", r->nconns, REPLAY_FILE_MAX_CONNS);
        return -1;
    }
    r->first = calloc(r->nconns + 1, sizeof *r->first);
    if (!r->first) {
        snprintf(why, ERR_LEN, "out of memory");
        return -1;
    }
    for (size_t i = 0; i < r->ncalls; i++)
        r->first[r->calls[i].conn + 1] = i + 1;
    if (r->span_ns < last)
        r->span_ns = last;
    int64_t gap = r->ncalls > 1 ? r->span_ns / (int64_t)(r->ncalls - 1) : 0;
    r->period_ns = r->span_ns + (gap > 0 ? gap : 1000000000);
    return 0;
}

/* The lines of f. @return 0, or -1 with err "PATH:LINE: why". */
static int read_lines(struct replay_file *r, FILE *f, char *err)
{
    char *line = NULL, why[ERR_LEN] = "";
    size_t len = 0, cap = 0;
    ssize_t n;
    int lineno = 0, rc = 0;
    while (rc == 0 && (n = getline(&line, &len, f)) >= 0) {
        lineno++;
        if (n > LINE_LIMIT) {
            snprintf(why, sizeof why, "longer than %d bytes", LINE_LIMIT);
            rc = -1;
        } else if (line[strspn(line, " \t\r\n")]) {
            rc = take_line(r, line, lineno, &cap, why);
        }
    }
    free(line);
    if (rc >= 0 && !r->ncalls) {
        snprintf(why, sizeof why, lineno ? "no calls" : "empty: not a recording");
        rc = -1;
    }
    if (rc >= 0 && finish(r, why))
        rc = -1;
    if (rc < 0)
        snprintf(err, ERR_LEN, "%.80s:%d: %.150s", r->wl.path, lineno, why);
    return rc < 0 ? -1 : 0;
}

int replay_file_load(struct replay_file *r, const char *path, const char *as, char *err)
{
    memset(r, 0, sizeof *r);
    snprintf(r->wl.path, sizeof r->wl.path, "%s", path);
    if (as && *as)
        snprintf(r->encoding, sizeof r->encoding, "%s", as);
    FILE *f = fopen(path, "r");
    if (!f) {
        snprintf(err, ERR_LEN, "%.100s: %s", path, strerror(errno));
        return -1;
    }
    int rc = read_lines(r, f, err);
    fclose(f);
    return rc;
}

void replay_file_free(struct replay_file *r)
{
    workload_free(&r->wl);
    free(r->calls);
    free(r->first);
    r->calls = NULL;
    r->first = NULL;
    r->ncalls = r->nconns = 0;
}
