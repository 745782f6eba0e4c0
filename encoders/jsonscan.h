/* jsonscan: a tiny JSON skipper that never allocates, for the client's
 * cheap response check. It walks the members of an object and skips values
 * by bracket matching (strings honoured, brackets paired), without
 * validating every scalar: the full decode is the strict path.
 *
 * Every function takes the cursor s and returns 0 on success (s->p moved
 * past what was read) or -1 when the input is malformed or truncated
 * (s->p unspecified), unless it says otherwise. The input is the caller's
 * and must outlive the pointers into it that these hand out. */
#ifndef RPCBENCH_JSONSCAN_H
#define RPCBENCH_JSONSCAN_H

#include <stddef.h>
#include <stdint.h>

struct jsonscan {
    const char *p;
    const char *end;
};

/* Skips whitespace, then expects the byte c ('{', '[', ...). */
int jsonscan_expect(struct jsonscan *s, char c);
/* Next member of the object whose '{' was already read; *first is 1 before
 * the first member and is cleared.
 * @return 1 with the raw key in *key and *klen (pointing into the input,
 * escapes not decoded) and s->p at the value, 0 after the closing '}', -1
 * on error. */
int jsonscan_member(struct jsonscan *s, int *first, const char **key, size_t *klen);
/* Skips one value of any type. */
int jsonscan_skip(struct jsonscan *s);
/* Reads a string value; *str points into the input, escapes not decoded. */
int jsonscan_string(struct jsonscan *s, const char **str, size_t *len);
/* Reads an integer number value (no fraction or exponent). */
int jsonscan_int(struct jsonscan *s, int64_t *v);
/* Skips whitespace. @return the byte the next value starts with, or 0 at
 * the end of input. */
char jsonscan_peek(struct jsonscan *s);

#endif
