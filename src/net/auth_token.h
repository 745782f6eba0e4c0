/* auth_token: the shared secret between `rpcbench agent` and the run
 * that asks it for samples (--token-file on both sides). */
#ifndef RPCBENCH_AUTH_TOKEN_H
#define RPCBENCH_AUTH_TOKEN_H

#include <stddef.h>

#define AUTH_TOKEN_MAX 256 /* bytes of token, the NUL not counted */

/* Reads the token from path into out (AUTH_TOKEN_MAX + 1 bytes, the
 * caller's): the file's first line, surrounding blanks dropped. Its
 * characters must be printable ASCII without blanks (it travels in an
 * HTTP header). warn (ERR_LEN, the caller's) gets a warning, or "": the
 * file is world-readable.
 * @return 0, or -1 with err (ERR_LEN, caller-owned): unreadable, empty,
 * too long, or a character that cannot be sent. */
int auth_token_read(const char *path, char *out, char *warn, char *err);

/* @return 1 when given (NUL-terminated) equals expected, else 0, in a
 * time that depends on expected's length only: a peer that times the
 * answers learns nothing of the token. */
int auth_token_equal(const char *given, const char *expected);

#endif
