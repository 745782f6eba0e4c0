/* expect: checks on the answers (--expect), a path into the decoded result
 * and a comparison, the same for both encodings: an XML-RPC struct or
 * array decodes to the same tree as JSON (xmlconv.h).
 *
 *   status.code=0          a member, compared with a number
 *   len(vmList)>=150       the length of an array (members of a struct,
 *                          bytes of a string)
 *   statsList[0].vmId exists
 *   status.message="Done"  a string (quotes optional without blanks,
 *                          quotes, or any of = < > ! ( ) [ ])
 *   .                      the result itself ("len(.)=150")
 *
 * Operators: = (or ==) != < <= > >=, and exists. A number compares as a number,
 * a string as a string (< and > by bytes), true, false and null as
 * themselves; a value of another type than the node's fails the check.
 * Parsing allocates nothing; neither does evaluation. */
#ifndef RPCBENCH_EXPECT_H
#define RPCBENCH_EXPECT_H

#include <stddef.h>

#include <json-c/json.h>

#define EXPECT_MAX 8     /* checks per run */
#define EXPECT_TEXT 160  /* a check as written */

enum expect_op { EXPECT_EQ, EXPECT_NE, EXPECT_LT, EXPECT_LE, EXPECT_GT, EXPECT_GE,
                 EXPECT_EXISTS };
enum expect_kind { EXPECT_NUMBER, EXPECT_STRING, EXPECT_TRUE, EXPECT_FALSE, EXPECT_NULL };

struct expect {
    char text[EXPECT_TEXT];  /* as written: the error sample quotes it */
    char path[EXPECT_TEXT];  /* "status.code", "." */
    int len;                 /* len(path) */
    enum expect_op op;
    enum expect_kind kind;   /* of the right side (not for exists) */
    double num;
    char str[EXPECT_TEXT];
};

/* Parses s into *e (the caller's). A path that cannot be walked, a
 * value that is not one (a bare string with an operator character:
 * "n=<3"), or len() against anything but a number is refused here, not
 * failed on every answer. @return 0, or -1 with err (ERR_LEN bytes, the
 * caller's, one line with no option name: "'len(.)=5O': len(...)
 * compares with a number, not '5O'; want ..."; the caller names where s
 * came from). */
int expect_parse(const char *s, struct expect *e, char *err);

/* Checks the result tree v (borrowed; NULL is JSON null) against e.
 * @return 1 when it holds, else 0 with what was found into got (len
 * bytes, the caller's: "149", "\"Down\"", "no member vmList", "a string,
 * not a number"). */
int expect_eval(const struct expect *e, json_object *v, char *got, size_t len);

#endif
