"""`rpcbench serve` under abuse, over loopback: thousands of malformed
requests, slowloris clients, half-open connections and a connection flood
past --max-connections. After each, serve must still answer valid clients,
and its memory (VmRSS) must not have grown by more than RSS_BOUND_KB."""
import json
import random
import re
import select
import socket
import time

from rpctest import Server, check, main

RSS_BOUND_KB = 50 * 1024
MALFORMED = 2000


class Serve(Server):
    """The shared test server with a small simulator."""

    def __init__(self, *args):
        super().__init__("--vms", "5", *args)


def connect(port):
    s = socket.create_connection(("127.0.0.1", port), timeout=5)
    s.settimeout(5)
    return s


def read_all(s, limit=1 << 20):
    """Reads until EOF; returns (bytes, how it ended: 'eof', 'reset' or 'timeout')."""
    data = b""
    try:
        while len(data) < limit:
            chunk = s.recv(65536)
            if not chunk:
                return data, "eof"
            data += chunk
    except socket.timeout:
        return data, "timeout"
    except ConnectionResetError:
        return data, "reset"
    return data, "limit"


def post(path, body, extra=b""):
    return (b"POST %s HTTP/1.1\r\nHost: x\r\nConnection: close\r\n%sContent-Length: %d\r\n\r\n"
            % (path, extra, len(body))) + body


def valid_ping(port, proto="jsonrpc"):
    """One valid call; returns True when answered 200 with a result."""
    if proto == "jsonrpc":
        req = post(b"/jsonrpc", b'{"jsonrpc":"2.0","method":"Host.ping","id":"1"}')
    else:
        req = post(b"/RPC2", b"<?xml version='1.0'?><methodCall><methodName>ping</methodName>"
                   b"<params></params></methodCall>")
    with connect(port) as s:
        s.sendall(req)
        data, how = read_all(s)
    return how == "eof" and data.startswith(b"HTTP/1.1 200 ") and (b'"result"' in data or b"Done" in data)


def check_serving(srv, what):
    srv.alive(what)
    for proto in ("jsonrpc", "xmlrpc"):
        check(valid_ping(srv.port, proto), "%s: a valid %s client is not served" % (what, proto))


def malformed_requests(rng):
    """MALFORMED requests (bytes) of many broken shapes, deterministic."""
    deep = b"[" * 5000 + b"]" * 5000
    fixed = [
        b"GET /jsonrpc HTTP/1.1\r\nConnection: close\r\n\r\n",
        b"POST /nowhere HTTP/1.1\r\nConnection: close\r\nContent-Length: 2\r\n\r\n{}",
        b"POST /jsonrpc HTTP/1.1\r\nContent-Length: -1\r\n\r\n",
        b"POST /jsonrpc HTTP/1.1\r\nContent-Length: 99999999999999999999\r\n\r\n",
        b"POST /jsonrpc HTTP/1.1\r\nContent-Length: 1000000000\r\n\r\n{",
        b"POST /jsonrpc HTTP/1.1\r\nTransfer-Encoding: chunked\r\n\r\nzz\r\n",
        b"POST /jsonrpc HTTP/1.1\r\nContent-Length: 5\r\nContent-Length: 6\r\n\r\n{}{}{}",
        b"POST /" + b"a" * 5000 + b" HTTP/1.1\r\n\r\n",
        b"POST /RPC2 HTTP/1.1\r\nX: " + b"h" * 100000 + b"\r\n\r\n",
        b"PRI * HTTP/2.0\r\n\r\nSM\r\n\r\n",
        b"\x16\x03\x01\x02\x00\x01\x00\x01\xfc\x03\x03",
        b"CONNECT\naccept-version:1.2\nhost:x\n\n\x00",
        post(b"/jsonrpc", b"{"),
        post(b"/jsonrpc", b"[]"),
        post(b"/jsonrpc", b"42"),
        post(b"/jsonrpc", b'{"jsonrpc":"2.0"}'),
        post(b"/jsonrpc", b'{"jsonrpc":"2.0","method":7,"id":1}'),
        post(b"/jsonrpc", b'{"jsonrpc":"2.0","method":"VM.getStats","params":{"vmID":7},"id":1}'),
        post(b"/jsonrpc", deep),
        post(b"/RPC2", b"<methodCall>"),
        post(b"/RPC2", b"<?xml version='1.0'?><methodCall><methodName></methodName></methodCall>"),
        post(b"/RPC2", b"<?xml version='1.0'?><methodCall><methodName>getVmStats</methodName>"
             b"<params><param><value><int>1</int></value></param></params></methodCall>"),
        post(b"/RPC2", b"<a>" * 3000 + b"</a>" * 3000),
        post(b"/RPC2", b"\xff\xfe<\x00?\x00x\x00"),
    ]
    out = []
    for i in range(MALFORMED):
        if i < len(fixed):
            out.append(fixed[i])
            continue
        kind = rng.randrange(4)
        if kind == 0:  # random bytes
            out.append(bytes(rng.randrange(256) for _ in range(rng.randrange(1, 300))))
        elif kind == 1:  # a valid request with bytes flipped
            b = bytearray(post(b"/jsonrpc", b'{"jsonrpc":"2.0","method":"Host.getVMList","id":1}'))
            for _ in range(rng.randrange(1, 6)):
                b[rng.randrange(len(b))] = rng.randrange(256)
            out.append(bytes(b))
        elif kind == 2:  # a valid request cut short
            b = post(b"/RPC2", b"<?xml version='1.0'?><methodCall><methodName>list</methodName>"
                     b"</methodCall>")
            out.append(b[:rng.randrange(1, len(b))])
        else:  # a broken body on a valid framing
            body = bytes(rng.choice(b'{}[]":,0123456789abcnulltrue<>/?=') for _ in range(rng.randrange(0, 200)))
            out.append(post(rng.choice([b"/jsonrpc", b"/RPC2"]), body))
    return out


def test_malformed_requests():
    with Serve("--idle-timeout", "1s", "--max-body", "1MiB") as srv:
        check_serving(srv, "start")
        rss0 = srv.rss_kb()
        statuses = {}
        for i, req in enumerate(malformed_requests(random.Random(1))):
            with connect(srv.port) as s:
                try:
                    s.sendall(req)
                    s.shutdown(socket.SHUT_WR)  # all said: serve must not wait for more
                except (BrokenPipeError, ConnectionResetError):
                    pass  # serve gave up on us before we finished: fine
                data, how = read_all(s)
            check(how in ("eof", "reset"), "request %d (%r...): connection not closed (%s)"
                  % (i, req[:40], how))
            code = data[9:12].decode("latin-1") if data.startswith(b"HTTP/1.1 ") else "none"
            statuses[code] = statuses.get(code, 0) + 1
            if i % 250 == 0:
                srv.alive("after malformed request %d: %r" % (i, req[:60]))
        print("malformed: answers by status %s" % json.dumps(statuses, sort_keys=True))
        bad = [c for c in statuses if c not in ("200", "204", "400", "404", "405", "413", "414", "431", "none")]
        check(not bad, "unexpected statuses %r" % bad)
        check(statuses.get("400", 0) > 100, "few 400s: %r" % statuses)
        check_serving(srv, "after malformed requests")
        grown = srv.rss_kb() - rss0
        print("malformed: VmRSS grew %d kB" % grown)
        check(grown < RSS_BOUND_KB, "VmRSS grew %d kB" % grown)


def test_xmlrpc_bad_i8_does_not_kill_serve():
    """Found by fuzzing (tests/fuzz/regressions/fuzz_rpc_call): xmlrpc-c 1.33
    crashes on an <i8> that is not a plain in-range integer."""
    with Serve() as srv:
        for v in (b"<i8>1x</i8>", b"<i8>9223372036854775808</i8>", b"<i8>5 </i8>",
                  b"<i8 >1x</i8>", b"<ex:i8 >0x10</ex:i8>"):
            body = (b"<?xml version='1.0'?><methodCall><methodName>ping</methodName><params>"
                    b"<param><value>%s</value></param></params></methodCall>" % v)
            with connect(srv.port) as s:
                s.sendall(post(b"/RPC2", body))
                read_all(s)
            time.sleep(0.1)
            srv.alive("after %s" % v.decode())
        check_serving(srv, "after bad i8")


def test_xml_entity_expansion_refused():
    """A DTD whose entities expand ~300 bytes into 10^8 ("billion laughs")
    costs xmlrpc-c's expat seconds of CPU per request: serve must refuse
    any DTD as a parse error (-32700) instead of expanding it."""
    ents = b'<!DOCTYPE m [<!ENTITY a "aaaaaaaaaa">' + b"".join(
        b'<!ENTITY %s "%s">' % (bytes([98 + i]), (b"&%s;" % bytes([97 + i])) * 10) for i in range(7)) + b"]>"
    body = b"<?xml version='1.0'?>" + ents + b"<methodCall><methodName>&h;</methodName></methodCall>"
    with Serve() as srv:
        with connect(srv.port) as s:
            s.settimeout(60)
            s.sendall(post(b"/RPC2", body))
            data, how = read_all(s)
        check(how == "eof", "no answer to a DTD (%s)" % how)
        check(b"-32700" in data, "a DTD was not refused as a parse error: %r" % data[-200:])
        check_serving(srv, "after a DTD")


def test_slowloris_dropped():
    """A byte every 100 ms, never a whole request: dropped at --idle-timeout."""
    with Serve("--idle-timeout", "1s") as srv:
        rss0 = srv.rss_kb()
        req = b"POST /jsonrpc HTTP/1.1\r\nHost: x\r\n" + b"X-Slow: " + b"z" * 200
        socks = [connect(srv.port) for _ in range(20)]
        dropped = {}
        t0 = time.monotonic()
        for step in range(100):  # 10 s at most: the server must act long before
            for i, s in enumerate(socks):
                if i in dropped:
                    continue
                try:
                    s.sendall(req[step:step + 1])
                except OSError:
                    dropped[i] = time.monotonic() - t0
                    continue
                r, _, _ = select.select([s], [], [], 0)
                if r:
                    try:
                        if not s.recv(4096):
                            dropped[i] = time.monotonic() - t0
                    except OSError:
                        dropped[i] = time.monotonic() - t0
            if len(dropped) == len(socks):
                break
            check_serving(srv, "during slowloris") if step == 5 else None
            time.sleep(0.1)
        for s in socks:
            s.close()
        print("slowloris: %d/%d dropped, last after %.1fs"
              % (len(dropped), len(socks), max(dropped.values() or [0])))
        check(len(dropped) == len(socks), "only %d of %d slow clients dropped in 10 s"
              % (len(dropped), len(socks)))
        check(max(dropped.values()) < 5.0, "slow clients kept %.1fs with --idle-timeout 1s"
              % max(dropped.values()))
        check_serving(srv, "after slowloris")
        check(srv.rss_kb() - rss0 < RSS_BOUND_KB, "VmRSS grew")


def test_half_open_connections():
    """Clients that connect and say nothing, or half a request and then
    close their side: serve lets go of all of them."""
    with Serve("--idle-timeout", "1s") as srv:
        rss0 = srv.rss_kb()
        silent = [connect(srv.port) for _ in range(30)]
        half = []
        for _ in range(30):
            s = connect(srv.port)
            s.sendall(b"POST /jsonrpc HTTP/1.1\r\nContent-Length: 100\r\n\r\n{\"jsonrpc\"")
            s.shutdown(socket.SHUT_WR)
            half.append(s)
        check_serving(srv, "with half-open connections")
        for what, group in (("half-closed", half), ("silent", silent)):
            for s in group:
                _, how = read_all(s)
                check(how in ("eof", "reset"), "%s connection not closed by serve (%s)" % (what, how))
                s.close()
        check_serving(srv, "after half-open connections")
        check(srv.rss_kb() - rss0 < RSS_BOUND_KB, "VmRSS grew")


def test_connection_flood_refused_beyond_max():
    limit = 50
    with Serve("--max-connections", str(limit), "--idle-timeout", "20s") as srv:
        rss0 = srv.rss_kb()
        held = [connect(srv.port) for _ in range(limit)]
        time.sleep(0.3)  # let serve accept them all
        refused = 0
        for _ in range(20):  # beyond the limit: accepted by the kernel, closed by serve
            with connect(srv.port) as s:
                s.sendall(post(b"/jsonrpc", b'{"jsonrpc":"2.0","method":"Host.ping","id":"1"}'))
                data, how = read_all(s)
                # A 503 when it arrives before the reset that the unread
                # request causes; never an answer.
                if how in ("eof", "reset") and (not data or data.startswith(b"HTTP/1.1 503")):
                    refused += 1
        check(refused == 20, "only %d of 20 connections beyond the limit were refused" % refused)
        # The held ones still work.
        s = held[0]
        s.sendall(post(b"/jsonrpc", b'{"jsonrpc":"2.0","method":"Host.ping","id":"1"}'))
        data, how = read_all(s)
        check(data.startswith(b"HTTP/1.1 200"), "a held connection is not served: %r" % data[:60])
        for s in held:
            s.close()
        time.sleep(0.3)
        check_serving(srv, "after the flood")
        check(srv.rss_kb() - rss0 < RSS_BOUND_KB, "VmRSS grew")
        _, err = srv.stop()
        check("--max-connections reached" in err, "no refusal logged: %r" % err[-300:])
        m = re.search(r"(\d+) rejected", err.strip().splitlines()[-1] if err.strip() else "")
        check(m and int(m.group(1)) >= 20, "closing line does not count 20 rejected: %r" % err[-300:])


if __name__ == "__main__":
    main([test_malformed_requests, test_xmlrpc_bad_i8_does_not_kill_serve,
          test_xml_entity_expansion_refused, test_slowloris_dropped,
          test_half_open_connections, test_connection_flood_refused_beyond_max])
