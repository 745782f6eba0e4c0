#include "encoders/check_stream.h"

#include <string.h>

static int is_blank(char c)
{
    return c == ' ' || c == '\n' || c == '\r' || c == '\t';
}

void check_stream_start(struct check_stream *s, const struct encoder *enc, struct buf *body,
                        size_t head_bytes)
{
    memset(s, 0, sizeof *s);
    s->enc = enc;
    s->body = body;
    s->head_bytes = head_bytes ? head_bytes : 1;
    buf_reset(body);
}

/* Appends n bytes to the tail window, keeping its last CHECK_STREAM_TAIL. */
static void tail_put(struct check_stream *s, const char *p, size_t n)
{
    if (n >= CHECK_STREAM_TAIL) {
        memcpy(s->tail, p + n - CHECK_STREAM_TAIL, CHECK_STREAM_TAIL);
        s->tail_len = CHECK_STREAM_TAIL;
        return;
    }
    size_t keep = s->tail_len + n > CHECK_STREAM_TAIL ? CHECK_STREAM_TAIL - n : s->tail_len;
    memmove(s->tail, s->tail + s->tail_len - keep, keep);
    memcpy(s->tail + keep, p, n);
    s->tail_len = keep + n;
}

/* Trailing blanks are stripped before the tail is checked, however many
 * there are, so the window ends at the last non-blank; blanks between two
 * non-blanks are kept (as spaces: the check only asks that they are not
 * part of the closing tag). */
static void tail_feed(struct check_stream *s, const char *p, size_t n)
{
    size_t last = n;
    while (last > 0 && is_blank(p[last - 1]))
        last--;
    if (last == 0) {
        s->blanks += n;
        return;
    }
    for (size_t i = 0; i < s->blanks && i < CHECK_STREAM_TAIL; i++)
        tail_put(s, " ", 1);
    tail_put(s, p, last);
    s->blanks = n - last;
}

/* The head is in: if the encoder decides on it, keep only the tail from
 * now on. */
static void try_head(struct check_stream *s)
{
    if (!s->enc->check_head || s->body->len < s->head_bytes)
        return;
    if (s->enc->check_head(s->body->data, s->body->len, &s->verdict) != ENC_MORE) {
        s->decided = 1;
        tail_feed(s, s->body->data, s->body->len);
    }
}

int check_stream_feed(struct check_stream *s, const char *at, size_t len)
{
    int undecided = !s->decided && s->total < s->head_bytes;
    s->total += len;
    if (s->decided) {
        tail_feed(s, at, len);
        return 0;
    }
    if (buf_append(s->body, at, len))
        return -1;
    if (undecided) /* the head check runs once, when the head is complete */
        try_head(s);
    return 0;
}

int check_stream_finish(struct check_stream *s, struct enc_result *out)
{
    if (!s->decided) {
        const char *body = s->body->data ? s->body->data : ""; /* empty: no buffer */
        return s->enc->check_response(body, s->body->len, out);
    }
    *out = s->verdict;
    if (!s->enc->tail_ok(s->tail, s->tail_len)) {
        out->status = ENC_DECODE;
        out->fault_code = 0;
    }
    return out->status;
}
