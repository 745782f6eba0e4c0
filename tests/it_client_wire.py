"""What `rpcbench run` puts on the wire, seen by raw-socket peers written
here (no rpcbench on the server side), as VDSM's own server sees it:
- no connection is opened and closed (or left) without a byte: VDSM's
  protocol detector spins at 100 % CPU on a silent one until its 10 s
  timeout, and the run would measure that;
- STOMP heart-beats go after half the negotiated period of silence, and only
  then: a peer as strict as VDSM (it closes the moment a period passes
  without a byte) keeps the connection, with no reconnect;
- request ids are random version-4 UUIDs, different in two processes run at
  once with the same --seed, and so are their STOMP reply queues and
  subscription ids (VDSM routes replies by id across all connections).
The peers are rpctest.Peer with the handlers here. Then, against `rpcbench serve`: the interval timeline sums to requests.*
on every transport, and a cheap verb at a low rate gets a non-zero server
CPU from schedstat."""
import json
import os
import re
import socket
import subprocess
import tempfile
import time

from rpctest import (RPCBENCH, Peer, Server, check, http_response, jsonrpc_result, main,
                     make_certs, read_http_request, run_json)
from stomptest import frame, parse_frames

UUID4 = re.compile(r"^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$")


def record():
    """What a peer keeps per connection: bytes read, request ids, STOMP
    heart-beats and frames (command, headers), and whether the client closed."""
    return {"bytes": 0, "ids": [], "beats": 0, "closed_by_peer": False, "frames": []}


def recv(c, rec):
    data = c.recv(65536)
    rec["bytes"] += len(data)
    if not data:
        rec["closed_by_peer"] = True
    return data


# ---- HTTP: JSON-RPC answered by hand ----------------------------------------

def http_handler(c, rec):
    pending = b""
    while True:
        got = read_http_request(lambda: recv(c, rec), pending)
        if got is None:
            return
        _, body, pending = got
        rid = json.loads(body)["id"]
        rec["ids"].append(rid)
        c.sendall(http_response(jsonrpc_result(rid), "application/json"))


# ---- STOMP: as VDSM's server does it ------------------------------------------

def stomp_handler(c, rec):
    """VDSM's rules: CONNECTED heart-beat is the client's "cx,cy" swapped
    (at least 1000 each), and the connection is closed the moment cx ms pass
    without a byte from the client."""
    buf, deadline_ms = b"", None
    while True:
        c.settimeout(deadline_ms / 1000.0 if deadline_ms else 30)
        try:
            data = recv(c, rec)
        except socket.timeout:
            rec["silence_close"] = True  # what VDSM would have done
            return
        if not data:
            return
        frames, beats, buf = parse_frames(buf + data)
        rec["beats"] += beats
        for cmd, hdr, body in frames:
            rec["frames"].append((cmd, hdr))
            if cmd == "CONNECT":
                cx, cy = (int(x) for x in hdr.get("heart-beat", "0,0").split(","))
                cx, cy = (max(v, 1000) if v else 0 for v in (cx, cy))
                deadline_ms = cx or None
                c.sendall(frame("CONNECTED", [("version", "1.2"), ("heart-beat", "%d,%d" % (cy, cx))]))
            elif cmd == "SEND":
                rid = json.loads(body)["id"]
                rec["ids"].append(rid)
                c.sendall(frame("MESSAGE", [("destination", hdr["reply-to"])], jsonrpc_result(rid)))
            elif cmd == "DISCONNECT":
                c.sendall(frame("RECEIPT", [("receipt-id", hdr.get("receipt", ""))]))
                return


def run_proc(args, out):
    return subprocess.Popen([RPCBENCH, "run", *args, "--output", out, "--quiet"],
                            stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True)


def finish(p, out):
    _, err = p.communicate(timeout=90)
    check(p.returncode == 0, "run exited %d: %s" % (p.returncode, err.strip()))
    with open(out) as f:
        return json.load(f)


def test_no_silent_connection():
    """Every connection the run opens carries bytes, over HTTP (4 connections
    at 5/s: the pool opens more only when a request finds none free) and
    STOMP; none is a bare connect-and-close."""
    for scheme, handler, proto in (("http", http_handler, "jsonrpc"),
                                   ("stomp", stomp_handler, "jsonrpc")):
        peer = Peer(handler, record)
        try:
            _, r, _ = run_json("--url", "%s://127.0.0.1:%d/jsonrpc" % (scheme, peer.port),
                               "-p", proto, "--verb", "ping", "-R", "5", "-d", "2s", "-c", "4")
            peer.wait_done()
            check(r["requests"]["ok"] == 10, "%s: ok %r" % (scheme, r["requests"]))
            check(peer.conns, "%s: no connection" % scheme)
            silent = [i for i, c in enumerate(peer.conns) if c["bytes"] == 0]
            check(not silent, "%s: connections %r of %d got no byte" % (scheme, silent,
                                                                      len(peer.conns)))
            if scheme == "http":  # one connection keeps up with 5/s: no spare was opened
                check(len(peer.conns) == 1, "http opened %d connections" % len(peer.conns))
            else:
                check(len(peer.conns) == 4, "stomp opened %d connections" % len(peer.conns))
        finally:
            peer.close()


def test_unreachable_sends_nothing():
    """The start-up check is the run's own connect: nothing to a closed port,
    one line, exit 1, at once."""
    s = socket.socket()
    s.bind(("127.0.0.1", 0))
    port = s.getsockname()[1]
    s.close()
    for scheme in ("http", "https", "stomp", "stomps"):
        t = time.monotonic()
        p = subprocess.run([RPCBENCH, "run", "--url", "%s://127.0.0.1:%d/jsonrpc" % (scheme, port),
                            "-p", "jsonrpc", "-d", "5s"], capture_output=True, text=True, timeout=30)
        check(p.returncode == 1, "%s: exit %d" % (scheme, p.returncode))
        check(p.stderr.count("\n") == 1 and "cannot connect" in p.stderr, "%s: %r" % (scheme, p.stderr))
        check(time.monotonic() - t < 4, "%s: took %.1fs" % (scheme, time.monotonic() - t))


def test_heartbeats_half_period():
    """Against a peer that drops a connection after cx ms of silence, as
    VDSM does: a run that sends every 3 s never beats; one that sends once
    in 12 s beats about every 5 s. Neither is dropped or reconnects."""
    peer = Peer(stomp_handler, record)
    try:
        with tempfile.TemporaryDirectory() as d:
            url = "stomp://127.0.0.1:%d" % peer.port
            common = ["--url", url, "-p", "jsonrpc", "--verb", "ping", "-c", "1", "-d", "12s"]
            busy = run_proc(common + ["-R", "1/3s"], os.path.join(d, "busy.json"))
            idle = run_proc(common + ["-R", "1/30s"], os.path.join(d, "idle.json"))
            rb, ri = finish(busy, os.path.join(d, "busy.json")), finish(idle, os.path.join(d, "idle.json"))
        peer.wait_done()
        check(len(peer.conns) == 2, "%d connections: a reconnect" % len(peer.conns))
        check(rb["transport"]["reconnects"] == 0 and ri["transport"]["reconnects"] == 0,
              "reconnects %d %d" % (rb["transport"]["reconnects"], ri["transport"]["reconnects"]))
        check(rb["requests"]["ok"] == 4 and ri["requests"]["ok"] == 1,
              "ok %r %r" % (rb["requests"], ri["requests"]))
        by_count = sorted(peer.conns, key=lambda c: len(c["ids"]))
        quiet, chatty = by_count
        for c in peer.conns:
            check(not c.get("silence_close"), "dropped for silence: %r" % c)
            check(c["frames"][0][1].get("heart-beat") == "10000,10000",
                  "offered %r" % c["frames"][0][1])
        check(chatty["beats"] == 0, "beat while sending every 3 s: %d" % chatty["beats"])
        check(quiet["beats"] >= 2, "%d beats in 12 s of silence" % quiet["beats"])
    finally:
        peer.close()


def test_ids_random_per_process():
    """Two processes at once, same --seed, over STOMP: every id a v4 UUID,
    none shared, each process's ids one counter; reply queues and
    subscription ids differ too."""
    peer = Peer(stomp_handler, record)
    try:
        with tempfile.TemporaryDirectory() as d:
            args = ["--url", "stomp://127.0.0.1:%d" % peer.port, "-p", "jsonrpc", "--verb", "ping",
                    "-R", "20", "-d", "1s", "-c", "2", "--seed", "7"]
            ps = [(run_proc(args, os.path.join(d, "%d.json" % i)), os.path.join(d, "%d.json" % i))
                  for i in range(2)]
            results = [finish(p, out) for p, out in ps]
        peer.wait_done()
        check(all(r["requests"]["ok"] == 20 for r in results), "ok %r" % [r["requests"] for r in results])
        ids, queues, subs = {}, set(), set()
        for c in peer.conns:
            sub = [h for cmd, h in c["frames"] if cmd == "SUBSCRIBE"][0]
            queue = sub["destination"]
            queues.add(queue)
            subs.add(sub["id"])
            proc = queue.rsplit(".", 1)[0]  # jms.queue.rpcbench.<tag>.<connection>
            ids.setdefault(proc, []).extend(c["ids"])
        check(len(queues) == 4 and len(subs) == 4, "queues %r subscriptions %r" % (queues, subs))
        check(len(ids) == 2, "processes seen %r" % list(ids))
        a, b = ids.values()
        for rid in a + b:
            check(UUID4.match(rid), "not a v4 UUID: %r" % rid)
        check(not set(a) & set(b), "shared ids %r" % (set(a) & set(b)))
        for mine in (a, b):
            low = sorted(int(x[-12:], 16) for x in mine)
            check(len(set(x[:24] for x in mine)) == 1, "one prefix per process")
            check(low == list(range(low[0], low[0] + len(low))), "not one counter: %r" % low)
    finally:
        peer.close()


def sums(r, what):
    q, iv = r["requests"], r["intervals"]
    for k in ("sent", "ok", "errors"):
        check(sum(i[k] for i in iv) == q[k], "%s: intervals %s %r sum to %d, requests %d" %
              (what, k, [i[k] for i in iv], sum(i[k] for i in iv), q[k]))


def test_interval_sums_every_transport():
    with tempfile.TemporaryDirectory() as d:
        certs = make_certs(d)
        tls = ("--tls-cert", certs["server_cert"], "--tls-key", certs["server_key"],
               "--tls-ca", certs["ca"])
        client = ["--cacert", certs["ca"], "--cert", certs["client_cert"], "--key", certs["client_key"]]
        with Server("--vms", "2") as s, Server("--vms", "2", *tls) as st:
            port, tport = s.port, st.port
            runs = [("xmlrpc http", ["--url", "http://127.0.0.1:%d/RPC2" % port, "-p", "xmlrpc"]),
                    ("jsonrpc http", ["--url", "http://127.0.0.1:%d/jsonrpc" % port, "-p", "jsonrpc"]),
                    ("stomp", ["--url", "stomp://127.0.0.1:%d" % port, "-p", "jsonrpc"]),
                    ("https", ["--url", "https://127.0.0.1:%d/RPC2" % tport, "-p", "xmlrpc"] + client),
                    ("stomps", ["--url", "stomps://127.0.0.1:%d" % tport, "-p", "jsonrpc"] + client)]
            for what, args in runs:
                _, r, _ = run_json(*args, "--verb", "ping", "-R", "10", "-d", "2s")
                check(r["requests"]["sent"] == 20 and r["requests"]["ok"] == 20, "%s: %r" % (what, r["requests"]))
                sums(r, what)
            # warmup, and errors (an unknown method: a fault each)
            _, r, _ = run_json("--url", "stomp://127.0.0.1:%d" % port, "-p", "jsonrpc",
                               "--method", "No.such", "-R", "10", "-d", "2s", "--warmup", "1s",
                               code=3)
            check(r["requests"]["errors"] == 20, "faults %r" % r["requests"])
            sums(r, "stomp faults with warmup")


def test_cheap_verb_cpu_from_schedstat():
    """ping at 5/s: a few tens of microseconds a call, which 10 ms ticks
    read as zero; schedstat counts it."""
    have = os.path.exists("/proc/self/task/%d/schedstat" % os.getpid())
    _, r, _ = run_json("-p", "jsonrpc", "--verb", "ping", "-R", "5", "-d", "3s")
    cpu = r["server_cpu"]
    check(cpu["source"] == ("schedstat" if have else "ticks"), "source %r" % cpu.get("source"))
    if have:
        check(cpu["cpu_ms_per_call"] > 0, "cpu_ms_per_call %r" % cpu["cpu_ms_per_call"])
        check(all(i["server_cpu_pct"] > 0 for i in r["intervals"]),
              "an interval read zero: %r" % [i["server_cpu_pct"] for i in r["intervals"]])


if __name__ == "__main__":
    main([test_no_silent_connection, test_unreachable_sends_nothing, test_heartbeats_half_period,
          test_ids_random_per_process, test_interval_sums_every_transport,
          test_cheap_verb_cpu_from_schedstat])
