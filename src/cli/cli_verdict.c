/* cli_verdict: a result and its verdicts on stdout (cli_verdict.h). */
#include "cli/cli_verdict.h"

#include "cli/cli_output.h"
#include "model/result_json.h"
#include "report/verdict_files.h"

int verdict_write(FILE *out, enum out_format f, const struct run_result *r,
                  const struct verdict *v, char *err)
{
    if (f == FORMAT_JSON && verdict_judged(v)) {
        json_object *j = verdict_result_json(r, v);
        fputs(result_json_text(j), out);
        fputc('\n', out);
        json_object_put(j);
        return 0;
    }
    if (cli_write_result(out, f, r, err))
        return -1;
    if (verdict_judged(v)) {
        FILE *to = f == FORMAT_TEXT ? out : stderr;
        struct doc_verdicts d; /* the lines the page and JUnit say too */
        verdict_doc(&d, "run", v);
        if (f == FORMAT_TEXT)
            fputc('\n', to);
        doc_verdicts_text(to, &d, "");
        doc_verdicts_free(&d);
    }
    return 0;
}
