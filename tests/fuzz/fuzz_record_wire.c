/* fuzz_record_wire: what `rpcbench record` makes of a connection's two
 * streams (record/rec_wire.c framing HTTP and STOMP, record/rec_calls.c
 * parsing calls and matching answers, record/rec_file.c writing lines),
 * cut wherever the input says. The input is a sequence of chunks: a
 * header byte (bit 0: the direction, client to server or back; the rest:
 * the chunk's length - 1) and then the chunk. A small --max-body makes
 * the truncation paths reachable. Nothing may crash, leak or read past a
 * chunk; the recording goes to /dev/null. */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "record/rec_calls.h"
#include "record/rec_file.h"
#include "record/rec_wire.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

#define MAX_MSG 4096

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    static struct rec_file rf;
    static int opened;
    char err[ERR_LEN];
    if (!opened) {
        if (rec_file_open(&rf, "/dev/null", "127.0.0.1:1", "http://127.0.0.1:2", 0, err) < 0)
            abort();
        opened = 1;
    }
    struct rec_wire w;
    struct rec_calls calls;
    rec_calls_init(&calls, &rf, 1);
    rec_wire_init(&w, MAX_MSG, &rec_calls_events, &calls);
    int64_t now = 1000;
    size_t off = 0;
    while (off < size) {
        uint8_t h = data[off++];
        size_t n = (size_t)(h >> 1) + 1;
        n = n < size - off ? n : size - off;
        char *chunk = malloc(n ? n : 1); /* exact size: an over-read is caught */
        if (!chunk)
            break;
        memcpy(chunk, data + off, n);
        rec_wire_feed(&w, (enum rec_dir)(h & 1), chunk, n, now += 1000);
        free(chunk);
        off += n;
    }
    rec_wire_eof(&w, REC_UP, now + 1);
    rec_wire_eof(&w, REC_DOWN, now + 2);
    rec_calls_end(&calls);
    rec_wire_free(&w);
    rec_file_flush(&rf);
    return 0;
}
