/* verdict_files: a result and its verdicts as files (verdict_files.h). */
#include "report/verdict_files.h"

#include <stdio.h>
#include <string.h>

#include "model/result_json.h"
#include "report/html.h"

void verdict_doc_interrupted(struct doc_verdicts *d, const char *cmd, const char *why)
{
    struct doc_verdict *c = doc_verdicts_add(d, DOC_V_RUN, DOC_ERROR);
    if (!c)
        return;
    snprintf(c->expr, sizeof c->expr, "complete run");
    snprintf(c->name, sizeof c->name, "complete run");
    snprintf(c->classname, sizeof c->classname, "rpcbench.%s", cmd);
    snprintf(c->detail, sizeof c->detail, "%s", why);
}

void verdict_doc(struct doc_verdicts *d, const char *cmd, const struct verdict *v)
{
    char suite[64];
    snprintf(suite, sizeof suite, "rpcbench %s thresholds", cmd);
    doc_verdicts_init(d, suite);
    size_t n = verdict_judged(v) ? v->conds->n : 0;
    for (size_t i = 0; i < n; i++) {
        struct doc_verdict *c = doc_verdicts_add(d, DOC_V_THRESHOLD,
                                                 v->res[i].pass ? DOC_PASS : DOC_FAIL);
        if (!c)
            break;
        snprintf(c->expr, sizeof c->expr, "%s", v->conds->c[i].expr);
        snprintf(c->name, sizeof c->name, "%s", v->conds->c[i].expr);
        snprintf(c->classname, sizeof c->classname, "rpcbench.%s", cmd);
        condition_describe(&v->conds->c[i], &v->res[i], c->detail, sizeof c->detail);
    }
    if (v && v->interrupted[0])
        verdict_doc_interrupted(d, cmd, v->interrupted);
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
    struct doc_verdicts d;
    verdict_doc(&d, cmd, v);
    int rc = doc_verdicts_junit(path, &d, err);
    doc_verdicts_free(&d);
    return rc;
}

int verdict_html(const char *path, const struct run_result *r, const struct verdict *v,
                 char *err)
{
    struct doc_verdicts d;
    verdict_doc(&d, "run", v);
    int rc = html_write_run(path, r, &d, err);
    doc_verdicts_free(&d);
    return rc;
}
