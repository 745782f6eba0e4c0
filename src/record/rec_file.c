/* rec_file: the recording's lines (see rec_file.h), built with json-c so
 * that every string the network gave (methods, paths, parameters) is
 * escaped as JSON wants. */
#include "record/rec_file.h"

#include <errno.h>
#include <string.h>

#include "base/clock.h"

/* A float with a fixed number of decimals (json-c's own prints 17
 * digits). @return a new reference. */
static json_object *fixed(double v, int decimals)
{
    char s[64];
    snprintf(s, sizeof s, "%.*f", decimals, v);
    return json_object_new_double_s(v, s);
}

/* Writes o as one line and puts it. */
static void put_line(struct rec_file *rf, json_object *o)
{
    const char *s = json_object_to_json_string_ext(o, JSON_C_TO_STRING_PLAIN |
                                                          JSON_C_TO_STRING_NOSLASHESCAPE);
    if (!s || fputs(s, rf->f) == EOF || fputc('\n', rf->f) == EOF)
        rf->failed = 1;
    json_object_put(o);
}

int rec_file_open(struct rec_file *rf, const char *path, const char *listen, const char *to,
                  int tls, char *err)
{
    memset(rf, 0, sizeof *rf);
    if (!(rf->f = fopen(path, "w"))) {
        snprintf(err, ERR_LEN, "--out: cannot write %.200s: %s", path, strerror(errno));
        return -1;
    }
    rf->start_ns = clock_now_ns();
    json_object *o = json_object_new_object();
    json_object_object_add(o, "rpcbench_recording", json_object_new_int(1));
    json_object_object_add(o, "started_unix", fixed(clock_realtime_s(), 6));
    json_object_object_add(o, "listen", json_object_new_string(listen));
    json_object_object_add(o, "to", json_object_new_string(to));
    json_object_object_add(o, "tls", json_object_new_boolean(tls));
    put_line(rf, o);
    return 0;
}

/* The keys of a call that depend on its transport and encoding. */
static void wire_keys(json_object *o, const struct rec_line *l)
{
    json_object_object_add(o, "transport", json_object_new_string(l->stomp ? "stomp" : "http"));
    json_object_object_add(o, "encoding",
                           json_object_new_string(l->jsonrpc ? "jsonrpc" : "xmlrpc"));
    json_object_object_add(o, l->stomp ? "destination" : "path",
                           json_object_new_string(l->where ? l->where : ""));
}

void rec_file_call(struct rec_file *rf, const struct rec_line *l)
{
    json_object *o = json_object_new_object();
    json_object_object_add(o, "t", fixed((double)(l->t_ns - rf->start_ns) / 1e9, 6));
    json_object_object_add(o, "conn", json_object_new_int(l->conn));
    wire_keys(o, l);
    json_object_object_add(o, "method", json_object_new_string(l->method));
    json_object *params = l->params ? json_object_get(l->params)
                          : l->jsonrpc ? json_object_new_object() : json_object_new_array();
    json_object_object_add(o, "params", params);
    json_object_object_add(o, "request_bytes", json_object_new_int64((int64_t)l->request_bytes));
    json_object_object_add(o, "response_bytes",
                           json_object_new_int64((int64_t)l->response_bytes));
    json_object_object_add(o, "latency_ms",
                           l->latency_ns < 0 ? NULL : fixed((double)l->latency_ns / 1e6, 3));
    json_object_object_add(o, "outcome", json_object_new_string(l->outcome));
    if (l->notification)
        json_object_object_add(o, "notification", json_object_new_boolean(1));
    if (l->auth)
        json_object_object_add(o, "authorization", json_object_new_string("***"));
    if (l->passcode)
        json_object_object_add(o, "passcode", json_object_new_string("***"));
    put_line(rf, o);
    rf->calls++;
}

void rec_file_flush(struct rec_file *rf)
{
    if (rf->f && fflush(rf->f) == EOF)
        rf->failed = 1;
}

int rec_file_close(struct rec_file *rf, double duration_s, const struct rec_added *added,
                   char *err)
{
    if (!rf->f)
        return 0;
    json_object *o = json_object_new_object(), *lat = json_object_new_object();
    json_object_object_add(o, "end", json_object_new_boolean(1));
    json_object_object_add(o, "calls", json_object_new_int64((int64_t)rf->calls));
    json_object_object_add(o, "connections", json_object_new_int64((int64_t)rf->conns));
    json_object_object_add(o, "duration_s", fixed(duration_s, 3));
    json_object_object_add(lat, "p50", fixed(added->p50, 1));
    json_object_object_add(lat, "p99", fixed(added->p99, 1));
    json_object_object_add(lat, "max", fixed(added->max, 1));
    json_object_object_add(lat, "samples", json_object_new_int64((int64_t)added->n));
    json_object_object_add(o, "added_latency_us", lat);
    json_object_object_add(o, "malformed_requests", json_object_new_int64((int64_t)rf->malformed));
    json_object_object_add(o, "streams_lost", json_object_new_int64((int64_t)rf->lost));
    json_object_object_add(o, "ids_too_long", json_object_new_int64((int64_t)rf->id_too_long));
    json_object_object_add(o, "pending_full", json_object_new_int64((int64_t)rf->pending_full));
    json_object_object_add(o, "idle_timeouts",
                           json_object_new_int64((int64_t)rf->idle_timeouts));
    put_line(rf, o);
    int bad = rf->failed | (fclose(rf->f) != 0);
    rf->f = NULL;
    if (bad)
        snprintf(err, ERR_LEN, "the recording could not be written in full");
    return bad ? -1 : 0;
}
