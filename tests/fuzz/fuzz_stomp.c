/* fuzz_stomp: the STOMP 1.2 frame parser, as both sides use it: frames
 * parsed one after another from one buffer (several in one read), each
 * header looked up and unescaped, and every frame that parses rendered
 * again and parsed back to the same command and body. */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "net/stomp.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static void roundtrip(const struct stomp_frame *f)
{
    char cmd[32], v[256];
    if (f->command_len >= sizeof cmd)
        return;
    memcpy(cmd, f->command, f->command_len);
    cmd[f->command_len] = '\0';
    const char *kv[] = {"destination", NULL, NULL};
    if (stomp_header(f, "destination", v, sizeof v) >= 0 && !memchr(v, '\0', strlen(v)))
        kv[1] = v;
    struct buf b = {0};
    if (stomp_render(&b, cmd, kv[1] ? kv : kv + 2, f->body ? f->body : "", f->body_len) == 0) {
        struct stomp_frame g;
        char err[ERR_LEN];
        ssize_t n = stomp_parse(b.data, b.len, b.len + 1, &g, err);
        /* What we render we must read back, byte for byte. */
        if (n != (ssize_t)b.len || g.command_len != f->command_len || g.body_len != f->body_len ||
            (f->body_len && memcmp(g.body, f->body, f->body_len))) {
            fprintf(stderr, "rendered frame does not parse back (%zd of %zu): %s\n", n, b.len,
                    n < 0 ? err : "");
            abort();
        }
    }
    buf_free(&b);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    /* An exact-size copy: any read past the end is caught. */
    char *buf = malloc(size ? size : 1);
    if (!buf)
        return 0;
    memcpy(buf, data, size);
    size_t off = 0;
    while (off < size) {
        struct stomp_frame f;
        char err[ERR_LEN], v[64];
        ssize_t n = stomp_parse(buf + off, size - off, 1 << 20, &f, err);
        if (n <= 0)
            break;
        off += (size_t)n;
        if (!f.command_len)
            continue;
        for (size_t i = 0; i < f.nheaders; i++)
            (void)stomp_header(&f, "content-type", v, sizeof v);
        (void)stomp_is(&f, "SEND");
        if (stomp_is(&f, "SEND") || stomp_is(&f, "MESSAGE"))
            roundtrip(&f);
    }
    free(buf);
    return 0;
}
