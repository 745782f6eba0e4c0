/* xmlrpc: XML-RPC on xmlrpc-c (dialect i8: <i8> and <nil/> allowed), with
 * VDSM's conventions: results wrapped in {status: {code, message}, ...},
 * application errors as status.code != 0 rather than faults. */
#include "encoders/encoder.h"
#include "encoders/xmlconv.h"
#include "encoders/xmlscan.h"
#include "encoders/vdsm_verbs.h"

#include <stdarg.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <xmlrpc-c/base.h>

/* xmlrpc-c refuses documents over 512 KiB unless told otherwise; the limit
 * is process-wide, so raising it once from any entry point is enough. */
static void raise_limit(void)
{
    static atomic_int done;
    if (!atomic_load_explicit(&done, memory_order_relaxed)) {
        xmlrpc_limit_set(XMLRPC_XML_SIZE_LIMIT_ID, ENC_XML_SIZE_LIMIT);
        atomic_store(&done, 1);
    }
}


/* list(True, []): full definitions of every VM, positional as vdsClient
 * sent them. */
static int full_list_call(const char **method, json_object **params, char *err)
{
    json_object *a = json_object_new_array();
    *method = "list";
    if (!a || json_object_array_add(a, json_object_new_boolean(1)) < 0 ||
        json_object_array_add(a, json_object_new_array()) < 0) {
        json_object_put(a);
        enc_seterr(err, "out of memory");
        return ENC_NOMEM;
    }
    *params = a;
    return ENC_OK;
}

static int verb_call(const char *verb, const char *vm_id, const char **method,
                     json_object **params, char *err)
{
    raise_limit();
    const struct vdsm_verb *v = vdsm_verb_find(verb);
    *params = NULL;
    if (!v) {
        enc_seterr(err, "unknown verb '%s' (want ping, list, fullList, getAllVmStats, getVmStats)",
                   verb);
        return ENC_INVALID;
    }
    if (v->xml_full) /* vdsClient's "list table": list(True, []) */
        return full_list_call(method, params, err);
    *method = v->xml;
    if (strcmp(verb, "getVmStats")) /* ping, list, getAllVmStats: no params */
        return ENC_OK;
    if (!vm_id) {
        enc_seterr(err, "getVmStats needs a VM id");
        return ENC_INVALID;
    }
    json_object *a = json_object_new_array();
    if (!a || json_object_array_add(a, json_object_new_string(vm_id)) < 0) {
        json_object_put(a);
        enc_seterr(err, "out of memory");
        return ENC_NOMEM;
    }
    *params = a;
    return ENC_OK;
}

/* Copies xmlrpc-c's output block to the end of out and frees it. */
static int take_block(xmlrpc_env *env, xmlrpc_mem_block *mb, struct buf *out)
{
    int rc = ENC_NOMEM;
    if (!env->fault_occurred &&
        buf_append(out, xmlrpc_mem_block_contents(mb), xmlrpc_mem_block_size(mb)) == 0)
        rc = ENC_OK;
    xmlrpc_mem_block_free(mb);
    return rc;
}

/* Array = positional params, anything else = that one param, NULL = none. */
static xmlrpc_value *param_array(xmlrpc_env *env, json_object *params)
{
    if (json_object_is_type(params, json_type_array))
        return xmlconv_from_json(env, params);
    xmlrpc_value *a = xmlrpc_array_new(env);
    if (params && !env->fault_occurred) {
        xmlrpc_value *p = xmlconv_from_json(env, params);
        if (p) {
            xmlrpc_array_append_item(env, a, p);
            xmlrpc_DECREF(p);
        }
    }
    return a;
}

static int render_request(const char *method, json_object *params, struct enc_request *out,
                          char *err)
{
    raise_limit();
    buf_reset(&out->body);
    out->id_off = out->id_len = 0;
    xmlrpc_env env;
    xmlrpc_env_init(&env);
    xmlrpc_value *a = param_array(&env, params);
    xmlrpc_mem_block *mb = env.fault_occurred ? NULL : xmlrpc_mem_block_new(&env, 0);
    if (mb)
        xmlrpc_serialize_call2(&env, mb, method, a, xmlrpc_dialect_i8);
    if (env.fault_occurred)
        enc_seterr(err, "cannot render %s: %s", method, env.fault_string);
    int rc = mb ? take_block(&env, mb, &out->body) : ENC_NOMEM;
    if (a)
        xmlrpc_DECREF(a);
    xmlrpc_env_clean(&env);
    return rc;
}

static int check_response(const char *body, size_t len, struct enc_result *out)
{
    raise_limit(); /* not needed here, but keeps "every entry point" true */
    memset(out, 0, sizeof *out);
    out->items = -1;
    out->status = xmlscan_check(body, len, &out->fault_code);
    return out->status;
}

static int check_error(const char *body, size_t len, struct enc_result *out)
{
    memset(out, 0, sizeof *out);
    out->items = -1;
    out->status = xmlscan_fault(body, len, &out->fault_code);
    return out->status;
}

static int check_head(const char *head, size_t len, struct enc_result *out)
{
    memset(out, 0, sizeof *out);
    out->items = -1;
    int st = xmlscan_check_head(head, len, &out->fault_code);
    out->status = st == XMLSCAN_MORE ? ENC_MORE : st;
    return out->status;
}

/* VDSM status: {code, message}, code as <int>, <i4> or <i8>. */
static int status_code(xmlrpc_env *env, xmlrpc_value *v, int64_t *code)
{
    xmlrpc_value *st = NULL, *c = NULL;
    int found = 0;
    if (xmlrpc_value_type(v) == XMLRPC_TYPE_STRUCT)
        xmlrpc_struct_find_value(env, v, "status", &st);
    if (st && xmlrpc_value_type(st) == XMLRPC_TYPE_STRUCT)
        xmlrpc_struct_find_value(env, st, "code", &c);
    if (c && xmlrpc_value_type(c) == XMLRPC_TYPE_INT) {
        int i;
        xmlrpc_read_int(env, c, &i);
        *code = i;
        found = 1;
    } else if (c && xmlrpc_value_type(c) == XMLRPC_TYPE_I8) {
        xmlrpc_int64 i8;
        xmlrpc_read_i8(env, c, &i8);
        *code = i8;
        found = 1;
    }
    if (c)
        xmlrpc_DECREF(c);
    if (st)
        xmlrpc_DECREF(st);
    return found && !env->fault_occurred;
}

/* statsList or vmList: the VDSM envelope's list. */
static int64_t count_items(xmlrpc_env *env, xmlrpc_value *v)
{
    static const char *const keys[] = {"statsList", "vmList"};
    int64_t n = -1;
    if (xmlrpc_value_type(v) != XMLRPC_TYPE_STRUCT)
        return n;
    for (size_t i = 0; i < 2 && n < 0; i++) {
        xmlrpc_value *l = NULL;
        xmlrpc_struct_find_value(env, v, keys[i], &l);
        if (l && xmlrpc_value_type(l) == XMLRPC_TYPE_ARRAY)
            n = xmlrpc_array_size(env, l);
        if (l)
            xmlrpc_DECREF(l);
    }
    return n;
}

static int decode_result(const char *body, size_t len, struct enc_result *out,
                         json_object **result)
{
    if (result)
        *result = NULL;
    if (!body)
        body = ""; /* an empty body may come as (NULL, 0) */
    raise_limit();
    memset(out, 0, sizeof *out);
    out->items = -1;
    xmlrpc_env env;
    xmlrpc_env_init(&env);
    xmlrpc_value *v = NULL;
    int fcode = 0;
    const char *fstr = NULL;
    const char *unsafe = out->refused = xmlscan_unsafe(body, len);
    if (!unsafe)
        xmlrpc_parse_response2(&env, body, len, &v, &fcode, &fstr);
    else
        xmlrpc_env_set_fault(&env, XMLRPC_PARSE_ERROR, unsafe);
    if (env.fault_occurred) {
        out->status = ENC_DECODE;
    } else if (fstr) {
        out->status = ENC_FAULT;
        out->fault_code = fcode;
        free((void *)fstr);
    } else {
        int64_t code = 0;
        out->status = status_code(&env, v, &code) && code != 0 ? ENC_FAULT : ENC_OK;
        out->fault_code = code;
        out->items = count_items(&env, v);
        /* the tree JSON would give, for --expect: only for a good answer */
        if (result && out->status == ENC_OK && xmlconv_to_json(&env, v, result))
            out->status = ENC_DECODE;
    }
    if (v)
        xmlrpc_DECREF(v);
    xmlrpc_env_clean(&env);
    return out->status;
}

static int decode_response(const char *body, size_t len, struct enc_result *out)
{
    return decode_result(body, len, out, NULL);
}

static int parse_call(const char *body, size_t len, struct enc_call *call, char *err)
{
    if (!body)
        body = ""; /* an empty body may come as (NULL, 0) */
    raise_limit();
    memset(call, 0, sizeof *call);
    xmlrpc_env env;
    xmlrpc_env_init(&env);
    const char *method = NULL;
    xmlrpc_value *params = NULL;
    int rc = ENC_DECODE;
    const char *unsafe = xmlscan_unsafe(body, len);
    if (!unsafe)
        xmlrpc_parse_call(&env, body, len, &method, &params);
    else
        xmlrpc_env_set_fault(&env, XMLRPC_PARSE_ERROR, unsafe);
    if (unsafe) {
        enc_seterr(err, "%s", unsafe); /* ours, and said to the client */
    } else if (env.fault_occurred) {
        enc_seterr(err, "malformed XML-RPC call: %s", env.fault_string);
    } else if (strlen(method) >= ENC_METHOD_MAX) {
        enc_seterr(err, "method name too long");
        rc = ENC_INVALID;
    } else if (xmlconv_to_json(&env, params, &call->params) < 0) {
        enc_seterr(err, "params: %s", env.fault_string);
        rc = ENC_INVALID;
    } else {
        strcpy(call->method, method);
        rc = ENC_OK;
    }
    if (method)
        free((void *)method);
    if (params)
        xmlrpc_DECREF(params);
    xmlrpc_env_clean(&env);
    return rc;
}

/* {status: {code, message}} plus key: value when key is given. */
static xmlrpc_value *envelope(xmlrpc_env *env, int64_t code, const char *message,
                              const char *key, json_object *value)
{
    xmlrpc_value *top = xmlrpc_struct_new(env), *st = xmlrpc_struct_new(env);
    xmlrpc_value *c = code >= INT32_MIN && code <= INT32_MAX ? xmlrpc_int_new(env, (int)code)
                                                              : xmlrpc_i8_new(env, code);
    xmlrpc_value *m = xmlrpc_string_new(env, message ? message : "");
    xmlrpc_value *v = key && !env->fault_occurred ? xmlconv_from_json(env, value) : NULL;
    if (!env->fault_occurred) {
        xmlrpc_struct_set_value(env, st, "code", c);
        xmlrpc_struct_set_value(env, st, "message", m);
        xmlrpc_struct_set_value(env, top, "status", st);
        if (v)
            xmlrpc_struct_set_value(env, top, key, v);
    }
    xmlrpc_value *parts[] = {st, c, m, v};
    for (size_t i = 0; i < 4; i++)
        if (parts[i])
            xmlrpc_DECREF(parts[i]);
    if (env->fault_occurred && top) {
        xmlrpc_DECREF(top);
        top = NULL;
    }
    return top;
}

static int render_value(xmlrpc_value *v, xmlrpc_env *env, struct buf *out)
{
    xmlrpc_mem_block *mb = env->fault_occurred ? NULL : xmlrpc_mem_block_new(env, 0);
    if (mb)
        xmlrpc_serialize_response2(env, mb, v, xmlrpc_dialect_i8);
    int rc = mb ? take_block(env, mb, out) : ENC_NOMEM;
    if (v)
        xmlrpc_DECREF(v);
    return rc;
}

static int render_result(const struct enc_call *call, const struct enc_answer *ans, struct buf *out)
{
    (void)call;
    raise_limit();
    xmlrpc_env env;
    xmlrpc_env_init(&env);
    int rc = render_value(envelope(&env, 0, "Done", ans->xml_key, ans->value), &env, out);
    xmlrpc_env_clean(&env);
    return rc;
}

static int render_error(const struct enc_call *call, enum enc_error_kind kind, int64_t code,
                        const char *message, struct buf *out)
{
    (void)call;
    raise_limit();
    xmlrpc_env env;
    xmlrpc_env_init(&env);
    int rc;
    if (kind == ENC_ERROR_APP) {
        rc = render_value(envelope(&env, code, message, NULL, NULL), &env, out);
    } else {
        xmlrpc_env fault;
        xmlrpc_env_init(&fault);
        int c = code >= INT32_MIN && code <= INT32_MAX ? (int)code : ENC_ERR_INTERNAL;
        xmlrpc_env_set_fault(&fault, c, message ? message : "");
        xmlrpc_mem_block *mb = xmlrpc_mem_block_new(&env, 0);
        if (mb)
            xmlrpc_serialize_fault(&env, mb, &fault);
        rc = mb ? take_block(&env, mb, out) : ENC_NOMEM;
        xmlrpc_env_clean(&fault);
    }
    xmlrpc_env_clean(&env);
    return rc;
}

const struct encoder enc_xmlrpc = {
    .name = "xmlrpc",
    .content_type = "text/xml",
    .default_path = "/RPC2",
    .verb_call = verb_call,
    .render_request = render_request,
    .check_response = check_response,
    .check_error = check_error,
    .check_head = check_head,
    .tail_ok = xmlscan_tail_ok,
    .decode_response = decode_response,
    .decode_result = decode_result,
    .parse_call = parse_call,
    .render_result = render_result,
    .render_error = render_error,
};
