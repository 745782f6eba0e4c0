#!/usr/bin/python3
"""Integration test of `rpcbench serve` over loopback, standard library only.

Starts the real binary ($RPCBENCH) on 127.0.0.1:0, talks XML-RPC with
xmlrpc.client, JSON-RPC with http.client and raw HTTP with sockets, and
checks that after every kind of bad input the next good request still gets
its answer. The quick tests share one server (shared()); the others start
their own with rpctest.Server. Every socket has a timeout; every server is
stopped on the way out.
"""
import http.client
import json
import signal
import socket
import subprocess
import time
import xmlrpc.client

from rpctest import RPCBENCH, Server, check, main, skip

TIMEOUT = 10.0
socket.setdefaulttimeout(TIMEOUT)  # covers xmlrpc.client and http.client
SHARED = []  # the one server the quick tests share, started by shared()


def shared():
    """The `rpcbench serve` with default options that the quick tests share
    (they leave it serving); started on first use, stopped by
    test_shared_server_stops_cleanly."""
    if not SHARED:
        SHARED.append(Server().__enter__())
    return SHARED[0]


def jsonrpc(conn, method, params=None, rid="00000000-0000-4000-8000-000000000001", raw=None):
    body = raw if raw is not None else json.dumps(
        {"jsonrpc": "2.0", "id": rid, "method": method, "params": params or {}})
    conn.request("POST", "/jsonrpc", body, {"Content-Type": "application/json"})
    resp = conn.getresponse()
    data = resp.read()
    return resp.status, (json.loads(data) if data else None)


def read_response(f):
    """Reads one HTTP response from a socket file: (status, headers, body)."""
    status = f.readline()
    check(status.startswith(b"HTTP/1."), "not an HTTP status line: %r" % status)
    headers = {}
    for _ in range(100):
        line = f.readline()
        if line in (b"\r\n", b""):
            break
        k, _, v = line.decode().partition(":")
        headers[k.strip().lower()] = v.strip()
    body = f.read(int(headers.get("content-length", "0")))
    return int(status.split()[1]), headers, body


def expect_status(f, want):
    """Reads one response from socket file f; checks its status is want."""
    st, h, body = read_response(f)
    check(st == want, "status %d, want %d: %r" % (st, want, body[:200]))
    return h, body


def closed_by_server(s):
    """True when the server closes s (reads until EOF or reset, bounded)."""
    try:
        for _ in range(1000):
            if not s.recv(65536):
                return True
    except ConnectionResetError:
        return True
    return False


def still_serves(srv):
    r = srv.xml().ping()
    check(r["status"]["code"] == 0, "XML-RPC ping: %r" % r)
    st, doc = jsonrpc(srv.http(), "Host.ping")
    check(st == 200 and doc["result"] is True, "JSON-RPC ping: %r %r" % (st, doc))


XML_PING = (b"<?xml version='1.0'?><methodCall><methodName>ping</methodName>"
            b"<params></params></methodCall>")


def post(path, body, extra=b""):
    return (b"POST " + path + b" HTTP/1.1\r\nHost: x\r\nContent-Length: " +
            str(len(body)).encode() + b"\r\n" + extra + b"\r\n" + body)


# ---- tests on the shared server (shared()) ----

def test_xmlrpc_verbs():
    srv = shared()
    p = srv.xml()
    r = p.getAllVmStats()
    check(r["status"] == {"code": 0, "message": "Done"}, "status %r" % r["status"])
    check(len(r["statsList"]) == 150, "%d VMs, want 150" % len(r["statsList"]))
    vm = r["statsList"][0]
    check(45 <= len(vm) <= 50, "%d keys per VM" % len(vm))  # RunningVmStats has 50 keys
    check(isinstance(vm["cpuUser"], str) and isinstance(vm["vcpuPeriod"], int),
          "types: cpuUser %r vcpuPeriod %r" % (vm["cpuUser"], vm["vcpuPeriod"]))
    lst = p.list()
    check(lst["status"]["code"] == 0 and len(lst["vmList"]) == 150,
          "list: %r, %d VMs" % (lst["status"], len(lst["vmList"])))
    check(set(lst["vmList"][0]) == SHORT, "list entry %r" % lst["vmList"][0])
    ping = p.ping()
    check(ping == {"status": {"code": 0, "message": "Done"}}, "ping %r" % ping)
    vid = lst["vmList"][3]["vmId"]
    one = p.getVmStats(vid)
    check(one["status"]["code"] == 0 and [v["vmId"] for v in one["statsList"]] == [vid],
          "getVmStats(%s): %r" % (vid, one["status"]))
    bad = p.getVmStats("00000000-0000-0000-0000-000000000000")
    check(bad["status"]["code"] == 1, "unknown VM: %r" % bad)
    root = srv.xml("/").ping()  # "/" is XML-RPC too
    check(root["status"]["code"] == 0, "ping on /: %r" % root)


def test_jsonrpc_verbs():
    srv = shared()
    c = srv.http()
    st, doc = jsonrpc(c, "Host.getAllVmStats", rid="00000000-0000-4000-8000-0000000000aa")
    check(st == 200 and doc["jsonrpc"] == "2.0", "status %r, jsonrpc %r" % (st, doc.get("jsonrpc")))
    check(doc["id"] == "00000000-0000-4000-8000-0000000000aa", "id %r" % doc["id"])
    check(len(doc["result"]) == 150 and "disks" in doc["result"][0],
          "%d VMs, first has keys %r" % (len(doc["result"]), sorted(doc["result"][0])[:10]))
    st, doc = jsonrpc(c, "Host.getVMList", {"onlyUUID": False})
    vid = doc["result"][5]["vmId"]
    st, doc = jsonrpc(c, "VM.getStats", {"vmID": vid})
    check([v["vmId"] for v in doc["result"]] == [vid], "VM.getStats(%s): %r" % (vid, doc))
    st, doc = jsonrpc(c, "VM.getStats", {"vmID": "nope"})
    check(doc["error"]["code"] == 1, "unknown VM: %r" % doc)
    st, doc = jsonrpc(c, "Host.ping")
    check(doc["result"] is True, "Host.ping: %r" % doc)


# VMFullInfo's properties without a default (VDSM's vdsm-api.yml).
FULL_REQUIRED = {"acpiEnable", "arch", "clientIp", "cpuType", "custom", "devices",
                 "emulatedMachine", "guestDiskMapping", "guestFQDN", "guestIPs", "keyboardLayout",
                 "kvmEnable", "memGuaranteedSize", "memSize", "nicModel", "nice", "pauseCode",
                 "pid", "pitReinjection", "smartcardEnable", "smp", "smpCoresPerSocket",
                 "spiceSslCipherSuite", "status", "statusTime", "timeOffset",
                 "transparentHugePages", "username", "vmId", "vmName", "vmType"}
SHORT = {"vmId", "status", "statusTime"}  # a list entry without fullStatus


def check_full(vms, ids):
    """vms are full VM definitions (VMFullInfo), of exactly ids in order."""
    check([v["vmId"] for v in vms] == ids, "ids %r..., want %r..." % ([v["vmId"] for v in vms][:3], ids[:3]))
    for v in vms:
        check(FULL_REQUIRED <= set(v), "missing %r" % (FULL_REQUIRED - set(v)))
        check(isinstance(v["memSize"], int) and isinstance(v["smp"], int),
              "types: memSize %r smp %r" % (v["memSize"], v["smp"]))
        check(v["kvmEnable"] is True and v["display"] == "qxl",
              "kvmEnable %r display %r" % (v["kvmEnable"], v["display"]))
        kinds = [d["deviceType"] for d in v["devices"]]
        check({"disk", "interface", "graphics"} <= set(kinds), "devices %r" % kinds)


def test_xmlrpc_full_list():
    """vdsClient's "list table": list(True, vmIds) answers full definitions;
    list() and list(False) the short status."""
    srv = shared()
    p = srv.xml()
    ids = [v["vmId"] for v in p.list()["vmList"]]
    r = p.list(True, [])
    check(r["status"] == {"code": 0, "message": "Done"}, "status %r" % r["status"])
    check_full(r["vmList"], ids)
    check(isinstance(r["vmList"][0]["statusTime"], int),  # the schema's uint: <i8> here
          "statusTime %r" % r["vmList"][0]["statusTime"])
    r = p.list(True, [ids[9], ids[4], "00000000-0000-4000-8000-00000000dead"])
    check_full(r["vmList"], [ids[4], ids[9]])  # the host's order; unknown ids skipped
    for short in (p.list(False), p.list(False, [ids[1]])):
        check(set(short["vmList"][0]) == SHORT, "list(False): %r" % short["vmList"][0])


def test_jsonrpc_full_list():
    srv = shared()
    c = srv.http()
    ids = [v["vmId"] for v in jsonrpc(c, "Host.getVMList", {"onlyUUID": False})[1]["result"]]
    st, doc = jsonrpc(c, "Host.getVMFullList")
    check(st == 200, "status %r" % st)
    check_full(doc["result"], ids)
    full_json = len(json.dumps(doc["result"], separators=(",", ":")))
    check_full(jsonrpc(c, "Host.getVMFullList", {"vmList": [ids[7]]})[1]["result"], [ids[7]])
    check_full(jsonrpc(c, "Host.getVMList", {"fullStatus": True})[1]["result"], ids)
    check_full(jsonrpc(c, "Host.getVMList", {"fullStatus": True, "vmList": [ids[2], ids[1]]})
                [1]["result"], [ids[1], ids[2]])
    short = jsonrpc(c, "Host.getVMList", {"onlyUUID": True})[1]["result"]
    check(set(short[0]) == SHORT, "onlyUUID: %r" % short[0])
    err = jsonrpc(c, "Host.getVMFullList", {"vmList": ids[0]})[1]
    check(err["error"]["code"] == -32602, "a bad vmList: %r" % err)
    # Full definitions are several KB per VM, more than the stats.
    stats = jsonrpc(c, "Host.getAllVmStats")[1]["result"]
    stats_json = len(json.dumps(stats, separators=(",", ":")))
    check(4000 <= full_json / len(ids) <= 9000, "%d bytes per VM" % (full_json / len(ids)))
    check(full_json > stats_json, "full %d bytes, stats %d" % (full_json, stats_json))


def test_counters_move():
    srv = shared()
    c = srv.http()
    a = jsonrpc(c, "Host.getAllVmStats")[1]["result"][0]
    time.sleep(0.05)
    b = jsonrpc(c, "Host.getAllVmStats")[1]["result"][0]
    check(a["vmId"] == b["vmId"], "first VM %s then %s" % (a["vmId"], b["vmId"]))
    check(int(b["statusTime"]) > int(a["statusTime"]),
          "statusTime %s then %s" % (a["statusTime"], b["statusTime"]))
    check(int(b["cpuUsage"]) >= int(a["cpuUsage"]), "cpuUsage %s then %s" % (a["cpuUsage"], b["cpuUsage"]))


def test_protocol_errors():
    srv = shared()
    c = srv.http()
    doc = jsonrpc(c, None, raw="{not json")[1]
    check(doc["error"]["code"] == -32700, "not JSON: %r" % doc)
    # A batch of two non-requests: one -32600 each, in one array.
    doc = jsonrpc(c, None, raw="[1, 2]")[1]
    check([d["error"]["code"] for d in doc] == [-32600, -32600], "batch [1, 2]: %r" % doc)
    st, doc = jsonrpc(c, "Host.noSuchVerb")
    check(doc["error"] == {"code": -32601, "message": "The method does not exist or is not "
                            "available: {'method': 'Host.noSuchVerb'}"}, doc)
    check(doc["id"] is not None, "an error answer without its id: %r" % doc)
    st, doc = jsonrpc(c, "Host.ping")  # same keep-alive connection
    check(doc["result"] is True, "Host.ping: %r" % doc)
    try:  # Python's SimpleXMLRPCDispatcher's fault, as VDSM <= 4.19 sent it
        srv.xml().noSuchMethod()
        raise AssertionError("no fault")
    except xmlrpc.client.Fault as f:
        check(f.faultCode == 1 and f.faultString == 'method "noSuchMethod" is not supported', f)
    for garbage in (b"garbage", b"<methodCall><unclosed>", b"\x00\xff" * 50):
        c.request("POST", "/RPC2", garbage, {"Content-Type": "text/xml"})
        r = c.getresponse()
        body = r.read()
        check(r.status == 200 and b"<fault>" in body and b"-32700" in body,
              "%r: %d %r" % (garbage[:20], r.status, body[:300]))
    still_serves(srv)


def test_notification_gets_204():
    srv = shared()
    c = srv.http()
    st, doc = jsonrpc(c, None, raw=json.dumps({"jsonrpc": "2.0", "method": "Host.ping"}))
    check(st == 204 and doc is None, "a notification got %r %r" % (st, doc))
    check(jsonrpc(c, "Host.ping")[1]["result"] is True, "no ping on the same connection")


def test_routes_and_methods():
    srv = shared()
    c = srv.http()
    c.request("POST", "/nowhere", "x")
    r = c.getresponse()
    r.read()
    check(r.status == 404, "POST /nowhere: %d" % r.status)
    c.request("GET", "/RPC2")
    r = c.getresponse()
    r.read()
    check(r.status == 405 and r.getheader("Allow") == "POST",
          "GET /RPC2: %d Allow %r" % (r.status, r.getheader("Allow")))
    check(jsonrpc(c, "Host.ping")[1]["result"] is True, "not kept alive")


def test_broken_http():
    srv = shared()
    for junk in (b"GARBAGE\r\n\r\n", b"POST /RPC2 HTTP/1.1\r\nContent-Length: zz\r\n\r\n",
                 b"\x16\x03\x01\x00\xa5\x01\x00\x00\xa1\x03\x03"):
        s = srv.sock()
        s.sendall(junk)
        f = s.makefile("rb")
        st, _, _ = read_response(f)
        check(st == 400, "%r: status %d" % (junk, st))
        check(closed_by_server(s), "the server left the connection open")
        f.close()
        s.close()
    still_serves(srv)


def test_truncated_request():
    srv = shared()
    s = srv.sock()
    s.sendall(b"POST /RPC2 HTTP/1.1\r\nHost: x\r\nContent-Length: 1000\r\n\r\n<?xml")
    s.close()
    s = srv.sock()
    s.sendall(b"POST /jsonrpc HTTP/1.1\r\nHost: x\r\nContent-Le")
    s.shutdown(socket.SHUT_WR)
    check(closed_by_server(s), "the server left the connection open")
    s.close()
    still_serves(srv)


def test_pipelined():
    srv = shared()
    reqs = [post(b"/RPC2", XML_PING)]
    for i in range(5):
        body = json.dumps({"jsonrpc": "2.0", "id": "id-%d" % i, "method": "Host.ping"})
        reqs.append(post(b"/jsonrpc", body.encode()))
    reqs.append(post(b"/nowhere", b"x"))
    reqs.append(post(b"/jsonrpc", b'{"jsonrpc":"2.0","id":"last","method":"Host.getVMList"}'))
    s = srv.sock()
    s.sendall(b"".join(reqs))
    f = s.makefile("rb")
    st, h, body = read_response(f)
    check(st == 200 and b"<methodResponse>" in body, "XML-RPC first: %d %r" % (st, body[:200]))
    for i in range(5):
        st, h, body = read_response(f)
        check(st == 200 and json.loads(body)["id"] == "id-%d" % i, "answer %d: %d %r" % (i, st, body[:200]))
    expect_status(f, 404)
    st, h, body = read_response(f)
    doc = json.loads(body)
    check(doc["id"] == "last" and len(doc["result"]) == 150, "last answer %r" % body[:200])
    f.close()
    s.close()


def test_connection_close_and_http10():
    srv = shared()
    s = srv.sock()
    s.sendall(post(b"/RPC2", XML_PING, b"Connection: close\r\n"))
    f = s.makefile("rb")
    st, h, _ = read_response(f)
    check(st == 200 and h.get("connection") == "close", "%d Connection %r" % (st, h.get("connection")))
    check(closed_by_server(s), "the server left the connection open")
    f.close()
    s.close()
    s = srv.sock()
    s.sendall(post(b"/RPC2", XML_PING).replace(b"HTTP/1.1", b"HTTP/1.0"))
    f = s.makefile("rb")
    expect_status(f, 200)
    check(closed_by_server(s), "the server left the connection open")
    f.close()
    s.close()
    s = srv.sock()  # HTTP/1.0 asking for keep-alive keeps it
    req = post(b"/RPC2", XML_PING, b"Connection: keep-alive\r\n").replace(b"HTTP/1.1", b"HTTP/1.0")
    s.sendall(req + req)
    f = s.makefile("rb")
    st, h, _ = read_response(f)
    check(st == 200 and h.get("connection") == "keep-alive",
          "%d Connection %r" % (st, h.get("connection")))
    expect_status(f, 200)
    f.close()
    s.close()


def test_many_connections():
    srv = shared()
    socks = [srv.sock() for _ in range(200)]
    try:
        for i, s in enumerate(socks):
            body = json.dumps({"jsonrpc": "2.0", "id": str(i), "method": "Host.ping"})
            s.sendall(post(b"/jsonrpc", body.encode()))
        for i, s in enumerate(socks):
            f = s.makefile("rb")
            st, _, body = read_response(f)
            check(st == 200 and json.loads(body)["id"] == str(i), "connection %d: %d %r" % (i, st, body[:200]))
            f.close()
    finally:
        for s in socks:
            s.close()
    still_serves(srv)


def test_big_body_accepted():
    """A body larger than one read buffer (64 KiB) arrives in pieces."""
    srv = shared()
    pad = " " * 300000
    c = srv.http()
    st, doc = jsonrpc(c, None, raw='{"jsonrpc":"2.0","id":"big",%s"method":"Host.ping"}' % pad)
    check(st == 200 and doc["id"] == "big" and doc["result"] is True, "%r %r" % (st, doc))


def test_expect_continue():
    srv = shared()
    body = b'{"jsonrpc":"2.0","id":"e","method":"Host.ping"}'
    s = srv.sock()
    s.sendall(b"POST /jsonrpc HTTP/1.1\r\nHost: x\r\nExpect: 100-continue\r\n"
              b"Content-Length: %d\r\n\r\n" % len(body))
    f = s.makefile("rb")
    interim = f.readline() + f.readline()
    check(interim == b"HTTP/1.1 100 Continue\r\n\r\n", "interim response %r" % interim)
    s.sendall(body)
    st, _, data = read_response(f)
    check(st == 200 and json.loads(data)["id"] == "e", "%d %r" % (st, data[:200]))
    f.close()
    s.close()


# ---- tests that need their own server ----

def test_max_body():
    with Server("--max-body", "1k") as srv:
        s = srv.sock()
        s.sendall(b"POST /RPC2 HTTP/1.1\r\nHost: x\r\nContent-Length: 5000\r\n\r\n")
        f = s.makefile("rb")
        expect_status(f, 413)
        check(closed_by_server(s), "the server left the connection open")
        f.close()
        s.close()
        s = srv.sock()  # a chunked body is counted as it streams
        s.sendall(b"POST /jsonrpc HTTP/1.1\r\nHost: x\r\nTransfer-Encoding: chunked\r\n\r\n")
        for _ in range(3):
            s.sendall(b"200\r\n" + b" " * 512 + b"\r\n")
        f = s.makefile("rb")
        expect_status(f, 413)
        f.close()
        s.close()
        c = srv.http()  # 1k itself is fine
        body = '{"jsonrpc":"2.0","id":"x","method":"Host.ping"}'.ljust(1024)
        check(jsonrpc(c, None, raw=body)[1]["result"] is True, "a 1k body was refused")
        still_serves(srv)


def test_idle_timeout():
    with Server("--idle-timeout", "1s") as srv:
        s = srv.sock()  # says nothing
        s2 = srv.sock()  # slow: never finishes its headers
        s2.sendall(b"POST /RPC2 HTTP/1.1\r\nHost: x\r\n")
        c = srv.http()  # an active client is not disturbed
        check(jsonrpc(c, "Host.ping")[1]["result"] is True, "no ping on the same connection")
        check(closed_by_server(s), "the server left the connection open")
        check(closed_by_server(s2), "the server left the connection open")
        s.close()
        s2.close()
        still_serves(srv)


def test_max_connections():
    with Server("--max-connections", "3") as srv:
        held = [srv.sock() for _ in range(3)]
        for s in held:  # make sure the server has accepted each
            s.sendall(post(b"/RPC2", XML_PING))
            f = s.makefile("rb")
            expect_status(f, 200)
            f.close()
        extra = srv.sock()
        check(closed_by_server(extra), "the server left the connection open")
        extra.close()
        for s in held:
            s.close()
        for _ in range(100):  # until the server has seen the closes
            try:
                still_serves(srv)
                break
            except (OSError, http.client.HTTPException, xmlrpc.client.ProtocolError):
                time.sleep(0.05)
        else:
            raise AssertionError("never served again")


def test_delay_does_not_block():
    with Server("--delay", "400ms") as srv:
        socks = [srv.sock() for _ in range(5)]
        t0 = time.monotonic()
        for s in socks:
            s.sendall(post(b"/RPC2", XML_PING))
        for s in socks:
            f = s.makefile("rb")
            expect_status(f, 200)
            f.close()
            s.close()
        # Served one after another this would take 2 s.
        took = time.monotonic() - t0
        check(took < 1.6, "5 delayed calls took %.2fs: served one after another" % took)
    with Server("--delay", "exp:1ms", "--seed", "3") as srv:
        still_serves(srv)
    with Server("--delay", "uniform:1ms:3ms", "--work-us-per-vm", "10", "--vms", "7") as srv:
        n = len(srv.xml().getAllVmStats()["statsList"])
        check(n == 7, "%d VMs, want 7" % n)


def answer_times(srv, n):
    """Sends n XML-RPC pings at once on n connections; returns the seconds
    each answer took, sorted."""
    socks = [srv.sock() for _ in range(n)]
    t0 = time.monotonic()
    for s in socks:
        s.sendall(post(b"/RPC2", XML_PING))
    took = []
    for s in socks:
        f = s.makefile("rb")
        expect_status(f, 200)
        took.append(time.monotonic() - t0)
        f.close()
        s.close()
    return sorted(took)


def test_workers_queue_the_delay():
    # One worker, 100 ms each: the k-th answer cannot come before k * 100 ms
    # (a lower bound the server's timers set, so it cannot flake).
    with Server("--delay", "100ms", "--workers", "1") as srv:
        took = answer_times(srv, 5)
        for k, t in enumerate(took, 1):
            check(t >= k * 0.1 - 0.005, "answer %d after %.3fs with one 100ms worker: %r"
                  % (k, t, took))
        still_serves(srv)
    # Two workers: pairs, so the fifth waits for two rounds before its own.
    with Server("--delay", "100ms", "--workers", "2") as srv:
        took = answer_times(srv, 5)
        check(took[-1] >= 0.295, "5th answer after %.3fs with two workers" % took[-1])
        check(took[1] < took[-1], "two workers answered one at a time: %r" % took)
    # Default 0 workers: the five delays overlap (one after another: 0.5 s).
    with Server("--delay", "100ms") as srv:
        took = answer_times(srv, 5)
        check(took[-1] < 0.4, "5 delayed calls took %.3fs without workers" % took[-1])


def test_seed_reproducible():
    ids = []
    for seed in ("5", "5", "6"):
        with Server("--seed", seed, "--vms", "3") as srv:
            ids.append([v["vmId"] for v in srv.xml().list()["vmList"]])
    check(ids[0] == ids[1] and ids[0] != ids[2], "VM ids by seed 5, 5, 6: %r" % [i[:1] for i in ids])


def test_ipv6():
    """serve on [::1]; skipped (not passed) where the host has no IPv6 loopback."""
    try:
        with socket.socket(socket.AF_INET6) as probe:
            probe.bind(("::1", 0))
    except OSError as e:
        skip("no IPv6 loopback (%s)" % e)
    with Server(listen="[::1]:0") as srv:
        check(srv.addr.startswith("[::1]:") and srv.host == "::1", "listening on %r" % srv.addr)
        still_serves(srv)
        st, doc = jsonrpc(srv.http(), "Host.getVMList")
        check(st == 200 and len(doc["result"]) == 150, "over IPv6: %r %r" % (st, doc))


def test_sigterm_exits_0():
    with Server() as srv:
        held = srv.sock()  # an open connection does not hold up the exit
        srv.xml().ping()
        srv.proc.send_signal(signal.SIGTERM)
        check(srv.proc.wait(5) == 0, "exit status %r after SIGTERM" % srv.proc.returncode)
        held.close()


def test_sigterm_right_after_listening():
    """SIGTERM as soon as serve says "listening on", one host and a fleet:
    exit 0, every time. Its signal watchers used to start after that line,
    and a SIGTERM in between killed it by the default action (-15)."""
    for args in ([], ["--hosts", "2"]):
        for i in range(5):
            with Server(*args) as srv:
                code, err = srv.stop()
            check(code == 0, "serve %r, try %d: exit %r %s" % (args, i, code, err[-300:]))


def test_usage():
    def run(*args):
        return subprocess.run([RPCBENCH, "serve", *args], capture_output=True, timeout=TIMEOUT)
    r = run("--help")
    check(r.returncode == 0 and b"--listen" in r.stdout, "--help: exit %d %r" % (r.returncode, r.stdout[:200]))
    for bad in (["--vms", "x"], ["--bogus"], ["--listen", "nope"], ["--delay", "uniform:5ms"],
                ["--max-body", "lots"], ["--idle-timeout", "0"], ["extra"],
                ["--workers", "-1"], ["--workers", "x"]):
        r = run(*bad)
        check(r.returncode == 2, "%r: exit %d" % (bad, r.returncode))
        check(len(r.stderr.decode().strip().splitlines()) == 1, "%r: stderr %r" % (bad, r.stderr))


def test_shared_server_stops_cleanly():
    """After all the quick tests, the shared server is alive and stops with
    status 0 on SIGTERM (under ASan this also checks for leaks)."""
    srv = shared()
    srv.alive("after the tests on the shared server")
    code, err = srv.stop()
    check(code == 0, "the shared server exited %r on SIGTERM: %s" % (code, err[-3000:]))


if __name__ == "__main__":
    try:
        main([test_xmlrpc_verbs, test_jsonrpc_verbs, test_xmlrpc_full_list, test_jsonrpc_full_list,
              test_counters_move, test_protocol_errors,
              test_notification_gets_204, test_routes_and_methods, test_broken_http,
              test_truncated_request, test_pipelined, test_connection_close_and_http10,
              test_many_connections, test_big_body_accepted, test_expect_continue,
              test_shared_server_stops_cleanly,
              test_max_body, test_idle_timeout, test_max_connections, test_delay_does_not_block,
              test_workers_queue_the_delay,
              test_seed_reproducible, test_ipv6, test_sigterm_exits_0,
              test_sigterm_right_after_listening, test_usage])
    finally:
        for srv in SHARED:
            srv.__exit__(None, None, None)
