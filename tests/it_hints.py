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
                     rpcbench, run_json, spawn)

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


if __name__ == "__main__":
    main([test_xmlrpc_fault_string_decoded])
