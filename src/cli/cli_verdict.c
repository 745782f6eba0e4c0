/* cli_verdict: --threshold and --junit output (cli_verdict.h). */
#include "cli/cli_verdict.h"

#include <string.h>

#include "base/exit_code.h"
#include "base/units.h"
#include "cli/cli_output.h"
#include "report/html.h"
#include "report/junit.h"
#include "model/result_json.h"

void verdict_judge(struct verdict *v, const struct cond_list *conds, const struct run_result *r)
{
    v->conds = conds;
    v->failed = condition_eval_list(conds, r, v->res);
    v->interrupted[0] = '\0';
    if (r->interrupted) {
        char planned[32];
        units_format_duration(r->cfg.duration_ns, planned, sizeof planned);
        snprintf(v->interrupted, sizeof v->interrupted,
                 "interrupted by %s after %.2fs of the planned %s: the verdicts cover only that "
                 "part", result_signal_name(r->interrupted), r->duration_s, planned);
    }
}

void verdict_junit_interrupted(struct junit_case *c, const char *cmd, const char *why)
{
    memset(c, 0, sizeof *c);
    snprintf(c->name, sizeof c->name, "complete run");
    snprintf(c->classname, sizeof c->classname, "rpcbench.%s", cmd);
    c->failed = c->error = 1;
    snprintf(c->message, sizeof c->message, "%s", why);
}

static int judged(const struct verdict *v)
{
    return v && v->conds && v->conds->n;
}

/* r's JSON with the verdicts, the caller's to put. */
static json_object *with_verdicts(const struct run_result *r, const struct verdict *v)
{
    json_object *j = result_to_json(r);
    if (j && judged(v))
        json_object_object_add(j, "thresholds", condition_json(v->conds, v->res));
    return j;
}

int verdict_write(FILE *out, enum out_format f, const struct run_result *r,
                  const struct verdict *v, char *err)
{
    if (f == FORMAT_JSON && judged(v)) {
        json_object *j = with_verdicts(r, v);
        fputs(result_json_text(j), out);
        fputc('\n', out);
        json_object_put(j);
        return 0;
    }
    if (cli_write_result(out, f, r, err))
        return -1;
    if (judged(v)) {
        FILE *to = f == FORMAT_TEXT ? out : stderr;
        if (f == FORMAT_TEXT)
            fputc('\n', to);
        condition_report(to, v->conds, v->res);
    }
    return 0;
}

int verdict_save(const char *path, const struct run_result *r, const struct verdict *v,
                 char *err)
{
    if (!judged(v))
        return result_save(r, path, err);
    json_object *j = with_verdicts(r, v);
    int rc = result_json_write(j, path, err);
    json_object_put(j);
    return rc;
}

int verdict_junit(const char *path, const char *cmd, const struct verdict *v, char *err)
{
    static struct junit_case cases[COND_MAX + 1];
    size_t n = judged(v) ? v->conds->n : 0;
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

int verdict_exit(const struct verdict *v, int code)
{
    return judged(v) && v->failed ? EXIT_CONDITION_FAILED : code;
}

int verdict_html(const char *path, const struct run_result *r, const struct verdict *v,
                 char *err)
{
    static char lines[COND_MAX][320];
    static const char *ptrs[COND_MAX];
    static int pass[COND_MAX];
    size_t n = judged(v) ? v->conds->n : 0;
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
