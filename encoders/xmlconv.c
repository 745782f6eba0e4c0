#include "encoders/xmlconv.h"

#include <stdint.h>
#include <stdlib.h>
#include <string.h>

static xmlrpc_value *array_from_json(xmlrpc_env *env, json_object *v)
{
    xmlrpc_value *a = xmlrpc_array_new(env);
    size_t n = json_object_array_length(v);
    for (size_t i = 0; i < n && !env->fault_occurred; i++) {
        xmlrpc_value *item = xmlconv_from_json(env, json_object_array_get_idx(v, i));
        if (item) {
            xmlrpc_array_append_item(env, a, item);
            xmlrpc_DECREF(item);
        }
    }
    return a;
}

int xmlconv_base64_decode(const char *s, unsigned char *out, size_t *n)
{
    static const char abc[] = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";
    uint32_t acc = 0;
    int bits = 0, pad = 0;
    *n = 0;
    for (; *s; s++) {
        const char *at = strchr(abc, *s);
        if (*s == '=' && ++pad <= 2)
            continue;
        if (!at || pad || !*s)
            return -1;
        acc = (acc << 6) | (uint32_t)(at - abc);
        bits += 6;
        if (bits >= 8) {
            bits -= 8;
            if (out)
                out[*n] = (unsigned char)(acc >> bits);
            (*n)++;
        }
    }
    return 0;
}

/* {"$base64": "..."}, {"$datetime": "..."} or {"$i8": N}: the XML-RPC
 * types JSON lacks (workload files). @return the tag's name, or NULL. */
const char *xmlconv_tag(json_object *v)
{
    static const char *const tags[] = {"$base64", "$datetime", "$i8"};
    if (!json_object_is_type(v, json_type_object) || json_object_object_length(v) != 1)
        return NULL;
    json_object_object_foreach(v, key, val)
    {
        (void)val;
        for (size_t i = 0; i < sizeof tags / sizeof tags[0]; i++)
            if (!strcmp(key, tags[i]))
                return tags[i];
    }
    return NULL;
}

static xmlrpc_value *tagged_from_json(xmlrpc_env *env, const char *tag, json_object *v)
{
    json_object *val = json_object_object_get(v, tag);
    const char *s = json_object_get_string(val);
    if (!strcmp(tag, "$i8"))
        return xmlrpc_i8_new(env, json_object_get_int64(val));
    if (!strcmp(tag, "$datetime"))
        return xmlrpc_datetime_new_str(env, s);
    size_t n = 0;
    unsigned char *bytes = malloc(strlen(s) + 1);
    xmlrpc_value *x = NULL;
    if (bytes && xmlconv_base64_decode(s, bytes, &n) == 0)
        x = xmlrpc_base64_new(env, n, bytes);
    else
        xmlrpc_faultf(env, "$base64: not base64: %.60s", s);
    free(bytes);
    return x;
}

static xmlrpc_value *struct_from_json(xmlrpc_env *env, json_object *v)
{
    const char *tag = xmlconv_tag(v);
    if (tag)
        return tagged_from_json(env, tag, v);
    xmlrpc_value *s = xmlrpc_struct_new(env);
    json_object_object_foreach(v, key, val)
    {
        if (env->fault_occurred)
            break;
        xmlrpc_value *m = xmlconv_from_json(env, val);
        if (m) {
            xmlrpc_struct_set_value(env, s, key, m);
            xmlrpc_DECREF(m);
        }
    }
    return s;
}

static xmlrpc_value *int_from_json(xmlrpc_env *env, json_object *v)
{
    int64_t i = json_object_get_int64(v);
    if (i >= INT32_MIN && i <= INT32_MAX)
        return xmlrpc_int_new(env, (int)i);
    return xmlrpc_i8_new(env, i);
}

xmlrpc_value *xmlconv_from_json(xmlrpc_env *env, json_object *v)
{
    xmlrpc_value *x;
    switch (json_object_get_type(v)) {
    case json_type_null:
        x = xmlrpc_nil_new(env);
        break;
    case json_type_boolean:
        x = xmlrpc_bool_new(env, json_object_get_boolean(v));
        break;
    case json_type_int:
        x = int_from_json(env, v);
        break;
    case json_type_double:
        x = xmlrpc_double_new(env, json_object_get_double(v));
        break;
    case json_type_string:
        x = xmlrpc_string_new_lp(env, (size_t)json_object_get_string_len(v),
                                 json_object_get_string(v));
        break;
    case json_type_array:
        x = array_from_json(env, v);
        break;
    case json_type_object:
        x = struct_from_json(env, v);
        break;
    default:
        xmlrpc_faultf(env, "json type %d has no XML-RPC form", (int)json_object_get_type(v));
        return NULL;
    }
    if (env->fault_occurred && x) {
        xmlrpc_DECREF(x);
        x = NULL;
    }
    return x;
}

static json_object *array_to_json(xmlrpc_env *env, xmlrpc_value *x)
{
    json_object *a = json_object_new_array();
    int n = xmlrpc_array_size(env, x);
    for (int i = 0; i < n && !env->fault_occurred; i++) {
        xmlrpc_value *item;
        json_object *j = NULL;
        xmlrpc_array_read_item(env, x, (unsigned)i, &item);
        if (env->fault_occurred)
            break;
        if (xmlconv_to_json(env, item, &j) == 0)
            json_object_array_add(a, j);
        xmlrpc_DECREF(item);
    }
    return a;
}

static json_object *struct_to_json(xmlrpc_env *env, xmlrpc_value *x)
{
    json_object *o = json_object_new_object();
    int n = xmlrpc_struct_size(env, x);
    for (int i = 0; i < n && !env->fault_occurred; i++) {
        xmlrpc_value *k, *v;
        const char *key;
        json_object *j = NULL;
        xmlrpc_struct_read_member(env, x, (unsigned)i, &k, &v);
        if (env->fault_occurred)
            break;
        xmlrpc_read_string(env, k, &key);
        if (!env->fault_occurred) {
            if (xmlconv_to_json(env, v, &j) == 0)
                json_object_object_add(o, key, j);
            free((void *)key);
        }
        xmlrpc_DECREF(k);
        xmlrpc_DECREF(v);
    }
    return o;
}

static json_object *bytes_to_json(xmlrpc_env *env, xmlrpc_value *x)
{
    size_t n;
    const unsigned char *b;
    xmlrpc_read_base64(env, x, &n, &b);
    if (env->fault_occurred)
        return NULL;
    json_object *j = json_object_new_string_len((const char *)b, (int)n);
    free((void *)b);
    return j;
}

static json_object *scalar_to_json(xmlrpc_env *env, xmlrpc_value *x)
{
    int i;
    xmlrpc_int64 i8;
    xmlrpc_bool b;
    double d;
    const char *s;
    size_t n;
    json_object *j = NULL;
    switch (xmlrpc_value_type(x)) {
    case XMLRPC_TYPE_INT:
        xmlrpc_read_int(env, x, &i);
        return json_object_new_int64(i);
    case XMLRPC_TYPE_I8:
        xmlrpc_read_i8(env, x, &i8);
        return json_object_new_int64(i8);
    case XMLRPC_TYPE_BOOL:
        xmlrpc_read_bool(env, x, &b);
        return json_object_new_boolean(b);
    case XMLRPC_TYPE_DOUBLE:
        xmlrpc_read_double(env, x, &d);
        return json_object_new_double(d);
    case XMLRPC_TYPE_STRING:
        xmlrpc_read_string_lp(env, x, &n, &s);
        break;
    case XMLRPC_TYPE_DATETIME:
        xmlrpc_read_datetime_str(env, x, &s);
        n = env->fault_occurred ? 0 : strlen(s);
        break;
    default:
        xmlrpc_faultf(env, "XML-RPC type %s has no JSON form",
                      xmlrpc_type_name(xmlrpc_value_type(x)));
        return NULL;
    }
    if (env->fault_occurred)
        return NULL;
    j = json_object_new_string_len(s, (int)n);
    free((void *)s);
    return j;
}

int xmlconv_to_json(xmlrpc_env *env, xmlrpc_value *x, json_object **out)
{
    json_object *j;
    switch (xmlrpc_value_type(x)) {
    case XMLRPC_TYPE_NIL:
        j = NULL;
        break;
    case XMLRPC_TYPE_ARRAY:
        j = array_to_json(env, x);
        break;
    case XMLRPC_TYPE_STRUCT:
        j = struct_to_json(env, x);
        break;
    case XMLRPC_TYPE_BASE64:
        j = bytes_to_json(env, x);
        break;
    default:
        j = scalar_to_json(env, x);
    }
    if (!env->fault_occurred && !j && xmlrpc_value_type(x) != XMLRPC_TYPE_NIL)
        xmlrpc_faultf(env, "out of memory");
    if (env->fault_occurred) {
        json_object_put(j);
        return -1;
    }
    *out = j;
    return 0;
}
