#include "server/vdsm_api.h"

#include <stdio.h>
#include <string.h>

#include "base/clock.h"
#include "base/safetext.h"
#include "server/sim_cache.h"
#include "encoders/vdsm_verbs.h"

#define TEXT_LEN 512 /* error texts that quote the caller's input */

/* What a verb produced: a value (with its XML-RPC envelope key) or an error. */
struct outcome {
    json_object *value; /* owned */
    const char *xml_key;
    int is_error;
    enum enc_error_kind kind;
    int64_t code;
    const char *message;
    char text[TEXT_LEN]; /* message, when it is built from the request */
};

static void set_error(struct outcome *o, enum enc_error_kind kind, int64_t code, const char *msg)
{
    o->is_error = 1;
    o->kind = kind;
    o->code = code;
    o->message = msg;
}

/* Writes s into out (cap bytes, NUL-terminated) as Python's repr() of a
 * str writes it, since VDSM's error texts quote request values that way:
 * single quotes unless s holds one and no double quote; backslash escapes
 * for the quote, \\, \n, \r, \t and other control bytes. The request's
 * bytes are untrusted: a byte that is not part of a safe UTF-8 character
 * (base/safetext.h) is escaped too ("\xff"), so the answer stays valid
 * UTF-8. Truncated to fit, between two characters. */
static void py_repr(char *out, size_t cap, const char *s)
{
    char q = strchr(s, '\'') && !strchr(s, '"') ? '"' : '\'';
    size_t n = 0, step;
    char tmp[8];
    if (cap < 3) {
        if (cap)
            out[0] = '\0';
        return;
    }
    out[n++] = q;
    for (; *s; s += step) {
        unsigned char ch = (unsigned char)*s;
        int k;
        step = ch < 0x80 ? 1 : safetext_char(s, strnlen(s, 4));
        if (ch == (unsigned char)q || ch == '\\')
            k = snprintf(tmp, sizeof tmp, "\\%c", ch);
        else if (ch == '\n' || ch == '\r' || ch == '\t')
            k = snprintf(tmp, sizeof tmp, "\\%c", ch == '\n' ? 'n' : ch == '\r' ? 'r' : 't');
        else if (ch < 0x20 || ch == 0x7f || step == 0) {
            k = snprintf(tmp, sizeof tmp, "\\x%02x", ch);
            step = 1;
        } else {
            memcpy(tmp, s, step); /* a whole character, never a part */
            k = (int)step;
        }
        if (n + (size_t)k + 2 > cap)
            break;
        memcpy(out + n, tmp, (size_t)k);
        n += (size_t)k;
    }
    out[n++] = q;
    out[n] = '\0';
}

/* An error whose text names a request value as VDSM's ContextException
 * prints it: "<msg>: {'<key>': '<value>'}". */
static void set_error_ctx(struct outcome *o, enum enc_error_kind kind, int64_t code,
                          const char *msg, const char *key, const char *value)
{
    char v[TEXT_LEN / 2];
    py_repr(v, sizeof v, value);
    snprintf(o->text, sizeof o->text, "%s: {'%s': %s}", msg, key, v);
    set_error(o, kind, code, o->text);
}

/* Models an expensive server: spins on the monotonic clock, so the CPU the
 * benchmark sees is really spent. */
static void burn(const struct vdsm_api *api, int nvms)
{
    if (api->work_ns_per_vm <= 0 || nvms <= 0)
        return;
    int64_t end = clock_now_ns() + api->work_ns_per_vm * nvms;
    while (clock_now_ns() < end)
        ;
}

static void verb_ping(struct vdsm_api *api, const struct enc_call *call, struct outcome *o)
{
    (void)api;
    (void)call;
    o->value = json_object_new_boolean(1);
}

/* A list parameter: positional in XML-RPC (list(fullStatus, vmList)),
 * named in JSON-RPC (Host.getVMList {"fullStatus": ..., "vmList": ...}). */
static json_object *list_param(const json_object *params, size_t pos, const char *name)
{
    json_object *v = NULL;
    if (json_object_is_type(params, json_type_array))
        v = json_object_array_get_idx(params, pos);
    else if (json_object_is_type(params, json_type_object))
        json_object_object_get_ex(params, name, &v);
    return v;
}

/* Full VM definitions (VMFullInfo), filtered by ids as VDSM's vmList. */
static void full_list(struct vdsm_api *api, json_object *ids, struct outcome *o)
{
    if (ids && !json_object_is_type(ids, json_type_array)) {
        set_error(o, ENC_ERROR_PROTOCOL, ENC_ERR_INVALID_PARAMS, "vmList must be a list of VM ids");
        return;
    }
    o->value = vmsim_full_list(api->sim, ids);
    o->xml_key = "vmList";
    if (o->value)
        burn(api, (int)json_object_array_length(o->value));
}

/* list() and list(False) answer short status, list(True[, vmIds]) full
 * definitions (what vdsClient's "list table" asked for). Over JSON-RPC,
 * VDSM's Bridge ignores fullStatus and the engine calls getVMFullList
 * instead; the schema documents fullStatus, so it is honoured here too.
 * onlyUUID keeps the short form, as VDSM (master) answers it. */
static void verb_list(struct vdsm_api *api, const struct enc_call *call, struct outcome *o)
{
    json_object *full = list_param(call->params, 0, "fullStatus");
    int flag = json_object_is_type(full, json_type_boolean) ||
               json_object_is_type(full, json_type_int);
    if (flag && json_object_get_int64(full)) {
        full_list(api, list_param(call->params, 1, "vmList"), o);
        return;
    }
    o->value = vmsim_list(api->sim);
    o->xml_key = "vmList";
}

/* Host.getVMFullList {vmList}: JSON-RPC only, as in VDSM. */
static void verb_full_list(struct vdsm_api *api, const struct enc_call *call, struct outcome *o)
{
    full_list(api, list_param(call->params, 0, "vmList"), o);
}

static void verb_all_stats(struct vdsm_api *api, const struct enc_call *call, struct outcome *o)
{
    (void)call;
    burn(api, vmsim_count(api->sim));
    o->value = vmsim_stats_all(api->sim);
    o->xml_key = "statsList";
}

/* vmId is positional in XML-RPC (getVmStats(vmId)) and named in JSON-RPC
 * (VM.getStats {"vmID": ...}); either shape is accepted in both. */
static const char *vm_id_param(const json_object *params)
{
    json_object *v = NULL;
    if (json_object_is_type(params, json_type_array))
        v = json_object_array_get_idx(params, 0);
    else if (json_object_is_type(params, json_type_object))
        json_object_object_get_ex(params, "vmID", &v);
    return json_object_is_type(v, json_type_string) ? json_object_get_string(v) : NULL;
}

static void verb_vm_stats(struct vdsm_api *api, const struct enc_call *call, struct outcome *o)
{
    const char *id = vm_id_param(call->params);
    if (!id) {
        set_error(o, ENC_ERROR_PROTOCOL, ENC_ERR_INVALID_PARAMS, "vmID (a string) is required");
        return;
    }
    burn(api, 1);
    o->value = vmsim_stats_one(api->sim, id);
    o->xml_key = "statsList";
    if (!o->value)
        set_error_ctx(o, ENC_ERROR_APP, VDSM_ERR_NO_VM, VDSM_MSG_NO_VM, "vmId", id);
}

/* Each verb's handler; its methods by encoding are vdsm_verbs.h's. */
static const struct {
    const char *verb;
    void (*fn)(struct vdsm_api *, const struct enc_call *, struct outcome *);
} verbs[] = {
    {"ping", verb_ping},
    {"list", verb_list},
    {"getAllVmStats", verb_all_stats},
    {"getVmStats", verb_vm_stats},
    {"fullList", verb_full_list},
};

static void dispatch(struct vdsm_api *api, const struct encoder *enc, const struct enc_call *call,
                     struct outcome *o)
{
    int json = enc == &enc_jsonrpc;
    const struct vdsm_verb *v = vdsm_verb_by_method(call->method, !json);
    for (size_t i = 0; v && i < sizeof verbs / sizeof verbs[0]; i++) {
        if (!strcmp(v->verb, verbs[i].verb)) {
            verbs[i].fn(api, call, o);
            return;
        }
    }
    /* VDSM's texts: yajsonrpc's JsonRpcMethodNotFoundError over JSON-RPC;
     * over XML-RPC, Python's SimpleXMLRPCDispatcher (VDSM <= 4.19). */
    if (json) {
        set_error_ctx(o, ENC_ERROR_PROTOCOL, ENC_ERR_NO_METHOD, VDSM_MSG_NO_METHOD, "method",
                      call->method);
    } else {
        safetext_printf(o->text, sizeof o->text, "method \"%s\" is not supported", call->method);
        set_error(o, ENC_ERROR_PROTOCOL, VDSM_XML_FAULT_NO_METHOD, o->text);
    }
}

static int render(const struct encoder *enc, const struct enc_call *call, struct outcome *o,
                  struct buf *out)
{
    if (!o->is_error && !o->value)
        set_error(o, ENC_ERROR_PROTOCOL, ENC_ERR_INTERNAL, "Internal error: out of memory");
    int rc;
    if (o->is_error) {
        rc = enc->render_error(call, o->kind, o->code, o->message, out);
    } else {
        struct enc_answer ans = {.value = o->value, .xml_key = o->xml_key};
        rc = enc->render_result(call, &ans, out);
    }
    return rc == ENC_OK ? VDSM_REPLY : VDSM_NOMEM;
}

/* Answers one call, parsed with result rc, into out; clears call. why:
 * the parser's reason for ENC_DECODE; only its own refusals ("refused: ..."
 * from xmlscan_unsafe, no request bytes) are passed on to the client.
 * @return enum vdsm_reply. */
static int answer_call(struct vdsm_api *api, const struct encoder *enc, int rc,
                       struct enc_call *call, const char *why, struct buf *out)
{
    struct outcome o = {0};
    if (rc == ENC_DECODE && !strncmp(why, "refused: ", 9)) {
        snprintf(o.text, sizeof o.text, "Parse error: %s", why);
        set_error(&o, ENC_ERROR_PROTOCOL, ENC_ERR_PARSE, o.text);
    } else if (rc == ENC_DECODE)
        set_error(&o, ENC_ERROR_PROTOCOL, ENC_ERR_PARSE, "Parse error");
    else if (rc == ENC_INVALID)
        set_error(&o, ENC_ERROR_PROTOCOL, ENC_ERR_INVALID_REQUEST, "Invalid request");
    else if (rc != ENC_OK)
        set_error(&o, ENC_ERROR_PROTOCOL, ENC_ERR_INTERNAL, "Internal error");
    else
        dispatch(api, enc, call, &o);
    /* A notification gets no reply, even a failed one (JSON-RPC 2.0 §4.1);
     * unparseable input is never a notification. */
    if (rc == ENC_OK && call->is_notification)
        rc = VDSM_NO_REPLY;
    else
        rc = render(enc, rc == ENC_DECODE ? NULL : call, &o, out);
    json_object_put(o.value);
    enc_call_clear(call);
    return rc;
}

/* A batch-level error: one answer with id null. */
static int batch_error(const char *text, struct buf *out)
{
    struct outcome o = {0};
    set_error(&o, ENC_ERROR_PROTOCOL, ENC_ERR_INVALID_REQUEST, text);
    return render(&enc_jsonrpc, NULL, &o, out);
}

/* Turns "[a,b" (start at the '[') into the message VDSM sends for a batch:
 * nothing for no answers, the bare object for one, an array otherwise. */
static int batch_close(struct buf *out, size_t start, size_t answers)
{
    if (answers == 0) {
        out->len = start;
        return VDSM_NO_REPLY;
    }
    if (answers == 1) {
        memmove(out->data + start, out->data + start + 1, out->len - start - 1);
        out->len--;
        return VDSM_REPLY;
    }
    return buf_append(out, "]", 1) < 0 ? VDSM_NOMEM : VDSM_REPLY;
}

/* Every request of a JSON-RPC batch, answered in order in one message (as
 * VDSM's _JsonRpcServeRequestContext does). */
static int handle_batch(struct vdsm_api *api, json_object *batch, struct buf *out)
{
    size_t n = json_object_array_length(batch), start = out->len, answers = 0;
    char text[128];
    if (n == 0)
        return batch_error(VDSM_MSG_EMPTY_BATCH, out);
    if (n > VDSM_MAX_BATCH) {
        api->batches_refused++;
        snprintf(text, sizeof text,
                 "Invalid request: {'reason': 'batch of %zu requests, more than %d'}", n,
                 VDSM_MAX_BATCH);
        return batch_error(text, out);
    }
    if (buf_append(out, "[", 1) < 0)
        return VDSM_NOMEM;
    for (size_t i = 0; i < n; i++) {
        size_t mark = out->len;
        struct enc_call call;
        char err[ERR_LEN] = "";
        if (answers && buf_append(out, ",", 1) < 0)
            return VDSM_NOMEM;
        int rc = jsonrpc_take_call(json_object_array_get_idx(batch, i), &call, err);
        rc = answer_call(api, &enc_jsonrpc, rc, &call, err, out);
        if (rc == VDSM_NOMEM)
            return rc;
        if (rc == VDSM_NO_REPLY)
            out->len = mark;
        else
            answers++;
    }
    return batch_close(out, start, answers);
}

static int handle_json(struct vdsm_api *api, const char *body, size_t len, struct buf *out)
{
    struct enc_call call = {0};
    char err[ERR_LEN] = "";
    json_object *doc;
    int rc = jsonrpc_parse_body(body, len, &doc, err);
    if (rc == ENC_OK && json_object_is_type(doc, json_type_array))
        rc = handle_batch(api, doc, out);
    else
        rc = answer_call(api, &enc_jsonrpc,
                         rc == ENC_OK ? jsonrpc_take_call(doc, &call, err) : rc, &call, err, out);
    json_object_put(doc);
    return rc;
}

static int handle(struct vdsm_api *api, const struct encoder *enc, const char *body, size_t len,
                  struct buf *out)
{
    if (enc == &enc_jsonrpc)
        return handle_json(api, body, len, out);
    struct enc_call call;
    char err[ERR_LEN] = "";
    int rc = enc->parse_call(body, len, &call, err);
    return answer_call(api, enc, rc, &call, err, out);
}

/* With a cache (serve --hosts), the host's simulator is looked up for the
 * call and let go after it: the answer is rendered by then, and another
 * host's call may drop its objects. */
int vdsm_api_handle(struct vdsm_api *api, const struct encoder *enc, const char *body,
                    size_t len, struct buf *out)
{
    if (!api->cache)
        return handle(api, enc, body, len, out);
    char err[ERR_LEN];
    if (!(api->sim = sim_cache_get(api->cache, api->host, err)))
        return VDSM_NOMEM;
    int rc = handle(api, enc, body, len, out);
    sim_cache_settle(api->cache, api->host);
    api->sim = NULL;
    return rc;
}

size_t vdsm_api_requests_in(const struct encoder *enc, const char *body, size_t len)
{
    return enc == &enc_jsonrpc ? jsonrpc_count_requests(body, len, VDSM_MAX_BATCH) : 1;
}
