"""`rpcbench serve` against hostile requests, over HTTP and STOMP: deep,
huge and malformed. serve must answer each one with a fault, an HTTP error
or a STOMP ERROR frame, never crash, and go on serving other clients.

The deep XML-RPC request is the one that killed serve (issue 23): xmlrpc-c
builds the whole element tree and frees it recursively, so 100,000 levels
overflowed the stack. The client side of the same bound (a deep answer
under --validate full) is checked here too, with a peer written by hand."""
import json
import re
import subprocess
import time

from rpctest import (RPCBENCH, Peer, Server, check, http_peer, http_response, main,
                     read_http_request)
import stomptest
from stomptest import Raw, frame

DEEP = 100000  # levels: 3.5 MB of XML-RPC, the request that crashed serve


def xml_deep(levels):
    """A value nested `levels` arrays deep, as XML-RPC."""
    return b"<value><array><data>" * levels + b"<value><int>1</int></value>" + \
        b"</data></array></value>" * levels


def xml_call(value):
    return (b"<?xml version='1.0'?><methodCall><methodName>ping</methodName><params>"
            b"<param>%s</param></params></methodCall>" % value)


def post(sock, path, body, keep=True):
    """One POST on sock; returns (status line, body) of the answer."""
    sock.sendall(b"POST %s HTTP/1.1\r\nHost: x\r\n%sContent-Length: %d\r\n\r\n"
                 % (path, b"" if keep else b"Connection: close\r\n", len(body)) + body)
    got = read_http_request(lambda: sock.recv(65536))
    check(got is not None, "no answer to a %d-byte POST %s" % (len(body), path.decode()))
    head, answer, _ = got
    return head.split(b"\r\n")[0], answer


def served(srv):
    """A valid XML-RPC and a valid JSON-RPC call are answered."""
    srv.alive("after hostile requests")
    check(srv.xml().ping()["status"]["code"] == 0, "XML-RPC ping not served")
    with srv.sock() as s:
        status, body = post(s, b"/jsonrpc", b'{"jsonrpc":"2.0","method":"Host.ping","id":"p"}')
    check(status.endswith(b"200 OK") and b'"result"' in body, "JSON-RPC ping not served")


def test_deep_xmlrpc_request_gets_a_fault():
    with Server("--vms", "2") as srv:
        with srv.sock(timeout=30) as s:
            status, body = post(s, b"/RPC2", xml_call(xml_deep(DEEP)))
            check(b"<fault>" in body, "deep call: no fault (%r %r)" % (status, body[:300]))
            check(b"nested deeper" in body, "the fault does not say why: %r" % body[:400])
            # the same keep-alive connection goes on
            status, body = post(s, b"/RPC2", xml_call(b"<value><int>1</int></value>"))
            check(b"<fault>" not in body and status.endswith(b"200 OK"),
                  "a valid call after the deep one failed: %r" % body[:300])
        served(srv)


def test_deep_json_and_garbage_over_http():
    bodies = [
        (b"/jsonrpc", b'{"jsonrpc":"2.0","id":1,"method":"Host.ping","params":' +
         b"[" * DEEP + b"]" * DEEP + b"}"),
        (b"/jsonrpc", b"\xff\xfe{\x00\x1b[2J"),
        (b"/RPC2", b"<methodCall><methodName>\xff\xfe</methodName>"),
        (b"/RPC2", b"<?xml version='1.0'?><methodCall>" + b"<!-- x -->" * 20000),
        (b"/RPC2", xml_call(b"<value><string>" + b"\xc3" * 100000 + b"</string></value>")),
    ]
    with Server("--vms", "2") as srv:
        for path, body in bodies:
            with srv.sock(timeout=30) as s:
                status, answer = post(s, path, body, keep=False)
            check(status.startswith(b"HTTP/1.1 "), "no HTTP answer to %r" % body[:40])
            code = int(status.split()[1])
            faulted = code >= 400 or b"<fault>" in answer or b'"error"' in answer
            check(faulted, "%r...: answered as a success: %r" % (body[:40], answer[:200]))
            srv.alive("after %r" % body[:40])
        served(srv)


def test_huge_request_refused_and_serving_goes_on():
    with Server("--vms", "2", "--max-body", "1MiB") as srv:
        with srv.sock(timeout=30) as s:
            body = xml_call(b"<value><string>" + b"a" * (4 << 20) + b"</string></value>")
            s.sendall(b"POST /RPC2 HTTP/1.1\r\nHost: x\r\nContent-Length: %d\r\n\r\n" % len(body))
            try:
                s.sendall(body)
            except (BrokenPipeError, ConnectionResetError):
                pass  # refused before we finished: fine
            try:
                data = s.recv(4096)
            except ConnectionResetError:
                data = b""
            check(data.startswith(b"HTTP/1.1 413"), "huge body: %r" % data[:80])
        served(srv)


def stomp_session(srv):
    r = Raw(srv)
    r.connect()
    r.subscribe("reply.hostile", "s1")
    return r


def stomp_call(r, body, rid):
    r.sendall(frame("SEND", [("destination", stomptest.REQUESTS), ("reply-to", "reply.hostile"),
                             ("content-type", "application/json")], body))
    while True:
        cmd, _, answer = r.read()
        if cmd == "MESSAGE" and (rid is None or ('"%s"' % rid).encode() in answer):
            return json.loads(answer)
        check(cmd == "MESSAGE", "STOMP: %s instead of an answer" % cmd)


def test_stomp_deep_and_malformed_requests():
    with Server("--vms", "2") as srv:
        r = stomp_session(srv)
        deep = b'{"jsonrpc":"2.0","id":"d","method":"Host.ping","params":' + \
            b"[" * DEEP + b"]" * DEEP + b"}"
        answer = stomp_call(r, deep, None)
        check(answer.get("error", {}).get("code") == -32700, "deep JSON over STOMP: %r" % answer)
        answer = stomp_call(r, b"\xff\xfe\x1b[2J", None)
        check("error" in answer, "garbage over STOMP answered as a success: %r" % answer)
        answer = stomp_call(r, stomptest.request("ok").encode(), "ok")
        check("result" in answer, "a valid call after the hostile ones: %r" % answer)
        r.close()
        # A frame that is not STOMP: an ERROR frame, then the connection closes.
        r = stomp_session(srv)
        r.sendall(b"SEND\ndestination:x\ncontent-length:zz\n\nbody\0")
        cmd, headers, _ = r.read()
        check(cmd == "ERROR", "a bad content-length: %s %r" % (cmd, headers))
        check(r.closed(), "not closed after the ERROR frame")
        r.close()
        # Absurd and malformed heart-beats in CONNECT.
        for hb, good in (("99999999999999,0", True), ("0,9300000000000", True), ("x,1", False),
                         ("-1,5", False)):
            r = Raw(srv)
            r.sendall(frame("CONNECT", [("accept-version", "1.2"), ("heart-beat", hb)]))
            cmd, headers, _ = r.read()
            check(cmd == ("CONNECTED" if good else "ERROR"),
                  "CONNECT heart-beat:%s got %s %r" % (hb, cmd, headers))
            r.close()
        r = stomp_session(srv)
        answer = stomp_call(r, stomptest.request("after").encode(), "after")
        check("result" in answer, "STOMP not served after hostile clients: %r" % answer)
        r.close()
        served(srv)


# ---- the client's side of the same bounds ----------------------------------

def deep_xml_peer(levels):
    """Answers every XML-RPC call with a value nested `levels` deep."""
    answer = (b"<?xml version='1.0'?><methodResponse><params><param>%s</param></params>"
              b"</methodResponse>" % xml_deep(levels))

    return http_peer(lambda body: http_response(answer, "text/xml"))


def run(*args, timeout=30):
    p = subprocess.run([RPCBENCH, "run"] + list(args), capture_output=True, text=True,
                       timeout=timeout)
    return p.returncode, p.stdout, p.stderr


def test_client_validate_full_bounds_nesting():
    """70,000 levels crashed the client's xmlrpc-c decode (SIGSEGV)."""
    peer = deep_xml_peer(70000)
    try:
        url = "http://127.0.0.1:%d/RPC2" % peer.port
        code, out, err = run("-u", url, "-p", "xmlrpc", "--method", "Host.ping", "-R", "5",
                             "-d", "1s", "--validate", "full", "--timeout", "5s")
        check(code >= 0, "the client died of signal %d: %s" % (-code, err[-500:]))
        check(code in (0, 1, 3), "exit %d: %s" % (code, err[-300:]))
        check("nested deeper" in out, "the decode errors do not say why:\n%s" % out[-1500:])
        check(re.search(r"ok 0 .*\n.*decode 5", out), "deep answers were not counted as decode "
              "errors:\n%s" % out[-1500:])
    finally:
        peer.close()


# ---- STOMP heart-beats in CONNECTED, client side ---------------------------

def stomp_peer(heart_beat):
    """A STOMP broker by hand whose CONNECTED carries heart_beat; it answers
    every SEND with a JSON-RPC result on the reply-to destination."""
    def handle(sock, rec):
        buf = b""
        while True:
            data = sock.recv(65536)
            if not data:
                return
            buf += data
            frames, _, buf = stomptest.parse_frames(buf)
            for cmd, headers, body in frames:
                if cmd in ("CONNECT", "STOMP"):
                    sock.sendall(frame("CONNECTED", [("version", "1.2"),
                                                     ("heart-beat", heart_beat)]))
                elif cmd == "SUBSCRIBE":
                    rec["dest"] = headers.get("destination")
                elif cmd == "SEND":
                    rid = json.loads(body).get("id")
                    sock.sendall(frame("MESSAGE", [("destination", rec.get("dest", "")),
                                                   ("subscription", "s"),
                                                   ("message-id", str(rid))],
                                       json.dumps({"jsonrpc": "2.0", "id": rid,
                                                   "result": True})))
                elif cmd == "DISCONNECT":
                    if "receipt" in headers:
                        sock.sendall(frame("RECEIPT", [("receipt-id", headers["receipt"])]))
                    return
    return Peer(handle)


def test_client_absurd_heartbeats():
    for hb, good in (("99999999999999,0", True), ("0,9300000000000", True),
                     ("9300000000000,9300000000000", True), ("ten,0", False)):
        peer = stomp_peer(hb)
        try:
            start = time.monotonic()
            code, out, err = run("-u", "stomp://127.0.0.1:%d" % peer.port, "--method",
                                 "Host.ping", "-R", "20", "-d", "1s", "--timeout", "2s",
                                 "--output", "/dev/null")
            took = time.monotonic() - start
            check(code >= 0, "heart-beat:%s killed the client (signal %d): %s"
                  % (hb, -code, err[-500:]))
            check(took < 1 + 2 + 2 + 1, "heart-beat:%s: the run took %.1fs" % (hb, took))
            if good:
                check(code == 0, "heart-beat:%s: exit %d\n%s%s" % (hb, code, out[-800:], err))
                check(re.search(r"reconnects 0\b", out), "heart-beat:%s: reconnects "
                      "(self-disconnects):\n%s" % (hb, out[-800:]))
            else:
                check("heart-beat" in out + err, "heart-beat:%s: the report does not say why:"
                      "\n%s%s" % (hb, out[-800:], err))
        finally:
            peer.close()


if __name__ == "__main__":
    main([test_deep_xmlrpc_request_gets_a_fault, test_deep_json_and_garbage_over_http,
          test_huge_request_refused_and_serving_goes_on, test_stomp_deep_and_malformed_requests,
          test_client_validate_full_bounds_nesting, test_client_absurd_heartbeats])
