/* auth_token: reading and comparing the agent's token (auth_token.h). */
#include "net/auth_token.h"

#include <errno.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>

#include "base/err.h"

/* The token's characters: what an HTTP header value carries unchanged. */
static int token_char(unsigned char c)
{
    return c > 0x20 && c < 0x7f;
}

int auth_token_read(const char *path, char *out, char *warn, char *err)
{
    char line[AUTH_TOKEN_MAX + 64];
    struct stat st;
    warn[0] = '\0';
    FILE *f = fopen(path, "r");
    if (!f) {
        snprintf(err, ERR_LEN, "--token-file %.200s: %s", path, strerror(errno));
        return -1;
    }
    if (fstat(fileno(f), &st) == 0 && (st.st_mode & S_IROTH))
        snprintf(warn, ERR_LEN, "--token-file %.200s is world-readable (chmod 600 it)", path);
    if (!fgets(line, sizeof line, f))
        line[0] = '\0';
    fclose(f);
    char *p = line, *end;
    while (*p == ' ' || *p == '\t')
        p++;
    end = p + strlen(p);
    while (end > p && (end[-1] == '\n' || end[-1] == '\r' || end[-1] == ' ' || end[-1] == '\t'))
        *--end = '\0';
    if (!*p) {
        snprintf(err, ERR_LEN, "--token-file %.200s is empty: no token, no agent", path);
        return -1;
    }
    if (end - p > AUTH_TOKEN_MAX) {
        snprintf(err, ERR_LEN, "--token-file %.200s: the token is over %d bytes", path,
                 AUTH_TOKEN_MAX);
        return -1;
    }
    for (const char *c = p; *c; c++)
        if (!token_char((unsigned char)*c)) {
            snprintf(err, ERR_LEN, "--token-file %.150s: the token has a blank or a "
                     "non-ASCII character", path);
            return -1;
        }
    memcpy(out, p, (size_t)(end - p) + 1);
    return 0;
}

int auth_token_equal(const char *given, const char *expected)
{
    size_t n = strlen(expected), g = strnlen(given, AUTH_TOKEN_MAX + 1);
    unsigned diff = g != n;
    /* every byte of expected is compared, whatever given holds: reading
     * given stops at its NUL, then compares against that NUL */
    for (size_t i = 0, j = 0; i < n; i++) {
        diff |= (unsigned)(unsigned char)given[j] ^ (unsigned char)expected[i];
        j += given[j] != '\0';
    }
    return diff == 0;
}
