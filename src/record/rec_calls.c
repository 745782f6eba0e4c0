/* rec_calls: requests held until their answers (see rec_calls.h). The
 * parsing is the encoders' (parse_call, jsonrpc_parse_body and
 * jsonrpc_take_call as serve uses them; check_response and check_error as
 * the client uses them); this file only matches and counts. */
#include "record/rec_calls.h"

#include <stdlib.h>
#include <string.h>

#include "encoders/jsonscan.h"

static void pending_clear(struct rec_pending *p)
{
    json_object_put(p->params);
    p->params = NULL;
}

/* Writes p's line and frees what it holds. */
static void write_done(struct rec_calls *c, struct rec_pending *p, size_t response_bytes,
                       int64_t latency_ns, const char *outcome)
{
    struct rec_line l = {.t_ns = p->t_ns, .conn = c->conn, .stomp = p->stomp,
                         .jsonrpc = p->jsonrpc, .where = p->where, .method = p->method,
                         .params = p->params, .request_bytes = p->request_bytes,
                         .response_bytes = response_bytes, .latency_ns = latency_ns,
                         .outcome = outcome, .auth = p->auth,
                         .passcode = p->stomp && c->passcode,
                         .notification = p->jsonrpc && !p->id_len};
    rec_file_call(c->rf, &l);
    pending_clear(p);
}

static void remove_at(struct rec_calls *c, size_t i)
{
    memmove(&c->p[i], &c->p[i + 1], (c->n - i - 1) * sizeof c->p[0]);
    c->n--;
}

/* Holds p (taken over) until its answer; when the table is full, the
 * oldest call gives its place (written as unanswered, counted). */
static void push(struct rec_calls *c, struct rec_pending *p)
{
    if (c->n == REC_PENDING_MAX) {
        c->rf->pending_full++;
        write_done(c, &c->p[0], 0, -1, "unanswered");
        remove_at(c, 0);
    }
    c->p[c->n++] = *p;
}

/* The call's fields every encoding shares, from m. */
static void pending_from(struct rec_pending *p, const struct rec_msg *m, uint64_t seq)
{
    memset(p, 0, sizeof *p);
    p->t_ns = m->first_ns;
    p->seq = seq;
    p->request_bytes = m->wire_bytes;
    p->stomp = m->stomp;
    p->auth = m->auth;
    snprintf(p->where, sizeof p->where, "%s", m->where ? m->where : "");
}

/* Takes the method and params of call into p (call's params are moved). */
static void take(struct rec_pending *p, struct enc_call *call)
{
    snprintf(p->method, sizeof p->method, "%s", call->method);
    p->params = call->params;
    call->params = NULL;
}

/* One JSON-RPC request object req (borrowed) of m. @return 0, or -1 when
 * it is no request (counted by the caller). */
static int json_call(struct rec_calls *c, const struct rec_msg *m, json_object *req,
                     uint64_t seq)
{
    struct enc_call call = {0};
    char err[ERR_LEN];
    int rc = jsonrpc_take_call(req, &call, err);
    if (rc == ENC_OK) {
        struct rec_pending p;
        pending_from(&p, m, seq);
        p.jsonrpc = 1;
        take(&p, &call);
        /* as the answer will write it: no blank, "/" not escaped */
        const char *id = call.id && !call.is_notification
                             ? json_object_to_json_string_ext(
                                   call.id, JSON_C_TO_STRING_PLAIN | JSON_C_TO_STRING_NOSLASHESCAPE)
                             : NULL;
        size_t len = id ? strlen(id) : 0;
        if (len > REC_ID_MAX) { /* its answer could not be told: written now */
            c->rf->id_too_long++;
            write_done(c, &p, 0, -1, "unanswered");
        } else if (!len && m->stomp) { /* no answer will come: written now */
            write_done(c, &p, 0, 0, "ok");
        } else {
            memcpy(p.id, id ? id : "", len);
            p.id_len = len;
            push(c, &p);
        }
    }
    enc_call_clear(&call);
    return rc == ENC_OK ? 0 : -1;
}

/* A JSON-RPC body: one request or a batch. @return the requests that were
 * no call. */
static uint64_t json_calls(struct rec_calls *c, const struct rec_msg *m, uint64_t seq)
{
    json_object *doc = NULL;
    char err[ERR_LEN];
    if (jsonrpc_parse_body(m->body, m->body_len, &doc, err) != ENC_OK || !doc)
        return 1;
    uint64_t bad = 0;
    if (json_object_is_type(doc, json_type_array)) {
        size_t n = json_object_array_length(doc);
        for (size_t i = 0; i < n && i < REC_PENDING_MAX; i++)
            bad += json_call(c, m, json_object_array_get_idx(doc, i), seq) < 0;
        bad += n == 0;
    } else {
        bad += json_call(c, m, doc, seq) < 0;
    }
    json_object_put(doc);
    return bad;
}

static uint64_t xml_call(struct rec_calls *c, const struct rec_msg *m, uint64_t seq)
{
    struct enc_call call = {0};
    char err[ERR_LEN];
    int rc = enc_xmlrpc.parse_call(m->body, m->body_len, &call, err);
    if (rc == ENC_OK) {
        struct rec_pending p;
        pending_from(&p, m, seq);
        take(&p, &call);
        push(c, &p);
    }
    enc_call_clear(&call);
    return rc == ENC_OK ? 0 : 1;
}

/* Which encoding an HTTP body is in: by its first byte, else by its path. */
static int is_json(const struct rec_msg *m)
{
    for (size_t i = 0; i < m->body_len; i++) {
        char ch = m->body[i];
        if (ch == '<')
            return 0;
        if (ch == '{' || ch == '[')
            return 1;
        if (ch != ' ' && ch != '\t' && ch != '\r' && ch != '\n')
            break;
    }
    return m->where && !strncmp(m->where, "/jsonrpc", 8);
}

static void on_call(void *ctx, const struct rec_msg *m)
{
    struct rec_calls *c = ctx;
    uint64_t seq = m->stomp ? 0 : c->http_sent++;
    if (m->truncated) {
        c->rf->malformed++;
        return;
    }
    c->rf->malformed += m->stomp || is_json(m) ? json_calls(c, m, seq) : xml_call(c, m, seq);
}

/* An XML-RPC answer's outcome, as the client judges it. */
static const char *xml_outcome(const struct rec_msg *m)
{
    struct enc_result r = {0};
    if (m->truncated)
        return "error";
    int rc = m->status >= 200 && m->status < 300
                 ? enc_xmlrpc.check_response(m->body, m->body_len, &r)
                 : enc_xmlrpc.check_error(m->body, m->body_len, &r);
    return rc == ENC_OK ? "ok" : rc == ENC_FAULT ? "fault" : "error";
}

/* What one JSON-RPC response object says: its id (raw JSON text) and its
 * outcome (a non-null error member is a fault). */
struct json_reply {
    const char *id;
    size_t id_len;
    const char *outcome;
};

/* Reads the response object at s (jsonscan: no tree, nothing allocated:
 * a getAllVmStats answer is megabytes, and the loop waits meanwhile).
 * @return 0, or -1 when it is no object. */
static int scan_reply(struct jsonscan *s, struct json_reply *r)
{
    int first = 1, rc, result = 0, error = 0;
    const char *key;
    size_t klen;
    *r = (struct json_reply){NULL, 0, "error"};
    if (jsonscan_expect(s, '{') < 0)
        return -1;
    while ((rc = jsonscan_member(s, &first, &key, &klen)) == 1) {
        char c = jsonscan_peek(s);
        const char *start = s->p;
        if (jsonscan_skip(s) < 0)
            return -1;
        if (klen == 2 && !memcmp(key, "id", 2)) {
            r->id = start;
            r->id_len = (size_t)(s->p - start);
        }
        result |= klen == 6 && !memcmp(key, "result", 6);
        error |= klen == 5 && !memcmp(key, "error", 5) && c != 'n';
    }
    r->outcome = error ? "fault" : result ? "ok" : "error";
    return rc;
}

/* The waiting call whose id is the JSON text id[0..len) (and over HTTP,
 * of request seq). @return its index, or -1. */
static long find_id(const struct rec_calls *c, const char *id, size_t len, int http,
                    uint64_t seq)
{
    for (size_t i = 0; i < c->n; i++)
        if (c->p[i].id_len && c->p[i].id_len == len && !memcmp(c->p[i].id, id, len) &&
            (!http || c->p[i].seq == seq))
            return (long)i;
    return -1;
}

/* Answers the call r names (an event, or an answer to nothing we saw, is
 * not recorded). */
static void json_answer(struct rec_calls *c, const struct rec_msg *m, const struct json_reply *r)
{
    long i = r->id ? find_id(c, r->id, r->id_len, !m->stomp, c->http_answered) : -1;
    if (i < 0)
        return;
    write_done(c, &c->p[i], m->wire_bytes, m->last_ns - c->p[i].t_ns, r->outcome);
    remove_at(c, (size_t)i);
}

/* A JSON-RPC answer: one response object, or a batch's array of them. */
static void json_answers(struct rec_calls *c, const struct rec_msg *m)
{
    struct jsonscan s = {m->body, m->body + m->body_len};
    struct json_reply r;
    if (m->truncated || !m->body)
        return;
    if (jsonscan_peek(&s) != '[') {
        if (scan_reply(&s, &r) == 0)
            json_answer(c, m, &r);
        return;
    }
    s.p++;
    for (int first = 1; jsonscan_peek(&s) != ']'; first = 0) {
        if ((!first && jsonscan_expect(&s, ',') < 0) || scan_reply(&s, &r) < 0)
            return;
        json_answer(c, m, &r);
    }
}

/* An HTTP answer ends the oldest request: its calls not answered by id
 * (all of an XML-RPC one) get the answer's outcome. */
static void http_answer(struct rec_calls *c, const struct rec_msg *m)
{
    uint64_t seq = c->http_answered;
    size_t i = 0;
    while (i < c->n && c->p[i].seq != seq)
        i++;
    if (i < c->n && c->p[i].jsonrpc)
        json_answers(c, m);
    for (i = 0; i < c->n;) {
        struct rec_pending *p = &c->p[i];
        if (p->seq != seq) {
            i++;
            continue;
        }
        const char *outcome = !p->jsonrpc ? xml_outcome(m) : p->id_len ? "error" : "ok";
        write_done(c, p, m->wire_bytes, m->last_ns - p->t_ns, outcome);
        remove_at(c, i);
    }
    c->http_answered++;
}

static void on_answer(void *ctx, const struct rec_msg *m)
{
    struct rec_calls *c = ctx;
    if (m->stomp)
        json_answers(c, m);
    else
        http_answer(c, m);
}

static void on_passcode(void *ctx)
{
    ((struct rec_calls *)ctx)->passcode = 1;
}

static void on_lost(void *ctx, enum rec_dir dir, const char *why)
{
    (void)dir;
    (void)why;
    ((struct rec_calls *)ctx)->rf->lost++;
}

const struct rec_wire_events rec_calls_events = {
    .call = on_call, .answer = on_answer, .passcode = on_passcode, .lost = on_lost,
};

int rec_calls_init(struct rec_calls *c, struct rec_file *rf, int conn)
{
    memset(c, 0, sizeof *c);
    c->rf = rf;
    c->conn = conn;
    /* calloc, not malloc and memset: the pages of a table never filled
     * are never touched, so a connection costs what its calls use */
    c->p = calloc(REC_PENDING_MAX, sizeof *c->p);
    return c->p ? 0 : -1;
}

void rec_calls_end(struct rec_calls *c)
{
    for (size_t i = 0; i < c->n; i++)
        write_done(c, &c->p[i], 0, -1, "unanswered");
    free(c->p);
    c->p = NULL;
    c->n = 0;
}
