/* xmlconv: json-c values to xmlrpc-c values and back, for the XML-RPC
 * encoder's edge.
 *
 *   json string  <-> <string>     json int  -> <int> if it fits int32, else <i8>
 *   json double  <-> <double>     <int>/<i4>/<i8> -> json int (int64)
 *   json boolean <-> <boolean>    json null <-> <nil/>
 *   json array   <-> <array>      json object <-> <struct> (member order kept)
 *   <dateTime.iso8601> -> its string, <base64> -> the decoded bytes as a string
 *   {"$base64": "aGk="} -> <base64>, {"$datetime": "20240101T10:00:00"} ->
 *   <dateTime.iso8601>, {"$i8": N} -> <i8> (a workload's tagged values)
 */
#ifndef RPCBENCH_XMLCONV_H
#define RPCBENCH_XMLCONV_H

#include <json-c/json.h>
#include <xmlrpc-c/base.h>

/* v is borrowed. @return a new xmlrpc value for v (NULL = null), owned
 * by the caller (xmlrpc_DECREF), or NULL with env's fault set. */
xmlrpc_value *xmlconv_from_json(xmlrpc_env *env, json_object *v);
/* Converts x (borrowed) into *out: a new json-c reference, owned by the
 * caller (json_object_put), NULL for JSON null.
 * @return 0, or -1 with env's fault set (*out left as it was). */
int xmlconv_to_json(xmlrpc_env *env, xmlrpc_value *x, json_object **out);

/* @return the tag of a tagged value ("$base64", "$datetime", "$i8": an
 * object with that one member; static), or NULL for any other value. */
const char *xmlconv_tag(json_object *v);
/* Decodes base64 text s (NUL-ended; padding optional) into out (at least
 * strlen(s) bytes; NULL: only count), *n the bytes.
 * @return 0, or -1 when s is not base64. */
int xmlconv_base64_decode(const char *s, unsigned char *out, size_t *n);

#endif
