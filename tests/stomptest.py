"""STOMP 1.2 by hand for the integration tests: building and parsing frames
(also used by the STOMP peer in it_client_wire.py) and a raw client over a
plain or TLS socket. The server under test is rpctest.Server, re-exported
here with check. Every wait is bounded."""
import json
import socket
import time

from rpctest import Server, check  # noqa: F401 - re-exported for it_stomp, it_tls, it_serve_vdsm

TIMEOUT = 10.0
REQUESTS = "jms.topic.vdsm_requests"


def _bytes(s):
    return s if isinstance(s, bytes) else str(s).encode()


def frame(cmd, headers=(), body=None):
    """A STOMP frame as bytes; headers are (key, value) pairs, not escaped,
    each str or raw bytes (a hostile peer's header may be any bytes)."""
    out = _bytes(cmd) + b"\n" + b"".join(_bytes(k) + b":" + _bytes(v) + b"\n" for k, v in headers)
    b = _bytes(body) if body is not None else b""
    if body is not None:
        out += b"content-length:%d\n" % len(b)
    return out + b"\n" + b + b"\0"


def request(rid, method="Host.ping", params=None):
    return json.dumps({"jsonrpc": "2.0", "id": rid, "method": method, "params": params or {}})


def send(rid, reply_to, method="Host.ping", dest=REQUESTS):
    return frame("SEND", [("destination", dest), ("content-type", "application/json"),
                          ("reply-to", reply_to)], request(rid, method))


def skip_beats(buf):
    """The heart-beat EOLs at the start of buf: (how many LFs, the rest); a
    CR is skipped but not counted."""
    beats = 0
    while buf[:1] in (b"\n", b"\r"):
        beats += buf[:1] == b"\n"
        buf = buf[1:]
    return beats, buf


def parse_frame(buf):
    """The whole frame at the start of buf: ((command, headers, body bytes),
    rest), or None while it is not all there. The first of a repeated header
    wins (STOMP 1.2); a content-length is honoured (the body may hold NULs)
    and must be followed by the NUL."""
    end = buf.find(b"\n\n")
    if end < 0:
        return None
    lines = buf[:end].decode().replace("\r", "").split("\n")
    headers = {}
    for ln in lines[1:]:
        k, _, v = ln.partition(":")
        headers.setdefault(k, v)
    start = end + 2
    if "content-length" in headers:
        stop = start + int(headers["content-length"])
        if len(buf) < stop + 1:
            return None
        check(buf[stop:stop + 1] == b"\0", "no NUL after the body of %s" % lines[0])
    else:
        stop = buf.find(b"\0", start)
        if stop < 0:
            return None
    return (lines[0], headers, buf[start:stop]), buf[stop + 1:]


def parse_frames(buf):
    """The whole frames in buf, heart-beats counted apart: (frames, beats, rest)."""
    frames, beats = [], 0
    while True:
        n, buf = skip_beats(buf)
        beats += n
        got = parse_frame(buf)
        if got is None:
            return frames, beats, buf
        f, buf = got
        frames.append(f)


class Raw:
    """A raw STOMP client on a socket (plain, or wrapped by ssl_ctx)."""

    def __init__(self, srv, ssl_ctx=None):
        s = socket.create_connection((srv.host, srv.port), timeout=TIMEOUT)
        s.setsockopt(socket.IPPROTO_TCP, socket.TCP_NODELAY, 1)
        self.sock = ssl_ctx.wrap_socket(s, server_hostname=srv.host) if ssl_ctx else s
        self.buf = b""
        self.beats = 0

    def close(self):
        self.sock.close()

    def sendall(self, data):
        self.sock.sendall(data)

    def _fill(self, deadline):
        self.sock.settimeout(max(0.01, deadline - time.monotonic()))
        data = self.sock.recv(65536)
        if not data:
            raise EOFError("closed by server")
        self.buf += data

    def read(self, timeout=TIMEOUT):
        """Next frame: (command, headers, body bytes); heart-beats are counted
        in self.beats and skipped. Raises EOFError when the server closes."""
        deadline = time.monotonic() + timeout
        while True:
            beats, self.buf = skip_beats(self.buf)
            self.beats += beats
            got = parse_frame(self.buf)
            if got:
                f, self.buf = got
                return f
            if time.monotonic() > deadline:
                raise TimeoutError("no frame in %.1fs" % timeout)
            self._fill(deadline)

    def expect(self, cmd, timeout=TIMEOUT):
        c, h, b = self.read(timeout)
        if c != cmd:
            raise AssertionError("wanted %s, got %s %r %r" % (cmd, c, h, b[:200]))
        return h, b

    def connect(self, heart_beat="0,0"):
        self.sendall(frame("CONNECT", [("accept-version", "1.2"), ("host", "localhost"),
                                       ("heart-beat", heart_beat)]))
        h, _ = self.expect("CONNECTED")
        check(h.get("version") == "1.2", "CONNECTED %r" % h)
        return h

    def subscribe(self, dest, sid):
        self.sendall(frame("SUBSCRIBE", [("destination", dest), ("id", sid), ("ack", "auto")]))

    def closed(self, timeout=TIMEOUT):
        """Whether the server closes within timeout (frames before are skipped)."""
        deadline = time.monotonic() + timeout
        try:
            while time.monotonic() < deadline:
                self.buf = b""
                self._fill(deadline)
        except (TimeoutError, socket.timeout):
            return False
        except (EOFError, OSError):  # reset, or a TLS peer gone without close_notify
            return True
        return False

