/* encoder: one small interface over the two wire encodings rpcbench speaks,
 * XML-RPC (xmlrpc-c) and JSON-RPC 2.0 (json-c), for both sides of a call.
 *
 * Values that cross this interface (params, results) are json-c objects:
 * json-c is the neutral tree, and the XML-RPC encoder converts to and from
 * xmlrpc-c values at its edge (ints beyond int32 become <i8>, null <nil/>).
 *
 * Client side: a request is rendered once per verb (enc_request), then each
 * send only stamps a fresh id into its fixed-width slot. Responses get a
 * cheap check (no tree built: fault? error? VDSM status.code != 0?) or a
 * full decode (tree built and walked: how many items?).
 *
 * Server side: parse a call, render a result or an error.
 *
 * All functions return one of enum enc_status and, where they take `err`,
 * write a one-line reason there (ERR_LEN bytes, caller-owned).
 *
 * Ownership: bodies passed in are borrowed for the call; bufs passed out
 * are the caller's, appended to or reset as each function says, never
 * freed here. json-c references follow json-c: "new reference" means the
 * caller puts it (json_object_put), "borrowed" that it does not. */
#ifndef RPCBENCH_ENCODER_H
#define RPCBENCH_ENCODER_H

#include <json-c/json.h>
#include <stddef.h>
#include <stdint.h>

#include "base/buf.h"
#include "base/err.h"

/* Request ids are UUID-shaped strings, as VDSM's clients send; the counter
 * lives in the last ENC_ID_DIGITS hex digits. */
#define ENC_ID_PREFIX "00000000-0000-4000-8000-"
#define ENC_ID_DIGITS 12
#define ENC_METHOD_MAX 128

enum enc_status {
    ENC_OK = 0,
    ENC_FAULT,   /* a well-formed answer that says "failed": XML-RPC fault,
                    JSON-RPC error, or VDSM status.code != 0 */
    ENC_DECODE,  /* not a valid document / response */
    ENC_INVALID, /* server side: valid document but not a request (-32600) */
    ENC_NOMEM,
    ENC_MORE,    /* check_head: the head alone does not decide */
};

/* JSON-RPC 2.0 error codes, also used as XML-RPC fault codes for the same
 * protocol-level failures. */
#define ENC_ERR_PARSE (-32700)
#define ENC_ERR_INVALID_REQUEST (-32600)
#define ENC_ERR_NO_METHOD (-32601)
#define ENC_ERR_INVALID_PARAMS (-32602)
#define ENC_ERR_INTERNAL (-32603)

/* A request rendered once; stamp ids into body.data[id_off .. id_off+id_len). */
struct enc_request {
    struct buf body;
    size_t id_off;
    size_t id_len; /* 0 when the encoding carries no id (XML-RPC) */
};

/* What a response check found. */
struct enc_result {
    int status;         /* enum enc_status */
    int64_t fault_code; /* with ENC_FAULT */
    int has_id;
    uint64_t id;        /* counter parsed from the response id (JSON-RPC) */
    int64_t items;      /* full decode only: list length (VMs), -1 if none */
    const char *refused; /* full decode only: why a body was refused before
                          * parsing (static text, "refused: ..."), else NULL */
};

/* A call as the server receives it. */
struct enc_call {
    char method[ENC_METHOD_MAX];
    json_object *params; /* owned: array (positional) or object (named), may be NULL */
    json_object *id;     /* owned, JSON-RPC only; NULL for XML-RPC */
    int is_notification; /* JSON-RPC request without id: no reply */
};

/* Server-side answer: result value, wrapped as VDSM does per encoding.
 * XML-RPC wraps in {status:{code:0,message:"Done"}, <xml_key>: value}
 * (no value when xml_key is NULL); JSON-RPC sends value as the result. */
struct enc_answer {
    json_object *value;  /* borrowed */
    const char *xml_key; /* "statsList", "vmList", or NULL */
};

/* Who sends an error: the protocol (malformed, unknown method: XML-RPC fault)
 * or the application (VDSM: XML-RPC status envelope with code != 0). Both
 * are a JSON-RPC error object. */
enum enc_error_kind { ENC_ERROR_PROTOCOL, ENC_ERROR_APP };

struct encoder {
    const char *name;         /* "xmlrpc", "jsonrpc" */
    const char *content_type; /* for HTTP */
    const char *default_path; /* "/RPC2", "/jsonrpc" */

    /* Client: protocol method and params for a VDSM verb ("ping", "list",
     * "fullList", "getAllVmStats", "getVmStats"); vm_id is used by getVmStats.
     * *method is a static string or verb itself (valid while verb is);
     * *params is a new reference (may be NULL).
     * @return ENC_OK, ENC_INVALID (unknown verb, no vm_id) or ENC_NOMEM. */
    int (*verb_call)(const char *verb, const char *vm_id, const char **method,
                     json_object **params, char *err);
    /* Client: renders method(params) once, with an id slot where the
     * encoding has ids. out->body is reset first (out zeroed or used
     * before); the caller frees it with enc_request_free. params is
     * borrowed. @return ENC_OK, or ENC_NOMEM (with err when the encoding
     * could not carry params). */
    int (*render_request)(const char *method, json_object *params,
                          struct enc_request *out, char *err);
    /* Client: cheap check, builds no tree and never allocates.
     * @return ENC_OK, ENC_FAULT (out->fault_code) or ENC_DECODE; out->status
     * holds the same. */
    int (*check_response)(const char *body, size_t len, struct enc_result *out);
    /* Client: whether the body of a non-2xx HTTP answer is this protocol's
     * own error, which is then a fault whatever the status (aria2 sends
     * its JSON-RPC errors with 400): an XML-RPC methodResponse holding a
     * <fault> with an integer faultCode, a JSON-RPC object whose "error"
     * is an object with an integer "code". Anything else (an error page,
     * {"error":"boom"}, a VDSM status envelope) is not. Builds no tree
     * that outlives the call. @return ENC_FAULT (out->fault_code) or
     * ENC_DECODE; out->status holds the same. */
    int (*check_error)(const char *body, size_t len, struct enc_result *out);
    /* Client: the cheap check split for a body that arrives in pieces
     * (check_stream.h), so the middle of a long one need not be kept.
     * check_head decides from the first bytes, or returns ENC_MORE; its
     * verdict stands when tail_ok accepts the last bytes (trailing blanks
     * stripped): check_response on the whole body then agrees. NULL where
     * the encoding cannot decide early (JSON-RPC: its id comes last). */
    int (*check_head)(const char *head, size_t len, struct enc_result *out);
    /* @return 1 when the last bytes end the document properly, else 0. */
    int (*tail_ok)(const char *tail, size_t len);
    /* Client: full decode, builds and walks the tree (freed before it
     * returns), counts items into out->items.
     * @return ENC_OK, ENC_FAULT or ENC_DECODE; out->status holds the same. */
    int (*decode_response)(const char *body, size_t len, struct enc_result *out);
    /* Client: decode_response that also hands back the call's result as
     * a json-c tree (an XML-RPC value converted as xmlconv.h says), for
     * --expect: *result a new reference the caller puts (NULL: none, or
     * JSON null), set only with ENC_OK. */
    int (*decode_result)(const char *body, size_t len, struct enc_result *out,
                         json_object **result);

    /* Server: parse a call into call (the caller's; its params and id are
     * new references it then owns).
     * @return ENC_OK, ENC_DECODE for malformed input, or ENC_INVALID for a
     * document that is not a request; call must be freed with
     * enc_call_clear whatever the return. */
    int (*parse_call)(const char *body, size_t len, struct enc_call *call, char *err);
    /* Server: render a successful answer to call, appended to out.
     * @return ENC_OK or ENC_NOMEM. */
    int (*render_result)(const struct enc_call *call, const struct enc_answer *ans,
                         struct buf *out);
    /* Server: render an error, appended to out; call may be NULL (e.g.
     * unparseable input), message is copied. @return ENC_OK or ENC_NOMEM. */
    int (*render_error)(const struct enc_call *call, enum enc_error_kind kind,
                        int64_t code, const char *message, struct buf *out);
};

extern const struct encoder enc_xmlrpc;
extern const struct encoder enc_jsonrpc;

/* @return the encoder called `name` (static, never freed), or NULL. */
const struct encoder *enc_find(const char *name);

/* Writes id as ENC_ID_DIGITS lowercase hex digits at req's id slot
 * (no-op when the encoding has none). Never allocates. */
void enc_stamp_id(struct enc_request *req, uint64_t id);
/* Parses the counter (the last ENC_ID_DIGITS hex digits) out of the
 * UUID-shaped id s[0..len) into *id.
 * @return 0, or -1 when s is not UUID-shaped. */
int enc_parse_id(const char *s, size_t len, uint64_t *id);

/* Frees req's body; req may be rendered into again. */
void enc_request_free(struct enc_request *req);
/* Writes a one-line reason into err (ERR_LEN bytes) unless err is NULL. */
void enc_seterr(char *err, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
/* Puts call's params and id and zeroes it; safe on a zeroed call. */
void enc_call_clear(struct enc_call *call);

/* JSON-RPC server side, for batches (vdsm_api.c). jsonrpc_parse_body parses
 * exactly one JSON value into *doc (owned by the caller; NULL for null):
 * ENC_OK or ENC_DECODE. jsonrpc_take_call reads one request object (req is
 * borrowed): ENC_OK or ENC_INVALID; call must be cleared with enc_call_clear
 * whatever the return. jsonrpc_count_requests counts a batch's elements
 * without building a tree (1 for a lone object, an empty batch or anything
 * malformed; at most cap). */
int jsonrpc_parse_body(const char *body, size_t len, json_object **doc, char *err);
int jsonrpc_take_call(json_object *req, struct enc_call *call, char *err);
size_t jsonrpc_count_requests(const char *body, size_t len, size_t cap);

/* xmlrpc-c refuses documents over 512 KiB by default; every entry point of
 * the XML-RPC encoder raises the limit to this once. */
#define ENC_XML_SIZE_LIMIT ((size_t)1 << 30)

#endif
