/* junit: verdicts as JUnit XML (one testsuite, one testcase per condition
 * or gate), the form GitLab and Jenkins show as test results. */
#ifndef RPCBENCH_JUNIT_H
#define RPCBENCH_JUNIT_H

#include <stddef.h>

#include "base/err.h"

struct junit_case {
    char name[128];       /* the condition as written: "p99<100ms" */
    char classname[64];   /* "rpcbench.run" */
    int failed;
    int error;            /* not judged to its end (the run was interrupted):
                             an <error> of type "interrupted", whatever failed says */
    char message[ERR_LEN]; /* the measured value and the bound; the failure's text */
};

/* Writes cases[0..n) (only read) as one testsuite named suite to path
 * (created or truncated), every text XML-escaped (characters XML 1.0 cannot
 * hold become '?'); a passed case carries its message as system-out, an
 * error case its message as an <error>.
 * @return 0, or -1 with err (ERR_LEN, caller-owned): cannot write. */
int junit_write(const char *path, const char *suite, const struct junit_case *cases, size_t n,
                char *err);

#endif
