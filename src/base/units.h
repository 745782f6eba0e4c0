/* units: parsing of the command line's durations, rates, sizes and lists.
 *
 * Every parser returns 0 on success and -1 on bad input, writing a one-line
 * reason into err (ERR_LEN bytes, caller-owned) that names the bad text;
 * its outputs are written only on success unless said otherwise. Inputs
 * are only read and stay the caller's; nothing allocates. */
#ifndef RPCBENCH_UNITS_H
#define RPCBENCH_UNITS_H

#include <stddef.h>
#include <stdint.h>

#include "base/err.h"

/* "250ms", "2s", "1.5m", "1h", "500us"; a bare number means seconds.
 * Result in nanoseconds, >= 0. */
int units_parse_duration(const char *s, int64_t *ns, char *err);

/* "50", "50/s", "4/m", "1/15s", "0.5/s", "2/h": requests per second (> 0).
 * "max" gives 0 (closed loop). */
int units_parse_rate(const char *s, double *per_sec, char *err);

/* "64MiB", "16M", "512k", "1024": bytes (K/M/G and KiB/MiB/GiB are 1024-based). */
int units_parse_size(const char *s, size_t *bytes, char *err);

/* "1,2,5,10": up to max non-negative doubles, strictly increasing, into
 * out; *n gets the count. On error out may hold part of the list. */
int units_parse_list(const char *s, double *out, size_t max, size_t *n, char *err);

/* "HOST:PORT", "[::1]:PORT" (port 0..65535): host copied, NUL-terminated,
 * into host (hostlen bytes; a longer host is an error). */
int units_parse_hostport(const char *s, char *host, size_t hostlen, int *port, char *err);

/* Formats ns as a short human duration ("250ms", "2s", "1m30s") into out
 * (outlen bytes, always terminated when outlen > 0; truncated to fit). */
void units_format_duration(int64_t ns, char *out, size_t outlen);

/* Formats a target rate as the user may have written it into out (outlen
 * bytes, always terminated): "max" for 0, "5.00/s" or "0.50/s" when two
 * decimals hold it exactly, "1/15s" (or "1/2m", "1/1h") for a whole
 * period under one per second, else "%.6g/s" (1/3 s is never "0.33/s"). */
void units_format_rate(double per_sec, char *out, size_t outlen);

#endif
