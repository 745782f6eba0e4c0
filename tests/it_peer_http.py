"""HTTP peers that cut, join, add or misplace their answers (issue 23 §4, §5;
issue 24's JSON-RPC error in HTTP 400), written here with raw sockets.

Every run must: exit with a documented code (0, or 3 when nothing
succeeded), end within duration + timeout + 2 s, count every request once
(sent = ok + errors + unfinished, the error kinds, the per-verb rows and the
intervals all adding up to the totals), print no percentage outside 0..100,
and give ok = sent when the peer answers correctly however it cuts the
bytes. Bytes no request asked for are counted as stray replies."""
import json
import os
import re
import signal
import socket
import subprocess
import tempfile
import time

from rpctest import RPCBENCH, Peer, check, http_response, jsonrpc_result, main, \
    read_http_request

RATE, DURATION_S, TIMEOUT_S = 10, 1.0, 2.0
VERBS = "ping:1,list:1"  # two verbs: the per-verb rows must add up too
JSON = "application/json"


def recv_of(sock):
    return lambda: sock.recv(65536)


def nodelay(sock):
    """Each sendall goes out in its own segment (no Nagle batching)."""
    sock.setsockopt(socket.IPPROTO_TCP, socket.TCP_NODELAY, 1)


def requests_of(sock):
    """Yields (request id, rest) for each JSON-RPC request on sock."""
    recv, pending = recv_of(sock), b""
    while True:
        got = read_http_request(recv, pending)
        if got is None:
            return
        _, body, pending = got
        yield json.loads(body)["id"]


def serve(answer):
    """A handler answering each request with answer(sock, rid, n) (n counts
    the connection's requests from 0)."""
    def handle(sock, rec):
        nodelay(sock)
        for n, rid in enumerate(requests_of(sock)):
            if answer(sock, rid, n) is False:
                return
    return handle


def ok_body(rid):
    return http_response(jsonrpc_result(rid), JSON)


def run(port, *extra, proto="jsonrpc", duration=DURATION_S, interrupt_after=None):
    """rpcbench run against 127.0.0.1:port; checks what every run must
    satisfy and returns (result, text report)."""
    path = "/jsonrpc" if proto == "jsonrpc" else "/RPC2"
    with tempfile.TemporaryDirectory() as d:
        out = os.path.join(d, "r.json")
        args = [RPCBENCH, "run", "--url", "http://127.0.0.1:%d%s" % (port, path), "-p", proto,
                "--verb", VERBS, "-R", str(RATE), "-d", "%gs" % duration,
                "--timeout", "%gs" % TIMEOUT_S, "--interval", "0.25s", "--output", out] + list(extra)
        t0 = time.monotonic()
        p = subprocess.Popen(args, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
                             start_new_session=True)
        try:
            if interrupt_after is not None:
                time.sleep(interrupt_after)
                p.send_signal(signal.SIGINT)
            stdout, stderr = p.communicate(timeout=duration + TIMEOUT_S + 30)
        except subprocess.TimeoutExpired:
            os.killpg(p.pid, signal.SIGKILL)
            p.communicate()
            raise AssertionError("rpcbench did not end: %r" % args)
        took = time.monotonic() - t0
        check(os.path.exists(out), "no JSON result (exit %d): %s" % (p.returncode, stderr[-400:]))
        with open(out) as f:
            r = json.load(f)
    q = r["requests"]
    want = (130,) if interrupt_after is not None else (0, 3)
    check(p.returncode in want, "exit %d, stderr %s" % (p.returncode, stderr[-400:]))
    check(took <= duration + TIMEOUT_S + 2, "took %.2fs" % took)
    check_percentages(stdout)
    check_counts(r)
    check(not any(w.startswith("counts:") for w in r["warnings"]), r["warnings"])
    return r, stdout


def check_counts(r):
    """Every table that splits the requests adds up to the totals:
    offered = sent + unsent, sent = ok + errors + unfinished, per run and
    per verb; the verbs and the intervals sum to the run's figures."""
    q = r["requests"]
    check(q["offered"] == q["sent"] + q["unsent"], "totals %r" % q)
    check(q["sent"] == q["ok"] + q["errors"] + q["unfinished"], "totals %r" % q)
    check(q["errors"] == sum(r["errors"].values()), "kinds %r vs %r" % (r["errors"], q))
    verbs = r["verbs"].values()
    for k, total in (("requests", "offered"), ("ok", "ok"), ("errors", "errors"),
                     ("unfinished", "unfinished"), ("unsent", "unsent")):
        check(sum(v.get(k, 0) for v in verbs) == q[total],
              "per-verb %s add up to %d, not %s %d: %r" % (k, sum(v.get(k, 0) for v in verbs), total,
                                                          q[total], r["verbs"]))
    for v in verbs:
        check(v["requests"] == v["ok"] + v["errors"] + v["unfinished"] + v["unsent"],
              "verb row %r" % v)
    for k, total in (("due", "offered"), ("sent", "sent"), ("unsent", "unsent"), ("ok", "ok"),
                     ("errors", "errors")):
        got = sum(i[k] for i in r["intervals"])
        check(got == q[total], "intervals' %s add up to %d, not %s %d" % (k, got, total, q[total]))


def check_percentages(text):
    """No share printed outside 0..100 % (CPU "% of a core" may pass 100)."""
    for line in text.splitlines():
        for m in re.finditer(r"(-?\d+(?:\.\d+)?)%", line):
            if "CPU" in line[:m.start()] and "of the requests" not in line:
                continue
            check(0 <= float(m.group(1)) <= 100, "percentage out of 0..100: %r" % line)


def assert_all_ok(r, what):
    q = r["requests"]
    check(q["offered"] == RATE * DURATION_S, "%s: offered %r" % (what, q))
    check(q["ok"] == q["sent"] == q["offered"], "%s: ok %d, sent %d of %d, errors %r, samples %r"
          % (what, q["ok"], q["sent"], q["offered"], r["errors"], r["error_samples"]))


def with_peer(handle, *args, **kw):
    peer = Peer(handle, timeout=30.0)
    try:
        return run(peer.port, *args, **kw)
    finally:
        peer.close()
        peer.drop_all()


def test_interim_in_its_own_segment():
    """100 Continue or 103 Early Hints, then a pause, then the 200: the
    interim answer is skipped (it was taken as the answer: 10 of 10
    "HTTP 100 Continue")."""
    def answer(sock, rid, n):
        sock.sendall(b"HTTP/1.1 100 Continue\r\n\r\n" if n % 2 else
                     b"HTTP/1.1 103 Early Hints\r\nLink: </s.css>; rel=preload\r\n\r\n")
        time.sleep(0.03)
        sock.sendall(ok_body(rid))
    r, _ = with_peer(serve(answer))
    assert_all_ok(r, "1xx")
    check(r["transport"]["stray_replies"] == 0, r["transport"])


def test_interim_byte_by_byte():
    """An interim and a chunked final answer, written one byte at a time."""
    def answer(sock, rid, n):
        body = jsonrpc_result(rid)
        resp = (b"HTTP/1.1 100 Continue\r\n\r\nHTTP/1.1 200 OK\r\nTransfer-Encoding: chunked"
                b"\r\n\r\n%x;ext=1\r\n%s\r\n0\r\nX-Trailer: yes\r\n\r\n" % (len(body), body))
        for i in range(len(resp)):
            sock.sendall(resp[i:i + 1])
    r, _ = with_peer(serve(answer))
    assert_all_ok(r, "byte by byte")


def test_two_answers_in_one_write():
    """The right answer and a second one in one write: the first is the
    request's (ok), the second a stray reply, never joined into its body."""
    def answer(sock, rid, n):
        sock.sendall(ok_body(rid) + ok_body(rid))
    r, text = with_peer(serve(answer))
    assert_all_ok(r, "two answers")
    stray = r["transport"]["stray_replies"]
    check(1 <= stray <= r["requests"]["sent"], "stray replies %d" % stray)
    check(any("stray" in w for w in r["warnings"]), r["warnings"])
    check("stray replies %d" % stray in text, text)


def test_early_answer():
    """An answer written on accept, before any request: it answers nothing.
    Taken by a request it has the wrong id (a decode error); arriving on an
    idle connection it is a stray reply. Never ok."""
    def handle(sock, rec):
        nodelay(sock)
        sock.sendall(ok_body("early"))
        for rid in requests_of(sock):
            sock.sendall(ok_body(rid))
    r, _ = with_peer(handle)
    q = r["requests"]
    check(r["transport"]["stray_replies"] >= 1, r["transport"])
    if r["errors"]["decode"]:
        check("without the request's id" in r["error_samples"]["decode"], r["error_samples"])
    check(q["ok"] + r["errors"]["decode"] == q["sent"], "%r %r" % (q, r["errors"]))


def test_wrong_id():
    """A JSON-RPC answer with another request's id, or an id of no request
    of ours (a foreign string, null), is a decode error (a foreign id was
    taken as ok)."""
    ids = [lambda rid: rid[:-1] + ("1" if rid[-1] != "1" else "2"), lambda rid: "abc",
           lambda rid: None]

    def answer(sock, rid, n):
        sock.sendall(ok_body(ids[n % 3](rid)))
    r, _ = with_peer(serve(answer), "-c", "1")
    q = r["requests"]
    check(q["ok"] == 0 and r["errors"]["decode"] == q["sent"], "%r %r" % (q, r["errors"]))
    check("id" in r["error_samples"]["decode"], r["error_samples"])


def test_chunked_valid_and_bad():
    """Chunked answers cut in many writes are ok; a bad chunk size is a
    malformed answer, counted as decode errors."""
    def good(sock, rid, n):
        body = jsonrpc_result(rid)
        half = len(body) // 2
        sock.sendall(b"HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\n")
        sock.sendall(b"%x\r\n%s\r\n" % (half, body[:half]))
        time.sleep(0.01)
        sock.sendall(b"%x;name=value\r\n%s\r\n0\r\n" % (len(body) - half, body[half:]))
        sock.sendall(b"X-Checksum: 1\r\n\r\n")
    r, _ = with_peer(serve(good))
    assert_all_ok(r, "chunked")

    def bad(sock, rid, n):
        sock.sendall(b"HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\nzz\r\n%s\r\n0\r\n\r\n"
                     % jsonrpc_result(rid))
    r, _ = with_peer(serve(bad))
    q = r["requests"]
    check(r["errors"]["decode"] == q["sent"] and q["ok"] == 0, "%r %r" % (q, r["errors"]))
    check("malformed HTTP" in r["error_samples"]["decode"], r["error_samples"])


def test_close_delimited_and_connection_close():
    """HTTP/1.0 with no length (the body ends at the close), and HTTP/1.1
    with Connection: close: both ok, a connection per request."""
    def http10(sock, rid, n):
        sock.sendall(b"HTTP/1.0 200 OK\r\nContent-Type: application/json\r\n\r\n")
        time.sleep(0.01)
        sock.sendall(jsonrpc_result(rid))
        return False  # the close ends the body

    def close(sock, rid, n):
        body = jsonrpc_result(rid)
        sock.sendall(b"HTTP/1.1 200 OK\r\nConnection: close\r\nContent-Length: %d\r\n\r\n%s"
                     % (len(body), body))
        return False
    for what, answer in (("HTTP/1.0", http10), ("Connection: close", close)):
        r, _ = with_peer(serve(answer))
        assert_all_ok(r, what)


def test_jsonrpc_error_in_http_400():
    """aria2 answers a JSON-RPC error with HTTP 400: a fault with its code
    and message (it was an `http` error cut before the message). An XML-RPC
    fault in a 500 counts alike."""
    def answer(sock, rid, n):
        body = json.dumps({"jsonrpc": "2.0", "id": rid,
                           "error": {"code": 1, "message": "GID 2089b05ecca3d829 is not found"}})
        sock.sendall(b"HTTP/1.1 400 Bad Request\r\nContent-Type: application/json\r\n"
                     b"Content-Length: %d\r\n\r\n%s" % (len(body), body.encode()))
    r, _ = with_peer(serve(answer))
    q = r["requests"]
    check(r["errors"]["fault"] == q["sent"] and r["errors"]["http"] == 0, r["errors"])
    check(r["error_samples"]["fault"] == "fault 1: GID 2089b05ecca3d829 is not found",
          r["error_samples"])

    def xml_fault(sock, rec):
        recv, pending = recv_of(sock), b""
        while True:
            got = read_http_request(recv, pending)
            if got is None:
                return
            pending = got[2]
            body = (b"<?xml version='1.0'?><methodResponse><fault><value><struct><member>"
                    b"<name>faultCode</name><value><int>7</int></value></member><member>"
                    b"<name>faultString</name><value><string>no such VM</string></value>"
                    b"</member></struct></value></fault></methodResponse>")
            sock.sendall(b"HTTP/1.1 500 Internal Server Error\r\nContent-Type: text/xml\r\n"
                         b"Content-Length: %d\r\n\r\n%s" % (len(body), body))
    r, _ = with_peer(xml_fault, proto="xmlrpc")
    check(r["errors"]["fault"] == r["requests"]["sent"], r["errors"])
    check(r["error_samples"]["fault"] == "fault 7: no such VM", r["error_samples"])


def test_connect_failures_counted_per_verb():
    """The peer answers, then goes away (the port closed): the requests that
    find no connection are given up, unsent, as `connect` (no error: never
    written), and count under their verb (the verb rows held only the
    written ones)."""
    peer = Peer(None, timeout=30.0)

    def handle(sock, rec):
        nodelay(sock)
        for n, rid in enumerate(requests_of(sock)):
            if n == 2:
                peer.close()
                return
            sock.sendall(ok_body(rid))
    peer.handle = handle
    try:
        r, _ = run(peer.port)
    finally:
        peer.close()
        peer.drop_all()
    q = r["requests"]
    check(q["ok"] >= 1 and q["unsent_given_up"] >= 1 and q["unsent_given_up_as"] == "connect"
          and r["errors"]["connect"] == 0, "%r %r" % (q, r["errors"]))
    check(r["error_samples"].get("connect"), "no connect sample: %r" % r["error_samples"])
    check(sum(v["errors"] for v in r["verbs"].values()) == q["errors"], r["verbs"])
    check(sum(v["unsent"] for v in r["verbs"].values()) == q["unsent"], r["verbs"])


def test_interrupted_in_flight():
    """SIGINT with requests in flight and more waiting for the two busy
    connections, which warmup requests held when the window began: they are
    unfinished under their verbs, and the queued share stays within 100 %
    (it read 300 %: queued over the answered ones, fewer than the queued)."""
    def answer(sock, rid, n):
        time.sleep(1.0)
        sock.sendall(ok_body(rid))
    r, text = with_peer(serve(answer), "-c", "2", "--warmup", "0.5s", duration=5.0,
                        interrupt_after=3.3)
    q = r["requests"]
    check("waited for a free connection" in text, text)
    check(q["unfinished"] >= 1, q)
    check(q["queued"] <= q["offered"], q)
    check(sum(v["unfinished"] for v in r["verbs"].values()) == q["unfinished"], r["verbs"])


if __name__ == "__main__":
    main([test_interim_in_its_own_segment, test_interim_byte_by_byte,
          test_two_answers_in_one_write, test_early_answer, test_wrong_id,
          test_chunked_valid_and_bad, test_close_delimited_and_connection_close,
          test_jsonrpc_error_in_http_400, test_connect_failures_counted_per_verb,
          test_interrupted_in_flight])
