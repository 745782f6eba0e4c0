/* jsonrpc: JSON-RPC 2.0 on json-c, as VDSM speaks it over STOMP.
 *
 * Output is serialised with JSON_C_TO_STRING_PLAIN (no spaces, like the
 * Java and Python clients) plus NOSLASHESCAPE, so paths read as VDSM's
 * Python json module writes them. */
#include "encoders/encoder.h"
#include "encoders/jsonscan.h"
#include "encoders/vdsm_verbs.h"

#include <limits.h>
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#define JSON_FLAGS (JSON_C_TO_STRING_PLAIN | JSON_C_TO_STRING_NOSLASHESCAPE)


static int verb_call(const char *verb, const char *vm_id, const char **method,
                     json_object **params, char *err)
{
    const struct vdsm_verb *v = vdsm_verb_find(verb);
    *params = NULL;
    if (!v) {
        enc_seterr(err, "unknown verb '%s' (want ping, list, fullList, getAllVmStats, getVmStats)",
                   verb);
        return ENC_INVALID;
    }
    /* The engine's fullList: getVMFullList, vmList left out when empty
     * (VDSM's Bridge ignores Host.getVMList's fullStatus). */
    *method = v->json;
    if (strcmp(verb, "getVmStats") == 0 && !vm_id) {
        enc_seterr(err, "getVmStats needs a VM id");
        return ENC_INVALID;
    }
    json_object *p = json_object_new_object();
    if (!p)
        goto nomem;
    int rc = 0;
    if (strcmp(verb, "list") == 0)
        rc = json_object_object_add(p, "onlyUUID", json_object_new_boolean(0));
    else if (vm_id && strcmp(verb, "getVmStats") == 0)
        rc = json_object_object_add(p, "vmID", json_object_new_string(vm_id));
    if (rc < 0) {
        json_object_put(p);
        goto nomem;
    }
    *params = p;
    return ENC_OK;
nomem:
    enc_seterr(err, "out of memory");
    return ENC_NOMEM;
}

/* Serialises v (NULL = JSON null) at the end of out. */
static int append_json(struct buf *out, json_object *v)
{
    size_t n;
    const char *s = json_object_to_json_string_length(v, JSON_FLAGS, &n);
    return s && buf_append(out, s, n) == 0 ? 0 : -1;
}

/* The id goes last, so its slot sits at a fixed distance from the end. */
static int render_request(const char *method, json_object *params, struct enc_request *out,
                          char *err)
{
    buf_reset(&out->body);
    out->id_off = out->id_len = 0;
    json_object *m = json_object_new_string(method);
    int bad = !m || buf_append_str(&out->body, "{\"jsonrpc\":\"2.0\",\"method\":") < 0 ||
              append_json(&out->body, m) < 0;
    json_object_put(m);
    if (!bad && params)
        bad = buf_append_str(&out->body, ",\"params\":") < 0 || append_json(&out->body, params) < 0;
    if (bad || buf_append_str(&out->body, ",\"id\":\"" ENC_ID_PREFIX "000000000000\"}") < 0) {
        enc_seterr(err, "out of memory");
        return ENC_NOMEM;
    }
    out->id_len = ENC_ID_DIGITS;
    out->id_off = out->body.len - 2 - ENC_ID_DIGITS;
    return ENC_OK;
}

static int key_is(const char *k, size_t n, const char *want)
{
    return n == strlen(want) && memcmp(k, want, n) == 0;
}

/* error: {"code": N, ...}; a missing or odd code leaves fault_code 0. */
static int scan_error(struct jsonscan *s, struct enc_result *out)
{
    if (jsonscan_peek(s) != '{')
        return jsonscan_skip(s);
    s->p++;
    int first = 1, r;
    const char *k;
    size_t kn;
    while ((r = jsonscan_member(s, &first, &k, &kn)) == 1) {
        if (key_is(k, kn, "code") && jsonscan_int(s, &out->fault_code) == 0)
            continue;
        if (jsonscan_skip(s) < 0)
            return -1;
    }
    return r;
}

static int scan_id(struct jsonscan *s, struct enc_result *out)
{
    char c = jsonscan_peek(s);
    const char *str;
    size_t n;
    int64_t v;
    if (c == '"') {
        if (jsonscan_string(s, &str, &n) < 0)
            return -1;
        out->has_id = enc_parse_id(str, n, &out->id) == 0;
    } else if (c >= '0' && c <= '9' && jsonscan_int(s, &v) == 0) {
        out->has_id = 1;
        out->id = (uint64_t)v;
    } else {
        return jsonscan_skip(s);
    }
    return 0;
}

/* Walks the top-level keys; the result value is skipped by bracket
 * matching, never built. The whole object is walked (not stopped after
 * result/id) so a truncated body cannot pass. */
static int check_response(const char *body, size_t len, struct enc_result *out)
{
    memset(out, 0, sizeof *out);
    out->items = -1;
    out->status = ENC_DECODE;
    if (!body)
        body = ""; /* an empty body may come as (NULL, 0) */
    struct jsonscan s = {body, body + len};
    if (jsonscan_expect(&s, '{') < 0)
        return out->status;
    int first = 1, r, seen_result = 0, seen_error = 0;
    const char *k;
    size_t kn;
    while ((r = jsonscan_member(&s, &first, &k, &kn)) == 1) {
        if (key_is(k, kn, "error") && jsonscan_peek(&s) != 'n') {
            seen_error = 1;
            r = scan_error(&s, out);
        } else if (key_is(k, kn, "id")) {
            r = scan_id(&s, out);
        } else {
            seen_result |= key_is(k, kn, "result");
            r = jsonscan_skip(&s);
        }
        if (r < 0)
            return out->status;
    }
    if (r < 0 || jsonscan_peek(&s) != 0)
        return out->status;
    if (seen_error)
        out->status = ENC_FAULT;
    else if (seen_result)
        out->status = ENC_OK;
    return out->status;
}

/* Parses exactly body[0..len) as one JSON value (NULL for JSON null);
 * -1 when malformed, truncated or followed by anything but whitespace. */
static int parse_doc(const char *body, size_t len, json_object **doc)
{
    *doc = NULL;
    if (len > INT_MAX)
        return -1;
    json_tokener *tok = json_tokener_new();
    if (!tok)
        return -1;
    json_tokener_set_flags(tok, JSON_TOKENER_STRICT);
    json_object *v = json_tokener_parse_ex(tok, body, (int)len);
    size_t end = json_tokener_get_parse_end(tok);
    if (!v && json_tokener_get_error(tok) == json_tokener_continue) {
        /* A top-level number or literal cannot know it ended: flush. */
        v = json_tokener_parse_ex(tok, "", 1);
        end = len;
    }
    int ok = json_tokener_get_error(tok) == json_tokener_success;
    for (size_t i = end; ok && i < len; i++)
        ok = body[i] == ' ' || body[i] == '\t' || body[i] == '\r' || body[i] == '\n';
    json_tokener_free(tok);
    if (!ok) {
        json_object_put(v);
        return -1;
    }
    *doc = v;
    return 0;
}

static void decode_id(json_object *id, struct enc_result *out)
{
    if (json_object_is_type(id, json_type_string)) {
        out->has_id = enc_parse_id(json_object_get_string(id),
                                   (size_t)json_object_get_string_len(id), &out->id) == 0;
    } else if (json_object_is_type(id, json_type_int) && json_object_get_int64(id) >= 0) {
        out->has_id = 1;
        out->id = (uint64_t)json_object_get_int64(id);
    }
}

static int decode_result(const char *body, size_t len, struct enc_result *out,
                         json_object **result)
{
    if (result)
        *result = NULL;
    if (!body)
        body = ""; /* an empty body may come as (NULL, 0) */
    memset(out, 0, sizeof *out);
    out->items = -1;
    out->status = ENC_DECODE;
    json_object *doc, *id, *res, *e, *code;
    if (parse_doc(body, len, &doc) < 0 || !json_object_is_type(doc, json_type_object))
        goto done;
    if (json_object_object_get_ex(doc, "id", &id))
        decode_id(id, out);
    if (json_object_object_get_ex(doc, "error", &e) && e) {
        out->status = ENC_FAULT;
        if (json_object_object_get_ex(e, "code", &code) && json_object_is_type(code, json_type_int))
            out->fault_code = json_object_get_int64(code);
    } else if (json_object_object_get_ex(doc, "result", &res)) {
        out->status = ENC_OK;
        if (json_object_is_type(res, json_type_array))
            out->items = (int64_t)json_object_array_length(res);
        if (result)
            *result = json_object_get(res); /* outlives doc */
    }
done:
    json_object_put(doc);
    return out->status;
}

/* {"jsonrpc": "2.0", "error": {"code": N, "message": ...}, "id": ...}
 * (encoder.h): only an error object with an integer code. */
static int check_error(const char *body, size_t len, struct enc_result *out)
{
    memset(out, 0, sizeof *out);
    out->items = -1;
    out->status = ENC_DECODE;
    json_object *doc, *e, *code;
    if (parse_doc(body ? body : "", len, &doc) == 0 &&
        json_object_is_type(doc, json_type_object) &&
        json_object_object_get_ex(doc, "error", &e) && json_object_is_type(e, json_type_object) &&
        json_object_object_get_ex(e, "code", &code) && json_object_is_type(code, json_type_int)) {
        out->status = ENC_FAULT;
        out->fault_code = json_object_get_int64(code);
    }
    json_object_put(doc);
    return out->status;
}

static int decode_response(const char *body, size_t len, struct enc_result *out)
{
    return decode_result(body, len, out, NULL);
}

/* Reads what a request object carries; ENC_INVALID when it is not one. */
static int take_request(json_object *doc, struct enc_call *call, char *err)
{
    json_object *v, *m, *p;
    if (json_object_object_get_ex(doc, "id", &v))
        call->id = json_object_get(v) ? v : NULL;
    call->is_notification = !json_object_object_get_ex(doc, "id", NULL);
    if (!json_object_object_get_ex(doc, "jsonrpc", &v) || !json_object_is_type(v, json_type_string) ||
        strcmp(json_object_get_string(v), "2.0") != 0) {
        enc_seterr(err, "not a JSON-RPC 2.0 request (jsonrpc != \"2.0\")");
        return ENC_INVALID;
    }
    if (!json_object_object_get_ex(doc, "method", &m) || !json_object_is_type(m, json_type_string) ||
        (size_t)json_object_get_string_len(m) >= ENC_METHOD_MAX) {
        enc_seterr(err, "request has no method string (or it is too long)");
        return ENC_INVALID;
    }
    memcpy(call->method, json_object_get_string(m), (size_t)json_object_get_string_len(m) + 1);
    if (json_object_object_get_ex(doc, "params", &p) && p) {
        if (!json_object_is_type(p, json_type_array) && !json_object_is_type(p, json_type_object)) {
            enc_seterr(err, "params must be an array or an object");
            return ENC_INVALID;
        }
        call->params = json_object_get(p);
    }
    return ENC_OK;
}

int jsonrpc_parse_body(const char *body, size_t len, json_object **doc, char *err)
{
    if (parse_doc(body ? body : "", len, doc) == 0) /* (NULL, 0) may come for "" */
        return ENC_OK;
    enc_seterr(err, "malformed JSON");
    return ENC_DECODE;
}

int jsonrpc_take_call(json_object *req, struct enc_call *call, char *err)
{
    memset(call, 0, sizeof *call);
    if (json_object_is_type(req, json_type_object))
        return take_request(req, call, err);
    enc_seterr(err, "not a request object");
    return ENC_INVALID;
}

/* One request object; a batch is not a call (vdsm_api splits batches). */
static int parse_call(const char *body, size_t len, struct enc_call *call, char *err)
{
    memset(call, 0, sizeof *call);
    json_object *doc;
    int rc = jsonrpc_parse_body(body, len, &doc, err);
    if (rc == ENC_OK)
        rc = jsonrpc_take_call(doc, call, err);
    json_object_put(doc);
    return rc;
}

size_t jsonrpc_count_requests(const char *body, size_t len, size_t cap)
{
    struct jsonscan s = {body ? body : "", (body ? body : "") + len};
    if (jsonscan_peek(&s) != '[')
        return 1;
    s.p++;
    if (jsonscan_peek(&s) == ']')
        return 1; /* the empty batch gets one (error) answer */
    size_t n = 0;
    while (n < cap && jsonscan_skip(&s) == 0) {
        n++;
        if (jsonscan_peek(&s) != ',')
            break;
        s.p++;
    }
    return n ? n : 1;
}

/* Envelope built around the borrowed value and serialised in one go: the
 * wrapper's own print buffer is used, so a value shared between threads is
 * never written to. */
static int render_envelope(const struct enc_call *call, const char *key, json_object *value,
                           struct buf *out)
{
    json_object *env = json_object_new_object();
    json_object *id = call && call->id ? json_object_get(call->id) : NULL;
    int rc = !env || json_object_object_add(env, "jsonrpc", json_object_new_string("2.0")) < 0 ||
             json_object_object_add(env, "id", id) < 0 ||
             json_object_object_add(env, key, value) < 0;
    if (rc) {
        json_object_put(env);
        return ENC_NOMEM;
    }
    rc = append_json(out, env) < 0 ? ENC_NOMEM : ENC_OK;
    json_object_put(env);
    return rc;
}

static int render_result(const struct enc_call *call, const struct enc_answer *ans, struct buf *out)
{
    return render_envelope(call, "result", json_object_get(ans->value), out);
}

static int render_error(const struct enc_call *call, enum enc_error_kind kind, int64_t code,
                        const char *message, struct buf *out)
{
    (void)kind; /* both kinds are an error object in JSON-RPC */
    json_object *e = json_object_new_object();
    if (!e || json_object_object_add(e, "code", json_object_new_int64(code)) < 0 ||
        json_object_object_add(e, "message", json_object_new_string(message ? message : "")) < 0) {
        json_object_put(e);
        return ENC_NOMEM;
    }
    return render_envelope(call, "error", e, out);
}

const struct encoder enc_jsonrpc = {
    .name = "jsonrpc",
    .content_type = "application/json",
    .default_path = "/jsonrpc",
    .verb_call = verb_call,
    .render_request = render_request,
    .check_response = check_response,
    .check_error = check_error,
    .decode_response = decode_response,
    .decode_result = decode_result,
    .parse_call = parse_call,
    .render_result = render_result,
    .render_error = render_error,
};
