/* recording: a recording's lines summed per method (see recording.h). */
#include "model/recording.h"

#include <errno.h>
#include <json-c/json.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define HEADER_KEY "{\"rpcbench_recording\""

int recording_is(const char *path)
{
    char head[64] = "";
    FILE *f = fopen(path, "r");
    if (!f)
        return 0;
    size_t n = fread(head, 1, sizeof head - 1, f);
    fclose(f);
    head[n] = '\0';
    return !strncmp(head, HEADER_KEY, strlen(HEADER_KEY));
}

static const char *str_of(json_object *o, const char *key)
{
    json_object *v;
    return json_object_object_get_ex(o, key, &v) && json_object_is_type(v, json_type_string)
               ? json_object_get_string(v)
               : NULL;
}

static double num_of(json_object *o, const char *key, double dflt)
{
    json_object *v;
    if (!json_object_object_get_ex(o, key, &v) ||
        !(json_object_is_type(v, json_type_double) || json_object_is_type(v, json_type_int)))
        return dflt;
    return json_object_get_double(v);
}

/* The method called name (a new one past the last), or NULL when there
 * is no room. */
static struct recording_method *method(struct recording *r, const char *name, json_object *o)
{
    for (size_t i = 0; i < r->nm; i++)
        if (!strcmp(r->m[i].name, name))
            return &r->m[i];
    if (r->nm >= RECORDING_METHODS_MAX)
        name = "(other methods)";
    for (size_t i = 0; i < r->nm; i++)
        if (!strcmp(r->m[i].name, name))
            return &r->m[i];
    if (r->nm > RECORDING_METHODS_MAX) /* the "(other methods)" row is the last one */
        return NULL;
    struct recording_method *m = &r->m[r->nm];
    memset(m, 0, sizeof *m);
    if (hist_init(&m->latency_us, 1, 3600LL * 1000 * 1000, 3))
        return NULL;
    snprintf(m->name, sizeof m->name, "%s", name);
    snprintf(m->encoding, sizeof m->encoding, "%s", str_of(o, "encoding") ? str_of(o, "encoding")
                                                                            : "?");
    snprintf(m->transport, sizeof m->transport, "%s",
             str_of(o, "transport") ? str_of(o, "transport") : "?");
    r->nm++;
    return m;
}

static uint64_t mix(uint32_t method, int64_t conn)
{
    uint64_t h = ((uint64_t)method << 40) ^ (uint64_t)conn;
    h ^= h >> 33;
    h *= 0xff51afd7ed558ccdULL;
    return h ^ (h >> 33);
}

/* The slot of (method, conn) in a table of cap (a power of two) slots. */
static struct recording_seen *slot(struct recording_seen *t, size_t cap, uint32_t method,
                                   int64_t conn)
{
    size_t i = (size_t)mix(method, conn) & (cap - 1);
    while (t[i].conn && !(t[i].conn == conn && t[i].method == method))
        i = (i + 1) & (cap - 1);
    return &t[i];
}

/* Doubles the table. @return 0, or -1 out of memory. */
static int grow_seen(struct recording *r)
{
    size_t cap = r->capseen ? r->capseen * 2 : 1024;
    struct recording_seen *t = calloc(cap, sizeof *t);
    if (!t)
        return -1;
    for (size_t i = 0; i < r->capseen; i++)
        if (r->seen[i].conn)
            *slot(t, cap, r->seen[i].method, r->seen[i].conn) = r->seen[i];
    free(r->seen);
    r->seen = t;
    r->capseen = cap;
    return 0;
}

/* The call of m at t on conn: the interval since its last there.
 * @return 0, or -1 out of memory. */
static int gap(struct recording *r, struct recording_method *m, int64_t conn, double t)
{
    if ((r->nseen + 1) * 2 > r->capseen && grow_seen(r) < 0)
        return -1;
    struct recording_seen *s = slot(r->seen, r->capseen, (uint32_t)(m - r->m), conn);
    if (!s->conn) {
        *s = (struct recording_seen){(uint32_t)(m - r->m), conn, t};
        r->nseen++;
        m->conns++;
        return 0;
    }
    double d = t - s->t;
    s->t = t;
    if (m->ngaps == m->capgaps) {
        size_t cap = m->capgaps ? m->capgaps * 2 : 64;
        double *g = realloc(m->gaps, cap * sizeof *g);
        if (!g)
            return -1;
        m->gaps = g;
        m->capgaps = cap;
    }
    m->gaps[m->ngaps++] = d >= 0 ? d : 0;
    return 0;
}

/* One call line. @return 0, or -1 out of memory. */
static int call_line(struct recording *r, json_object *o)
{
    const char *name = str_of(o, "method"), *outcome = str_of(o, "outcome");
    double t = num_of(o, "t", -1), conn = num_of(o, "conn", -1);
    if (!name || !outcome || t < 0 || conn < 1) {
        r->bad_lines++;
        return 0;
    }
    struct recording_method *m = method(r, name, o);
    if (!m)
        return -1;
    m->calls++;
    r->calls++;
    m->ok += !strcmp(outcome, "ok");
    m->fault += !strcmp(outcome, "fault");
    m->error += !strcmp(outcome, "error");
    m->unanswered += !strcmp(outcome, "unanswered");
    m->request_bytes += num_of(o, "request_bytes", 0);
    m->response_bytes += num_of(o, "response_bytes", 0);
    json_object *note;
    double lat = num_of(o, "latency_ms", -1);
    if (json_object_object_get_ex(o, "notification", &note) && json_object_get_boolean(note))
        lat = -1; /* nothing answers a notification: no latency */
    if (lat >= 0)
        hist_record(&m->latency_us, (int64_t)(lat * 1000) > 0 ? (int64_t)(lat * 1000) : 1);
    r->last_t = t > r->last_t ? t : r->last_t;
    r->conns = (int64_t)conn > r->conns ? (int64_t)conn : r->conns;
    return gap(r, m, (int64_t)conn, t);
}

static void header_line(struct recording *r, json_object *o)
{
    snprintf(r->to, sizeof r->to, "%s", str_of(o, "to") ? str_of(o, "to") : "?");
    snprintf(r->listen, sizeof r->listen, "%s", str_of(o, "listen") ? str_of(o, "listen") : "?");
    r->started_unix = num_of(o, "started_unix", 0);
    json_object *v;
    r->tls = json_object_object_get_ex(o, "tls", &v) && json_object_get_boolean(v);
}

/* A count of the trailer: 0 when missing or not a whole number >= 0
 * (the file is input: a bad value is no count). */
static uint64_t count_of(json_object *o, const char *key)
{
    json_object *v;
    if (!json_object_object_get_ex(o, key, &v) || !json_object_is_type(v, json_type_int))
        return 0;
    int64_t n = json_object_get_int64(v);
    return n > 0 ? (uint64_t)n : 0;
}

static void trailer_line(struct recording *r, json_object *o)
{
    json_object *lat;
    r->has_trailer = 1;
    r->duration_s = num_of(o, "duration_s", r->last_t);
    r->malformed = count_of(o, "malformed_requests");
    r->streams_lost = count_of(o, "streams_lost");
    r->ids_too_long = count_of(o, "ids_too_long");
    r->pending_full = count_of(o, "pending_full");
    r->idle_timeouts = count_of(o, "idle_timeouts");
    if (json_object_object_get_ex(o, "added_latency_us", &lat)) {
        r->added_p50 = num_of(lat, "p50", -1);
        r->added_p99 = num_of(lat, "p99", -1);
        r->added_max = num_of(lat, "max", -1);
    }
}

/* One line (the first is the header). @return 0, or -1 with err. */
static int one_line(struct recording *r, const char *line, int first, char *err)
{
    json_object *o = json_tokener_parse(line);
    int rc = 0;
    if (!o || !json_object_is_type(o, json_type_object)) {
        r->bad_lines++;
    } else if (first) {
        header_line(r, o);
    } else if (json_object_object_get_ex(o, "end", NULL)) {
        trailer_line(r, o);
    } else if (call_line(r, o) < 0) {
        snprintf(err, ERR_LEN, "out of memory");
        rc = -1;
    }
    json_object_put(o);
    return rc;
}

int recording_load(const char *path, struct recording *r, char *err)
{
    memset(r, 0, sizeof *r);
    r->added_p50 = r->added_p99 = r->added_max = -1;
    if (!recording_is(path)) {
        snprintf(err, ERR_LEN, "%.200s: not a recording (rpcbench record --out)", path);
        return -1;
    }
    FILE *f = fopen(path, "r");
    if (!f || !(r->m = calloc(RECORDING_METHODS_MAX + 1, sizeof *r->m))) {
        snprintf(err, ERR_LEN, "%.200s: %s", path, f ? "out of memory" : strerror(errno));
        if (f)
            fclose(f);
        return -1;
    }
    char *line = NULL;
    size_t cap = 0;
    int rc = 0;
    for (int first = 1; rc == 0 && getline(&line, &cap, f) > 0; first = 0)
        rc = one_line(r, line, first, err);
    free(line);
    fclose(f);
    if (!r->has_trailer)
        r->duration_s = r->last_t;
    return rc;
}

static int by_value(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;
    return x < y ? -1 : x > y;
}

double recording_period(struct recording_method *m)
{
    if (!m->ngaps)
        return -1;
    qsort(m->gaps, m->ngaps, sizeof *m->gaps, by_value);
    return m->ngaps % 2 ? m->gaps[m->ngaps / 2]
                        : (m->gaps[m->ngaps / 2 - 1] + m->gaps[m->ngaps / 2]) / 2;
}

void recording_free(struct recording *r)
{
    for (size_t i = 0; r->m && i < r->nm; i++) {
        hist_close(&r->m[i].latency_us);
        free(r->m[i].gaps);
    }
    free(r->m);
    free(r->seen);
    memset(r, 0, sizeof *r);
}
