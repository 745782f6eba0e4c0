#!/usr/bin/python3
"""Integration test of `rpcbench serve` speaking VDSM's JSON-RPC over STOMP 1.2.

An independent client (Debian's python3-stomp) and a raw-socket client
(tests/stomptest.py) talk to the real binary ($RPCBENCH) on 127.0.0.1:0:
replies matched by id, frames split and batched, many requests in flight,
heart-beats both ways, ERROR frames for bad input while other connections
keep working, DISCONNECT with receipt. Every wait is bounded; every server
is killed in finally (the context managers).
"""
import json
import os
import queue
import sys
import time

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from rpctest import main as run_tests  # noqa: E402
from stomptest import REQUESTS, Raw, Server, check, frame, request, send  # noqa: E402

ID = "00000000-0000-4000-8000-%012x"


def test_stomp_py_get_all_vm_stats():
    import stomp
    with Server() as srv:
        got = queue.Queue()

        class Listener(stomp.ConnectionListener):
            def on_message(self, f):
                got.put(f)

        conn = stomp.Connection12([(srv.host, srv.port)], timeout=10, heartbeats=(0, 0))
        conn.set_listener("t", Listener())
        conn.connect(wait=True)
        try:
            reply_q = "jms.topic.vdsm_responses.test-1"
            conn.subscribe(destination=reply_q, id="sub-1", ack="auto")
            conn.send(destination=REQUESTS, body=request(ID % 42, "Host.getAllVmStats"),
                      content_type="application/json", headers={"reply-to": reply_q})
            f = got.get(timeout=10)
            reply = json.loads(f.body)
            check(reply.get("id") == ID % 42, "wrong id: %r" % reply.get("id"))
            stats = reply.get("result")
            check(isinstance(stats, list) and len(stats) == 150,
                  "want 150 stats, got %r" % (len(stats) if isinstance(stats, list) else stats))
            check(all("vmId" in s for s in stats), "a stats object without vmId")
            check(f.headers.get("subscription") == "sub-1", "subscription: %r" % f.headers)
            check(f.headers.get("destination") == reply_q, "destination: %r" % f.headers)
            check(f.headers.get("content-type") == "application/json", "%r" % f.headers)
        finally:
            conn.disconnect(receipt="bye")  # waits for the RECEIPT


def test_several_frames_in_one_write():
    with Server() as srv:
        r = Raw(srv)
        r.sendall(frame("CONNECT", [("accept-version", "1.1,1.2"), ("host", "x")]) +
                  frame("SUBSCRIBE", [("destination", "rq"), ("id", "s"), ("ack", "auto")]) +
                  b"".join(send(ID % i, "rq") for i in range(1, 4)))
        r.expect("CONNECTED")
        ids = []
        for _ in range(3):
            h, b = r.expect("MESSAGE")
            ids.append(json.loads(b)["id"])
            check(h["subscription"] == "s", "subscription %r" % h)
        check(ids == [ID % i for i in range(1, 4)], "ids %r" % ids)  # no delay: in order
        r.close()


def test_frame_split_over_many_writes():
    with Server() as srv:
        r = Raw(srv)
        data = frame("CONNECT", [("accept-version", "1.2")]) + \
            frame("SUBSCRIBE", [("destination", "rq"), ("id", "s")]) + \
            send(ID % 7, "rq", "Host.getVMList") + \
            b"SEND\ndestination:" + REQUESTS.encode() + b"\nreply-to:rq\n\n" + \
            request(ID % 8).encode() + b"\0"  # no content-length: ends at the NUL
        for i in range(0, len(data), 5):
            r.sendall(data[i:i + 5])
            time.sleep(0.001)
        r.expect("CONNECTED")
        for want in (7, 8):
            _, b = r.expect("MESSAGE")
            check(json.loads(b)["id"] == ID % want, "id %r" % b[:100])
        r.close()


def test_many_in_flight_with_delay():
    """50 requests at once, each delayed on its own timer: all answered."""
    with Server("--delay", "uniform:1ms:40ms") as srv:
        r = Raw(srv)
        r.connect()
        r.subscribe("rq", "s")
        want = {ID % i for i in range(100, 150)}
        r.sendall(b"".join(send(i, "rq", "Host.getVMList") for i in sorted(want)))
        got = []
        for _ in range(50):
            _, b = r.expect("MESSAGE")
            reply = json.loads(b)
            check(len(reply["result"]) == 150, "VM list of %d" % len(reply["result"]))
            got.append(reply["id"])
        check(set(got) == want and len(got) == 50, "ids: %d unique of %d" % (len(set(got)), 50))
        # The connection still takes requests after the burst.
        r.sendall(send(ID % 1, "rq"))
        _, b = r.expect("MESSAGE")
        check(json.loads(b)["result"] is True, "ping %r" % b)
        r.close()


def test_notification_and_legacy_and_unsubscribe():
    with Server() as srv:
        r = Raw(srv)
        r.connect()
        r.subscribe("gone", "s-gone")
        r.subscribe("/queue/_local/vdsm/reponses", "s-legacy")
        r.sendall(frame("UNSUBSCRIBE", [("id", "s-gone")]))
        note = json.dumps({"jsonrpc": "2.0", "method": "Host.ping", "params": {}})
        r.sendall(frame("SEND", [("destination", REQUESTS), ("reply-to", "gone")], note))
        r.sendall(send(ID % 2, "gone"))  # nobody subscribed: dropped, as a broker would
        # Legacy destination, no reply-to: the answer goes to the legacy reply queue.
        r.sendall(frame("SEND", [("destination", "/queue/_local/vdsm/requests")],
                        request(ID % 3)))
        h, b = r.expect("MESSAGE")  # answers go out in order without --delay
        check(json.loads(b)["id"] == ID % 3, "first reply is not the legacy one: %r" % b[:100])
        check(h["subscription"] == "s-legacy", "%r" % h)
        r.close()


def test_heartbeats():
    with Server() as srv:
        # The client wants one every 200 ms: it gets "\n" beats.
        r = Raw(srv)
        h = r.connect("0,200")
        check(h["heart-beat"].split(",")[0] == "200", "heart-beat %r" % h)
        r.subscribe("rq", "s")
        deadline = time.monotonic() + 10
        while r.beats < 3 and time.monotonic() < deadline:
            r.sendall(send(ID % 1, "rq"))  # frames in between are fine
            r.expect("MESSAGE")
            time.sleep(0.2)
        check(r.beats >= 3, "got %d heart-beats" % r.beats)
        r.close()
        # The client promises one every 200 ms: kept while it beats, dropped
        # once silent (3 x 200 ms), while a quiet client without beats stays.
        quiet = Raw(srv)
        quiet.connect("0,0")
        r = Raw(srv)
        h = r.connect("200,0")
        check(h["heart-beat"] == "0,200", "heart-beat %r" % h)
        for _ in range(20):
            r.sendall(b"\n")
            time.sleep(0.05)
        r.subscribe("rq", "s")
        r.sendall(send(ID % 5, "rq"))
        r.expect("MESSAGE")
        check(r.closed(10), "a silent client was not dropped")
        quiet.subscribe("rq", "s")
        quiet.sendall(send(ID % 6, "rq"))
        quiet.expect("MESSAGE")
        quiet.close()


BAD = [
    ("unknown command", [frame("CONNECT", [("accept-version", "1.2")]), frame("FROB")],
     "unknown", None),
    ("SEND without destination",
     [frame("STOMP", [("accept-version", "1.2")]), frame("SEND", [("receipt", "r-9")], "{}")],
     "destination", "r-9"),
    ("oversized", [frame("CONNECT", [("accept-version", "1.2")]),
                   b"SEND\ndestination:" + REQUESTS.encode() + b"\ncontent-length:100000\n\n"],
     "too large", None),
    ("no NUL", [frame("CONNECT", [("accept-version", "1.2")]),
                b"SEND\ndestination:x\ncontent-length:2\n\nabc\0"], "no NUL", None),
    ("bad escape", [frame("CONNECT", [("accept-version", "1.2")]),
                    b"SEND\ndestination:a\\tb\n\n\0"], "escape", None),
    ("old version", [frame("CONNECT", [("accept-version", "1.0")])], "1.2", None),
]


def test_bad_input_error_then_close():
    with Server("--max-body", "16KiB") as srv:
        good = Raw(srv)
        good.connect()
        good.subscribe("rq", "s")
        for name, writes, why, receipt in BAD:
            r = Raw(srv)
            for w in writes:
                r.sendall(w)
            c, h, b = r.read()
            while c == "CONNECTED":
                c, h, b = r.read()
            check(c == "ERROR", "%s: got %s" % (name, c))
            check(why in h.get("message", ""), "%s: message %r" % (name, h))
            check(h.get("receipt-id") == receipt, "%s: receipt-id %r" % (name, h))
            check(r.closed(), "%s: not closed after ERROR" % name)
            r.close()
            good.sendall(send(ID % 9, "rq"))
            _, b = good.expect("MESSAGE")
            check(json.loads(b)["id"] == ID % 9, "the good connection broke after %s" % name)
        good.close()
        code, err = srv.stop()
        last = err.strip().splitlines()[-1]
        check(code == 0, "exit %d" % code)
        check("(%d over STOMP)" % len(BAD) in last, "closing line: %r" % last)
        check("%d bad" % len(BAD) in last, "closing line: %r" % last)


def test_disconnect_with_receipt_after_delayed_answers():
    with Server("--delay", "100ms") as srv:
        r = Raw(srv)
        r.connect()
        r.subscribe("rq", "s")
        r.sendall(send(ID % 1, "rq") + frame("DISCONNECT", [("receipt", "77")]))
        _, b = r.expect("MESSAGE")  # owed answers go out first
        check(json.loads(b)["id"] == ID % 1, "%r" % b)
        h, _ = r.expect("RECEIPT")
        check(h.get("receipt-id") == "77", "%r" % h)
        check(r.closed(), "not closed after DISCONNECT")
        r.close()


def main():
    tests = [test_stomp_py_get_all_vm_stats, test_several_frames_in_one_write,
             test_frame_split_over_many_writes, test_many_in_flight_with_delay,
             test_notification_and_legacy_and_unsubscribe, test_heartbeats,
             test_bad_input_error_then_close, test_disconnect_with_receipt_after_delayed_answers]
    run_tests(tests)


if __name__ == "__main__":
    main()
