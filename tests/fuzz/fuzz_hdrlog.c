/* fuzz_hdrlog: hdrlog_decode on the base64 text of a saved result or an
 * interval log line (compare and report read these from files the user
 * hands them). A histogram that decodes must survive the round trip:
 * re-encoded and decoded again it holds the same counts. */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/buf.h"
#include "stats/hdrlog.h"
#include "stats/hist.h"
#include "base/units.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    char err[ERR_LEN] = "";
    char *text = malloc(size ? size : 1);
    if (!text)
        return 0;
    memcpy(text, data, size);

    struct hist h;
    if (hdrlog_decode(text, size, &h, err) == 0) {
        (void)hist_percentile(&h, 99.9);
        (void)hist_mean(&h);
        (void)hist_stddev(&h);
        struct buf enc = {0};
        struct hist back;
        if (hdrlog_encode(&h, &enc) == 0) {
            if (hdrlog_decode(enc.data, enc.len, &back, err) != 0) {
                fprintf(stderr, "re-encoded histogram does not decode: %s\n", err);
                abort();
            }
            if (back.total_count != h.total_count || back.max != h.max || back.min != h.min)
                abort();
            hist_close(&back);
        }
        buf_free(&enc);
        hist_close(&h);
    }
    free(text);
    return 0;
}
