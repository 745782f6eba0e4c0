"""Hints that name the right cause, at once (issue 36 §4): `rpcbench run`
against peers on loopback that are the wrong thing, or answer errors in a
shape rpcbench must read correctly.

- a server that accepts and sends no byte while requests are out: the hint
  on stderr 3 s after the first request, however late that request is;
- TLS: a server that requires a client certificate none was given, a TLS
  alert or ServerHello where plain text was expected;
- XML-RPC faults from Python's own xmlrpc.server: their strings decoded;
- HTTP error statuses: the protocol's own error is a fault, any other body
  is `http`, quoted with its status.

Peers are the standard library's xmlrpc.server and ssl, `rpcbench serve`
with --tls-ca, or rpctest.Peer written here; certificates come from the
openssl CLI (rpctest.make_certs)."""
import os
import select
import socketserver
import ssl
import subprocess
import tempfile
import time
import xmlrpc.server

from rpctest import (RPCBENCH, Listening, Peer, Recorder, check, kill_group, main, make_certs,
                     http_peer, rpcbench, run_json, spawn)


def adds_up(r, what):
    q = r["requests"]
    check(q["sent"] == q["ok"] + q["errors"] + q["unfinished"], "%s: counts %r" % (what, q))
    check(q["errors"] == sum(r["errors"].values()), "%s: kinds %r" % (what, r["errors"]))


# ---- a server that accepts and never sends a byte ---------------------------

def silent(sock, rec):
    """A STOMP broker waiting for CONNECT's NUL: reads, never answers."""
    while sock.recv(65536):
        pass


def hint_after(*args):
    """Starts rpcbench run against a silent peer with args, reads stderr
    (raw: no buffer may hold a line back) until the "no answer yet" line,
    10 s at most; returns (seconds since the start, the line, whether the
    run was still going then)."""
    p = Peer(silent, timeout=60)
    proc = spawn([RPCBENCH, "run", "--url", "http://127.0.0.1:%d/RPC2" % p.port, "-p", "xmlrpc",
                  "--verb", "ping", "--timeout", "20s", *args],
                 stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
    t0, hint, got = time.monotonic(), None, b""
    try:
        while hint is None and time.monotonic() - t0 < 10:
            ready, _, _ = select.select([proc.stderr], [], [], 0.1)
            chunk = os.read(proc.stderr.fileno(), 65536) if ready else b""
            if ready and not chunk:
                break  # stderr closed: the run is over
            got += chunk
            for line in got.decode(errors="replace").splitlines():
                if "no answer yet" in line:
                    hint = (time.monotonic() - t0, line, proc.poll() is None)
    finally:
        kill_group(proc)
        p.close()
    check(hint is not None, "no hint on stderr within 10 s: %r" % got[-300:])
    return hint


def test_silence_hint_3s_after_first_request():
    """The hint counts 3 s from the first request, however late it is: here
    sends begin 4 s in (a stage at rate 0), so it comes at 7 s, as a line
    on stderr between the progress lines, and the run goes on (on main the
    one look, 3 s in, found no request yet: nothing until --timeout)."""
    took, line, going = hint_after("--stages", "4s:0,8s:10")
    check(6.8 <= took <= 7.6, "hint after %.2fs, want 7 s: %r" % (took, line))
    check(going, "the run had ended by the hint")
    check("accepted connections but sent no byte in 3s" in line and "stomp://" in line, line)


def test_silence_hint_at_3s():
    """Sends from the start, quiet or not: the hint at 3 s, not at the
    --timeout (20 s here)."""
    took, line, going = hint_after("-R", "10", "-d", "10s")
    check(2.8 <= took <= 3.6, "hint after %.2fs, want 3 s: %r" % (took, line))
    check(going and "stomp://" in line, "%r (run going: %s)" % (line, going))


# ---- XML-RPC faults: their strings are XML text, decoded -------------------

class QuietXmlRpc(xmlrpc.server.SimpleXMLRPCRequestHandler):
    def log_message(self, *a):
        pass


class ThreadedXmlRpc(socketserver.ThreadingMixIn, xmlrpc.server.SimpleXMLRPCServer):
    daemon_threads = True


def test_xmlrpc_fault_string_decoded():
    """Python's xmlrpc.server answers an exception with faultString
    "<class 'Exception'>:boom", escaped as &lt;...&gt; on the wire: the
    sample reads as Python meant it (on main: "&lt;class 'Exception'&gt;"),
    and what the references stand for is made safe (ESC as \\x1b)."""
    server = ThreadedXmlRpc(("127.0.0.1", 0), requestHandler=QuietXmlRpc, logRequests=False)

    def ping():
        raise Exception("boom \x1b[2J <b> & done")
    server.register_function(ping, "ping")
    with Recorder(server) as rec:
        _, r, _ = run_json("--url", "http://127.0.0.1:%d/RPC2" % rec.port, "-p", "xmlrpc",
                           "--verb", "ping", "-R", "20", "-d", "1s", "--timeout", "2s", code=3)
    adds_up(r, "xmlrpc fault")
    check(r["errors"]["fault"] == r["requests"]["sent"] > 0, r["errors"])
    got = r["error_samples"]["fault"]
    check(got == "fault 1: <class 'Exception'>:boom \\x1b[2J <b> & done", repr(got))


# ---- HTTP error statuses: the protocol's own error, or `http` --------------

def status_answer(status, reason, body_of, ctype="application/json"):
    """An answer function for rpctest.http_peer: HTTP status with the body
    body_of(request body) gives."""
    def answer(req):
        body = body_of(req)
        return (b"HTTP/1.1 %d %s\r\nContent-Type: %s\r\nContent-Length: %d\r\n\r\n"
                % (status, reason.encode(), ctype.encode(), len(body))) + body
    return answer


def run_against(answer, proto):
    """rpcbench run (1 s at 20/s) against an http_peer answering answer;
    returns its JSON result (no request succeeds: exit 3)."""
    peer = http_peer(answer)
    try:
        path = "/jsonrpc" if proto == "jsonrpc" else "/RPC2"
        _, r, _ = run_json("--url", "http://127.0.0.1:%d%s" % (peer.port, path), "-p", proto,
                           "--verb", "ping", "-R", "20", "-d", "1s", "--timeout", "2s", code=3)
    finally:
        peer.close()
    adds_up(r, proto)
    check(r["requests"]["sent"] == 20, r["requests"])
    return {k: n for k, n in r["errors"].items() if n}, r["error_samples"]


XML_FAULT = (b"<?xml version='1.0'?>\n<methodResponse>\n<fault>\n<value><struct>\n<member>\n"
             b"<name>faultCode</name>\n<value><int>7</int></value>\n</member>\n<member>\n"
             b"<name>faultString</name>\n<value><string>no &lt;such&gt; method</string></value>\n"
             b"</member>\n</struct></value>\n</fault>\n</methodResponse>\n")


def test_http_500_with_other_json_is_http():
    """{"error":"boom"} is no JSON-RPC error object: an HTTP 500 carrying it
    is an `http` error quoted with its status (on main: `fault 0: ...`)."""
    kinds, samples = run_against(status_answer(500, "Internal Server Error",
                                               lambda req: b'{"error":"boom"}'), "jsonrpc")
    check(kinds == {"http": 20}, "kinds %r" % kinds)
    check(samples["http"] == 'HTTP 500 Internal Server Error: {"error":"boom"}', samples)


def test_xmlrpc_fault_in_500_stays_fault():
    """A proper <fault> in a 500 stays a fault, its string decoded (aria2's
    JSON-RPC error in a 400: it_peer_http.py's test_jsonrpc_error_in_http_400)."""
    kinds, samples = run_against(status_answer(500, "Internal Server Error", lambda req: XML_FAULT,
                                               "text/xml"), "xmlrpc")
    check(kinds == {"fault": 20}, "kinds %r" % kinds)
    check(samples["fault"] == "fault 7: no <such> method", samples)


def test_xmlrpc_500_without_fault_is_http():
    """A VDSM status envelope (not a <fault>) in a 500 is no fault of the
    protocol's: `http`, with the status (on main: `fault 99`)."""
    envelope = (b"<?xml version='1.0'?><methodResponse><params><param><value><struct>"
                b"<member><name>status</name><value><struct><member><name>code</name>"
                b"<value><int>99</int></value></member><member><name>message</name><value>"
                b"<string>recovering</string></value></member></struct></value></member>"
                b"</struct></value></param></params></methodResponse>")
    kinds, samples = run_against(status_answer(503, "Service Unavailable", lambda req: envelope,
                                               "text/xml"), "xmlrpc")
    check(kinds == {"http": 20}, "kinds %r" % kinds)
    check(samples["http"].startswith("HTTP 503 Service Unavailable: <?xml"), samples)


# ---- TLS: a certificate required, TLS where plain text was expected --------

GIVE_UP_S = 4.0  # the setup deadline (2 s) and a few retries, with slack


def gives_up(url, want, *extra):
    """rpcbench run ends with exit 1, no result and the one line "the server
    at URL ...want...", soon. Returns the line."""
    t0 = time.monotonic()
    code, out, err = rpcbench("run", "--url", url, "-R", "20", "-d", "10s", "--quiet", *extra,
                              timeout=30)
    took = time.monotonic() - t0
    line = "rpcbench run: the server at %s " % url
    check(code == 1 and out == "" and err.startswith(line) and err.count("\n") == 1,
          "%s: exit %d, stderr %r" % (url, code, err))
    check(want in err, "%s: want %r in %r" % (url, want, err))
    check(took <= GIVE_UP_S, "%s: gave up after %.2fs" % (url, took))
    return err


class Certs:
    """make_certs() in a directory kept for the test's life."""

    def __enter__(self):
        self.dir = tempfile.TemporaryDirectory()
        self.files = make_certs(self.dir.name)
        return self.files

    def __exit__(self, *exc):
        self.dir.cleanup()


def tls_serve(c):
    """rpcbench serve over TLS that requires client certificates (as VDSM)."""
    return Listening([RPCBENCH, "serve", "--listen", "127.0.0.1:0", "--tls-cert", c["server_cert"],
                      "--tls-key", c["server_key"], "--tls-ca", c["ca"]], "serve --tls-ca")


CERT_HINT = "right after the TLS handshake: it may require a client certificate (--cert, --key)"


def test_client_certificate_required():
    """TLS 1.3 refuses a missing client certificate after the handshake: it
    is said so, for stomps:// and https:// alike (on main: "does not speak
    STOMP", and "try stomp://"); with the certificate the run succeeds."""
    with Certs() as c, tls_serve(c) as s:
        for url in ("stomps://%s" % s.addr, "https://%s/RPC2" % s.addr):
            gives_up(url, CERT_HINT, "--cacert", c["ca"])
        _, r, _ = run_json("--url", "stomps://%s" % s.addr, "--cacert", c["ca"], "--cert",
                           c["client_cert"], "--key", c["client_key"], "-R", "20", "-d", "1s")
        check(r["requests"]["ok"] == 20, r["requests"])


def test_client_certificate_required_tls12():
    """A TLS 1.2 server (Python's ssl) refuses it in the handshake, with an
    alert: the hint is the same."""
    with Certs() as c:
        ctx = ssl.SSLContext(ssl.PROTOCOL_TLS_SERVER)
        ctx.maximum_version = ssl.TLSVersion.TLSv1_2
        ctx.load_cert_chain(c["server_cert"], c["server_key"])
        ctx.load_verify_locations(c["ca"])
        ctx.verify_mode = ssl.CERT_REQUIRED

        def handle(sock, rec):
            with ctx.wrap_socket(sock, server_side=True) as t:
                t.recv(65536)
        p = Peer(handle, timeout=10)
        try:
            gives_up("https://127.0.0.1:%d/RPC2" % p.port,
                     "alert handshake failure: it may require a client certificate (--cert, --key)",
                     "--cacert", c["ca"])
        finally:
            p.close()


def test_plain_to_tls_port():
    """OpenSSL resets a connection whose first bytes are no TLS record:
    http:// names https:// (on main: only stomp://), stomp:// names
    stomps://."""
    with Certs() as c, tls_serve(c) as s:
        gives_up("http://%s/RPC2" % s.addr, "reset the connection without answering: if it "
                 "speaks TLS, use https://; if it is a STOMP broker, stomp://")
        gives_up("stomp://%s" % s.addr, "reset the connection after CONNECT: if it speaks TLS, "
                 "use stomps://")


ALERT = b"\x15\x03\x03\x00\x02\x02\x46"  # TLS 1.2 alert: fatal, protocol_version
HELLO = b"\x16\x03\x03\x00\x31\x02\x00\x00\x2d\x03\x03" + bytes(40)  # a ServerHello's start


def test_tls_record_on_plain_connection():
    """A TLS server that answers plain text with an alert (as Java's does) or
    a ServerHello: named at once, https:// or stomps:// (on main: a decode
    error per request for http://, "does not speak STOMP" for stomp://)."""
    for first in (ALERT, HELLO):
        def handle(sock, rec, first=first):
            sock.recv(65536)
            sock.sendall(first)
            time.sleep(0.5)
        p = Peer(handle, timeout=10)
        try:
            gives_up("http://127.0.0.1:%d/RPC2" % p.port,
                     "answered with TLS, not plain HTTP: use https://")
            gives_up("stomp://127.0.0.1:%d" % p.port,
                     "answered CONNECT with TLS, not plain STOMP: use stomps://")
        finally:
            p.close()


if __name__ == "__main__":
    main([test_silence_hint_3s_after_first_request, test_silence_hint_at_3s,
          test_xmlrpc_fault_string_decoded, test_http_500_with_other_json_is_http,
          test_xmlrpc_fault_in_500_stays_fault, test_xmlrpc_500_without_fault_is_http,
          test_client_certificate_required, test_client_certificate_required_tls12,
          test_plain_to_tls_port, test_tls_record_on_plain_connection])
