"""A misbehaving HTTP server for tests/it_faults.py (Python stdlib only).

Listens on 127.0.0.1:0, prints "listening on 127.0.0.1:PORT", and answers
each request on each connection (one thread per connection) according to
--mode:

  ok         a valid JSON-RPC or XML-RPC ping answer (the control case)
  close      half of the response, then a normal close (FIN)
  reset      reads the request, then closes with SO_LINGER 0 (RST)
  garbage    bytes that are not HTTP
  truncated  a correct Content-Length but only half the body, then silence
  stall      reads the request and never answers
  big        a 100 MiB body (Content-Length says so), streamed while the
             client reads
  trickle    a valid response, one byte per second
  wrongid    a valid JSON-RPC answer carrying another request's id
  empty      200 with an empty body (Content-Length: 0)
  bigxml     a valid 1 MB XML-RPC answer, VDSM's status first (the client's
             cheap check decides on its head and keeps only the last bytes)
  badend     the same 1 MB answer whose closing tag is broken
  badi8      a well-framed XML-RPC answer holding a bad <i8> (xmlrpc-c 1.33
             crashes parsing these: found by tests/fuzz), in turn: "1x",
             "5 " and "<i8 >1x"
  stop       answers validly for --stop-after seconds, then closes the
             listening socket and every connection
  gone       closes the first connection as soon as it is accepted, unread,
             then the listening socket: the server went away before the
             client's first request

The accepting and the HTTP framing are rpctest's (Peer, read_http_request,
http_response), shared with the peers in it_client_wire.py; it_faults.py
starts this script as an rpctest.Listening process.

Everything is bounded: sockets have timeouts, a connection answers at most
MAX_REQUESTS requests, and the process exits after --lifetime seconds even
if nobody stops it."""
import argparse
import itertools
import json
import socket
import struct
import sys
import threading
import time

from rpctest import Peer, http_response, jsonrpc_result, read_http_request

MAX_REQUESTS = 100000
MAX_HEAD = 64 * 1024
BIG = 100 * 1024 * 1024

XML_PING = (b"<?xml version='1.0'?>\n<methodResponse>\n<params>\n<param>\n<value><struct>\n"
            b"<member><name>status</name><value><struct>\n"
            b"<member><name>code</name><value><int>0</int></value></member>\n"
            b"<member><name>message</name><value><string>Done</string></value></member>\n"
            b"</struct></value></member>\n</struct></value>\n</param>\n</params>\n"
            b"</methodResponse>\n")

# XML_PING with a 1 MB list after the status: a getAllVmStats-like answer.
BIG_XML = XML_PING.replace(
    b"</struct></value></member>\n</struct></value>",
    b"</struct></value></member>\n<member><name>statsList</name><value><array><data>\n" +
    b"<value><struct><member><name>status</name><value><string>Up</string></value>"
    b"</member></struct></value>\n" * 12000 +
    b"</data></array></value></member>\n</struct></value>", 1)
BAD_END = BIG_XML.replace(b"</methodResponse>", b"</methodRespons>")

BAD_I8 = [b"<i8>1x</i8>", b"<i8>5 </i8>", b"<i8 >1x</i8>"]
BAD_I8_TURN = itertools.count()


def answer_body(body):
    """A valid answer to body: JSON-RPC with its id, else XML-RPC ping."""
    try:
        req = json.loads(body)
    except ValueError:
        return XML_PING, "text/xml", None
    rid = req.get("id") if isinstance(req, dict) else None
    return jsonrpc_result(rid), "application/json", rid


def other_id(rid):
    """Another request's id: same shape, counter changed."""
    if isinstance(rid, str) and rid:
        last = rid[-1]
        return rid[:-1] + ("0" if last != "0" else "1")
    return 999999


def serve_one(mode, sock, body):
    """Answers one request; returns False when the connection must end."""
    payload, ctype, rid = answer_body(body)
    if mode == "ok" or mode == "stop":
        sock.sendall(http_response(payload, ctype))
        return True
    if mode == "close":
        full = http_response(payload, ctype)
        sock.sendall(full[:len(full) - len(payload) // 2])
        return False
    if mode == "reset":
        sock.setsockopt(socket.SOL_SOCKET, socket.SO_LINGER, struct.pack("ii", 1, 0))
        return False
    if mode == "garbage":
        sock.sendall(b"\x00\xffTHIS IS NOT HTTP\r\n\r\n\x01\x02garbage garbage\r\n")
        return True
    if mode == "truncated":
        sock.sendall(http_response(payload[:len(payload) // 2], ctype, length=len(payload)))
        hold(sock)
        return False
    if mode == "stall":
        hold(sock)
        return False
    if mode == "big":
        sock.sendall(b"HTTP/1.1 200 OK\r\nContent-Type: %s\r\nContent-Length: %d\r\n\r\n"
                     % (ctype.encode(), BIG))
        chunk = b" " * 65536
        for _ in range(BIG // len(chunk)):
            sock.sendall(chunk)
        return True
    if mode == "trickle":
        full = http_response(payload, ctype)
        for i in range(len(full)):
            sock.sendall(full[i:i + 1])
            time.sleep(1.0)
        return True
    if mode == "empty":
        sock.sendall(http_response(b"", ctype))
        return True
    if mode in ("bigxml", "badend"):
        sock.sendall(http_response(BIG_XML if mode == "bigxml" else BAD_END, "text/xml"))
        return True
    if mode == "badi8":
        bad = XML_PING.replace(b"<int>0</int>", BAD_I8[next(BAD_I8_TURN) % len(BAD_I8)])
        sock.sendall(http_response(bad, "text/xml"))
        return True
    if mode == "wrongid":
        sock.sendall(http_response(jsonrpc_result(other_id(rid)), "application/json"))
        return True
    raise ValueError("unknown mode %r" % mode)


GONE = threading.Event()  # mode gone: its one connection came and was closed


def hold(sock):
    """Says nothing until the client goes away (bounded by the timeout)."""
    try:
        while sock.recv(65536):
            pass
    except OSError:
        pass


def handle(mode, sock):
    """Serves one connection in mode; the Peer closes it (an OSError, the
    client going away, is the point of most modes and ends it quietly)."""
    if mode == "gone":  # closed unread; main closes the port
        GONE.set()
        return
    pending = b""
    for _ in range(MAX_REQUESTS):
        got = read_http_request(lambda: sock.recv(65536), pending, MAX_HEAD)
        if got is None:
            return
        _, body, pending = got
        if not serve_one(mode, sock, body):
            return


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--mode", required=True)
    ap.add_argument("--stop-after", type=float, default=1.0)
    ap.add_argument("--lifetime", type=float, default=60.0)
    args = ap.parse_args()
    start = time.monotonic()
    peer = Peer(lambda sock, rec: handle(args.mode, sock), timeout=30.0)
    print("listening on 127.0.0.1:%d" % peer.port, flush=True)
    if args.mode == "stop":
        time.sleep(args.stop_after)
        peer.close()
        peer.drop_all()
    if args.mode == "gone":  # the first connection accepted and closed, then no port
        GONE.wait(args.lifetime)
        peer.close()
    # Keep the process around (not the port, in stop mode) until told to go.
    time.sleep(max(0.0, args.lifetime - (time.monotonic() - start)))
    return 0


if __name__ == "__main__":
    sys.exit(main())
