/* stomp: STOMP 1.2 frames, parsed in place and rendered into a buf.
 *
 * A frame is COMMAND EOL, header lines "key:value" EOL, a blank line, the
 * body, then NUL (EOL is \n or \r\n). With content-length the body is
 * exactly that many bytes (and may hold NULs); without it the body ends at
 * the first NUL. Header values escape \r \n : and \ as \\r \\n \\c \\\\ (not
 * in CONNECT/CONNECTED frames). Heart-beats are lone EOLs between frames.
 *
 * Like picohttpparser, the parser never allocates: a parsed frame points
 * into the caller's buffer, which must stay put while the frame is used. */
#ifndef RPCBENCH_STOMP_H
#define RPCBENCH_STOMP_H

#include <stddef.h>
#include <sys/types.h>

#include "base/buf.h"
#include "base/err.h"

#define STOMP_MAX_HEADERS 32

struct stomp_header {
    const char *key; /* raw (still escaped), not NUL-terminated */
    size_t key_len;
    const char *value;
    size_t value_len;
};

struct stomp_frame {
    const char *command;
    size_t command_len;
    struct stomp_header headers[STOMP_MAX_HEADERS];
    size_t nheaders;
    const char *body;
    size_t body_len;
};

/* Parses one frame from buf[0..len), skipping heart-beat EOLs before it.
 * f (the caller's) is filled with pointers into buf, valid while buf is.
 * @return the bytes consumed (> 0) when a whole frame (or only heart-beats:
 * then f->command_len is 0) was read; 0 when more bytes are needed; -1 when
 * the input is not STOMP or a frame would exceed max_frame bytes, with err
 * (ERR_LEN bytes, caller-owned) saying why ("no NUL after content-length
 * body", ...). */
ssize_t stomp_parse(const char *buf, size_t len, size_t max_frame, struct stomp_frame *f,
                    char *err);

/* @return 1 when f's command is cmd (a NUL-terminated string), else 0. */
int stomp_is(const struct stomp_frame *f, const char *cmd);

/* Copies the unescaped value of the first header called key (STOMP 1.2:
 * the first occurrence wins) into out (outlen bytes, NUL-terminated).
 * @return the value's length, or -1 when absent or too long for out. */
ssize_t stomp_header(const struct stomp_frame *f, const char *key, char *out, size_t outlen);

/* Heart-beat periods are clamped to this (a day, in ms): a larger promise
 * means "practically never", and it keeps period * NS_PER_MS in range. */
#define STOMP_HEARTBEAT_MAX_MS 86400000L

/* Parses a heart-beat header value "cx,cy" (STOMP 1.2: two non-negative
 * integers in ms, no blanks). A value above STOMP_HEARTBEAT_MAX_MS, however
 * many digits, is clamped to it. s is borrowed.
 * @return 0 with *cx and *cy set, or -1 when s is not two such integers. */
int stomp_heartbeat_parse(const char *s, long *cx, long *cy);

/* Appends a frame to out (the caller's buf, grown as needed): command,
 * headers as NULL-terminated key/value pairs (values escaped unless the
 * command is CONNECT or CONNECTED), a content-length header when body is
 * not NULL, the body and the NUL. Nothing of kv or body is kept.
 * @return 0, or -1 when memory cannot be had (out keeps what it held). */
int stomp_render(struct buf *out, const char *command, const char *const *kv, const char *body,
                 size_t body_len);

/* stomp_render in two halves, for a frame whose headers are rendered once
 * and its body per send: stomp_render_headers appends the command and the
 * headers (escaped as stomp_render does), stomp_render_end the
 * content-length header (body not NULL), the blank line, the body and the
 * NUL. One after the other they append what stomp_render appends.
 * @return 0, or -1 when memory cannot be had (out keeps what it held). */
int stomp_render_headers(struct buf *out, const char *command, const char *const *kv);
int stomp_render_end(struct buf *out, const char *body, size_t body_len);

#endif
