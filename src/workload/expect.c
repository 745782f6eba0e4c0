/* expect: --expect's checks on a decoded result (expect.h). */
#include "workload/expect.h"

#include <ctype.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/err.h"

/* Longest first: "==" (a synonym of "=", as most languages write it)
 * before "=", so that ".==5" is not "." = the string "=5". */
#define NOPS 7
static const char *const op_text[NOPS] = {"==", "!=", "<=", ">=", "=", "<", ">"};
static const enum expect_op op_of[NOPS] = {EXPECT_EQ, EXPECT_NE, EXPECT_LE, EXPECT_GE,
                                           EXPECT_EQ, EXPECT_LT, EXPECT_GT};

/* Where the operator starts (outside quotes and brackets), its index in
 * op_text into *k; NULL when there is none. */
static const char *find_op(const char *s, int *k)
{
    int quoted = 0, depth = 0;
    for (const char *p = s; *p; p++) {
        quoted ^= *p == '"';
        depth += !quoted && (*p == '[' || *p == '(');
        depth -= !quoted && (*p == ']' || *p == ')');
        for (int i = 0; !quoted && depth == 0 && i < NOPS; i++)
            if (!strncmp(p, op_text[i], strlen(op_text[i]))) {
                *k = i;
                return p;
            }
    }
    return NULL;
}

/* s[0..n) without blanks at either end into out (len bytes). */
static void trimmed(const char *s, size_t n, char *out, size_t len)
{
    while (n && isspace((unsigned char)*s))
        s++, n--;
    while (n && isspace((unsigned char)s[n - 1]))
        n--;
    snprintf(out, len, "%.*s", (int)n, s);
}

/* The right side: a number, true, false, null, or a string (quoted, or
 * bare without blanks, quotes and operator characters: "=5" or "<3" bare
 * is a mistyped operator far more often than a string). @return 0, or -1. */
static int value_of(struct expect *e, const char *v)
{
    char *end;
    size_t n = strlen(v);
    e->num = strtod(v, &end);
    if (n && !*end && isfinite(e->num)) {
        e->kind = EXPECT_NUMBER;
        return 0;
    }
    e->kind = !strcmp(v, "true") ? EXPECT_TRUE : !strcmp(v, "false") ? EXPECT_FALSE
              : !strcmp(v, "null") ? EXPECT_NULL : EXPECT_STRING;
    if (e->kind != EXPECT_STRING)
        return 0;
    if (n >= 2 && v[0] == '"' && v[n - 1] == '"')
        snprintf(e->str, sizeof e->str, "%.*s", (int)n - 2, v + 1);
    else if (n && !strpbrk(v, " \t\"=<>!()[]"))
        snprintf(e->str, sizeof e->str, "%s", v);
    else
        return -1;
    return 0;
}

/* Where path stops being NAME([N])*(.NAME([N])*)*, "." or ".NAME...":
 * NULL when it is whole. A path that cannot be walked is a mistake the
 * user should hear about before the first request, not 40 failed checks. */
static const char *path_break(const char *path)
{
    const char *p = path;
    if (p[0] == '.' && (!p[1] || p[1] != '.'))
        p += p[1] != '['; /* ".", ".a", but "[0]" and ".[0]" alike */
    if (!*p)
        return p == path ? p : NULL;
    for (;;) {
        size_t n = strcspn(p, ".[]()\" \t");
        p += n;
        while (*p == '[') {
            size_t d = strspn(p + 1, "0123456789");
            if (!d || p[1 + d] != ']')
                return p;
            p += d + 2;
        }
        if (!*p)
            return NULL;
        if (*p != '.' || !p[1] || p[1] == '.' || (!n && p > path && p[-1] != ']'))
            return p;
        p++;
    }
}

/* The left side: PATH or len(PATH). @return 0, or -1 with why (len
 * bytes) naming where it broke. */
static int lhs_of(struct expect *e, const char *l, char *why, size_t len)
{
    size_t n = strlen(l);
    e->len = !strncmp(l, "len(", 4) && n > 5 && l[n - 1] == ')';
    if (e->len)
        trimmed(l + 4, n - 5, e->path, sizeof e->path);
    else
        snprintf(e->path, sizeof e->path, "%s", l);
    const char *at = path_break(e->path);
    if (!e->path[0])
        snprintf(why, len, "no path before the operator");
    else if (at)
        snprintf(why, len, "path '%.40s' breaks at '%.20s'", e->path, at);
    return e->path[0] && !at ? 0 : -1;
}

/* The right side, checked against the left. @return 0, or -1 with why. */
static int rhs_of(struct expect *e, const char *op, const char *r, char *why, size_t len)
{
    if (value_of(e, r)) {
        snprintf(why, len, r[0] ? "value '%.40s' after '%s': quote a string with blanks, quotes "
                 "or operator characters" : "no value after '%s'", r[0] ? r : op, op);
        return -1;
    }
    if (e->len && e->kind != EXPECT_NUMBER) {
        snprintf(why, len, "len(...) compares with a number, not '%.40s'", r);
        return -1;
    }
    return 0;
}

int expect_parse(const char *s, struct expect *e, char *err)
{
    memset(e, 0, sizeof *e);
    char lhs[EXPECT_TEXT], rhs[EXPECT_TEXT], why[ERR_LEN] = "";
    int k = 0;
    size_t n = strlen(s);
    if (n >= EXPECT_TEXT) {
        snprintf(err, ERR_LEN, "'%.40s...': at most %d characters", s, EXPECT_TEXT - 1);
        return -1;
    }
    snprintf(e->text, sizeof e->text, "%s", s);
    const char *op = find_op(s, &k);
    int exists = !op && n > 7 && !strcmp(s + n - 7, " exists");
    if (exists) {
        e->op = EXPECT_EXISTS;
        trimmed(s, n - 7, lhs, sizeof lhs);
    } else if (op) {
        e->op = op_of[k];
        trimmed(s, (size_t)(op - s), lhs, sizeof lhs);
        trimmed(op + strlen(op_text[k]), strlen(op + strlen(op_text[k])), rhs, sizeof rhs);
    }
    if (!op && !exists)
        snprintf(why, sizeof why, "no operator");
    else if (lhs_of(e, lhs, why, sizeof why) == 0 && op)
        rhs_of(e, op_text[k], rhs, why, sizeof why);
    else if (!why[0] && e->len)
        snprintf(why, sizeof why, "len(...) takes an operator and a number, not exists");
    if (!why[0])
        return 0;
    snprintf(err, ERR_LEN, "'%.80s': %s; want PATH OP VALUE (= or ==, != < <= > >=), "
             "len(PATH) OP N or PATH exists", s, why);
    return -1;
}

/* One step: member name (n bytes) of object v into *out (NULL: a JSON
 * null). @return 1, or 0 with why into got. */
static int member(json_object *v, const char *name, size_t n, json_object **out, char *got,
                  size_t len)
{
    char key[EXPECT_TEXT];
    snprintf(key, sizeof key, "%.*s", (int)n, name);
    if (!json_object_is_type(v, json_type_object) || !json_object_object_get_ex(v, key, out)) {
        snprintf(got, len, "no member %s", key);
        return 0;
    }
    return 1;
}

/* The node at path in v into *out. @return 1, or 0 with why into got. */
static int walk(const char *path, json_object *v, json_object **out, char *got, size_t len)
{
    const char *p = path[0] == '.' ? path + 1 : path;
    while (*p) {
        size_t n = strcspn(p, ".[");
        if (n && !member(v, p, n, &v, got, len))
            return 0;
        p += n;
        while (*p == '[') {
            char *end;
            long i = strtol(p + 1, &end, 10);
            if (*end != ']' || i < 0 || !json_object_is_type(v, json_type_array) ||
                (size_t)i >= json_object_array_length(v)) {
                snprintf(got, len, "no item %.40s", p);
                return 0;
            }
            v = json_object_array_get_idx(v, (size_t)i);
            p = end + 1;
        }
        p += *p == '.';
    }
    *out = v;
    return 1;
}

static int compare(enum expect_op op, double a, double b)
{
    switch (op) {
    case EXPECT_EQ: return a == b;
    case EXPECT_NE: return a != b;
    case EXPECT_LT: return a < b;
    case EXPECT_LE: return a <= b;
    case EXPECT_GT: return a > b;
    case EXPECT_GE: return a >= b;
    default: return 1;
    }
}

/* A node of another kind than the value: only != holds. */
static int other_kind(const struct expect *e)
{
    return e->op == EXPECT_NE;
}

/* len(PATH) OP N for node n of type t. */
static int length_holds(const struct expect *e, json_object *n, enum json_type t, char *got,
                        size_t len)
{
    double l;
    if (t == json_type_array)
        l = (double)json_object_array_length(n);
    else if (t == json_type_object)
        l = (double)json_object_object_length(n);
    else if (t == json_type_string)
        l = (double)json_object_get_string_len(n);
    else {
        snprintf(got, len, "no length (%s)", json_type_to_name(t));
        return 0;
    }
    snprintf(got, len, "%.0f", l);
    return e->kind == EXPECT_NUMBER && compare(e->op, l, e->num);
}

int expect_eval(const struct expect *e, json_object *v, char *got, size_t len)
{
    json_object *n = NULL;
    got[0] = '\0';
    if (!walk(e->path, v, &n, got, len))
        return 0;
    if (e->op == EXPECT_EXISTS)
        return 1;
    enum json_type t = json_object_get_type(n);
    if (e->len)
        return length_holds(e, n, t, got, len);
    snprintf(got, len, "%.60s", json_object_to_json_string_ext(n, JSON_C_TO_STRING_PLAIN));
    switch (e->kind) {
    case EXPECT_NUMBER:
        if (t != json_type_int && t != json_type_double)
            return other_kind(e);
        return compare(e->op, json_object_get_double(n), e->num);
    case EXPECT_STRING:
        if (t != json_type_string)
            return other_kind(e);
        return compare(e->op, strcmp(json_object_get_string(n), e->str), 0);
    case EXPECT_NULL:
        return compare(e->op, t == json_type_null, 1);
    default:
        if (t != json_type_boolean)
            return other_kind(e);
        return compare(e->op, json_object_get_boolean(n), e->kind == EXPECT_TRUE);
    }
}
