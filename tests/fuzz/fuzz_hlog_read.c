/* fuzz_hlog_read: the interval log reader on any text (`rpcbench report
 * a.hlog b.hlog` reads files the user hands it): every line either yields
 * an interval with a decoded histogram, whose start and length are finite,
 * or stops the log with an error naming the line; never a crash, a leak or
 * a read past the input. */
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "stats/hdrlog_read.h"
#include "stats/hist.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    if (size == 0)
        return 0; /* fmemopen refuses an empty buffer */
    FILE *f = fmemopen((void *)data, size, "r");
    if (!f)
        return 0;
    struct hdrlog_reader r;
    struct hdrlog_interval iv;
    struct hist h;
    char err[ERR_LEN] = "";
    int rc;
    hdrlog_reader_open(&r, f, "fuzz.hlog");
    while ((rc = hdrlog_read_interval(&r, &iv, &h, err)) == 1) {
        if (!isfinite(iv.start) || !(iv.len >= 0) || h.total_count < 0)
            abort();
        (void)hist_percentile(&h, 99);
        hist_close(&h);
    }
    if (r.censored < 0)
        abort();
    if (rc < 0 && strncmp(err, "fuzz.hlog:", 10) != 0)
        abort(); /* every error names the log and line */
    hdrlog_reader_close(&r);
    fclose(f);
    return 0;
}
