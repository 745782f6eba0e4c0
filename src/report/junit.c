/* junit: JUnit XML of verdicts (junit.h). */
#include "report/junit.h"

#include <stdio.h>

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

static void put_case(FILE *f, const struct junit_case *c)
{
    fputs("    <testcase classname=\"", f);
    put_escaped(f, c->classname);
    fputs("\" name=\"", f);
    put_escaped(f, c->name);
    fputs("\">\n", f);
    if (c->error) {
        fputs("      <error message=\"", f);
        put_escaped(f, c->message);
        fputs("\" type=\"interrupted\">", f);
        put_escaped(f, c->message);
        fputs("</error>\n", f);
    } else if (c->failed) {
        fputs("      <failure message=\"", f);
        put_escaped(f, c->message);
        fputs("\" type=\"threshold\">", f);
        put_escaped(f, c->message);
        fputs("</failure>\n", f);
    } else {
        fputs("      <system-out>", f);
        put_escaped(f, c->message);
        fputs("</system-out>\n", f);
    }
    fputs("    </testcase>\n", f);
}

int junit_write(const char *path, const char *suite, const struct junit_case *cases, size_t n,
                char *err)
{
    FILE *f = file_create(path, err);
    if (!f)
        return -1;
    size_t failures = 0, errors = 0;
    for (size_t i = 0; i < n; i++) {
        errors += cases[i].error != 0;
        failures += !cases[i].error && cases[i].failed;
    }
    fputs("<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n<testsuites>\n  <testsuite name=\"", f);
    put_escaped(f, suite);
    fprintf(f, "\" tests=\"%zu\" failures=\"%zu\" errors=\"%zu\" skipped=\"0\">\n", n, failures,
            errors);
    for (size_t i = 0; i < n; i++)
        put_case(f, &cases[i]);
    fputs("  </testsuite>\n</testsuites>\n", f);
    return file_close_checked(f, path, err);
}
