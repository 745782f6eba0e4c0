/* inflate: zlib streams (RFC 1950/1951) decoded with zlib, so rpcbench
 * reads the compressed histograms of HdrHistogram logs written by the Java
 * and C libraries, bounded in size and with one-line errors. */
#ifndef RPCBENCH_INFLATE_H
#define RPCBENCH_INFLATE_H

#include <stddef.h>

#include "base/buf.h"
#include "base/err.h"

/* Output beyond this is refused (a histogram is far smaller; this stops a
 * crafted stream from asking for gigabytes). */
#define INFLATE_MAX_OUT (64u << 20)

/* Appends what the zlib stream p[0..n) inflates to to out (caller-owned,
 * buf_free), checking the header and the Adler-32 trailer.
 * @return 0, or -1 with a one-line reason in err (ERR_LEN, caller-owned);
 * out may then hold part of the output. */
int inflate_zlib(const unsigned char *p, size_t n, struct buf *out, char *err);

#endif
