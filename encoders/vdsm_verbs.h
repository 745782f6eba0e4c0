/* vdsm_verbs: the one table of VDSM's verbs and their method names in
 * each encoding (XML-RPC `list`, JSON-RPC `Host.getVMList`, ...), read by
 * the encoders' --verb calls, the simulator's dispatch (server/vdsm_api.c)
 * and the translation of recorded or workload calls from one encoding to
 * the other (replay --as, a workload's VDSM verbs).
 *
 * A verb's params are positional in XML-RPC and named in JSON-RPC; the
 * table names the positions, so a call translates both ways. */
#ifndef RPCBENCH_VDSM_VERBS_H
#define RPCBENCH_VDSM_VERBS_H

#include <json-c/json.h>

#define VDSM_VERB_PARAMS 2

struct vdsm_verb {
    const char *verb; /* --verb's name ("list") */
    const char *xml;  /* XML-RPC method (NULL: none of its own) */
    const char *json; /* JSON-RPC method */
    const char *param[VDSM_VERB_PARAMS]; /* JSON-RPC names of the XML-RPC
                                            positions (NULL: no more) */
    int xml_full;     /* XML-RPC has it as list(True, vmList) */
};

/* @return the row of --verb name verb, or NULL (static, never freed). */
const struct vdsm_verb *vdsm_verb_find(const char *verb);
/* @return the row whose method in the encoding (xml 1: XML-RPC) is
 * method, or NULL. */
const struct vdsm_verb *vdsm_verb_by_method(const char *method, int xml);

/* Translates the call method(params) of the other encoding into the one
 * named by to_xml: *out_method (static) and *out_params (a new reference,
 * NULL: none). params (borrowed, may be NULL) is an array for XML-RPC,
 * an object for JSON-RPC. A method that is already the target's own
 * passes unchanged (params copied by reference).
 * @return 0, or -1 with err (ERR_LEN) naming the method when it has no
 * known counterpart or its params do not fit the counterpart's. */
int vdsm_translate(const char *method, json_object *params, int to_xml, const char **out_method,
                   json_object **out_params, char *err);

#endif
