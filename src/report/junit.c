/* junit: the verdicts' document as JUnit XML (doc_verdicts_junit in
 * doc_verdicts.h), the form GitLab and Jenkins show as test results. */
#include "report/doc_verdicts.h"

#include <stdio.h>
#include <string.h>

#include "base/file.h"
#include "base/safetext.h"

/* s as XML text or attribute value: & < > " ' escaped; s made safe first
 * (base/safetext.h: valid UTF-8, controls but \n \t and the noncharacters
 * U+FFFE/U+FFFF, which XML 1.0 cannot carry even escaped, as "\xHH"). */
static void put_escaped(FILE *f, const char *s)
{
    char tmp[1024];
    for (s = safetext_view(s, tmp, sizeof tmp, SAFETEXT_KEEP_LINES); *s; s++) {
        unsigned char ch = (unsigned char)*s;
        switch (ch) {
        case '&': fputs("&amp;", f); break;
        case '<': fputs("&lt;", f); break;
        case '>': fputs("&gt;", f); break;
        case '"': fputs("&quot;", f); break;
        case '\'': fputs("&apos;", f); break;
        default: fputc(ch, f);
        }
    }
}

/* A failed testcase's type, for a CI's grouping: "threshold" (a --threshold
 * that failed), "regression" or "inconclusive" (a gate), "run" (the run
 * itself: an arm that stopped), "interrupted" (a DOC_ERROR). */
static const char *failure_type(const struct doc_verdict *v)
{
    if (v->status == DOC_ERROR)
        return "interrupted";
    switch (v->kind) {
    case DOC_V_THRESHOLD: return "threshold";
    case DOC_V_GATE: return doc_verdict_word(v);
    default: return "run";
    }
}

/* One testcase: its message says what the text's line says, whole. */
static void put_case(FILE *f, const struct doc_verdict *v)
{
    char msg[sizeof v->group + sizeof v->detail + 32];
    if (v->status == DOC_ERROR)
        snprintf(msg, sizeof msg, "%s", v->detail);
    else
        snprintf(msg, sizeof msg, "%s%s%s: %s", v->group, v->group[0] ? ": " : "",
                 v->detail, doc_verdict_word(v));
    fputs("    <testcase classname=\"", f);
    put_escaped(f, v->classname);
    fputs("\" name=\"", f);
    put_escaped(f, v->name);
    fputs("\">\n", f);
    if (v->status == DOC_PASS) {
        fputs("      <system-out>", f);
        put_escaped(f, msg);
        fputs("</system-out>\n", f);
    } else {
        const char *tag = v->status == DOC_ERROR ? "error" : "failure";
        fprintf(f, "      <%s message=\"", tag);
        put_escaped(f, msg);
        fprintf(f, "\" type=\"%s\">", failure_type(v));
        put_escaped(f, msg);
        fprintf(f, "</%s>\n", tag);
    }
    fputs("    </testcase>\n", f);
}

int doc_verdicts_junit(const char *path, const struct doc_verdicts *d, char *err)
{
    FILE *f = file_create(path, err);
    if (!f)
        return -1;
    size_t failures = 0, errors = 0;
    for (size_t i = 0; i < d->n; i++) {
        errors += d->v[i].status == DOC_ERROR;
        failures += d->v[i].status == DOC_FAIL || d->v[i].status == DOC_INCONCLUSIVE;
    }
    fputs("<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n<testsuites>\n  <testsuite name=\"", f);
    put_escaped(f, d->suite);
    fprintf(f, "\" tests=\"%zu\" failures=\"%zu\" errors=\"%zu\" skipped=\"0\">\n",
            d->n + (d->lost > 0), failures, errors + (d->lost > 0));
    for (size_t i = 0; i < d->n; i++)
        put_case(f, &d->v[i]);
    if (d->lost) /* a verdict no memory held is no pass */
        fprintf(f, "    <testcase classname=\"rpcbench\" name=\"lost verdicts\">\n"
                   "      <error message=\"%zu verdicts lost: out of memory\" type=\"lost\">"
                   "%zu verdicts lost: out of memory</error>\n    </testcase>\n", d->lost, d->lost);
    fputs("  </testsuite>\n</testsuites>\n", f);
    return file_close_checked(f, path, err);
}
