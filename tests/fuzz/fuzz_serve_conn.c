/* fuzz_serve_conn: a whole `rpcbench serve` connection, through its public
 * entry point. Each input is one client: sconn_start() gets one end of
 * a socketpair, the input is written to the other end and the write side
 * shut, and the server's loop runs (bounded) until it has closed the
 * connection, answering whatever requests, pipelined or broken, the bytes
 * hold. This covers serve's HTTP request parsing (http-parser callbacks,
 * routes, the 400/404/405/413/414 answers, pipelining while busy), or,
 * when the bytes sniff as STOMP, serve_stomp and the broker; then vdsm_api
 * and the encoders' parse_call and renderers.
 *
 * Byte 0 is the server's read size (0: 64 KiB, else 1..255 bytes per read)
 * so requests arrive split at every offset; the rest is the byte stream. */
#include <ev.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <unistd.h>

#include "server/serve_conn.h"
#include "server/serve_sniff.h"
#include "server/vmsim.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

#define RBUF_MAX 65536
#define MAX_BODY 65536 /* small, so 413 is reachable */

static struct serve_ctx ctx;

static void setup(void)
{
    char err[256];
    ctx.loop = ev_loop_new(EVFLAG_AUTO);
    ctx.api.sim = vmsim_new(4, 1, err);
    ctx.rbuf = malloc(RBUF_MAX);
    ctx.out = &ctx.own_out; /* the server's own, as server_start sets it */
    if (!ctx.loop || !ctx.api.sim || !ctx.rbuf) {
        fprintf(stderr, "fuzz_serve_conn: setup failed\n");
        abort();
    }
    ctx.sniff = serve_sniff;
    ctx.max_body = MAX_BODY;
    ctx.idle_s = 30; /* never fires: every input ends long before */
    ctx.max_conns = 16;
}

/* Reads and drops what the server answered; 0 at EOF. */
static int drain_client(int fd)
{
    char sink[16384];
    for (;;) {
        ssize_t n = read(fd, sink, sizeof sink);
        if (n > 0)
            continue;
        return n == 0 ? 0 : 1;
    }
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    if (!ctx.loop)
        setup();
    if (size < 1)
        return 0;
    ctx.rbuf_len = data[0] ? data[0] : RBUF_MAX;
    int sv[2];
    if (socketpair(AF_UNIX, SOCK_STREAM | SOCK_NONBLOCK | SOCK_CLOEXEC, 0, sv) < 0)
        abort();
    int sndbuf = 1 << 20;
    setsockopt(sv[1], SOL_SOCKET, SO_SNDBUF, &sndbuf, sizeof sndbuf);
    if (sconn_start(&ctx, sv[0]) < 0)
        abort();
    size_t off = 1;
    /* Bounded: one step reads at most rbuf_len bytes, answers at most
     * one request; allow a step per byte plus slack. */
    long steps = (long)size * 4 + 1000;
    int client_open = 1;
    while (ctx.nconns > 0 && steps-- > 0) {
        if (off < size) {
            ssize_t n = write(sv[1], data + off, size - off);
            if (n > 0)
                off += (size_t)n;
        } else if (client_open) {
            shutdown(sv[1], SHUT_WR); /* then the server sees EOF */
            client_open = 0;
        }
        ev_run(ctx.loop, EVRUN_NOWAIT);
        drain_client(sv[1]);
    }
    if (ctx.nconns > 0) {
        fprintf(stderr, "fuzz_serve_conn: connection still open after the input ended\n");
        abort(); /* a client that said everything and hung up must be let go */
    }
    sconn_close_all(&ctx);
    close(sv[1]);
    return 0;
}
