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

Everything is bounded: sockets have timeouts, a connection answers at most
MAX_REQUESTS requests, and the process exits after --lifetime seconds even
if nobody stops it."""
import argparse
import itertools
import json
import re
import socket
import struct
import sys
import threading
import time

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


class Conns:
    """The live connections, so `stop` can close them all."""

    def __init__(self):
        self.lock = threading.Lock()
        self.socks = set()

    def add(self, s):
        with self.lock:
            self.socks.add(s)

    def remove(self, s):
        with self.lock:
            self.socks.discard(s)

    def close_all(self):
        with self.lock:
            socks, self.socks = list(self.socks), set()
        for s in socks:
            try:
                s.shutdown(socket.SHUT_RDWR)
            except OSError:
                pass


def read_request(sock, pending):
    """Reads one HTTP request; returns (body, rest) or None at EOF/error."""
    buf = pending
    while b"\r\n\r\n" not in buf:
        if len(buf) > MAX_HEAD:
            return None
        chunk = sock.recv(65536)
        if not chunk:
            return None
        buf += chunk
    head, _, rest = buf.partition(b"\r\n\r\n")
    m = re.search(rb"(?im)^content-length:\s*(\d+)", head)
    need = int(m.group(1)) if m else 0
    while len(rest) < need:
        chunk = sock.recv(65536)
        if not chunk:
            return None
        rest += chunk
    return rest[:need], rest[need:]


def answer_body(body):
    """A valid answer to body: JSON-RPC with its id, else XML-RPC ping."""
    try:
        req = json.loads(body)
    except ValueError:
        return XML_PING, "text/xml", None
    rid = req.get("id") if isinstance(req, dict) else None
    return (json.dumps({"jsonrpc": "2.0", "id": rid, "result": True}).encode(),
            "application/json", rid)


def response(body, ctype, length=None):
    n = len(body) if length is None else length
    return (b"HTTP/1.1 200 OK\r\nContent-Type: %s\r\nContent-Length: %d\r\n\r\n"
            % (ctype.encode(), n)) + body


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
        sock.sendall(response(payload, ctype))
        return True
    if mode == "close":
        full = response(payload, ctype)
        sock.sendall(full[:len(full) - len(payload) // 2])
        return False
    if mode == "reset":
        sock.setsockopt(socket.SOL_SOCKET, socket.SO_LINGER, struct.pack("ii", 1, 0))
        return False
    if mode == "garbage":
        sock.sendall(b"\x00\xffTHIS IS NOT HTTP\r\n\r\n\x01\x02garbage garbage\r\n")
        return True
    if mode == "truncated":
        sock.sendall(response(payload[:len(payload) // 2], ctype, length=len(payload)))
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
        full = response(payload, ctype)
        for i in range(len(full)):
            sock.sendall(full[i:i + 1])
            time.sleep(1.0)
        return True
    if mode == "empty":
        sock.sendall(response(b"", ctype))
        return True
    if mode in ("bigxml", "badend"):
        sock.sendall(response(BIG_XML if mode == "bigxml" else BAD_END, "text/xml"))
        return True
    if mode == "badi8":
        bad = XML_PING.replace(b"<int>0</int>", BAD_I8[next(BAD_I8_TURN) % len(BAD_I8)])
        sock.sendall(response(bad, "text/xml"))
        return True
    if mode == "wrongid":
        bad = json.dumps({"jsonrpc": "2.0", "id": other_id(rid), "result": True}).encode()
        sock.sendall(response(bad, "application/json"))
        return True
    raise ValueError("unknown mode %r" % mode)


def hold(sock):
    """Says nothing until the client goes away (bounded by the timeout)."""
    try:
        while sock.recv(65536):
            pass
    except OSError:
        pass


def handle(mode, sock, conns):
    conns.add(sock)
    pending = b""
    try:
        for _ in range(MAX_REQUESTS):
            got = read_request(sock, pending)
            if got is None:
                break
            body, pending = got
            if not serve_one(mode, sock, body):
                break
    except OSError:
        pass  # the client went away: that is the point of most modes
    finally:
        conns.remove(sock)
        try:
            sock.close()
        except OSError:
            pass


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--mode", required=True)
    ap.add_argument("--stop-after", type=float, default=1.0)
    ap.add_argument("--lifetime", type=float, default=60.0)
    args = ap.parse_args()
    lsock = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
    lsock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
    lsock.bind(("127.0.0.1", 0))
    lsock.listen(128)
    lsock.settimeout(0.2)
    print("listening on 127.0.0.1:%d" % lsock.getsockname()[1], flush=True)
    conns = Conns()
    start = time.monotonic()
    while time.monotonic() - start < args.lifetime:
        if args.mode == "stop" and time.monotonic() - start >= args.stop_after:
            lsock.close()
            conns.close_all()
            # Keep the process (not the port) around until told to go.
            time.sleep(max(0.0, args.lifetime - (time.monotonic() - start)))
            break
        try:
            sock, _ = lsock.accept()
        except socket.timeout:
            continue
        sock.settimeout(30.0)
        threading.Thread(target=handle, args=(args.mode, sock, conns), daemon=True).start()
    return 0


if __name__ == "__main__":
    sys.exit(main())
