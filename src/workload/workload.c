/* workload: reads a workload file into calls (workload.h says what a line
 * holds). Every mistake names the file and line, before anything is sent. */
#include "workload/workload.h"

#include <errno.h>
#include <stdio.h>
#include <string.h>

#include "base/units.h"
#include "encoders/vdsm_verbs.h"
#include "encoders/xmlconv.h"

#define LINE_MAX_LEN 65536

/* A tagged value's own value: the type it promises. */
static int check_tag(const char *tag, json_object *v, char *err)
{
    json_object *val = json_object_object_get(v, tag);
    const char *s = json_object_get_string(val);
    size_t n;
    int ok;
    if (!strcmp(tag, "$i8"))
        ok = json_object_is_type(val, json_type_int);
    else if (!json_object_is_type(val, json_type_string))
        ok = 0;
    else if (!strcmp(tag, "$base64"))
        ok = xmlconv_base64_decode(s, NULL, &n) == 0;
    else /* XML-RPC's own form, as xmlrpc-c parses it */
        ok = strlen(s) == 17 && strspn(s, "0123456789") == 8 && s[8] == 'T' && s[11] == ':' &&
             s[14] == ':';
    if (ok)
        return 0;
    snprintf(err, ERR_LEN, "{\"%s\": %.40s}: want %s", tag, json_object_to_json_string(val),
             !strcmp(tag, "$i8") ? "an integer" : !strcmp(tag, "$base64")
             ? "base64 text" : "\"YYYYMMDDTHH:MM:SS\" (XML-RPC's dateTime.iso8601)");
    return -1;
}

/* Replaces the templates of every string in *v with markers, recursively;
 * tagged values are taken as they are. */
static int walk(struct workload *w, json_object **v, const struct wl_call *c, const char *dir,
                int *templated, char *err)
{
    const char *tag = xmlconv_tag(*v);
    if (tag)
        return check_tag(tag, *v, err);
    if (json_object_is_type(*v, json_type_array)) {
        for (size_t i = 0; i < json_object_array_length(*v); i++) {
            json_object *item = json_object_array_get_idx(*v, i), *orig = item;
            if (walk(w, &item, c, dir, templated, err))
                return -1;
            if (item != orig)
                json_object_array_put_idx(*v, i, item);
        }
        return 0;
    }
    if (json_object_is_type(*v, json_type_object)) {
        json_object_object_foreach(*v, key, val)
        {
            json_object *item = val;
            if (key[0] == '$') {
                snprintf(err, ERR_LEN, "unknown tagged value '%.40s' (known: $base64, $datetime, "
                         "$i8, each alone in its object)", key);
                return -1;
            }
            if (walk(w, &item, c, dir, templated, err))
                return -1;
            if (item != val)
                json_object_object_add(*v, key, item);
        }
        return 0;
    }
    if (!json_object_is_type(*v, json_type_string) || !strstr(json_object_get_string(*v), "${"))
        return 0;
    char out[4096];
    if (tmpl_parse_string(json_object_get_string(*v), c->head, dir, w->vars, &w->nvars, w->files,
                          &w->nfiles, out, sizeof out, err))
        return -1;
    *templated = 1;
    *v = json_object_new_string(out);
    return *v ? 0 : -1;
}

static int take_string(json_object *o, const char *key, char *out, size_t len, int need,
                       char *err)
{
    json_object *v = json_object_object_get(o, key);
    if (!v && !need)
        return 0;
    if (!json_object_is_type(v, json_type_string) || !json_object_get_string_len(v) ||
        (size_t)json_object_get_string_len(v) >= len) {
        snprintf(err, ERR_LEN, "\"%s\": want a string of 1..%zu bytes%s", key, len - 1,
                 v ? "" : " (it is missing)");
        return -1;
    }
    snprintf(out, len, "%s", json_object_get_string(v));
    return 0;
}

/* weight and every: a share of the mix, or a period of its own. */
static int take_schedule(json_object *o, struct wl_call *c, char *err)
{
    json_object *wt = json_object_object_get(o, "weight"), *ev = json_object_object_get(o, "every");
    c->weight = 1;
    if (ev && wt) {
        snprintf(err, ERR_LEN, "\"every\" and \"weight\": a call with its own period is not in "
                 "the weighted mix; give one");
        return -1;
    }
    if (ev) {
        char why[ERR_LEN];
        c->weight = 0;
        if (json_object_is_type(ev, json_type_string) &&
            units_parse_duration(json_object_get_string(ev), &c->every_ns, why) == 0 &&
            c->every_ns >= 1000000)
            return 0;
        snprintf(err, ERR_LEN, "\"every\": want a period of 1ms or more, e.g. \"15s\"");
        return -1;
    }
    if (!wt)
        return 0;
    int64_t n = json_object_get_int64(wt);
    if (json_object_is_type(wt, json_type_int) && n >= 1 && n <= 1000) {
        c->weight = (unsigned)n;
        return 0;
    }
    snprintf(err, ERR_LEN, "\"weight\": want an integer 1..1000");
    return -1;
}

static int check_keys(json_object *o, char *err)
{
    static const char *const keys[] = {"name", "method", "verb", "params", "weight", "every",
                                       "expect"};
    json_object_object_foreach(o, key, val)
    {
        (void)val;
        size_t i = 0;
        while (i < sizeof keys / sizeof keys[0] && strcmp(key, keys[i]))
            i++;
        if (i == sizeof keys / sizeof keys[0]) {
            snprintf(err, ERR_LEN, "unknown key \"%.40s\" (known: name, method, verb, params, "
                     "weight, every, expect)", key);
            return -1;
        }
    }
    return 0;
}

/* @return 1 when text occurs in a string or a key of v, recursively. */
static int mentions(json_object *v, const char *text)
{
    if (json_object_is_type(v, json_type_string))
        return strstr(json_object_get_string(v), text) != NULL;
    if (json_object_is_type(v, json_type_array)) {
        for (size_t i = 0; i < json_object_array_length(v); i++)
            if (mentions(json_object_array_get_idx(v, i), text))
                return 1;
        return 0;
    }
    if (json_object_is_type(v, json_type_object)) {
        json_object_object_foreach(v, key, val)
        {
            if (strstr(key, text) || mentions(val, text))
                return 1;
        }
    }
    return 0;
}

/* The head of c's template markers: the first that its method and params
 * p do not contain, so that no text of the user's is cut as a template.
 * @return 0, or -1 with err (it contains every one). */
static int pick_head(struct wl_call *c, json_object *p, char *err)
{
    for (unsigned k = 0; k < TMPL_HEADS; k++) {
        tmpl_head(k, c->head);
        if (!strstr(c->method, c->head) && !mentions(p, c->head))
            return 0;
    }
    snprintf(err, ERR_LEN, "the call's text has every template marker (rpcbench and a letter): "
             "change one");
    return -1;
}

/* "expect": one check (a string) or an array of them, each parsed now so
 * that a bad one is the line's usage error, not a failure per answer. */
static int take_expects(json_object *o, struct wl_call *c, char *err)
{
    json_object *v = json_object_object_get(o, "expect");
    if (!v)
        return 0;
    int one = json_object_is_type(v, json_type_string);
    size_t n = one ? 1 : json_object_is_type(v, json_type_array) ? json_object_array_length(v) : 0;
    if (!n || n > WL_MAX_EXPECTS) {
        snprintf(err, ERR_LEN, "\"expect\": want a check or an array of 1..%d, e.g. "
                 "\"status.code=0\"", WL_MAX_EXPECTS);
        return -1;
    }
    for (size_t i = 0; i < n; i++) {
        json_object *item = one ? v : json_object_array_get_idx(v, i);
        char why[ERR_LEN];
        if (!json_object_is_type(item, json_type_string)) {
            snprintf(err, ERR_LEN, "\"expect\": item %zu is not a string", i + 1);
            return -1;
        }
        if (expect_parse(json_object_get_string(item), &c->expects[i], why)) {
            char *want = strstr(why, "; want "); /* the line's room is for where it broke */
            if (want)
                *want = '\0';
            snprintf(err, ERR_LEN, "\"expect\" %.200s (--expect's grammar)", why);
            return -1;
        }
    }
    c->nexpects = n;
    return 0;
}

/* "verb": one of VDSM's verbs, by its --verb name or its method in either
 * encoding ("list", "Host.getVMList"): sent in the run's encoding's name,
 * params translated (workload_resolve). A plain "method" is sent as
 * written: a server of its own may well have a method named "list". */
static int take_verb(json_object *o, struct wl_call *c, char *err)
{
    if (take_string(o, "verb", c->method, sizeof c->method, 1, err))
        return -1;
    if (!vdsm_verb_find(c->method) && !vdsm_verb_by_method(c->method, 1) &&
        !vdsm_verb_by_method(c->method, 0)) {
        snprintf(err, ERR_LEN, "\"verb\": '%.64s' is none of VDSM's verbs (as --verb names "
                 "them, or their methods in either encoding); a method of your own is "
                 "\"method\"", c->method);
        return -1;
    }
    c->verb = 1;
    return 0;
}

/* "method": a string, or {"xmlrpc": M, "jsonrpc": M} (one at least):
 * c->method is then the XML-RPC one, else the JSON-RPC one, until
 * workload_resolve. */
static int take_method(json_object *o, struct wl_call *c, char *err)
{
    json_object *m = json_object_object_get(o, "method");
    if (json_object_object_get(o, "verb"))
        return m ? (snprintf(err, ERR_LEN, "give \"method\" (sent as written) or \"verb\" (one "
                             "of VDSM's, in each encoding's name), not both"), -1)
                 : take_verb(o, c, err);
    if (!json_object_is_type(m, json_type_object))
        return take_string(o, "method", c->method, sizeof c->method, 1, err);
    static const char *const encs[2] = {"xmlrpc", "jsonrpc"};
    size_t known = 0;
    for (int i = 0; i < 2; i++)
        if (json_object_object_get(m, encs[i])) {
            known++;
            if (take_string(m, encs[i], c->by_enc[i], sizeof c->by_enc[i], 1, err))
                return -1;
        }
    if (!known || known != (size_t)json_object_object_length(m)) {
        snprintf(err, ERR_LEN, "\"method\": a string, or {\"xmlrpc\": ..., \"jsonrpc\": ...} "
                 "(one or both)");
        return -1;
    }
    snprintf(c->method, sizeof c->method, "%s", c->by_enc[0][0] ? c->by_enc[0] : c->by_enc[1]);
    return 0;
}

/* "params" per encoding: with a method per encoding, an object of
 * nothing but "xmlrpc" and "jsonrpc". */
static int params_by_enc(const struct wl_call *c, json_object *p)
{
    if ((!c->by_enc[0][0] && !c->by_enc[1][0]) || !json_object_is_type(p, json_type_object) ||
        !json_object_object_length(p))
        return 0;
    json_object_object_foreach(p, key, val)
    {
        (void)val;
        if (strcmp(key, "xmlrpc") && strcmp(key, "jsonrpc"))
            return 0;
    }
    return 1;
}

/* One call from its line's object o. */
static int take_call(struct workload *w, json_object *o, const char *dir, struct wl_call *c,
                     char *err)
{
    if (check_keys(o, err) || take_method(o, c, err) ||
        take_string(o, "name", c->name, sizeof c->name, 0, err) || take_schedule(o, c, err) ||
        take_expects(o, c, err))
        return -1;
    if (!c->name[0] && strlen(c->method) >= sizeof c->name) {
        snprintf(err, ERR_LEN, "the method is too long to name the call: give \"name\"");
        return -1;
    }
    if (!c->name[0])
        memcpy(c->name, c->method, strlen(c->method) + 1);
    for (struct wl_call *d = w->call; d < c; d++)
        if (!strcmp(d->name, c->name)) {
            snprintf(err, ERR_LEN, "the name \"%.64s\" is line %d's too: every call needs its "
                     "own", c->name, d->line);
            return -1;
        }
    json_object *p = json_object_object_get(o, "params");
    if (!p)
        return 0;
    c->params_by_enc = params_by_enc(c, p);
    c->named = json_object_is_type(p, json_type_object) && !c->params_by_enc;
    if (!c->named && !c->params_by_enc && !json_object_is_type(p, json_type_array)) {
        snprintf(err, ERR_LEN, "\"params\": want an array (or an object, for JSON-RPC)");
        return -1;
    }
    if (pick_head(c, p, err))
        return -1;
    c->params = json_object_get(p);
    return walk(w, &c->params, c, dir, &c->templated, err);
}

static int parse_line(struct workload *w, const char *text, int lineno, const char *dir,
                      char *err)
{
    struct json_tokener *tok = json_tokener_new();
    json_object *o = tok ? json_tokener_parse_ex(tok, text, (int)strlen(text)) : NULL;
    int bad = !o || json_tokener_get_error(tok) != json_tokener_success ||
              tok->char_offset < (int)strlen(text);
    int rc = -1;
    if (bad)
        snprintf(err, ERR_LEN, "not one JSON object (%s)",
                 tok && json_tokener_get_error(tok) != json_tokener_success
                     ? json_tokener_error_desc(json_tokener_get_error(tok)) : "text after it");
    else if (!json_object_is_type(o, json_type_object))
        snprintf(err, ERR_LEN, "not a JSON object: want {\"method\": ..., \"params\": [...]}");
    else if (w->ncalls == WL_MAX_CALLS)
        snprintf(err, ERR_LEN, "more than %d calls", WL_MAX_CALLS);
    else {
        struct wl_call *c = &w->call[w->ncalls++];
        c->line = lineno;
        rc = take_call(w, o, dir, c, err);
    }
    json_object_put(o);
    if (tok)
        json_tokener_free(tok);
    return rc;
}

static int read_lines(struct workload *w, FILE *f, const char *dir, char *err)
{
    static char text[LINE_MAX_LEN];
    char why[ERR_LEN] = "";
    int lineno = 0;
    while (fgets(text, sizeof text, f)) {
        lineno++;
        size_t n = strlen(text);
        if (n == sizeof text - 1 && text[n - 1] != '\n') {
            snprintf(why, sizeof why, "longer than %d bytes", LINE_MAX_LEN - 2);
            break;
        }
        const char *p = text + strspn(text, " \t\r\n");
        if (*p && *p != '#' && parse_line(w, p, lineno, dir, why))
            break;
        why[0] = '\0';
    }
    if (!why[0] && !w->ncalls)
        snprintf(why, sizeof why, "no calls (one JSON object a line)");
    if (!why[0])
        return 0;
    snprintf(err, ERR_LEN, "%.80s:%d: %.150s", w->path, lineno, why);
    return -1;
}

int workload_load(struct workload *w, const char *path, char *err)
{
    memset(w, 0, sizeof *w);
    snprintf(w->path, sizeof w->path, "%s", path);
    char dir[512];
    snprintf(dir, sizeof dir, "%s", path);
    char *slash = strrchr(dir, '/');
    if (slash)
        *slash = '\0';
    else
        dir[0] = '\0';
    FILE *f = fopen(path, "r");
    if (!f) {
        snprintf(err, ERR_LEN, "%.100s: %s", path, strerror(errno));
        return -1;
    }
    int rc = read_lines(w, f, dir, err);
    fclose(f);
    if (rc)
        workload_free(w);
    return rc;
}

void workload_free(struct workload *w)
{
    for (size_t i = 0; i < w->ncalls; i++)
        json_object_put(w->call[i].params);
    tmpl_files_free(w->files, w->nfiles);
    w->ncalls = w->nfiles = w->nvars = 0;
}

/* c's params for the encoding when given per encoding (NULL: none for
 * it), a new reference. */
static json_object *params_for(const struct wl_call *c, int xml)
{
    if (!c->params_by_enc)
        return json_object_get(c->params);
    return json_object_get(json_object_object_get(c->params, xml ? "xmlrpc" : "jsonrpc"));
}

/* One call fitted to the encoding. @return 0, or -1 with why. */
static int resolve_call(struct wl_call *c, int xml, char *why)
{
    const char *m = c->method, *to = NULL;
    json_object *p = params_for(c, xml), *out = NULL;
    if (c->by_enc[0][0] || c->by_enc[1][0]) {
        m = c->by_enc[xml ? 0 : 1];
        if (!*m) {
            snprintf(why, ERR_LEN, "no \"%s\" method for this encoding",
                     xml ? "xmlrpc" : "jsonrpc");
            json_object_put(p);
            return -1;
        }
        out = json_object_get(p);
        to = m;
    } else if (c->verb) { /* "verb": in this encoding's name (take_verb) */
        if (vdsm_translate(m, p, xml, &to, &out, why)) {
            json_object_put(p);
            return -1;
        }
    } else {
        out = json_object_get(p);
        to = m;
    }
    json_object_put(p);
    memmove(c->method, to, strlen(to) + 1);
    json_object_put(c->params);
    c->params = out;
    c->params_by_enc = 0;
    c->named = json_object_is_type(out, json_type_object);
    return 0;
}

int workload_resolve(struct workload *w, int xml, char *err)
{
    for (size_t i = 0; i < w->ncalls; i++) {
        char why[ERR_LEN];
        if (resolve_call(&w->call[i], xml, why)) {
            snprintf(err, ERR_LEN, "%.80s:%d: %.150s", w->path, w->call[i].line, why);
            return -1;
        }
    }
    return 0;
}

/* Tagged values as plain JSON, recursively, in the copy v. @return v, or
 * when v is itself tagged a new reference to its value (the caller then
 * replaces v, which drops it). */
static json_object *plain(json_object *v)
{
    const char *tag = xmlconv_tag(v);
    if (tag)
        return json_object_get(json_object_object_get(v, tag));
    if (json_object_is_type(v, json_type_array))
        for (size_t i = 0; i < json_object_array_length(v); i++) {
            json_object *item = json_object_array_get_idx(v, i), *p = plain(item);
            if (p != item)
                json_object_array_put_idx(v, i, p);
        }
    else if (json_object_is_type(v, json_type_object)) {
        json_object_object_foreach(v, key, val)
        {
            json_object *p = plain(val);
            if (p != val)
                json_object_object_add(v, key, p);
        }
    }
    return v;
}

json_object *workload_params(const struct wl_call *c, int xml)
{
    if (!c->params)
        return NULL;
    if (xml)
        return json_object_get(c->params);
    json_object *copy = NULL, *p;
    if (json_object_deep_copy(c->params, &copy, NULL))
        return NULL;
    p = plain(copy);
    if (p != copy)
        json_object_put(copy);
    return p;
}
