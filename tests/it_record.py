#!/usr/bin/python3
"""Integration test of `rpcbench record`, the proxy that records calls.

Real peers on 127.0.0.1, every process in its own group, killed on exit:
- a capturing peer (a raw socket server written here) answers canned bytes:
  the bytes it receives through the proxy are the client's, byte for byte,
  and the client receives the peer's, over HTTP (XML-RPC and a JSON-RPC
  batch) and STOMP;
- `rpcbench serve` behind the proxy, driven by the clients the other tests
  use (xmlrpc.client, stomp.py, the raw STOMP client of stomptest.py),
  plain and TLS: the recording holds every call with its method and
  params, the answers are the same with and without the proxy, the
  credentials are ***, the added latency is reported, and `rpcbench
  report` of the recording names the methods and their rates.
"""
import json
import os
import queue
import re
import select
import socket
import subprocess
import threading
import ssl
import sys
import tempfile
import time
import xmlrpc.client

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from rpctest import (RPCBENCH, Listening, Peer, kill_group, main as run_tests,  # noqa: E402
                     make_certs, rpcbench, spawn)
from stomptest import REQUESTS, TIMEOUT, Raw, Server, check, frame, request, send  # noqa: E402

ID = "00000000-0000-4000-8000-%012x"
SECRET = "c2VjcmV0LXBhc3N3b3Jk"  # what must never reach the recording


class Record(Listening):
    """`rpcbench record` to url on an ephemeral port, its recording at out."""

    def __init__(self, url, out, *args):
        super().__init__([RPCBENCH, "record", "--listen", "127.0.0.1:0", "--to", url,
                          "--out", out] + list(args), "record")
        self.out = out

    def lines(self):
        """Stops the proxy (SIGTERM: it must exit 0) and returns the
        recording's lines as JSON: (header, calls, trailer)."""
        code, err = self.stop()
        check(code == 0, "record exited %r: %s" % (code, err[-500:]))
        self.err = err
        with open(self.out) as f:
            text = f.read()
        rows = [json.loads(line) for line in text.splitlines()]
        check(rows and rows[0].get("rpcbench_recording") == 1, "header %r" % rows[:1])
        check(rows[-1].get("end") is True, "no trailer: %r" % rows[-1:])
        check(SECRET not in text and "hunter2" not in text, "a secret in the recording")
        return rows[0], rows[1:-1], rows[-1]


def recv_until(sock, n, timeout=TIMEOUT):
    """Reads until n bytes came (or the peer closed); returns them."""
    sock.settimeout(timeout)
    got = b""
    while len(got) < n:
        data = sock.recv(65536)
        if not data:
            break
        got += data
    return got


# ---- a capturing peer: what crosses the proxy, byte for byte ---------------

XML_CALL = (b"<?xml version='1.0'?>\n<methodCall>\n<methodName>list</methodName>\n<params>\n"
            b"<param><value><boolean>1</boolean></value></param>\n<param><value><array><data>\n"
            b"<value><string>vm-1</string></value>\n</data></array></value></param>\n"
            b"</params>\n</methodCall>\n")
XML_ANSWER = (b"<?xml version='1.0'?>\n<methodResponse><params><param><value><struct>"
              b"<member><name>status</name><value><struct><member><name>code</name><value>"
              b"<int>0</int></value></member><member><name>message</name><value><string>Done"
              b"</string></value></member></struct></value></member></struct></value></param>"
              b"</params></methodResponse>\n")
JSON_BATCH = json.dumps([
    {"jsonrpc": "2.0", "id": ID % 1, "method": "Host.getVMList", "params": {"fullStatus": True}},
    {"jsonrpc": "2.0", "id": 7, "method": "Host.ping", "params": {}}]).encode()
JSON_ANSWER = json.dumps([{"jsonrpc": "2.0", "id": 7, "result": True},
                          {"jsonrpc": "2.0", "id": ID % 1,
                           "error": {"code": 1, "message": "no"}}]).encode()


def http_bytes(path, body, extra=b""):
    return (b"POST %s HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: text/xml\r\n%s"
            b"Content-Length: %d\r\n\r\n" % (path, extra, len(body))) + body


def http_answer(body):
    return b"HTTP/1.1 200 OK\r\nContent-Length: %d\r\n\r\n" % len(body) + body


def capture(answers):
    """A peer handler: keeps every byte it reads in rec["got"], and after
    each of the expected requests (by their lengths) sends the next
    answer."""
    def handle(sock, rec):
        rec["got"] = b""
        for want, answer in answers:
            part = recv_until(sock, want)
            rec["got"] += part
            if len(part) < want:
                return
            sock.sendall(answer)
    return handle


def via_peer(d, scheme, answers, talk):
    """talk(sock) through a record to a capturing peer that answers
    answers; returns (what talk returned, the bytes the peer got, the
    recording's header, calls and trailer, the record's stderr)."""
    peer = Peer(capture(answers), timeout=TIMEOUT)
    try:
        out = os.path.join(d, scheme + ".jsonl")
        with Record("%s://127.0.0.1:%d" % (scheme, peer.port), out) as rec:
            c = socket.create_connection((rec.host, rec.port), timeout=TIMEOUT)
            got = talk(c)
            c.close()
            peer.wait_done()
            header, calls, trailer = rec.lines()
    finally:
        peer.close()
    return got, peer.conns[0]["got"], header, calls, trailer, rec.err


def test_http_bytes_unchanged_both_ways(d):
    """An XML-RPC call and a JSON-RPC batch (with an Authorization header),
    each written in pieces: the server gets the client's bytes, the client
    the server's, and the recording has three calls with their params."""
    req1 = http_bytes(b"/RPC2", XML_CALL)
    req2 = http_bytes(b"/jsonrpc?token=" + SECRET.encode(), JSON_BATCH,
                      b"Authorization: Basic %s\r\n" % SECRET.encode())
    ans1, ans2 = http_answer(XML_ANSWER), http_answer(JSON_ANSWER)
    def talk(c):
        for i in range(0, len(req1), 50):  # a request cut in many writes
            c.sendall(req1[i:i + 50])
            time.sleep(0.002)
        got1 = recv_until(c, len(ans1))
        c.sendall(req2)
        return got1, recv_until(c, len(ans2))

    (got1, got2), server_got, header, calls, trailer, err = via_peer(
        d, "http", [(len(req1), ans1), (len(req2), ans2)], talk)
    check(got1 == ans1 and got2 == ans2, "the client got other bytes: %r %r" % (got1, got2))
    check(server_got == req1 + req2, "the server got other bytes: %r" % server_got[:300])
    check(header["to"].startswith("http://127.0.0.1:") and header["tls"] is False,
          "header %r" % header)
    check([c["method"] for c in calls] == ["list", "Host.ping", "Host.getVMList"] or
          [c["method"] for c in calls] == ["list", "Host.getVMList", "Host.ping"],
          "methods %r" % [c["method"] for c in calls])
    by = {c["method"]: c for c in calls}
    check(by["list"]["params"] == [True, ["vm-1"]] and by["list"]["encoding"] == "xmlrpc"
          and by["list"]["path"] == "/RPC2" and by["list"]["outcome"] == "ok"
          and by["list"]["request_bytes"] == len(req1)
          and by["list"]["response_bytes"] == len(ans1), "list %r" % by["list"])
    check(by["Host.getVMList"]["params"] == {"fullStatus": True}
          and by["Host.getVMList"]["outcome"] == "fault", "getVMList %r" % by["Host.getVMList"])
    check(by["Host.ping"]["outcome"] == "ok" and by["Host.ping"]["encoding"] == "jsonrpc"
          and by["Host.ping"]["path"] == "/jsonrpc",
          "ping %r" % by["Host.ping"])
    check(all(c["authorization"] == "***" for c in calls if c["encoding"] == "jsonrpc")
          and "authorization" not in by["list"], "authorization %r" % calls)
    check(all(c["conn"] == 1 and c["transport"] == "http" for c in calls), "conn %r" % calls)
    check(by["list"]["t"] <= by["Host.ping"]["t"] and by["list"]["latency_ms"] > 0,
          "times %r" % calls)
    check(trailer["calls"] == 3 and trailer["connections"] == 1
          and trailer["added_latency_us"]["samples"] > 0
          and 0 < trailer["added_latency_us"]["p50"] <= trailer["added_latency_us"]["max"],
          "trailer %r" % trailer)
    check("added latency p50" in err, "no added latency in the summary: %r" % err)


def test_stomp_bytes_unchanged_both_ways(d):
    """STOMP: CONNECT with a passcode, SUBSCRIBE, two SENDs; the peer's
    CONNECTED and MESSAGEs (answered out of order) come back unchanged."""
    reqs = (frame("CONNECT", [("accept-version", "1.2"), ("host", "h"), ("login", "admin"),
                              ("passcode", "hunter2")])
            + frame("SUBSCRIBE", [("destination", "rq"), ("id", "s1"), ("ack", "auto")])
            + send(ID % 1, "rq", "Host.getAllVmStats") + b"\n"
            + send(ID % 2, "rq", "Host.getVMList"))
    answers = (frame("CONNECTED", [("version", "1.2")])
               + frame("MESSAGE", [("destination", "rq"), ("subscription", "s1")],
                       json.dumps({"jsonrpc": "2.0", "id": ID % 2, "result": []}))
               + frame("MESSAGE", [("destination", "rq"), ("subscription", "s1")],
                       json.dumps({"jsonrpc": "2.0", "id": ID % 1, "result": [{"vmId": "x"}]})))
    got, server_got, _, calls, trailer, _ = via_peer(
        d, "stomp", [(len(reqs), answers)], lambda c: (c.sendall(reqs),
                                                       recv_until(c, len(answers)))[1])
    check(got == answers, "the client got other bytes: %r" % got[:300])
    check(server_got == reqs, "the server got other bytes")
    check([c["method"] for c in calls] == ["Host.getVMList", "Host.getAllVmStats"],
          "calls in answer order: %r" % calls)
    check(all(c["transport"] == "stomp" and c["encoding"] == "jsonrpc"
              and c["destination"] == REQUESTS and c["passcode"] == "***"
              and c["outcome"] == "ok" and c["params"] == {} for c in calls), "calls %r" % calls)
    check(trailer["calls"] == 2, "trailer %r" % trailer)


def test_half_close_passes_through(d):
    """A client that sends its request and shuts its side: the server
    reads to the end, answers and closes; the client gets the whole
    answer, then the end. The call is recorded with its answer."""
    req, ans = http_bytes(b"/RPC2", XML_CALL), http_answer(XML_ANSWER)

    def handle(sock, rec):
        rec["got"] = recv_until(sock, 1 << 20)  # to the client's end
        sock.sendall(ans)

    peer = Peer(handle, timeout=TIMEOUT)
    try:
        with Record("http://127.0.0.1:%d" % peer.port, os.path.join(d, "half.jsonl")) as rec:
            c = socket.create_connection((rec.host, rec.port), timeout=TIMEOUT)
            c.sendall(req)
            c.shutdown(socket.SHUT_WR)
            got = recv_until(c, 1 << 20)  # to the server's end
            c.close()
            peer.wait_done()
            _, calls, _ = rec.lines()
    finally:
        peer.close()
    check(peer.conns[0]["got"] == req and got == ans, "half close: %r %r"
          % (peer.conns[0]["got"][-50:], got[-50:]))
    check(len(calls) == 1 and calls[0]["outcome"] == "ok", "calls %r" % calls)


# ---- rpcbench serve behind the proxy: VDSM's client calls -----------------

def xml_calls(url, ctx=None):
    """ping, list(True), getAllVmStats and getVmStats over xmlrpc.client;
    returns the answers."""
    proxy = xmlrpc.client.ServerProxy(url, context=ctx) if ctx else xmlrpc.client.ServerProxy(url)
    stats = proxy.getAllVmStats()
    vm = stats["statsList"][0]["vmId"]
    return [proxy.ping(), proxy.list(True, [vm]), stats, proxy.getVmStats(vm)], vm


def raw_http(host, port, body, path=b"/RPC2", ctx=None):
    """One HTTP request on a fresh socket; returns the answer's bytes."""
    s = socket.create_connection((host, port), timeout=TIMEOUT)
    if ctx:
        s = ctx.wrap_socket(s, server_hostname=host)
    s.sendall(http_bytes(path, body, b"Connection: close\r\n"))
    got = recv_until(s, 1 << 30)
    s.close()
    return got


def stomp_exchange(target, ctx=None):
    """The same exchange, returning the two MESSAGE frames as bytes."""
    s = socket.create_connection((target.host, target.port), timeout=TIMEOUT)
    if ctx:
        s = ctx.wrap_socket(s, server_hostname=target.host)
    s.sendall(frame("CONNECT", [("accept-version", "1.2"), ("host", "h"), ("login", "u"),
                                ("passcode", "hunter2"), ("heart-beat", "0,0")])
              + frame("SUBSCRIBE", [("destination", "rq-raw"), ("id", "s1"), ("ack", "auto")])
              + send(ID % 11, "rq-raw", "Host.ping") + send(ID % 12, "rq-raw", "Host.ping"))
    s.settimeout(TIMEOUT)
    got = b""
    deadline = time.monotonic() + TIMEOUT
    while got.count(b"MESSAGE\n") < 2 or not got.endswith(b"\0"):
        check(time.monotonic() < deadline, "no two MESSAGEs: %r" % got[-300:])
        data = s.recv(65536)
        check(data, "closed: %r" % got[-300:])
        got += data
    s.close()
    return got[got.index(b"\0") + 1:]  # after CONNECTED (its server header is the same anyway)


def stomp_py_calls(host, port):
    """stomp.py (Debian's python3-stomp), as it_stomp uses it: login and
    passcode, Host.getAllVmStats and Host.getVMList, replies by id."""
    import stomp
    got = queue.Queue()

    class Listener(stomp.ConnectionListener):
        def on_message(self, f):
            got.put(json.loads(f.body))

    conn = stomp.Connection12([(host, port)], timeout=TIMEOUT, heartbeats=(0, 0))
    conn.set_listener("t", Listener())
    conn.connect("admin", "hunter2", wait=True)
    try:
        conn.subscribe(destination="rq-py", id="sub-1", ack="auto")
        conn.send(destination=REQUESTS, body=request(ID % 42, "Host.getAllVmStats"),
                  content_type="application/json", headers={"reply-to": "rq-py"})
        conn.send(destination=REQUESTS,
                  body=request(ID % 43, "Host.getVMList", {"fullStatus": False}),
                  content_type="application/json", headers={"reply-to": "rq-py"})
        replies = {r["id"]: r for r in (got.get(timeout=TIMEOUT), got.get(timeout=TIMEOUT))}
    finally:
        conn.disconnect(receipt="bye")
    check(len(replies[ID % 42]["result"]) == 150 and replies[ID % 43]["result"], "replies")


def check_serve_recording(calls, vm, tls_header, header):
    """What both the plain and the TLS runs must have recorded."""
    check(header["tls"] is tls_header, "header %r" % header)
    methods = [c["method"] for c in calls]
    for m in ("getAllVmStats", "ping", "list", "getVmStats", "Host.getAllVmStats",
              "Host.getVMList", "Host.ping"):
        check(m in methods, "%s not recorded: %r" % (m, methods))
    by = {c["method"]: c for c in calls}
    check(by["list"]["params"] == [True, [vm]] and by["getVmStats"]["params"] == [vm]
          and by["Host.getVMList"]["params"] == {"fullStatus": False}
          and by["getAllVmStats"]["params"] == [], "params %r" % by)
    check(all(c["outcome"] == "ok" and c["latency_ms"] > 0 and c["response_bytes"] > 0
              for c in calls), "outcomes %r" % [(c["method"], c["outcome"]) for c in calls])
    check(by["getAllVmStats"]["response_bytes"] > 150 * 10000, "getAllVmStats size %r"
          % by["getAllVmStats"]["response_bytes"])
    check(all(c["passcode"] == "***" for c in calls if c["transport"] == "stomp"),
          "passcode %r" % calls)
    check(len({c["conn"] for c in calls}) >= 4, "connections %r" % calls)


def check_same(direct, proxied, what):
    check(direct == proxied, "%s differs with the proxy:\n%r\n%r" % (what, direct[:400],
                                                                      proxied[:400]))


def through_serve(d, serve_args, record_args, url, ctx=None):
    """Drives serve directly and through record; returns what the checks need."""
    with Server("--vms", "150", *serve_args) as srv:
        to = "%s://127.0.0.1:%d" % (url, srv.port)
        stomp_to = ("stomps" if url == "https" else "stomp") + "://127.0.0.1:%d" % srv.port
        direct = [raw_http(srv.host, srv.port, b"<?xml version='1.0'?><methodCall><methodName>"
                           b"ping</methodName><params></params></methodCall>", ctx=ctx),
                  stomp_exchange(srv, ctx)]
        out = os.path.join(d, "serve-%s.jsonl" % url)
        with Record(to, out, *record_args) as rec:
            xml_url = "%s://127.0.0.1:%d/RPC2" % (url, rec.port)
            answers, vm = xml_calls(xml_url, ctx)
            proxied = [raw_http(rec.host, rec.port, b"<?xml version='1.0'?><methodCall>"
                                b"<methodName>ping</methodName><params></params></methodCall>",
                                ctx=ctx), stomp_exchange(rec, ctx)]
            if not ctx:
                stomp_py_calls(rec.host, rec.port)
                poller = xmlrpc.client.ServerProxy(xml_url)  # one connection, every 0.1 s
                for _ in range(6):
                    poller.ping()
                    time.sleep(0.1)
            else:  # stomp.py over TLS races inside CPython (it_tls.py): raw here
                r = Raw(rec, ctx)
                r.sendall(frame("CONNECT", [("accept-version", "1.2"), ("host", "h"),
                                            ("login", "u"), ("passcode", "hunter2")]))
                r.expect("CONNECTED")
                r.subscribe("rq-t", "s1")
                r.sendall(send(ID % 42, "rq-t", "Host.getAllVmStats")
                          + frame("SEND", [("destination", REQUESTS), ("reply-to", "rq-t")],
                                  request(ID % 43, "Host.getVMList", {"fullStatus": False})))
                r.expect("MESSAGE")
                r.expect("MESSAGE")
                r.close()
            header, calls, trailer = rec.lines()
    check(answers[0]["status"]["code"] == 0 and answers[2]["statsList"], "answers %r"
          % answers[0])
    check_same(direct[0].split(b"\r\n\r\n", 1)[1], proxied[0].split(b"\r\n\r\n", 1)[1],
               "ping's answer")
    check_same(direct[0], proxied[0], "ping's HTTP answer")
    check_same(direct[1], proxied[1], "the STOMP MESSAGEs")
    return header, calls, trailer, vm, rec


def test_vdsm_clients_through_record_to_serve(d):
    header, calls, trailer, vm, rec = through_serve(d, [], [], "http")
    check_serve_recording(calls, vm, False, header)
    check(trailer["calls"] == len(calls) and trailer["added_latency_us"]["samples"] > 0,
          "trailer %r" % trailer)
    # report names the methods and their rates
    rc, out, err = rpcbench("report", rec.out, timeout=30)
    check(rc == 0, "report: %d %s" % (rc, err))
    for m in ("getAllVmStats", "Host.getVMList", "Host.ping", "list"):
        check(m in out, "report does not name %s:\n%s" % (m, out))
    check("calls" in out and "/s" in out and "added latency" in out, "report:\n%s" % out)
    row = re.search(r"^ping\s+xmlrpc/http\s+(\d+)\s+[\d.]+\s+([\d.]+)ms", out, re.M)
    check(row and int(row.group(1)) == 8 and 95 <= float(row.group(2)) < 300,
          "ping's row (8 calls, a 100ms period):\n%s" % out)


def test_tls_both_sides(d):
    """serve over TLS, requiring client certificates as VDSM does; record
    ends the clients' TLS with its own certificate (requiring theirs too:
    --tls-ca) and opens its own to serve (verified against the CA, with its
    own client certificate)."""
    j = lambda f: os.path.join(d, f)  # noqa: E731
    ctx = ssl.create_default_context(cafile=j("ca.pem"))
    ctx.load_cert_chain(j("client.pem"), j("client.key"))
    cert = ["--tls-cert", j("server.pem"), "--tls-key", j("server.key"), "--tls-ca", j("ca.pem")]
    header, calls, trailer, vm, _ = through_serve(
        d, cert, cert + ["--cacert", j("ca.pem"), "--cert", j("client.pem"), "--key", j("client.key")],
        "https", ctx)
    check_serve_recording(calls, vm, True, header)
    check(trailer["added_latency_us"]["samples"] > 0, "trailer %r" % trailer)
    # a client without a certificate: refused, and counted. On a loaded
    # machine the client may give up (a timeout is an OSError too) before
    # record has read its handshake, and record is stopped with nothing to
    # count: up to 3 tries, each refused, one at least counted
    said = []
    for _ in range(3):
        with Server(*cert) as srv, Record("https://127.0.0.1:%d" % srv.port,
                                          j("nocert.jsonl"), *cert, "--cacert",
                                          j("ca.pem")) as rec:
            bare = ssl.create_default_context(cafile=j("ca.pem"))
            try:  # TLS 1.3: refused at the handshake or at the first read
                xml_calls("https://127.0.0.1:%d/RPC2" % rec.port, bare)
                refused = False
            except (ssl.SSLError, OSError, xmlrpc.client.ProtocolError,
                    __import__("http.client").client.HTTPException):
                refused = True
            rec.lines()
        check(refused, "a client without a certificate was let through")
        said.append(rec.err)
        if "1 TLS handshakes" in rec.err:
            break
    check("1 TLS handshakes" in said[-1], "summary: %r" % said)


class StallRelay:
    """A TCP relay on 127.0.0.1:0 to port, for one connection: bytes go
    both ways until stall() is called, then nothing more goes up (from
    the proxy to the server: it is not even read) until unstall()."""

    def __init__(self, port):
        self.port_to, self.go, self.down = port, threading.Event(), None
        self.go.set()
        self.sock = socket.socket()
        self.sock.bind(("127.0.0.1", 0))
        self.sock.listen(1)
        self.port = self.sock.getsockname()[1]
        threading.Thread(target=self._run, daemon=True).start()

    def stall(self):
        self.go.clear()

    def unstall(self):
        self.go.set()

    def held(self):
        """Whether bytes from the proxy wait, unread, while stalled."""
        return (not self.go.is_set() and self.down is not None
                and bool(select.select([self.down], [], [], 0)[0]))

    def _pipe(self, a, b, gated):
        try:
            while True:
                if gated and not self.go.is_set():
                    self.go.wait(30)
                    continue
                if not select.select([a], [], [], 0.02)[0]:
                    continue
                if gated and not self.go.is_set():  # readable as stall() came: leave it
                    continue
                data = a.recv(65536)
                if not data:
                    return
                b.sendall(data)
        except OSError:
            return

    def _run(self):
        down, _ = self.sock.accept()
        self.down = down
        up = socket.create_connection(("127.0.0.1", self.port_to), timeout=30)
        threading.Thread(target=self._pipe, args=(up, down, False), daemon=True).start()
        self._pipe(down, up, True)


def proc_cpu_s(pid):
    """utime + stime of pid from /proc/PID/stat, in seconds."""
    with open("/proc/%d/stat" % pid) as f:
        fields = f.read().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


def test_tls_write_waiting_for_a_read_sleeps(d):
    """TLS 1.2 to the server, which asks to renegotiate (openssl s_server's
    R) while the path from the proxy to it stalls: the proxy's ClientHello
    waits, so its SSL_write of the client's next bytes wants a read
    (SSL_ERROR_WANT_READ). It must wait for the socket to be readable, not
    writable (which it always is): over 2 s of that, the proxy spends
    under 0.2 s of CPU (it spun at 100% before). Once the path opens, the
    renegotiation ends and the bytes reach the server."""
    srv = spawn(["openssl", "s_server", "-accept", "127.0.0.1:0", "-tls1_2",
                 "-cert", os.path.join(d, "server.pem"), "-key", os.path.join(d, "server.key")],
                stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.STDOUT)
    out = []
    try:
        threading.Thread(target=lambda: [out.append(b) for b in iter(
            lambda: srv.stdout.read1(65536), b"")], daemon=True).start()
        said = lambda: re.search(rb"ACCEPT 127\.0\.0\.1:(\d+)", b"".join(out))  # noqa: E731
        wait_until(said, "openssl s_server's port")
        port = int(said().group(1))
        relay = StallRelay(port)
        with Record("https://127.0.0.1:%d" % relay.port, os.path.join(d, "reneg.jsonl"),
                    "--cacert", os.path.join(d, "ca.pem")) as rec:
            c = socket.create_connection((rec.host, rec.port), timeout=TIMEOUT)
            c.sendall(b"first-bytes\n")
            wait_until(lambda: b"first-bytes" in b"".join(out), "the first bytes at the server")
            relay.stall()
            srv.stdin.write(b"R\n")  # s_server: renegotiate (a HelloRequest goes down)
            srv.stdin.flush()
            wait_until(relay.held, "the proxy's ClientHello")  # held by the relay
            c.sendall(b"second-bytes\n")
            time.sleep(0.2)
            cpu0, t0 = proc_cpu_s(rec.proc.pid), time.monotonic()
            time.sleep(2)
            cpu = (proc_cpu_s(rec.proc.pid) - cpu0) / (time.monotonic() - t0)
            relay.unstall()
            wait_until(lambda: b"second-bytes" in b"".join(out),
                       "the bytes after the renegotiation at the server")
            c.close()
            rec.lines()
    finally:
        kill_group(srv)
    check(cpu < 0.1, "the proxy spent %.0f%% of a CPU waiting for a TLS read" % (cpu * 100))


def wait_until(cond, what, timeout=10):
    end = time.monotonic() + timeout
    while not cond():
        check(time.monotonic() < end, "%s: not within %g s" % (what, timeout))
        time.sleep(0.02)


# ---- bounds: it stops by itself, and bad bytes are only counted -----------

def test_duration_and_garbage(d):
    """-d stops it (exit 0, the trailer written); garbage from the client and
    from the server is forwarded, counted, never a crash; a server that is
    down closes the client's connection."""
    peer = Peer(lambda sock, rec: (recv_until(sock, 9, timeout=2),
                                   sock.sendall(b"\x16\x03\x01garbage\r\n\r\n\0" * 100)),
                timeout=TIMEOUT)
    out = os.path.join(d, "garbage.jsonl")
    try:
        with Record("http://127.0.0.1:%d" % peer.port, out, "-d", "2s") as rec:
            c = socket.create_connection((rec.host, rec.port), timeout=TIMEOUT)
            c.sendall(b"NONSENSE\n\0\0\0")
            got = recv_until(c, 1500)
            check(got == b"\x16\x03\x01garbage\r\n\r\n\0" * 100, "garbage not forwarded: %r"
                  % got[:100])
            c.close()
            bad = socket.create_connection((rec.host, rec.port), timeout=TIMEOUT)
            bad.sendall(b"POST /RPC2 HTTP/1.1\r\nContent-Length: 5\r\n\r\n<<<<<")
            bad.close()
            rec.proc.wait(10)
            check(rec.proc.returncode == 0, "-d 2s: exit %r" % rec.proc.returncode)
    finally:
        peer.close()
    rows = [json.loads(line) for line in open(out)]
    check(rows[-1].get("end") is True and rows[-1]["calls"] == 0
          and 1 <= rows[-1]["duration_s"] < 5 and rows[-1]["malformed_requests"] == 1
          and rows[-1]["streams_lost"] >= 1, "trailer %r" % rows[-1])
    down = socket.socket()
    down.bind(("127.0.0.1", 0))
    port = down.getsockname()[1]
    down.close()  # nobody listens there now
    with Record("http://127.0.0.1:%d" % port, os.path.join(d, "down.jsonl")) as rec:
        c = socket.create_connection((rec.host, rec.port), timeout=TIMEOUT)
        c.sendall(http_bytes(b"/RPC2", XML_CALL))
        try:
            closed = recv_until(c, 1) == b""
        except ConnectionResetError:  # closed with our request unread
            closed = True
        check(closed, "a connection to nothing stays open")
        c.close()
        _, _, trailer = rec.lines()
    check("connect" in rec.err.lower() or "refused" in rec.err.lower(), "why: %r" % rec.err)


PENDING_MAX = 4096  # rec_calls.h: REC_PENDING_MAX
ID_MAX = 64  # rec_calls.h: REC_ID_MAX, bytes of an id's JSON text


def test_pending_table_is_bounded_and_counted(d):
    """A server that reads every request and answers none: the proxy's
    table of waiting calls is fixed (4096 a connection, ids inline, at most
    64 bytes of JSON). 100 calls past it make room by writing the oldest
    as unanswered, and a call whose id is longer is written at once; both
    are counted by category in the trailer and the summary, and nothing
    is lost: every call has its line."""
    extra = 100
    ok_id = "x" * (ID_MAX - 2)  # quoted: exactly ID_MAX bytes, kept
    long_id = "y" * (ID_MAX - 1)  # quoted: one byte over
    bodies = [json.dumps({"jsonrpc": "2.0", "id": i, "method": "Host.ping", "params": {}})
              for i in range(PENDING_MAX + extra)]
    bodies.append(json.dumps({"jsonrpc": "2.0", "id": ok_id, "method": "Host.ok", "params": {}}))
    bodies.append(json.dumps({"jsonrpc": "2.0", "id": long_id, "method": "Host.long",
                              "params": {}}))
    reqs = b"".join(http_bytes(b"/jsonrpc", b.encode()) for b in bodies)

    def handle(sock, rec):
        rec["got"] = recv_until(sock, len(reqs))

    peer = Peer(handle, timeout=TIMEOUT)
    try:
        with Record("http://127.0.0.1:%d" % peer.port, os.path.join(d, "bound.jsonl")) as rec:
            c = socket.create_connection((rec.host, rec.port), timeout=TIMEOUT)
            c.sendall(reqs)
            peer.wait_done(timeout=TIMEOUT, conns=1)
            c.close()
            _, calls, trailer = rec.lines()
    finally:
        peer.close()
    check(len(peer.conns[0]["got"]) == len(reqs), "the server got %d of %d bytes"
          % (len(peer.conns[0]["got"]), len(reqs)))
    check(trailer["calls"] == len(bodies) == len(calls), "calls %d, trailer %r"
          % (len(calls), trailer))
    check(trailer.get("pending_full") == extra + 1 and trailer.get("ids_too_long") == 1
          and trailer.get("idle_timeouts") == 0, "trailer %r" % trailer)
    check(all(c["outcome"] == "unanswered" for c in calls), "outcomes %r"
          % sorted({c["outcome"] for c in calls}))
    methods = [c["method"] for c in calls]
    check(methods[0] == "Host.ping" and methods.count("Host.long") == 1
          and methods.count("Host.ok") == 1, "methods %r" % methods[:3])
    check("1 id too long" in rec.err and "%d pending table full" % (extra + 1) in rec.err,
          "summary: %r" % rec.err)
    # report of the recording says the same counts, from its trailer
    rc, out, err = rpcbench("report", rec.out, timeout=30)
    check(rc == 0 and re.search(r"^bounded\s+1 id too long \(calls unanswered\), %d pending "
                                r"table full" % (extra + 1), out, re.M),
          "report of the recording: %d %s %s" % (rc, out, err))


def test_sigterm_right_after_listening(d):
    """SIGTERM as soon as record says "listening on": it exits 0 with its
    recording whole (trailer written). Its signal watchers used to start
    after that line, and a SIGTERM in between killed it (-15) with no
    trailer."""
    for i in range(10):
        with Record("http://127.0.0.1:9", os.path.join(d, "early%d.jsonl" % i)) as rec:
            _, calls, trailer = rec.lines()  # checks exit 0, header and trailer
        check(calls == [] and trailer["calls"] == 0, "round %d: %r" % (i, trailer))


def test_idle_timeout_closes_silent_pairs(d):
    """--idle-timeout 1s: a client that made a call and fell silent is
    closed, with its server connection, about 1 s after its last byte
    (the server sees its end), and counted by category; a client that
    talks every 150 ms for twice that long is not closed (silence counts,
    not age). --idle-timeout 0 leaves a silent pair open."""
    req, ans = http_bytes(b"/RPC2", XML_CALL), http_answer(XML_ANSWER)

    def handle(sock, rec):
        sock.settimeout(30)
        while len(recv_until(sock, len(req), timeout=30)) == len(req):
            sock.sendall(ans)
        rec["end_at"] = time.monotonic()

    peer = Peer(handle)
    try:
        with Record("http://127.0.0.1:%d" % peer.port, os.path.join(d, "idle.jsonl"),
                    "--idle-timeout", "1s") as rec:
            silent = socket.create_connection((rec.host, rec.port), timeout=TIMEOUT)
            silent.sendall(req)
            check(recv_until(silent, len(ans)) == ans, "the silent client's answer")
            last = time.monotonic()
            talker = socket.create_connection((rec.host, rec.port), timeout=TIMEOUT)
            rounds = 0
            while time.monotonic() - last < 2.2:
                talker.sendall(req)
                check(recv_until(talker, len(ans)) == ans, "round %d: the talker was closed"
                      % rounds)
                rounds += 1
                time.sleep(0.15)
            silent.settimeout(5)
            check(silent.recv(1) == b"", "the silent client is still open")
            talker.close()
            silent.close()
            _, calls, trailer = rec.lines()
        ended = peer.conns[0].get("end_at", 1e9) - last
        check(0.9 <= ended < 2.2, "the silent pair closed %.2f s after its last byte" % ended)
        check(trailer["idle_timeouts"] == 1 and trailer["calls"] == 1 + rounds == len(calls),
              "trailer %r, %d rounds" % (trailer, rounds))
        check("1 idle timeout" in rec.err, "summary: %r" % rec.err)
        with Record("http://127.0.0.1:%d" % peer.port, os.path.join(d, "idle0.jsonl"),
                    "--idle-timeout", "0") as rec:
            silent = socket.create_connection((rec.host, rec.port), timeout=TIMEOUT)
            silent.sendall(req)
            check(recv_until(silent, len(ans)) == ans, "the silent client's answer")
            silent.settimeout(2.5)
            try:
                silent.recv(1)
                check(False, "--idle-timeout 0 closed a silent pair")
            except socket.timeout:
                pass
            silent.close()
            _, _, trailer = rec.lines()
        check(trailer["idle_timeouts"] == 0, "trailer %r" % trailer)
    finally:
        peer.close()


def test_silent_tls_client_is_dropped(d):
    """A client that connects to the TLS side and never starts its
    handshake holds the proxy's fds no longer than the setup bound (10 s),
    while another client is served meanwhile."""
    ctx = ssl.create_default_context(cafile=os.path.join(d, "ca.pem"))
    cert = ["--tls-cert", os.path.join(d, "server.pem"), "--tls-key", os.path.join(d, "server.key")]
    with Server() as srv, Record("http://127.0.0.1:%d" % srv.port,
                                 os.path.join(d, "silent.jsonl"), *cert) as rec:
        silent = socket.create_connection((rec.host, rec.port), timeout=TIMEOUT)
        answers, _ = xml_calls("https://127.0.0.1:%d/RPC2" % rec.port, ctx)
        check(answers[0]["status"]["code"] == 0, "ping through TLS: %r" % answers[0])
        start = time.monotonic()
        silent.settimeout(15)
        try:
            gone = silent.recv(1) == b""
        except ConnectionResetError:
            gone = True
        waited = time.monotonic() - start
        silent.close()
        _, calls, _ = rec.lines()
    check(gone and waited < 12, "the silent client was dropped after %.1f s" % waited)
    check("1 not set up within 10 s" in rec.err, "summary: %r" % rec.err)
    check(len(calls) == 4, "calls %r" % [c["method"] for c in calls])


def test_usage_errors(d):
    for args, why in ((["--to", "http://127.0.0.1:1"], "--listen"),
                      (["--listen", "127.0.0.1:0"], "--to"),
                      (["--listen", "127.0.0.1:0", "--to", "ftp://x:1"], "--to"),
                      (["--listen", "127.0.0.1:0", "--to", "http://127.0.0.1:1", "--insecure"],
                       "https"),
                      (["--listen", "127.0.0.1:0", "--to", "http://127.0.0.1:1", "-d", "x"],
                       "--duration"),
                      (["--listen", "127.0.0.1:0", "--to", "http://127.0.0.1:1",
                        "--idle-timeout", "-1s"], "--idle-timeout")):
        rc, out, err = rpcbench("record", *args, timeout=10)
        check(rc == 2 and why in err and len(err.strip().splitlines()) == 1,
              "record %r: %d %r" % (args, rc, err))


def main():
    tests = [test_http_bytes_unchanged_both_ways, test_stomp_bytes_unchanged_both_ways,
             test_half_close_passes_through,
             test_vdsm_clients_through_record_to_serve, test_tls_both_sides,
             test_duration_and_garbage, test_pending_table_is_bounded_and_counted,
             test_sigterm_right_after_listening, test_idle_timeout_closes_silent_pairs,
             test_tls_write_waiting_for_a_read_sleeps,
             test_silent_tls_client_is_dropped, test_usage_errors]
    with tempfile.TemporaryDirectory() as d:
        make_certs(d)
        run_tests(tests, d)


if __name__ == "__main__":
    main()
