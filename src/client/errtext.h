/* errtext: a failed answer described in the user's terms, for the report's
 * first-error-of-each-kind samples ("JSON where XML-RPC was expected",
 * "fault -32601: Method not found"). Called once per error kind per run,
 * never per request. */
#ifndef RPCBENCH_ERRTEXT_H
#define RPCBENCH_ERRTEXT_H

#include <stddef.h>
#include <stdint.h>

/* "fault CODE: MESSAGE", the message found in body (JSON-RPC error
 * "message", XML-RPC faultString, VDSM status message) or an excerpt.
 * body may be NULL (len 0). Writes a NUL-terminated text into out. */
void errtext_fault(const char *body, size_t len, int64_t code, char *out, size_t outlen);

/* Why body is not a valid answer in encoding enc_name ("xmlrpc" or
 * "jsonrpc"): "JSON where XML-RPC was expected: {...", "empty body", or
 * "not a valid XML-RPC response: <excerpt>", NUL-terminated into out
 * (outlen bytes, the caller's). body may be NULL (len 0). */
void errtext_decode(const char *enc_name, const char *body, size_t len, char *out,
                    size_t outlen);

/* Up to max bytes of body from its first non-blank, blanks squeezed and
 * the rest made safe (base/safetext.h: valid UTF-8, invalid bytes and
 * controls as "\xHH", never cut inside a character, "..." when cut),
 * NUL-terminated into out (outlen bytes). Every text written by this
 * module is safe in that sense. */
void errtext_excerpt(const char *body, size_t len, size_t max, char *out, size_t outlen);

#endif
