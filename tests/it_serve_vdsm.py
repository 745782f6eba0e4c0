#!/usr/bin/python3
"""`rpcbench serve` against the frames oVirt's own clients send (issue 12).

Raw-socket STOMP and HTTP peers replay what VDSM's Python client
(`vdsm.client` over yajsonrpc) and the engine's Java client put on the
wire, and check that serve answers as VDSM's own server does:
- JSON-RPC batches (VDSM's client sends every call as a batch of one):
  one message per batch, the bare object for one answer, an array
  otherwise, nothing for notifications, -32600 (id null) for an empty or
  oversized batch; over STOMP and HTTP, with --delay too;
- frames before CONNECT (the engine SUBSCRIBEs first);
- heart-beats: a client that promised none (0,24000) outlives
  --idle-timeout; one that promised beats and went silent is dropped;
- broker semantics: replies to every subscription of the reply-to, on any
  connection; SENDs elsewhere forwarded; a subscriber that never reads
  gets copies dropped (counted), never an unbounded backlog;
- VDSM's error texts, and no message-id unless the subscription acks.
Every wait is bounded; every server is stopped by its context manager.
"""
import http.client
import json
import os
import socket
import sys
import time
import xmlrpc.client

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from rpctest import main as run_tests  # noqa: E402
from stomptest import REQUESTS, Raw, Server, check, frame  # noqa: E402

ID = "6c9b2a1e-0000-4000-8000-%012x"
REPLIES = "jms.topic.vdsm_responses"


def call(rid, method="Host.ping", params=None, notification=False):
    """One request object, spaced as VDSM's client (json.dumps) writes it."""
    d = {"jsonrpc": "2.0", "method": method, "params": params or {}}
    if not notification:
        d["id"] = rid
    return d


def vdsm_send(body, reply_to, extra=()):
    """A SEND as vdsm.client's StompClient writes it."""
    if not isinstance(body, (bytes, str)):
        body = json.dumps(body)
    return frame("SEND", [("destination", REQUESTS), ("content-type", "application/json"),
                          ("reply-to", reply_to)] + list(extra), body)


def vdsm_client(srv, reply_to="a5e1-reply", heart_beat="0,24000"):
    """Connected and subscribed as VDSM's client does it."""
    r = Raw(srv)
    r.connect(heart_beat)
    r.sendall(frame("SUBSCRIBE", [("destination", reply_to), ("id", "sub-" + reply_to),
                                  ("ack", "auto")]))
    return r


def reply(r, want_headers=("content-length", "content-type", "destination", "subscription")):
    h, b = r.expect("MESSAGE")
    check(sorted(h) == sorted(want_headers), "MESSAGE headers %r" % h)
    return json.loads(b)


def stderr_after_stop(srv):
    code, err = srv.stop()
    check(code == 0, "serve exit %d: %s" % (code, err))
    return err


# ---- 1. batches ----

def test_stomp_batches():
    with Server() as srv:
        r = vdsm_client(srv)
        r.sendall(vdsm_send([call(ID % 1)], "a5e1-reply"))  # VDSM >= 4.19: a batch of one
        doc = reply(r)
        check(doc == {"jsonrpc": "2.0", "id": ID % 1, "result": True}, "batch of one: %r" % doc)
        r.sendall(vdsm_send([call(ID % 2), call(ID % 3, "Host.getVMList")], "a5e1-reply"))
        doc = reply(r)
        check(isinstance(doc, list) and [d["id"] for d in doc] == [ID % 2, ID % 3],
              "batch of two: %r" % doc)
        check(doc[0]["result"] is True and len(doc[1]["result"]) == 150, "results %r" % doc)
        # A notification is run but not answered: one answer left, sent bare.
        r.sendall(vdsm_send([call(0, notification=True), call(ID % 4)], "a5e1-reply"))
        doc = reply(r)
        check(isinstance(doc, dict) and doc["id"] == ID % 4, "notification + call: %r" % doc)
        # Only notifications: no MESSAGE at all (the next one is the ping's).
        r.sendall(vdsm_send([call(0, notification=True)] * 2, "a5e1-reply"))
        r.sendall(vdsm_send([], "a5e1-reply"))
        doc = reply(r)
        check(doc["id"] is None and doc["error"]["code"] == -32600, "empty batch: %r" % doc)
        check("request batch is empty" in doc["error"]["message"], "%r" % doc)
        r.sendall(vdsm_send([call(ID % 5), 7], "a5e1-reply"))
        doc = reply(r)
        check([d.get("id") for d in doc] == [ID % 5, None], "call + non-request: %r" % doc)
        check(doc[1]["error"]["code"] == -32600, "%r" % doc)
        r.close()


def test_stomp_batch_with_delay_is_one_message():
    """Each request of a batch waits for its own --delay; the batch's message
    goes once the last is done, and the connection keeps serving meanwhile."""
    with Server("--delay", "uniform:20ms:200ms") as srv:
        r = vdsm_client(srv)
        batch = [call(ID % i) for i in range(1, 6)]
        r.sendall(vdsm_send(batch, "a5e1-reply") + vdsm_send([call(ID % 9)], "a5e1-reply"))
        got = {}
        for _ in range(2):
            doc = reply(r)
            if isinstance(doc, list):
                got["batch"] = [d["id"] for d in doc]
            else:
                got["one"] = doc["id"]
        check(got == {"batch": [ID % i for i in range(1, 6)], "one": ID % 9}, "%r" % got)
        r.close()
        err = stderr_after_stop(srv)
        check("6 requests (6 over STOMP)" in err, "each batch element counts: %r" % err)


def test_batch_cap():
    with Server() as srv:
        r = vdsm_client(srv)
        r.sendall(vdsm_send([call(ID % i) for i in range(257)], "a5e1-reply"))
        doc = reply(r)
        check(isinstance(doc, dict) and doc["error"]["code"] == -32600 and doc["id"] is None,
              "oversized batch: %r" % doc)
        check("more than 256" in doc["error"]["message"], "%r" % doc)
        r.sendall(vdsm_send([call(ID % i) for i in range(256)], "a5e1-reply"))
        check(len(reply(r)) == 256, "a batch at the cap is answered")
        r.close()
        err = stderr_after_stop(srv)
        check("1 JSON-RPC batches over 256 requests refused" in err, "counted: %r" % err)


def post(conn, body, path="/jsonrpc"):
    conn.request("POST", path, body, {"Content-Type": "application/json"})
    resp = conn.getresponse()
    data = resp.read()
    return resp.status, (json.loads(data) if data else None)


def test_http_batches():
    with Server("--delay", "uniform:1ms:50ms") as srv:
        c = http.client.HTTPConnection(srv.host, srv.port, timeout=10)
        st, doc = post(c, json.dumps([call(ID % 1)]))
        check(st == 200 and doc == {"jsonrpc": "2.0", "id": ID % 1, "result": True},
              "batch of one: %r" % doc)
        st, doc = post(c, json.dumps([call(ID % 2), call(ID % 3, "VM.getStats", {"vmID": "x"})]))
        check([d["id"] for d in doc] == [ID % 2, ID % 3], "batch of two: %r" % doc)
        check(doc[1]["error"]["code"] == 1, "%r" % doc)
        st, doc = post(c, json.dumps([call(0, notification=True), call(ID % 4)]))
        check(doc["id"] == ID % 4, "notification + call: %r" % doc)
        st, doc = post(c, json.dumps([call(0, notification=True)]))
        check(st == 204 and doc is None, "only notifications: %d %r" % (st, doc))
        st, doc = post(c, "[]")
        check(doc["id"] is None and doc["error"]["code"] == -32600, "empty: %r" % doc)
        st, doc = post(c, " [ ] ")
        check(doc["error"]["code"] == -32600, "empty with blanks: %r" % doc)
        st, doc = post(c, "[{\"jsonrpc\":\"2.0\",\"method\":\"Host.ping\",\"id\":1},")
        check(doc["error"]["code"] == -32700, "truncated batch: %r" % doc)
        c.close()


# ---- 2. frames before CONNECT ----

def test_subscribe_before_connect():
    """The engine's StompClient queues SUBSCRIBE from its connect callback."""
    with Server() as srv:
        r = Raw(srv)
        r.sendall(frame("SUBSCRIBE", [("destination", REPLIES), ("id", "e-sub"), ("ack", "auto")]))
        r.sendall(frame("CONNECT", [("accept-version", "1.2"), ("host", "localhost"),
                                    ("heart-beat", "0,10000")]))
        h, _ = r.expect("CONNECTED")
        check(h["heart-beat"] == "10000,0", "%r" % h)
        r.sendall(frame("SEND", [("destination", REQUESTS), ("content-type", "application/json"),
                                 ("reply-to", REPLIES)], json.dumps(call(ID % 1))))
        check(reply(r)["id"] == ID % 1, "answered")
        r.close()
        # Even a SEND before CONNECT is taken, as VDSM does.
        r = Raw(srv)
        r.sendall(frame("SUBSCRIBE", [("destination", "q"), ("id", "s")]) +
                  vdsm_send([call(ID % 2)], "q"))
        check(reply(r)["id"] == ID % 2, "SEND before CONNECT")
        r.close()


# ---- 3. heart-beats ----

def test_client_without_beats_outlives_idle_timeout():
    with Server("--idle-timeout", "500ms") as srv:
        r = vdsm_client(srv)  # heart-beat 0,24000: it promises none
        never = Raw(srv)      # never CONNECTs: --idle-timeout applies
        check(never.closed(10), "a connection that never CONNECTed was not dropped")
        time.sleep(2.0)       # four idle timeouts of silence
        r.sendall(vdsm_send([call(ID % 1)], "a5e1-reply"))
        check(reply(r)["id"] == ID % 1, "answered after the silence")
        r.close()


def test_promised_beats_then_silence_is_dropped():
    """cx = 500 ms: tolerated up to 3 intervals, so a 1 s gap is fine, and a
    client that stops beating is dropped."""
    with Server() as srv:
        r = Raw(srv)
        h = r.connect("500,0")
        check(h["heart-beat"] == "0,500", "%r" % h)
        time.sleep(1.0)
        r.sendall(b"\n")
        r.sendall(frame("SUBSCRIBE", [("destination", "q"), ("id", "s")]) + vdsm_send([call(1)], "q"))
        check(reply(r)["id"] == 1, "kept within the grace")
        check(r.closed(10), "a client that promised beats and went silent was kept")
        r.close()


# ---- 4. broker ----

def test_reply_fans_out_to_every_subscriber():
    with Server() as srv:
        a = vdsm_client(srv, REPLIES)
        b = vdsm_client(srv, REPLIES)           # the engine's shared reply topic
        c = vdsm_client(srv, "someone-else")
        a.sendall(vdsm_send([call(ID % 1, "Host.getVMList")], REPLIES))
        da, db = reply(a), reply(b)
        check(da["id"] == ID % 1 and da == db, "both got the reply")
        c.sendall(vdsm_send([call(ID % 2)], "someone-else"))
        check(reply(c)["id"] == ID % 2, "c got only its own")
        for x in (a, b, c):
            x.close()


def test_send_elsewhere_is_forwarded():
    with Server() as srv:
        a, b, p = vdsm_client(srv, "a-r"), Raw(srv), Raw(srv)
        b.connect()
        p.connect()
        b.sendall(frame("SUBSCRIBE", [("destination", "ovirt.events.vm"), ("id", "b1")]))
        p.sendall(frame("SUBSCRIBE", [("destination", "ovirt.events"), ("id", "p1")]))
        time.sleep(0.2)  # no RECEIPT asked: let the subscriptions land
        ev = json.dumps({"jsonrpc": "2.0", "method": "|virt|VM_status|x", "params": {}})
        a.sendall(frame("SEND", [("destination", "ovirt.events.vm"),
                                 ("content-type", "application/json"), ("receipt", "r1")], ev))
        h, _ = a.expect("RECEIPT")
        check(h["receipt-id"] == "r1", "%r" % h)
        for x, sub in ((b, "b1"), (p, "p1")):  # p subscribed to the parent
            h, body = x.expect("MESSAGE")
            check(h["destination"] == "ovirt.events.vm" and h["subscription"] == sub, "%r" % h)
            check(body.decode() == ev and h["content-type"] == "application/json", "%r" % body)
        # Nobody subscribed: VDSM's ERROR, and the connection stays.
        a.sendall(frame("SEND", [("destination", "nobody.here")], "x"))
        h, _ = a.expect("ERROR")
        check(h["message"] == "Subscription not available", "%r" % h)
        a.sendall(vdsm_send([call(ID % 3)], "a-r"))
        check(reply(a)["id"] == ID % 3, "still served after the ERROR")
        for x in (a, b, p):
            x.close()
        err = stderr_after_stop(srv)
        check("1 STOMP messages without a subscriber" in err, "%r" % err)


def test_subscriber_that_never_reads_is_bounded():
    """B shares A's reply topic but does not read: A gets every reply; what
    waits for B stays near the 8 MiB cap (plus kernel buffers) instead of
    every copy, and the dropped copies are counted."""
    with Server() as srv:
        b = socket.socket()
        b.setsockopt(socket.SOL_SOCKET, socket.SO_RCVBUF, 4096)
        b.settimeout(10)
        b.connect((srv.host, srv.port))
        b.sendall(frame("CONNECT", [("accept-version", "1.2"), ("heart-beat", "0,0")]) +
                  frame("SUBSCRIBE", [("destination", REPLIES), ("id", "b")]))
        a = vdsm_client(srv, REPLIES)
        time.sleep(0.2)
        n, sent = 0, 0
        for i in range(80):  # about 550 kB each with 150 VMs
            a.sendall(vdsm_send([call(ID % i, "Host.getAllVmStats")], REPLIES))
            h, body = a.expect("MESSAGE")
            n += json.loads(body)["id"] == ID % i
            sent += len(body)
        check(n == 80, "A got %d of 80" % n)
        check(sent > 32 << 20, "too little sent to test the cap: %d bytes" % sent)
        got = 0
        b.settimeout(1.0)
        try:  # everything serve still held for B (ends at a second of quiet)
            while True:
                chunk = b.recv(1 << 16)
                if not chunk:
                    break
                got += len(chunk)
        except socket.timeout:
            pass
        check(got < 24 << 20, "B was sent %d of %d bytes: no cap" % (got, sent))
        b.close()
        a.close()
        err = stderr_after_stop(srv)
        check("copies dropped for subscribers too far behind" in err, "%r" % err)
        dropped = int(err.split(" copies dropped")[0].rsplit(" ", 1)[1])
        check(dropped > 0, "no copy dropped: %r" % err)


# ---- 7. error texts, message-id ----

def test_vdsm_error_texts():
    with Server() as srv:
        r = vdsm_client(srv)
        vm = "0b4bb1d6-0000-4000-8000-00000000dead"
        r.sendall(vdsm_send([call(ID % 1, "VM.getStats", {"vmID": vm}),
                             call(ID % 2, "Host.noSuchVerb")], "a5e1-reply"))
        doc = reply(r)
        check(doc[0]["error"] == {"code": 1, "message": "Virtual machine does not exist: "
                                  "{'vmId': '%s'}" % vm}, "%r" % doc[0])
        check(doc[1]["error"] == {"code": -32601, "message": "The method does not exist or is "
                                  "not available: {'method': 'Host.noSuchVerb'}"}, "%r" % doc[1])
        r.close()
        x = xmlrpc.client.ServerProxy("http://%s:%d/RPC2" % (srv.host, srv.port))
        res = x.getVmStats(vm)
        check(res["status"] == {"code": 1, "message": "Virtual machine does not exist: "
                                "{'vmId': '%s'}" % vm}, "%r" % res)
        try:
            x.noSuchVerb()
            raise AssertionError("no fault")
        except xmlrpc.client.Fault as f:
            check((f.faultCode, f.faultString) == (1, 'method "noSuchVerb" is not supported'),
                  "%r" % f)


def test_message_id_only_for_client_acks():
    with Server() as srv:
        r = vdsm_client(srv, "auto-q")  # ack:auto, as VDSM's and the engine's clients
        r.sendall(frame("SUBSCRIBE", [("destination", "ack-q"), ("id", "s2"), ("ack", "client")]))
        r.sendall(vdsm_send([call(1)], "auto-q"))
        reply(r)  # asserts the exact header set: no message-id
        r.sendall(vdsm_send([call(2)], "ack-q"))
        h, b = r.expect("MESSAGE")
        check(h.get("message-id") and h.get("ack") == h["message-id"], "%r" % h)
        r.sendall(frame("ACK", [("id", h["ack"])]) + vdsm_send([call(3)], "auto-q"))
        check(reply(r)["id"] == 3, "served after ACK")
        r.sendall(frame("SUBSCRIBE", [("destination", "x"), ("id", "s3"), ("ack", "sometimes")]))
        h, _ = r.expect("ERROR")
        check("ack" in h["message"], "%r" % h)
        r.close()


if __name__ == "__main__":
    run_tests([test_stomp_batches, test_stomp_batch_with_delay_is_one_message, test_batch_cap,
               test_http_batches, test_subscribe_before_connect,
               test_client_without_beats_outlives_idle_timeout,
               test_promised_beats_then_silence_is_dropped,
               test_reply_fans_out_to_every_subscriber, test_send_elsewhere_is_forwarded,
               test_subscriber_that_never_reads_is_bounded, test_vdsm_error_texts,
               test_message_id_only_for_client_acks])
