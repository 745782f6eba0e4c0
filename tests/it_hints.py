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

Peers are the standard library's servers (xmlrpc.server, http.server, ssl)
or rpctest.Peer; certificates come from the openssl CLI (rpctest.make_certs)."""
import json
import os
import select
import socketserver
import ssl
import subprocess
import tempfile
import threading
import time
import xmlrpc.server

from rpctest import (RPCBENCH, Listening, Peer, Recorder, check, kill_group, main, make_certs,
                     http_peer, rpcbench, run_json, spawn)

HERE = os.path.dirname(os.path.abspath(__file__))


def adds_up(r, what):
    q = r["requests"]
    check(q["sent"] == q["ok"] + q["errors"] + q["unfinished"], "%s: counts %r" % (what, q))
    check(q["errors"] == sum(r["errors"].values()), "%s: kinds %r" % (what, r["errors"]))


# ---- XML-RPC faults: their strings are XML text, decoded -------------------

class QuietXmlRpc(xmlrpc.server.SimpleXMLRPCRequestHandler):
    def log_message(self, *a):
        pass


def test_xmlrpc_fault_string_decoded():
    """Python's xmlrpc.server answers an exception with faultString
    "<class 'Exception'>:boom", escaped as &lt;...&gt; on the wire: the
    sample reads as Python meant it (on main: "&lt;class 'Exception'&gt;")."""
    srv = socketserver.ThreadingMixIn
    server = type("S", (srv, xmlrpc.server.SimpleXMLRPCServer), {"daemon_threads": True})(
        ("127.0.0.1", 0), requestHandler=QuietXmlRpc, logRequests=False)

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


def test_aria2_error_in_400_stays_fault():
    """aria2 sends its JSON-RPC errors with HTTP 400: still a fault."""
    def aria2(req):
        rid = json.loads(req)["id"]
        return json.dumps({"id": rid, "jsonrpc": "2.0",
                           "error": {"code": 1, "message": "Unauthorized"}}).encode()
    kinds, samples = run_against(status_answer(400, "Bad Request", aria2), "jsonrpc")
    check(kinds == {"fault": 20}, "kinds %r" % kinds)
    check(samples["fault"] == "fault 1: Unauthorized", samples)


def test_xmlrpc_fault_in_500_stays_fault():
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


if __name__ == "__main__":
    main([test_xmlrpc_fault_string_decoded, test_http_500_with_other_json_is_http,
          test_aria2_error_in_400_stays_fault, test_xmlrpc_fault_in_500_stays_fault,
          test_xmlrpc_500_without_fault_is_http])
