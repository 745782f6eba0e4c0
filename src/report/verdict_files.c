/* verdict_files: a result and its verdicts as files (verdict_files.h). */
#include "report/verdict_files.h"

#include <stdio.h>
#include <string.h>

#include "model/result_json.h"
#include "report/html.h"

void verdict_junit_interrupted(struct junit_case *c, const char *cmd, const char *why)
{
    memset(c, 0, sizeof *c);
    snprintf(c->name, sizeof c->name, "complete run");
    snprintf(c->classname, sizeof c->classname, "rpcbench.%s", cmd);
    c->failed = c->error = 1;
    snprintf(c->message, sizeof c->message, "%s", why);
}

json_object *verdict_result_json(const struct run_result *r, const struct verdict *v)
{
    json_object *j = result_to_json(r);
    if (j && verdict_judged(v))
        json_object_object_add(j, "thresholds", condition_json(v->conds, v->res));
    return j;
}

int verdict_save(const char *path, const struct run_result *r, const struct verdict *v,
                 char *err)
{
    if (!verdict_judged(v))
        return result_save(r, path, err);
    json_object *j = verdict_result_json(r, v);
    int rc = result_json_write(j, path, err);
    json_object_put(j);
    return rc;
}

int verdict_junit(const char *path, const char *cmd, const struct verdict *v, char *err)
{
    static struct junit_case cases[COND_MAX + 1];
    size_t n = verdict_judged(v) ? v->conds->n : 0;
    for (size_t i = 0; i < n; i++) {
        struct junit_case *c = &cases[i];
        char line[200];
        memset(c, 0, sizeof *c);
        snprintf(c->name, sizeof c->name, "%s", v->conds->c[i].expr);
        snprintf(c->classname, sizeof c->classname, "rpcbench.%s", cmd);
        c->failed = !v->res[i].pass;
        snprintf(c->message, sizeof c->message, "%s: %s",
                 condition_describe(&v->conds->c[i], &v->res[i], line, sizeof line),
                 c->failed ? "FAIL" : "pass");
    }
    if (v && v->interrupted[0])
        verdict_junit_interrupted(&cases[n++], cmd, v->interrupted);
    char suite[64];
    snprintf(suite, sizeof suite, "rpcbench %s thresholds", cmd);
    return junit_write(path, suite, cases, n, err);
}

int verdict_html(const char *path, const struct run_result *r, const struct verdict *v,
                 char *err)
{
    static char lines[COND_MAX][320];
    static const char *ptrs[COND_MAX];
    static int pass[COND_MAX];
    size_t n = verdict_judged(v) ? v->conds->n : 0;
    for (size_t i = 0; i < n; i++) {
        char d[256];
        snprintf(lines[i], sizeof lines[i], "%s: %s", v->conds->c[i].expr,
                 condition_describe(&v->conds->c[i], &v->res[i], d, sizeof d));
        ptrs[i] = lines[i];
        pass[i] = v->res[i].pass;
    }
    struct html_verdicts hv = {ptrs, pass, n};
    return html_write_run(path, r, &hv, err);
}
