/* xmlconv: json-c values to xmlrpc-c values and back, for the XML-RPC
 * encoder's edge.
 *
 *   json string  <-> <string>     json int  -> <int> if it fits int32, else <i8>
 *   json double  <-> <double>     <int>/<i4>/<i8> -> json int (int64)
 *   json boolean <-> <boolean>    json null <-> <nil/>
 *   json array   <-> <array>      json object <-> <struct> (member order kept)
 *   <dateTime.iso8601> -> its string, <base64> -> the decoded bytes as a string
 */
#ifndef RPCBENCH_XMLCONV_H
#define RPCBENCH_XMLCONV_H

#include <json-c/json.h>
#include <xmlrpc-c/base.h>

/* A new xmlrpc value for v (NULL = null), or NULL with env's fault set. */
xmlrpc_value *xmlconv_from_json(xmlrpc_env *env, json_object *v);
/* A new json-c value for x in *out (NULL is JSON null); 0 on success, -1
 * with env's fault set. */
int xmlconv_to_json(xmlrpc_env *env, xmlrpc_value *x, json_object **out);

#endif
