/* check_stream: the cheap response check over a body that arrives in
 * pieces, keeping only what the check needs.
 *
 * A 150-VM XML-RPC getAllVmStats answer runs to megabytes, and copying all
 * of it out of the read buffer would copy it a second time after the
 * kernel. VDSM puts the status first, so the first few KiB and the closing
 * tag decide: once the encoder's check_head decides on the head, only the
 * last bytes are kept (a small fixed window). When it cannot decide (a
 * fault, status last, JSON-RPC whose id comes last) the whole body is kept
 * and check_response runs on it, exactly as before.
 *
 *   check_stream_start(&s, enc, &body, CHECK_STREAM_HEAD);
 *   for each piece: if (check_stream_feed(&s, at, len)) ...out of memory
 *   st = check_stream_finish(&s, &result);   same as check_response(whole)
 *
 * Nothing here allocates but the caller's body buffer, which it reuses:
 * the caller owns s and body (buf_free when done); s borrows enc and body
 * from check_stream_start until the next start. */
#ifndef RPCBENCH_CHECK_STREAM_H
#define RPCBENCH_CHECK_STREAM_H

#include <stddef.h>

#include "base/buf.h"
#include "encoders/encoder.h"

/* Head bytes the encoder gets to decide on: VDSM's status envelope is
 * about 300 bytes into the answer. */
#define CHECK_STREAM_HEAD 4096
/* Last bytes kept once the head decided: the closing tag with room. */
#define CHECK_STREAM_TAIL 64

struct check_stream {
    const struct encoder *enc;
    struct buf *body;    /* the head, or all of it when undecided */
    size_t head_bytes;
    size_t total;        /* body bytes seen */
    int decided;
    struct enc_result verdict;
    char tail[CHECK_STREAM_TAIL]; /* last bytes up to the last non-blank */
    size_t tail_len;
    size_t blanks;       /* blanks seen after tail[] */
};

/* Starts a body: body is reset and then holds what is kept; head_bytes
 * (> 0) is when the head check runs (CHECK_STREAM_HEAD but in tests). */
void check_stream_start(struct check_stream *s, const struct encoder *enc, struct buf *body,
                        size_t head_bytes);
/* Feeds the next len bytes at `at` (not kept beyond what s keeps).
 * @return 0, or -1 when the body buffer cannot grow. */
int check_stream_feed(struct check_stream *s, const char *at, size_t len);
/* Ends the body. out gets the verdict's details (fault code, id).
 * @return the verdict (enum enc_status), as enc->check_response on the
 * whole body would give it. */
int check_stream_finish(struct check_stream *s, struct enc_result *out);

#endif
