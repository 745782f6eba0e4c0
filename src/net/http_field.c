/* http_field: a header name from http-parser's pieces (http_field.h). */
#include "net/http_field.h"

void http_field_add(char *f, size_t cap, size_t *len, const char *at, size_t n)
{
    if (*len == cap) /* a new field after a value */
        *len = 0;
    for (size_t i = 0; i < n && *len < cap - 1; i++)
        f[(*len)++] = (char)(at[i] | 0x20);
    f[*len] = '\0';
}
