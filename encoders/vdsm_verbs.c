/* vdsm_verbs: VDSM's verbs by encoding (vdsm_verbs.h). What the
 * simulator answers and what --verb sends come from this one table, so a
 * name known to one is known to the others. */
#include "encoders/vdsm_verbs.h"

#include <stdio.h>
#include <string.h>

#include "base/err.h"

static const struct vdsm_verb table[] = {
    {"ping", "ping", "Host.ping", {NULL, NULL}, 0},
    {"list", "list", "Host.getVMList", {"fullStatus", "vmList"}, 0},
    {"getAllVmStats", "getAllVmStats", "Host.getAllVmStats", {NULL, NULL}, 0},
    {"getVmStats", "getVmStats", "VM.getStats", {"vmID", NULL}, 0},
    /* XML-RPC's full list is list(True, vmList): it has no method of its own */
    {"fullList", NULL, "Host.getVMFullList", {"vmList", NULL}, 1},
};
#define NVERBS (sizeof table / sizeof table[0])

const struct vdsm_verb *vdsm_verb_find(const char *verb)
{
    for (size_t i = 0; i < NVERBS; i++)
        if (!strcmp(table[i].verb, verb))
            return &table[i];
    return NULL;
}

const struct vdsm_verb *vdsm_verb_by_method(const char *method, int xml)
{
    for (size_t i = 0; i < NVERBS; i++) {
        const char *m = xml ? table[i].xml : table[i].json;
        if (m && !strcmp(m, method))
            return &table[i];
    }
    return NULL;
}

/* XML-RPC positions into JSON-RPC names. @return 0, or -1 with err. */
static int to_named(const struct vdsm_verb *v, const char *method, json_object *params,
                    json_object **out, char *err)
{
    size_t n = json_object_is_type(params, json_type_array) ? json_object_array_length(params) : 0;
    size_t max = 0;
    while (max < VDSM_VERB_PARAMS && v->param[max])
        max++;
    if ((params && !json_object_is_type(params, json_type_array)) || n > max) {
        snprintf(err, ERR_LEN, "%.60s: its params do not fit %s (%zu positional at most)",
                 method, v->json, max);
        return -1;
    }
    *out = NULL;
    if (!max && !n)
        return 0;
    *out = json_object_new_object();
    for (size_t i = 0; *out && i < n; i++)
        json_object_object_add(*out, v->param[i],
                               json_object_get(json_object_array_get_idx(params, i)));
    return *out ? 0 : -1;
}

/* JSON-RPC names into XML-RPC positions: up to the last one given, an
 * earlier one missing as False (list's fullStatus); names XML-RPC has no
 * place for (Host.getVMList's onlyUUID) are left out. */
static int to_positional(const struct vdsm_verb *v, json_object *params, json_object **out)
{
    json_object *vals[VDSM_VERB_PARAMS + 1] = {NULL};
    size_t n = 0, k = 0;
    if (v->xml_full)
        vals[n++] = json_object_new_boolean(1);
    for (size_t i = 0; i < VDSM_VERB_PARAMS && v->param[i]; i++) {
        json_object *p = NULL;
        if (json_object_is_type(params, json_type_object))
            json_object_object_get_ex(params, v->param[i], &p);
        if (!p && json_object_is_type(params, json_type_array))
            p = json_object_array_get_idx(params, i);
        vals[n++] = p ? json_object_get(p) : NULL;
        if (p)
            k = n;
    }
    if (v->xml_full && k < 2) { /* list(True, []): every VM */
        json_object_put(vals[1]);
        vals[1] = json_object_new_array();
        k = 2;
    }
    *out = k ? json_object_new_array() : NULL;
    for (size_t i = 0; i < n; i++) {
        if (i < k)
            json_object_array_add(*out, vals[i] ? vals[i] : json_object_new_boolean(0));
        else
            json_object_put(vals[i]);
    }
    return 0;
}

int vdsm_translate(const char *method, json_object *params, int to_xml, const char **out_method,
                   json_object **out_params, char *err)
{
    const struct vdsm_verb *v = vdsm_verb_by_method(method, to_xml);
    if (v) { /* the target's own already */
        *out_method = to_xml ? v->xml : v->json;
        *out_params = json_object_get(params);
        return 0;
    }
    v = vdsm_verb_by_method(method, !to_xml);
    if (!v) {
        snprintf(err, ERR_LEN, "%.80s: no known %s counterpart (VDSM's verbs translate: ping, "
                 "list, getAllVmStats, getVmStats, fullList)", method,
                 to_xml ? "XML-RPC" : "JSON-RPC");
        return -1;
    }
    if (to_xml) {
        *out_method = v->xml_full ? "list" : v->xml;
        return to_positional(v, params, out_params);
    }
    *out_method = v->json;
    return to_named(v, method, params, out_params, err);
}
