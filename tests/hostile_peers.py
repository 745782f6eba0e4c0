"""Scriptable misbehaving peers for tests/it_client_hostile_peers.py (Python stdlib only):
servers that rpcbench run talks to, on 127.0.0.1 ephemeral ports, each in
this process, with a bounded lifetime.

- HttpPeer: raw HTTP. For each request it plays a *script*: the steps the
  test's answer(req) returns (or one bytes answer), so a test can split an
  answer into TCP segments with delays, send two answers, send garbage,
  close, reset or stall. on_accept plays a script before any request is
  read (an early answer, RST after accept, a peer that never reads). With
  ssl_ctx, every connection is TLS first (Python's ssl module), and RAW
  steps write around TLS, on the bare socket.
- StompPeer: a STOMP 1.2 broker by hand, as rpcbench's client meets VDSM:
  CONNECT is answered by connect(hdr) (CONNECTED with any heart-beat, an
  ERROR frame, garbage, a close), SUBSCRIBE is taken, and each SEND by
  reply(req) (by default a MESSAGE to its reply-to whose JSON-RPC id is
  the request's: the client matches replies by that id). read=False: after
  CONNECTED the peer never reads again (a zero window once the buffers
  fill).

Script steps: bytes (sent; with TLS, through it), a number (sleep that many
seconds), RAW(bytes) (on the bare socket), READ (one recv), CLOSE (FIN),
RST (SO_LINGER 0, then close), HOLD (read and drop until the client goes,
never answer), STALL (never read again: the client's writes fill the
window). CLOSE, RST, HOLD and STALL end the connection's script.

The accepting, the HTTP request framing and the STOMP frames are rpctest's
X
(frame, parse_frames); faultserver.py's answers (XML_PING, answer_body) are
the valid ones."""
import itertools
import json
import os
import socket
import struct
import threading
import time

from faultserver import XML_PING, answer_body
from rpctest import Peer, http_response, read_http_request
from stomptest import frame, parse_frames

LIFETIME_S = 60.0      # a peer closes itself after this, whatever the test does
SOCK_TIMEOUT_S = 15.0  # every blocking call on a connection
SPLIT_DELAY_S = 0.03   # between two segments: the client reads the first alone


class _Step:
    def __init__(self, name):
        self.name = name

    def __repr__(self):
        return self.name


CLOSE, RST, HOLD, STALL, READ = (_Step(n) for n in ("CLOSE", "RST", "HOLD", "STALL", "READ"))


class RAW(bytes):
    """Bytes written on the bare socket, around TLS."""


def split(data, *cuts, delay=SPLIT_DELAY_S):
    """data as segments cut at the offsets cuts (in any order, out of range
    ones clamped), a delay between two: a script."""
    points = sorted({min(max(0, c), len(data)) for c in cuts} | {0, len(data)})
    out = []
    for a, b in zip(points, points[1:]):
        if out:
            out.append(delay)
        out.append(data[a:b])
    return out


def chunked(body, sizes, ext=b"", trailer=b""):
    """body in HTTP/1.1 chunked encoding, chunk lengths taken in turn from
    sizes; ext goes after every size (";name=value"), trailer lines
    (b"X-A: 1\\r\\n") after the last chunk."""
    out, i, turn = b"", 0, itertools.cycle(sizes)
    while i < len(body):
        n = max(1, next(turn))
        piece = body[i:i + n]
        out += b"%x%s\r\n%s\r\n" % (len(piece), ext, piece)
        i += n
    return out + b"0\r\n" + trailer + b"\r\n"


class Request:
    """One HTTP request as the peer read it: head, body, the JSON-RPC id
    (None for XML-RPC), and where it came: conn (connection index), n (its
    number on that connection) and k (over the whole peer), all from 0."""

    def __init__(self, head, body, conn, n, k):
        self.head, self.body, self.conn, self.n, self.k = head, body, conn, n, k
        self.payload, self.ctype, self.rid = answer_body(body)
        self.json = self.ctype == "application/json"

    def ok(self):
        """The valid answer to this request, as bytes."""
        return http_response(self.payload, self.ctype)

    def id_json(self):
        """The request's id as JSON text (b'"uuid"', b'7', b'null')."""
        return json.dumps(self.rid).encode()


def xmlrpc_fault(code, text):
    """An XML-RPC fault answer body; text is raw bytes, put in as is."""
    return (b"<?xml version='1.0'?>\n<methodResponse><fault><value><struct>"
            b"<member><name>faultCode</name><value><int>%d</int></value></member>"
            b"<member><name>faultString</name><value><string>%s</string></value></member>"
            b"</struct></value></fault></methodResponse>\n" % (code, text))


def jsonrpc_error(rid_json, code, message):
    """A JSON-RPC 2.0 error answer body; message is raw bytes put between the
    quotes as is (it may hold escapes, or bytes no JSON allows)."""
    return (b'{"jsonrpc": "2.0", "id": %s, "error": {"code": %d, "message": "%s"}}'
            % (rid_json, code, message))


def response(body, status=b"200 OK", ctype=b"application/json", headers=(),
             version=b"HTTP/1.1"):
    """A response with Content-Length; every part raw bytes."""
    head = b"%s %s\r\nContent-Type: %s\r\nContent-Length: %d\r\n" % (version, status, ctype,
                                                                     len(body))
    return head + b"".join(h + b"\r\n" for h in headers) + b"\r\n" + body


class ScriptedPeer(Peer):
    """rpctest.Peer with a stop: close() ends every connection (STALL and
    HOLD included), and a timer calls it after lifetime seconds. A context
    manager. rec (per connection): conn (its index), plus what the
    subclass keeps. rcvbuf: SO_RCVBUF of every connection (a small one
    makes a peer that stops reading close its window soon)."""

    def __init__(self, lifetime=LIFETIME_S, rcvbuf=None):
        self.stopped = threading.Event()
        self.seq = itertools.count()
        super().__init__(self._serve_conn, record=lambda: {"conn": len(self.conns)},
                         timeout=SOCK_TIMEOUT_S)
        if rcvbuf:  # accepted connections inherit it: a small window fills at once
            self.sock.setsockopt(socket.SOL_SOCKET, socket.SO_RCVBUF, rcvbuf)
        self._timer = threading.Timer(lifetime, self.close)
        self._timer.daemon = True
        self._timer.start()

    def close(self):
        self.stopped.set()
        self._timer.cancel()
        super().close()
        self.drop_all()

    def url(self, scheme, path=""):
        return "%s://127.0.0.1:%d%s" % (scheme, self.port, path)

    def __enter__(self):
        return self

    def __exit__(self, *exc):
        self.close()

    def _serve_conn(self, sock, rec):
        sock.setsockopt(socket.IPPROTO_TCP, socket.TCP_NODELAY, 1)
        self.serve(sock, rec)

    def play(self, sock, steps):
        """Plays a script on sock; returns False when it ended the
        connection (or the peer is stopping), True to go on."""
        if isinstance(steps, (bytes, bytearray)) and not isinstance(steps, RAW):
            steps = [steps]
        for s in steps:
            if self.stopped.is_set():
                return False
            if isinstance(s, RAW):
                os.write(sock.fileno(), s)
            elif isinstance(s, (bytes, bytearray)):
                sock.sendall(s)
            elif isinstance(s, (int, float)):
                time.sleep(s)
            elif s is READ:
                sock.recv(65536)
            elif s is CLOSE:
                return False
            elif s is RST:
                sock.setsockopt(socket.SOL_SOCKET, socket.SO_LINGER, struct.pack("ii", 1, 0))
                return False
            elif s is HOLD:
                while not self.stopped.is_set() and sock.recv(65536):
                    pass
                return False
            elif s is STALL:
                self.stopped.wait(LIFETIME_S)
                return False
            else:
                raise ValueError("not a script step: %r" % (s,))
        return True


class HttpPeer(ScriptedPeer):
    """HTTP by script (module docstring). answer(req) returns a script or
    bytes (default: the valid answer); on_accept(rec) a script played
    first. rec gets "requests": how many were read on the connection."""

    def __init__(self, answer=None, on_accept=None, ssl_ctx=None, **kw):
        self.answer = answer or (lambda req: req.ok())
        self.on_accept, self.ssl_ctx = on_accept, ssl_ctx
        self.requests = []
        super().__init__(**kw)

    def serve(self, sock, rec):
        rec["requests"] = 0
        if not self.ssl_ctx:
            return self._serve_http(sock, rec)
        sock = self.ssl_ctx.wrap_socket(sock, server_side=True)  # an OSError ends it
        try:
            self._serve_http(sock, rec)
        finally:
            sock.close()  # the TLS socket owns the descriptor now

    def _serve_http(self, sock, rec):
        if self.on_accept and not self.play(sock, self.on_accept(rec)):
            return
        pending = b""
        for n in itertools.count():
            got = read_http_request(lambda: sock.recv(65536), pending)
            if got is None:
                return
            head, body, pending = got
            req = Request(head, body, rec["conn"], n, next(self.seq))
            rec["requests"] += 1
            self.requests.append(req)
            if not self.play(sock, self.answer(req)):
                return


class StompReq:
    """One SEND as the peer read it: headers, body, the JSON-RPC id, its
    reply-to, the subscription id of that destination, and k (from 0)."""

    def __init__(self, hdr, body, subs, k):
        self.hdr, self.body, self.k = hdr, body, k
        try:
            self.rid = json.loads(body).get("id")
        except ValueError:
            self.rid = None
        self.reply_to = hdr.get("reply-to", "")
        self.sub = subs.get(self.reply_to, "")

    def message(self, body=None, headers=()):
        """A MESSAGE frame to the reply-to, as VDSM sends it: destination,
        subscription, content-type; body defaults to the JSON-RPC result."""
        if body is None:
            body = json.dumps({"jsonrpc": "2.0", "id": self.rid, "result": True}).encode()
        return frame("MESSAGE", [("destination", self.reply_to), ("subscription", self.sub),
                                 ("content-type", "application/json"),
                                 ("message-id", "m-%d" % self.k)] + list(headers), body)

    def id_json(self):
        return json.dumps(self.rid).encode()


def connected(heart_beat="0,0", extra=()):
    """A CONNECTED frame; heart_beat None leaves the header out."""
    hb = [] if heart_beat is None else [("heart-beat", heart_beat)]
    return frame("CONNECTED", [("version", "1.2"), ("server", "hostile/1")] + hb + list(extra))


class StompPeer(ScriptedPeer):
    """A STOMP broker by script (module docstring). connect(hdr) answers
    CONNECT (default: CONNECTED with heart-beat 0,0); reply(req) each SEND
    (default: req.message()). on_accept(rec) plays before anything is read.
    rec gets "frames" (commands read) and "messages" (SENDs answered with a
    script that held a MESSAGE frame)."""

    def __init__(self, connect=None, reply=None, read=True, on_accept=None, **kw):
        self.connect = connect or (lambda hdr: connected())
        self.reply = reply or (lambda req: req.message())
        self.read, self.on_accept = read, on_accept
        super().__init__(**kw)

    def messages(self):
        return sum(r.get("messages", 0) for r in self.conns)

    def serve(self, sock, rec):
        rec["frames"], rec["messages"] = [], 0
        if self.on_accept and not self.play(sock, self.on_accept(rec)):
            return
        buf, subs = b"", {}
        while not self.stopped.is_set():
            data = sock.recv(65536)
            if not data:
                return
            frames, _, buf = parse_frames(buf + data)
            for cmd, hdr, body in frames:
                rec["frames"].append(cmd)
                if cmd in ("CONNECT", "STOMP"):
                    if not self.play(sock, self.connect(hdr)):
                        return
                    if not self.read:
                        self.play(sock, [STALL])
                        return
                elif cmd == "SUBSCRIBE":
                    subs[hdr.get("destination", "")] = hdr.get("id", "")
                elif cmd == "SEND":
                    steps = self.reply(StompReq(hdr, body, subs, next(self.seq)))
                    seq = [steps] if isinstance(steps, bytes) else steps
                    rec["messages"] += any(isinstance(s, bytes) and s.startswith(b"MESSAGE\n")
                                           for s in seq)
                    if not self.play(sock, steps):
                        return
                elif cmd == "DISCONNECT":
                    sock.sendall(frame("RECEIPT", [("receipt-id", hdr.get("receipt", ""))]))
                    return


def deep_xmlrpc(levels):
    """A well-formed XML-RPC answer nested levels arrays deep."""
    return (b"<?xml version='1.0'?>\n<methodResponse><params><param>" +
            b"<value><array><data>" * levels + b"<value><int>1</int></value>" +
            b"</data></array></value>" * levels + b"</param></params></methodResponse>\n")


def deep_json(rid_json, levels):
    """A JSON-RPC answer whose result is nested levels arrays deep."""
    return b'{"jsonrpc": "2.0", "id": %s, "result": %s1%s}' % (rid_json, b"[" * levels,
                                                              b"]" * levels)


__all__ = ["CLOSE", "RST", "HOLD", "STALL", "READ", "RAW", "XML_PING", "split", "chunked",
           "Request", "xmlrpc_fault", "jsonrpc_error", "response", "HttpPeer", "StompPeer",
           "StompReq", "connected", "deep_xmlrpc", "deep_json", "frame"]
