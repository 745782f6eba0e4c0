"""Connection failures against hand-written peers (issue 23 §3-5, issue 24
§3): the client never storms a server, counts every connection failure by
cause, gives up with one line when the peer is no server of ours, and
reads what a STOMP broker sent before it closed.

Each peer is a few lines of stdlib Python (rpctest.Peer). For a run that
gives up: exit 1, one stderr line that names what was seen and what to
try, within GIVE_UP_S, a handful of connections at most. For a run that
goes on: its counts add up, every failure is of a named kind and quoted,
the reconnects stay within sent + a small constant, and the run ends
within duration + timeout + 2 s."""
import json
import os
import select
import socket
import struct
import subprocess
import tempfile
import time

from rpctest import RPCBENCH, Peer, check, kill_group, main, spawn
from stomptest import frame

RATE, DURATION_S, TIMEOUT_S = 10, 1.0, 2.0
BUDGET_S = DURATION_S + TIMEOUT_S + 2 + 0.5  # + starting the process
GIVE_UP_S = 3.0 + 0.5                          # issue 24: within 3 s
MAX_CONNS_GIVE_UP = 10                         # 4 connections, 3 tries: no storm


def run(url, *extra):
    """rpcbench run against url; returns (exit code, stdout, stderr, the
    JSON result or None, seconds)."""
    with tempfile.TemporaryDirectory() as d:
        out = os.path.join(d, "r.json")
        given = {"-R": str(RATE), "-d": "%gs" % DURATION_S, "--timeout": "%gs" % TIMEOUT_S}
        for opt in extra:  # a test's own value replaces the default (twice is a usage error)
            given.pop(opt, None)
        args = [RPCBENCH, "run", "--url", url, "-p", "jsonrpc", "--verb", "ping",
                *[x for kv in given.items() for x in kv], "--output", out, "--quiet", *extra]
        t0 = time.monotonic()
        p = subprocess.run(args, capture_output=True, text=True, timeout=60)
        took = time.monotonic() - t0
        r = None
        if os.path.exists(out):
            with open(out) as f:
                r = json.load(f)
    return p.returncode, p.stdout, p.stderr, r, took


def gives_up(peer, url, want, *extra, within=GIVE_UP_S):
    """The run ends with exit 1 and the one line "the server at URL want...",
    within `within` s, writing no result, after a few connections."""
    code, out, err, r, took = run(url, *extra)
    line = "rpcbench run: the server at %s " % url
    check(code == 1 and err.startswith(line) and err.count("\n") == 1 and out == "",
          "%s: exit %d, stdout %r, stderr %r" % (url, code, out, err))
    check(want in err, "%s: want %r in %r" % (url, want, err))
    check("SSL routines" not in err and "error:" not in err, "an OpenSSL code: %r" % err)
    check(took <= within, "%s: gave up after %.2fs, want <= %.1fs" % (url, took, within))
    check(r is None, "a result was written for a run that gave up")
    check(len(peer.conns) <= MAX_CONNS_GIVE_UP,
          "%s: %d connections before giving up" % (url, len(peer.conns)))
    return err


def adds_up(r, what):
    """Every count adds up (offered = sent + unsent, sent = ok + errors +
    unfinished); each kind that occurred is quoted, and so is the kind the
    given-up requests failed as; the reconnects stay within offered + a
    small constant."""
    q, errs, tr = r["requests"], r["errors"], r["transport"]
    check(q["offered"] == q["sent"] + q["unsent"], "%s: %r" % (what, q))
    check(q["sent"] == q["ok"] + q["errors"] + q["unfinished"], "%s: %r" % (what, q))
    check(q["errors"] == sum(errs.values()), "%s: kinds %r vs %r" % (what, errs, q))
    given_up = q["unsent_given_up_as"] if q["unsent_given_up"] else None
    for k, n in errs.items():
        check(bool(r["error_samples"].get(k)) == (n > 0 or k == given_up),
              "%s: %d %s errors, sample %r" % (what, n, k, r["error_samples"].get(k)))
    check(tr["reconnects"] <= q["offered"] + 10,
          "%s: %d reconnects for %d requests" % (what, tr["reconnects"], q["offered"]))
    check(tr["reconnects_per_s"] >= 0, "%s: reconnects_per_s %r" % (what, tr))


def url(scheme, peer):
    return "%s://127.0.0.1:%d" % (scheme, peer.port)


# ---- peers -----------------------------------------------------------------

def read_frame(sock, buf=b""):
    """Bytes up to and including the next NUL (a frame without a
    content-length), and what followed; (None, b"") at EOF."""
    while b"\0" not in buf:
        d = sock.recv(65536)
        if not d:
            return None, b""
        buf += d
    i = buf.index(b"\0") + 1
    return buf[:i], buf[i:]


CONNECTED = frame("CONNECTED", [("version", "1.2"), ("heart-beat", "0,0")])


def broker(on_send):
    """A STOMP broker that logs in, then calls on_send(sock, rid, rec) for
    each SEND (rid: its JSON-RPC id); on_send returns False to hang up."""
    def handle(sock, rec):
        f, rest = read_frame(sock)
        if not f or not f.startswith(b"CONNECT"):
            return
        sock.sendall(CONNECTED)
        while True:
            f, rest = read_frame(sock, rest)
            if f is None:
                return
            if f.startswith(b"SEND"):
                body = f[f.index(b"\n\n") + 2:-1]
                if not on_send(sock, json.loads(body)["id"], rec):
                    return
    return handle


def reply(rid):
    body = json.dumps({"jsonrpc": "2.0", "id": rid, "result": True})
    return frame("MESSAGE", [("destination", "q"), ("content-type", "application/json")], body)


def rst(sock):
    sock.setsockopt(socket.SOL_SOCKET, socket.SO_LINGER, struct.pack("ii", 1, 0))


def silent(sock, rec):
    while sock.recv(65536):
        pass


# ---- a peer that is no server of ours: the run gives up ----------------------

def test_stomp_login_refused():
    def handle(sock, rec):
        read_frame(sock)
        sock.sendall(frame("ERROR", [("message", "bad credentials")], "who are you?"))
    p = Peer(handle, timeout=10)
    err = gives_up(p, url("stomp", p), "refused the login: bad credentials")
    check(err.strip().endswith("refused the login: bad credentials"), err)


def test_stomp_connected_with_bad_header():
    def handle(sock, rec):
        read_frame(sock)
        sock.sendall(b"CONNECTED\nversion1.2\n\n\0")
        silent(sock, rec)
    p = Peer(handle, timeout=10)
    gives_up(p, url("stomp", p), "does not speak STOMP: it answered CONNECT with")


def test_stomp_to_server_that_closes():
    p = Peer(lambda sock, rec: sock.recv(65536), timeout=10)
    gives_up(p, url("stomp", p), "does not speak STOMP: it closed the connection after CONNECT")


def test_stomp_to_http_server():
    def handle(sock, rec):
        sock.recv(65536)
        sock.sendall(b"HTTP/1.1 400 Bad Request\r\nContent-Length: 0\r\nConnection: close\r\n\r\n")
    p = Peer(handle, timeout=10)
    gives_up(p, url("stomp", p), 'does not speak STOMP: it answered CONNECT with "HTTP/1.1 400')


def test_accept_and_reset():
    p = Peer(lambda sock, rec: rst(sock), timeout=10)
    gives_up(p, url("stomp", p), "reset the connection")
    p = Peer(lambda sock, rec: rst(sock), timeout=10)
    gives_up(p, url("http", p), "reset the connection")


def test_stomp_accept_and_never_answer():
    p = Peer(silent, timeout=10)
    gives_up(p, url("stomp", p), "does not speak STOMP: it did not answer CONNECT within 2s")


def test_http_to_stomp_broker():
    """A STOMP-only server answers HTTP with an ERROR frame, or just closes."""
    def answers(sock, rec):
        if not sock.recv(65536).startswith(b"CONNECT"):
            sock.sendall(frame("ERROR", [("message", "unknown command")]))
    p = Peer(answers, timeout=10)
    gives_up(p, url("http", p), "answered with a STOMP frame, not HTTP: use stomp://")
    p = Peer(lambda sock, rec: sock.recv(65536), timeout=10)
    gives_up(p, url("http", p), "closed the connection without answering: if it does not "
             "speak HTTP (a STOMP broker?), try stomp://")


def test_stomps_to_plain_server():
    """A plain broker waits for a NUL-terminated frame: the ClientHello is
    never answered (it said "TLS handshake: unknown error" after 13 s)."""
    p = Peer(silent, timeout=30)
    gives_up(p, url("stomps", p), "did not answer the TLS handshake within 2s: if it does not "
             "speak TLS, use stomp://", "--insecure")


def test_https_to_server_closing_on_tls():
    p = Peer(lambda sock, rec: sock.recv(65536), timeout=10)
    gives_up(p, url("https", p), "closed the connection during the TLS handshake: if it does "
             "not speak TLS, use http://", "--insecure")


# ---- a server that spoke once: the run goes on, counted, without a storm -------

def test_http_accept_and_never_answer():
    """Labelled timeout, never connect; "answered" is not said of requests
    that never were."""
    p = Peer(silent, timeout=30)
    code, _, err, r, took = run(url("http", p))
    check(code == 3 and r is not None, "exit %d %r" % (code, err))
    adds_up(r, "silent http")
    kinds = {k: n for k, n in r["errors"].items() if n}
    check(set(kinds) == {"timeout"}, "kinds %r" % kinds)
    check("sent no byte" in r["error_samples"]["timeout"], r["error_samples"])
    check(not any("answered requests failed" in w for w in r["warnings"]), r["warnings"])
    check(any("never answered" in w for w in r["warnings"]), r["warnings"])
    check(took <= BUDGET_S, "took %.2fs" % took)


def test_http_silence_hinted_within_3s():
    """A long run against a server that accepts and never answers goes on
    (a slow first answer is a slow server), but says so on stderr about
    3 s in, long before its end."""
    p = Peer(silent, timeout=30)
    proc = spawn([RPCBENCH, "run", "--url", url("http", p), "-p", "jsonrpc", "--verb", "ping",
                  "-R", str(RATE), "-d", "10s", "--timeout", "20s", "--quiet"],
                 stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True)
    t0, hint = time.monotonic(), None
    try:
        while hint is None and time.monotonic() - t0 < 9:
            ready, _, _ = select.select([proc.stderr], [], [], 0.2)
            line = proc.stderr.readline() if ready else ""
            if "no answer yet" in line:
                hint = (time.monotonic() - t0, line)
    finally:
        kill_group(proc)
    check(hint is not None, "no hint on stderr in 9 s")
    check(hint[0] < 8 and "sent no byte in 3s" in hint[1] and "stomp://" in hint[1],
          "hint after %.1fs: %r" % hint)


def test_stomp_message_then_close():
    """Each MESSAGE comes in one write with the close: every one the broker
    sent is an answer (on main most were counted as closed)."""
    def on_send(sock, rid, rec):
        sock.sendall(reply(rid))
        rec["answered"] = 1
        return False
    p = Peer(broker(on_send), timeout=10)
    code, _, err, r, took = run(url("stomp", p), "-R", "5", "-c", "1")
    check(r is not None and code == 0, "exit %d %r" % (code, err))
    adds_up(r, "message-then-close")
    answered = sum(c.get("answered", 0) for c in p.conns)
    # One send at the window's edge may go uncounted (issue 24 §2, not here).
    check(answered >= 1 and r["requests"]["ok"] >= answered - 1,
          "the broker answered %d, ok %d" % (answered, r["requests"]["ok"]))
    check(r["transport"]["connection_failures"]["closed"] >= 1, r["transport"])
    check(any(w.startswith("connections churn: ") for w in r["warnings"]), r["warnings"])
    check(took <= BUDGET_S, "took %.2fs" % took)


def test_stomp_error_then_close():
    """An ERROR frame written together with the close is read, counted and
    quoted (on main it was lost)."""
    def on_send(sock, rid, rec):
        sock.sendall(frame("ERROR", [("message", "queue full")], "try later"))
        return False
    p = Peer(broker(on_send), timeout=10)
    code, _, err, r, took = run(url("stomp", p))
    check(r is not None and code == 3, "exit %d %r" % (code, err))
    adds_up(r, "error-then-close")
    tr = r["transport"]
    check(tr["stomp_errors"] >= 1 and tr["stomp_error"] == "queue full", tr)
    check(tr["connection_failures"]["protocol"] >= 1, tr)
    check(r["errors"]["connect"] == 0, r["errors"])
    check("sent an ERROR frame: queue full" in r["error_samples"].get("closed", ""),
          r["error_samples"])
    check(took <= BUDGET_S, "took %.2fs" % took)


def test_stomp_bad_frame_is_not_an_error_frame():
    def on_send(sock, rid, rec):
        sock.sendall(b"MESSAGE\nno colon here\n\n{}\0")
        return True
    p = Peer(broker(on_send), timeout=10)
    code, _, err, r, took = run(url("stomp", p))
    check(r is not None and code == 3, "exit %d %r" % (code, err))
    adds_up(r, "bad frame")
    tr = r["transport"]
    check(tr["stomp_errors"] == 0 and tr["stomp_bad_frames"] >= 1, tr)
    check("malformed STOMP frame" in r["error_samples"].get("decode", ""), r["error_samples"])
    check(took <= BUDGET_S, "took %.2fs" % took)


def test_login_then_close_backs_off():
    """A broker that logs in and hangs up at once: thousands of reconnects a
    second on main; now a backoff, every failure counted, none as connect
    (neither an error nor the kind the requests due while no connection
    was up were given up as)."""
    def handle(sock, rec):
        read_frame(sock)
        sock.sendall(CONNECTED)
    p = Peer(handle, timeout=10)
    code, _, err, r, took = run(url("stomp", p), "-d", "2s")
    check(r is not None and code == 3, "exit %d %r" % (code, err))
    adds_up(r, "login-then-close")
    q = r["requests"]
    check(len(p.conns) <= q["offered"] + 10, "%d connections for %r" % (len(p.conns), q))
    check(r["errors"]["connect"] == 0, "labelled connect: %r" % r["errors"])
    check(q["unsent_given_up"] == 0 or q["unsent_given_up_as"] != "connect",
          "given up as connect: %r" % q)
    check(sum(r["transport"]["connection_failures"].values()) >= 2, r["transport"])
    check(any(w.startswith("connections churn: ") for w in r["warnings"]), r["warnings"])
    check(took <= BUDGET_S + 1, "took %.2fs" % took)


if __name__ == "__main__":
    main([test_stomp_login_refused, test_stomp_connected_with_bad_header,
          test_stomp_to_server_that_closes, test_stomp_to_http_server, test_accept_and_reset,
          test_stomp_accept_and_never_answer, test_http_to_stomp_broker,
          test_stomps_to_plain_server, test_https_to_server_closing_on_tls,
          test_http_accept_and_never_answer, test_http_silence_hinted_within_3s,
          test_stomp_message_then_close,
          test_stomp_error_then_close, test_stomp_bad_frame_is_not_an_error_frame,
          test_login_then_close_backs_off])
