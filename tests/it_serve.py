#!/usr/bin/python3
"""Integration test of `rpcbench serve` over loopback, standard library only.

Starts the real binary ($RPCBENCH) on 127.0.0.1:0, talks XML-RPC with
xmlrpc.client, JSON-RPC with http.client and raw HTTP with sockets, and
checks that after every kind of bad input the next good request still gets
its answer. Every socket has a timeout; every server is killed in finally.
"""
import http.client
import json
import os
import select
import signal
import socket
import subprocess
import sys
import tempfile
import time
import traceback
import xmlrpc.client

RPCBENCH = os.environ.get("RPCBENCH") or os.path.join(
    os.path.dirname(os.path.abspath(__file__)), "..", "rpcbench")
TIMEOUT = 10.0
socket.setdefaulttimeout(TIMEOUT)  # covers xmlrpc.client and http.client


class Server:
    """`rpcbench serve` on an ephemeral port; use as a context manager."""

    def __init__(self, *args, listen="127.0.0.1:0"):
        self.errlog = tempfile.TemporaryFile()
        self.proc = subprocess.Popen([RPCBENCH, "serve", "--listen", listen, *args],
                                     stdout=subprocess.PIPE, stderr=self.errlog)
        ready, _, _ = select.select([self.proc.stdout], [], [], TIMEOUT)
        line = self.proc.stdout.readline().decode() if ready else ""
        if not line.startswith("listening on "):
            self.kill()
            raise AssertionError("no listening line, got %r" % line)
        self.addr = line.split()[-1]
        host, _, port = self.addr.rpartition(":")
        self.host, self.port = host.strip("[]"), int(port)

    def kill(self):
        if self.proc.poll() is None:
            self.proc.kill()
            self.proc.wait(TIMEOUT)
        self.proc.stdout.close()
        if self.errlog:
            self.errlog.close()

    def __enter__(self):
        return self

    def __exit__(self, *exc):
        self.kill()

    def xml(self, path="/RPC2"):
        return xmlrpc.client.ServerProxy("http://%s:%d%s" % (self.host, self.port, path))

    def http(self):
        return http.client.HTTPConnection(self.host, self.port, timeout=TIMEOUT)

    def sock(self):
        return socket.create_connection((self.host, self.port), timeout=TIMEOUT)


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
    assert status.startswith(b"HTTP/1."), status
    headers = {}
    for _ in range(100):
        line = f.readline()
        if line in (b"\r\n", b""):
            break
        k, _, v = line.decode().partition(":")
        headers[k.strip().lower()] = v.strip()
    body = f.read(int(headers.get("content-length", "0")))
    return int(status.split()[1]), headers, body


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
    assert srv.xml().ping()["status"]["code"] == 0
    st, doc = jsonrpc(srv.http(), "Host.ping")
    assert st == 200 and doc["result"] is True, doc


XML_PING = (b"<?xml version='1.0'?><methodCall><methodName>ping</methodName>"
            b"<params></params></methodCall>")


def post(path, body, extra=b""):
    return (b"POST " + path + b" HTTP/1.1\r\nHost: x\r\nContent-Length: " +
            str(len(body)).encode() + b"\r\n" + extra + b"\r\n" + body)


# ---- tests; each gets the shared default server ----

def test_xmlrpc_verbs(srv):
    p = srv.xml()
    r = p.getAllVmStats()
    assert r["status"] == {"code": 0, "message": "Done"}, r["status"]
    assert len(r["statsList"]) == 150
    vm = r["statsList"][0]
    assert 45 <= len(vm) <= 50, len(vm)  # RunningVmStats has 50 keys
    assert isinstance(vm["cpuUser"], str) and isinstance(vm["vcpuPeriod"], int)
    lst = p.list()
    assert lst["status"]["code"] == 0 and len(lst["vmList"]) == 150
    assert set(lst["vmList"][0]) == {"vmId", "status", "statusTime"}
    assert p.ping() == {"status": {"code": 0, "message": "Done"}}
    vid = lst["vmList"][3]["vmId"]
    one = p.getVmStats(vid)
    assert one["status"]["code"] == 0 and [v["vmId"] for v in one["statsList"]] == [vid]
    bad = p.getVmStats("00000000-0000-0000-0000-000000000000")
    assert bad["status"]["code"] == 1, bad
    assert srv.xml("/").ping()["status"]["code"] == 0  # "/" is XML-RPC too


def test_jsonrpc_verbs(srv):
    c = srv.http()
    st, doc = jsonrpc(c, "Host.getAllVmStats", rid="00000000-0000-4000-8000-0000000000aa")
    assert st == 200 and doc["jsonrpc"] == "2.0"
    assert doc["id"] == "00000000-0000-4000-8000-0000000000aa"
    assert len(doc["result"]) == 150 and "disks" in doc["result"][0]
    st, doc = jsonrpc(c, "Host.getVMList", {"onlyUUID": False})
    vid = doc["result"][5]["vmId"]
    st, doc = jsonrpc(c, "VM.getStats", {"vmID": vid})
    assert [v["vmId"] for v in doc["result"]] == [vid]
    st, doc = jsonrpc(c, "VM.getStats", {"vmID": "nope"})
    assert doc["error"]["code"] == 1, doc
    st, doc = jsonrpc(c, "Host.ping")
    assert doc["result"] is True


# VMFullInfo's properties without a default (VDSM's vdsm-api.yml).
FULL_REQUIRED = {"acpiEnable", "arch", "clientIp", "cpuType", "custom", "devices",
                 "emulatedMachine", "guestDiskMapping", "guestFQDN", "guestIPs", "keyboardLayout",
                 "kvmEnable", "memGuaranteedSize", "memSize", "nicModel", "nice", "pauseCode",
                 "pid", "pitReinjection", "smartcardEnable", "smp", "smpCoresPerSocket",
                 "spiceSslCipherSuite", "status", "statusTime", "timeOffset",
                 "transparentHugePages", "username", "vmId", "vmName", "vmType"}


def assert_full(vms, ids):
    assert [v["vmId"] for v in vms] == ids, ([v["vmId"] for v in vms][:3], ids[:3])
    for v in vms:
        assert FULL_REQUIRED <= set(v), FULL_REQUIRED - set(v)
        assert isinstance(v["memSize"], int) and isinstance(v["smp"], int)
        assert v["kvmEnable"] is True and v["display"] == "qxl"
        kinds = [d["deviceType"] for d in v["devices"]]
        assert "disk" in kinds and "interface" in kinds and "graphics" in kinds, kinds


def test_xmlrpc_full_list(srv):
    """vdsClient's "list table": list(True, vmIds) answers full definitions;
    list() and list(False) the short status."""
    p = srv.xml()
    ids = [v["vmId"] for v in p.list()["vmList"]]
    r = p.list(True, [])
    assert r["status"] == {"code": 0, "message": "Done"}, r["status"]
    assert_full(r["vmList"], ids)
    assert isinstance(r["vmList"][0]["statusTime"], int)  # the schema's uint: <i8> here
    r = p.list(True, [ids[9], ids[4], "00000000-0000-4000-8000-00000000dead"])
    assert_full(r["vmList"], [ids[4], ids[9]])  # the host's order; unknown ids skipped
    assert set(p.list(False)["vmList"][0]) == {"vmId", "status", "statusTime"}
    assert set(p.list(False, [ids[1]])["vmList"][0]) == {"vmId", "status", "statusTime"}


def test_jsonrpc_full_list(srv):
    c = srv.http()
    ids = [v["vmId"] for v in jsonrpc(c, "Host.getVMList", {"onlyUUID": False})[1]["result"]]
    st, doc = jsonrpc(c, "Host.getVMFullList")
    assert st == 200, st
    assert_full(doc["result"], ids)
    full_json = len(json.dumps(doc["result"], separators=(",", ":")))
    assert_full(jsonrpc(c, "Host.getVMFullList", {"vmList": [ids[7]]})[1]["result"], [ids[7]])
    assert_full(jsonrpc(c, "Host.getVMList", {"fullStatus": True})[1]["result"], ids)
    assert_full(jsonrpc(c, "Host.getVMList", {"fullStatus": True, "vmList": [ids[2], ids[1]]})
                [1]["result"], [ids[1], ids[2]])
    short = jsonrpc(c, "Host.getVMList", {"onlyUUID": True})[1]["result"]
    assert set(short[0]) == {"vmId", "status", "statusTime"}, short[0]
    err = jsonrpc(c, "Host.getVMFullList", {"vmList": ids[0]})[1]
    assert err["error"]["code"] == -32602, err
    # Full definitions are several KB per VM, more than the stats.
    stats = jsonrpc(c, "Host.getAllVmStats")[1]["result"]
    stats_json = len(json.dumps(stats, separators=(",", ":")))
    assert 4000 <= full_json / len(ids) <= 9000, full_json / len(ids)
    assert full_json > stats_json, (full_json, stats_json)


def test_counters_move(srv):
    c = srv.http()
    a = jsonrpc(c, "Host.getAllVmStats")[1]["result"][0]
    time.sleep(0.05)
    b = jsonrpc(c, "Host.getAllVmStats")[1]["result"][0]
    assert a["vmId"] == b["vmId"]
    assert int(b["statusTime"]) > int(a["statusTime"])
    assert int(b["cpuUsage"]) >= int(a["cpuUsage"])


def test_protocol_errors(srv):
    c = srv.http()
    assert jsonrpc(c, None, raw="{not json")[1]["error"]["code"] == -32700
    # A batch of two non-requests: one -32600 each, in one array.
    doc = jsonrpc(c, None, raw="[1, 2]")[1]
    assert [d["error"]["code"] for d in doc] == [-32600, -32600], doc
    st, doc = jsonrpc(c, "Host.noSuchVerb")
    assert doc["error"] == {"code": -32601, "message": "The method does not exist or is not "
                            "available: {'method': 'Host.noSuchVerb'}"}, doc
    assert doc["id"] is not None
    st, doc = jsonrpc(c, "Host.ping")  # same keep-alive connection
    assert doc["result"] is True
    try:  # Python's SimpleXMLRPCDispatcher's fault, as VDSM <= 4.19 sent it
        srv.xml().noSuchMethod()
        raise AssertionError("no fault")
    except xmlrpc.client.Fault as f:
        assert f.faultCode == 1 and f.faultString == 'method "noSuchMethod" is not supported', f
    for garbage in (b"garbage", b"<methodCall><unclosed>", b"\x00\xff" * 50):
        c.request("POST", "/RPC2", garbage, {"Content-Type": "text/xml"})
        r = c.getresponse()
        body = r.read()
        assert r.status == 200 and b"<fault>" in body and b"-32700" in body, body[:300]
    still_serves(srv)


def test_notification_gets_204(srv):
    c = srv.http()
    st, doc = jsonrpc(c, None, raw=json.dumps({"jsonrpc": "2.0", "method": "Host.ping"}))
    assert st == 204 and doc is None
    assert jsonrpc(c, "Host.ping")[1]["result"] is True


def test_routes_and_methods(srv):
    c = srv.http()
    c.request("POST", "/nowhere", "x")
    r = c.getresponse()
    r.read()
    assert r.status == 404
    c.request("GET", "/RPC2")
    r = c.getresponse()
    r.read()
    assert r.status == 405 and r.getheader("Allow") == "POST"
    assert jsonrpc(c, "Host.ping")[1]["result"] is True  # kept alive


def test_broken_http(srv):
    for junk in (b"GARBAGE\r\n\r\n", b"POST /RPC2 HTTP/1.1\r\nContent-Length: zz\r\n\r\n",
                 b"\x16\x03\x01\x00\xa5\x01\x00\x00\xa1\x03\x03"):
        s = srv.sock()
        s.sendall(junk)
        f = s.makefile("rb")
        st, _, _ = read_response(f)
        assert st == 400, (junk, st)
        assert closed_by_server(s)
        f.close()
        s.close()
    still_serves(srv)


def test_truncated_request(srv):
    s = srv.sock()
    s.sendall(b"POST /RPC2 HTTP/1.1\r\nHost: x\r\nContent-Length: 1000\r\n\r\n<?xml")
    s.close()
    s = srv.sock()
    s.sendall(b"POST /jsonrpc HTTP/1.1\r\nHost: x\r\nContent-Le")
    s.shutdown(socket.SHUT_WR)
    assert closed_by_server(s)
    s.close()
    still_serves(srv)


def test_pipelined(srv):
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
    assert st == 200 and b"<methodResponse>" in body
    for i in range(5):
        st, h, body = read_response(f)
        assert st == 200 and json.loads(body)["id"] == "id-%d" % i, body
    assert read_response(f)[0] == 404
    st, h, body = read_response(f)
    assert json.loads(body)["id"] == "last" and len(json.loads(body)["result"]) == 150
    f.close()
    s.close()


def test_connection_close_and_http10(srv):
    s = srv.sock()
    s.sendall(post(b"/RPC2", XML_PING, b"Connection: close\r\n"))
    f = s.makefile("rb")
    st, h, _ = read_response(f)
    assert st == 200 and h.get("connection") == "close"
    assert closed_by_server(s)
    f.close()
    s.close()
    s = srv.sock()
    s.sendall(post(b"/RPC2", XML_PING).replace(b"HTTP/1.1", b"HTTP/1.0"))
    f = s.makefile("rb")
    assert read_response(f)[0] == 200
    assert closed_by_server(s)
    f.close()
    s.close()
    s = srv.sock()  # HTTP/1.0 asking for keep-alive keeps it
    req = post(b"/RPC2", XML_PING, b"Connection: keep-alive\r\n").replace(b"HTTP/1.1", b"HTTP/1.0")
    s.sendall(req + req)
    f = s.makefile("rb")
    st, h, _ = read_response(f)
    assert st == 200 and h.get("connection") == "keep-alive"
    assert read_response(f)[0] == 200
    f.close()
    s.close()


def test_many_connections(srv):
    socks = [srv.sock() for _ in range(200)]
    try:
        for i, s in enumerate(socks):
            body = json.dumps({"jsonrpc": "2.0", "id": str(i), "method": "Host.ping"})
            s.sendall(post(b"/jsonrpc", body.encode()))
        for i, s in enumerate(socks):
            f = s.makefile("rb")
            st, _, body = read_response(f)
            assert st == 200 and json.loads(body)["id"] == str(i)
            f.close()
    finally:
        for s in socks:
            s.close()
    still_serves(srv)


def test_big_body_accepted(srv):
    """A body larger than one read buffer (64 KiB) arrives in pieces."""
    pad = " " * 300000
    c = srv.http()
    st, doc = jsonrpc(c, None, raw='{"jsonrpc":"2.0","id":"big",%s"method":"Host.ping"}' % pad)
    assert st == 200 and doc["id"] == "big" and doc["result"] is True


def test_expect_continue(srv):
    body = b'{"jsonrpc":"2.0","id":"e","method":"Host.ping"}'
    s = srv.sock()
    s.sendall(b"POST /jsonrpc HTTP/1.1\r\nHost: x\r\nExpect: 100-continue\r\n"
              b"Content-Length: %d\r\n\r\n" % len(body))
    f = s.makefile("rb")
    assert f.readline() == b"HTTP/1.1 100 Continue\r\n" and f.readline() == b"\r\n"
    s.sendall(body)
    st, _, data = read_response(f)
    assert st == 200 and json.loads(data)["id"] == "e"
    f.close()
    s.close()


# ---- tests that need their own server ----

def test_max_body():
    with Server("--max-body", "1k") as srv:
        s = srv.sock()
        s.sendall(b"POST /RPC2 HTTP/1.1\r\nHost: x\r\nContent-Length: 5000\r\n\r\n")
        f = s.makefile("rb")
        assert read_response(f)[0] == 413
        assert closed_by_server(s)
        f.close()
        s.close()
        s = srv.sock()  # a chunked body is counted as it streams
        s.sendall(b"POST /jsonrpc HTTP/1.1\r\nHost: x\r\nTransfer-Encoding: chunked\r\n\r\n")
        for _ in range(3):
            s.sendall(b"200\r\n" + b" " * 512 + b"\r\n")
        f = s.makefile("rb")
        assert read_response(f)[0] == 413
        f.close()
        s.close()
        c = srv.http()  # 1k itself is fine
        body = '{"jsonrpc":"2.0","id":"x","method":"Host.ping"}'.ljust(1024)
        assert jsonrpc(c, None, raw=body)[1]["result"] is True
        still_serves(srv)


def test_idle_timeout():
    with Server("--idle-timeout", "1s") as srv:
        s = srv.sock()  # says nothing
        s2 = srv.sock()  # slow: never finishes its headers
        s2.sendall(b"POST /RPC2 HTTP/1.1\r\nHost: x\r\n")
        c = srv.http()  # an active client is not disturbed
        assert jsonrpc(c, "Host.ping")[1]["result"] is True
        assert closed_by_server(s)
        assert closed_by_server(s2)
        s.close()
        s2.close()
        still_serves(srv)


def test_max_connections():
    with Server("--max-connections", "3") as srv:
        held = [srv.sock() for _ in range(3)]
        for s in held:  # make sure the server has accepted each
            s.sendall(post(b"/RPC2", XML_PING))
            f = s.makefile("rb")
            assert read_response(f)[0] == 200
            f.close()
        extra = srv.sock()
        assert closed_by_server(extra)
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
            assert read_response(f)[0] == 200
            f.close()
            s.close()
        # Served one after another this would take 2 s.
        assert time.monotonic() - t0 < 1.6
    with Server("--delay", "exp:1ms", "--seed", "3") as srv:
        still_serves(srv)
    with Server("--delay", "uniform:1ms:3ms", "--work-us-per-vm", "10", "--vms", "7") as srv:
        assert len(srv.xml().getAllVmStats()["statsList"]) == 7


def test_seed_reproducible():
    ids = []
    for seed in ("5", "5", "6"):
        with Server("--seed", seed, "--vms", "3") as srv:
            ids.append([v["vmId"] for v in srv.xml().list()["vmList"]])
    assert ids[0] == ids[1] and ids[0] != ids[2]


def test_ipv6():
    try:
        socket.socket(socket.AF_INET6).bind(("::1", 0))
    except OSError:
        print("    (no IPv6 loopback: skipped)")
        return
    with Server(listen="[::1]:0") as srv:
        assert srv.addr.startswith("[::1]:")
        still_serves(srv)


def test_sigterm_exits_0():
    srv = Server()
    try:
        held = srv.sock()  # an open connection does not hold up the exit
        srv.xml().ping()
        srv.proc.send_signal(signal.SIGTERM)
        assert srv.proc.wait(5) == 0
        held.close()
    finally:
        srv.kill()


def test_usage():
    def run(*args):
        return subprocess.run([RPCBENCH, "serve", *args], capture_output=True, timeout=TIMEOUT)
    r = run("--help")
    assert r.returncode == 0 and b"--listen" in r.stdout
    for bad in (["--vms", "x"], ["--bogus"], ["--listen", "nope"], ["--delay", "uniform:5ms"],
                ["--max-body", "lots"], ["--idle-timeout", "0"], ["extra"]):
        r = run(*bad)
        assert r.returncode == 2, (bad, r.returncode)
        assert len(r.stderr.decode().strip().splitlines()) == 1, r.stderr


SHARED = [test_xmlrpc_verbs, test_jsonrpc_verbs, test_xmlrpc_full_list, test_jsonrpc_full_list,
          test_counters_move, test_protocol_errors,
          test_notification_gets_204, test_routes_and_methods, test_broken_http,
          test_truncated_request, test_pipelined, test_connection_close_and_http10,
          test_many_connections, test_big_body_accepted, test_expect_continue]
OWN = [test_max_body, test_idle_timeout, test_max_connections, test_delay_does_not_block,
       test_seed_reproducible, test_ipv6, test_sigterm_exits_0, test_usage]


def main():
    passed = failed = 0

    def one(fn, *args):
        nonlocal passed, failed
        try:
            fn(*args)
            passed += 1
            print("  ok    %s" % fn.__name__)
        except Exception:
            failed += 1
            print("  FAIL  %s" % fn.__name__)
            traceback.print_exc()

    with Server() as srv:
        for fn in SHARED:
            one(fn, srv)
        # After all that, a clean stop (under ASan this also checks leaks).
        alive = srv.proc.poll() is None
        srv.proc.send_signal(signal.SIGTERM)
        try:
            rc = srv.proc.wait(TIMEOUT)
        except subprocess.TimeoutExpired:
            rc = "timeout"
        if not alive or rc != 0:
            srv.errlog.seek(0)
            print(srv.errlog.read().decode(errors="replace")[-3000:])
    if not alive or rc != 0:
        failed += 1
        print("  FAIL  the shared server died or did not stop cleanly (%s)" % rc)
    else:
        passed += 1
        print("  ok    shared server stopped cleanly")
    for fn in OWN:
        one(fn)
    print("%d passed, %d failed" % (passed, failed))
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
