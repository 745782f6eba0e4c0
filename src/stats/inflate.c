/* inflate: a zlib stream decoded by zlib itself (inflate.h). */
#include "stats/inflate.h"

#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <zlib.h>

#define CHUNK 16384

/* zlib's outcome in the words the rest of rpcbench uses. */
static const char *why(int rc, const z_stream *z)
{
    if (rc == Z_BUF_ERROR || (rc == Z_OK && z->avail_in == 0))
        return "zlib stream ends early";
    if (rc == Z_DATA_ERROR && z->msg && !strcmp(z->msg, "incorrect data check"))
        return "zlib checksum mismatch";
    if (rc == Z_DATA_ERROR && z->msg && !strcmp(z->msg, "invalid block type"))
        return "bad block type";
    if (rc == Z_MEM_ERROR)
        return "out of memory";
    return z->msg ? z->msg : "bad zlib stream";
}

/* Inflates z's input into out, a chunk at a time, until the stream ends.
 * @return Z_STREAM_END, or the zlib code that stopped it (Z_MEM_ERROR also
 * for output past INFLATE_MAX_OUT or a buffer that cannot grow). */
static int inflate_all(z_stream *z, struct buf *out, size_t start)
{
    int rc = Z_OK;
    while (rc == Z_OK) {
        if (out->len - start + CHUNK > INFLATE_MAX_OUT || buf_reserve(out, CHUNK) < 0)
            return Z_MEM_ERROR;
        z->next_out = (unsigned char *)out->data + out->len;
        z->avail_out = CHUNK;
        rc = inflate(z, Z_NO_FLUSH);
        out->len += CHUNK - z->avail_out;
        if (rc == Z_OK && z->avail_in == 0 && z->avail_out != 0)
            return Z_BUF_ERROR; /* all input read, the stream not ended */
    }
    return rc;
}

int inflate_zlib(const unsigned char *p, size_t n, struct buf *out, char *err)
{
    z_stream z;
    memset(&z, 0, sizeof z);
    if (n > UINT32_MAX || inflateInit(&z) != Z_OK) {
        snprintf(err, ERR_LEN, "hdr histogram: cannot start zlib");
        return -1;
    }
    z.next_in = (unsigned char *)p;
    z.avail_in = (uInt)n;
    int rc = inflate_all(&z, out, out->len);
    if (rc != Z_STREAM_END)
        snprintf(err, ERR_LEN, "hdr histogram: %s",
                 rc == Z_MEM_ERROR && z.msg == NULL ? "output too large or out of memory"
                                                    : why(rc, &z));
    inflateEnd(&z);
    return rc == Z_STREAM_END ? 0 : -1;
}
