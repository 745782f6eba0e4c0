"""it_workload: --workload FILE (issue 26, part 1) as independent peers
receive it. One file drives Python's own xmlrpc.server and a
standard-library JSON-RPC server, and both get the same per-call shares
(within 5 points) and exactly the requests the report counts; templates give
the values they promise (${seq} unique and increasing, ${pick} only from
its file, ${rand} within its bounds) and the tagged values arrive as
XML-RPC's own types; STOMP carries the same file to `rpcbench serve`; a
line with "every" is sent at its own period, and its sends that failed or
were left unsent at the end count under it, as scheduled; STOMP's ring
holds the periodic calls in flight; 40 calls are each counted as received
and the reports show them readably; sweep's cells each have their per-call
table; `workload = FILE` in a job file is the same run as on the command
line; a line's own "expect" checks its call's answers only, and the run's
--expect every call's, both applying; and every mistake in the file (a
check that does not parse too) is a usage error naming the file and the
line, before anything is sent. One file serves both encodings (a method
named per encoding, VDSM's verbs mapping themselves) and compare runs it
in both arms without a fault; compare --workload A,B gives each arm its
own file, run refuses a pair."""
import datetime
import http.server
import json
import os
import re
import shutil
import tempfile
import threading
import time
import xmlrpc.client
import xmlrpc.server

from rpctest import JsonRpcHandler, Recorder, Server, check, main, rpcbench, run_json

PICKS = ["gid-a1", "gid-b2", "gid-c3", "gid-d<4>&"]  # XML's and JSON's specials too

WORKLOAD = """# a mix of three calls, with templates
{"name": "status", "method": "aria2.tellStatus", "params": ["${pick:gids.txt}", "${seq}"], "weight": 3}
{"name": "add", "method": "aria2.addUri", "params": [["http://x/${seq}.iso"], {"n": "${rand:10:20}", "id": "${uuid}"}], "weight": 1}
{"name": "types", "method": "system.types", "params": [{"$base64": "aGVsbG8="}, {"$datetime": "20240102T03:04:05"}, {"$i8": 7}, 1.5, true, "plain"]}
"""


class XmlHandler(xmlrpc.server.SimpleXMLRPCRequestHandler):
    rpc_paths = ("/RPC2",)

    def decode_request_content(self, data):
        body = super().decode_request_content(data)
        params, method = xmlrpc.client.loads(body, use_builtin_types=False)
        with self.server.lock:
            self.server.seen.append((method, params, body))
        return body

    def log_message(self, *a):
        pass


def xml_server():
    s = xmlrpc.server.SimpleXMLRPCServer(("127.0.0.1", 0), requestHandler=XmlHandler,
                                         logRequests=False, allow_none=True)
    s.register_function(lambda *a: {"status": {"code": 0, "message": "Done"}}, "aria2.tellStatus")
    s.register_function(lambda *a: {"status": {"code": 0, "message": "Done"}}, "aria2.addUri")
    s.register_function(lambda *a: {"status": {"code": 0, "message": "Done"}}, "system.types")
    s.register_function(lambda *a: {"status": {"code": 0, "message": "Done"}}, "tick")
    return Recorder(s)


class JsonHandler(JsonRpcHandler):
    def answer(self, req):
        with self.server.lock:
            self.server.seen.append((req["method"], req.get("params"), None))
        return 200, True


def json_server():
    return Recorder(http.server.ThreadingHTTPServer(("127.0.0.1", 0), JsonHandler))


class Files:
    """A temporary directory holding the workload and its pick file."""

    def __init__(self, text=WORKLOAD):
        self.dir = tempfile.mkdtemp(prefix="rpcbench-wl.")
        self.path = self.write("calls.jsonl", text)
        self.write("gids.txt", "\n".join(PICKS) + "\n")

    def write(self, name, text):
        p = os.path.join(self.dir, name)
        with open(p, "w") as f:
            f.write(text)
        return p

    def __enter__(self):
        return self

    def __exit__(self, *exc):
        shutil.rmtree(self.dir)


def shares(names):
    n = len(names)
    return {k: names.count(k) / n for k in set(names)}


def run_against(srv, proto, path, *more, rate="200", duration="2s", conns="2"):
    url = "http://127.0.0.1:%d/%s" % (srv.port, "RPC2" if proto == "xmlrpc" else "jsonrpc")
    _, r, _ = run_json("-u", url, "-p", proto, "--workload", path, "-R", rate, "-d", duration,
                       "-c", conns, *more)
    return r


def check_counts(r, calls, method_of):
    """The server got exactly what the report counts, call by call."""
    check(r["requests"]["ok"] == r["requests"]["sent"] == r["requests"]["offered"] > 0,
          "ok %r" % r["requests"])
    check(len(calls) == r["requests"]["sent"], "server got %d, the run sent %d"
          % (len(calls), r["requests"]["sent"]))
    for name, v in r["verbs"].items():
        got = sum(1 for c in calls if c[0] == method_of[name])
        check(got == v["requests"], "%s: server got %d, report %d" % (name, got, v["requests"]))


def test_one_file_both_encodings_same_shares():
    method_of = {"status": "aria2.tellStatus", "add": "aria2.addUri", "types": "system.types"}
    want = {"aria2.tellStatus": 0.6, "aria2.addUri": 0.2, "system.types": 0.2}
    with Files() as f:
        with xml_server() as xs:
            rx = run_against(xs, "xmlrpc", f.path)
            xcalls = xs.seen
        with json_server() as js:
            rj = run_against(js, "jsonrpc", f.path)
            jcalls = js.seen
    check_counts(rx, xcalls, method_of)
    check_counts(rj, jcalls, method_of)
    for calls in (xcalls, jcalls):
        got = shares([c[0] for c in calls])
        for m, w in want.items():
            check(abs(got.get(m, 0) - w) <= 0.05, "share of %s: %.3f, want %.2f" % (m, got.get(m, 0), w))
    # the same values in both: the JSON-RPC side sees the tagged values as plain JSON
    jt = [c[1] for c in jcalls if c[0] == "system.types"][0]
    check(jt == ["aGVsbG8=", "20240102T03:04:05", 7, 1.5, True, "plain"], "jsonrpc types %r" % jt)


ENGINE = """# one file for both encodings: VDSM's verbs ("verb") map themselves
{"name": "vms", "verb": "list", "weight": 3}
{"name": "stats", "verb": "Host.getAllVmStats", "every": "500ms"}
{"name": "one", "method": {"xmlrpc": "getVmStats", "jsonrpc": "VM.getStats"}, "params": {"xmlrpc": ["vm-1"], "jsonrpc": {"vmID": "vm-1"}}}
"""


def vdsm_xml_server():
    rec = xml_server()
    for name in ("list", "getAllVmStats", "getVmStats"):
        rec.server.register_function(lambda *a: {"status": {"code": 0, "message": "Done"}}, name)
    return rec


def test_one_file_names_each_encodings_methods():
    """A call named per encoding, and VDSM's verbs mapping themselves:
    each encoding's server gets its own methods and params from one file,
    and compare runs it in both arms without a fault."""
    with Files(ENGINE) as f:
        with vdsm_xml_server() as xs:
            rx = run_against(xs, "xmlrpc", f.path, rate="20")
            xcalls = xs.seen
        with json_server() as js:
            rj = run_against(js, "jsonrpc", f.path, rate="20")
            jcalls = js.seen
        check_counts(rx, xcalls, {"vms": "list", "stats": "getAllVmStats", "one": "getVmStats"})
        check_counts(rj, jcalls, {"vms": "Host.getVMList", "stats": "Host.getAllVmStats",
                                  "one": "VM.getStats"})
        check(("vm-1",) in [c[1] for c in xcalls if c[0] == "getVmStats"][:1],
              "xml getVmStats params %r" % xcalls[:3])
        check({"vmID": "vm-1"} in [c[1] for c in jcalls if c[0] == "VM.getStats"][:1],
              "json VM.getStats params %r" % jcalls[:3])
        with Server("--vms", "5") as srv:
            out = os.path.join(f.dir, "c.json")
            rc, _, err = rpcbench("compare", "--workload", f.path, "--proto", "xmlrpc,jsonrpc",
                                  "-u", "%s,%s" % (srv.url("/RPC2"), srv.url("/jsonrpc")),
                                  "-R", "10", "-d", "2s", "--rounds", "1", "--quiet",
                                  "--output", out, timeout=120)
        check(rc == 0, "compare: rc %d %r" % (rc, err[-500:]))
        with open(out) as fo:
            rows = {v["verb"]: v for v in json.load(fo)["verbs"]}
        for name in ("vms", "stats"):
            for arm in ("a", "b"):
                check(rows[name][arm]["ok"] > 0 and rows[name][arm]["errors"] == 0,
                      "%s arm %s: %r" % (name, arm, rows[name]))


def test_compare_workload_a_b():
    """--workload A,B gives each arm its own file; run takes one."""
    a = ('{"name": "vms", "method": "list", "params": [false], "weight": 2}\n'
         '{"name": "ping", "method": "ping"}\n')
    b = ('{"name": "vms", "method": "Host.getVMList", "params": {"onlyUUID": true}, "weight": 2}\n'
         '{"name": "ping", "method": "Host.ping"}\n')
    with Files(a) as f, Server("--vms", "5") as srv:
        pb = f.write("b.jsonl", b)
        pair = "%s,%s" % (f.path, pb)
        out = os.path.join(f.dir, "c.json")
        rc, text, err = rpcbench("compare", "--workload", pair, "--proto", "xmlrpc,jsonrpc",
                                 "-u", "%s,%s" % (srv.url("/RPC2"), srv.url("/jsonrpc")),
                                 "-R", "10", "-d", "1s", "--rounds", "1", "--quiet",
                                 "--output", out, timeout=120)
        check(rc == 0, "compare --workload A,B: rc %d %r" % (rc, err[-500:]))
        with open(out) as fo:
            doc = json.load(fo)
        row = {v["verb"]: v for v in doc["verbs"]}["vms"]
        check(row["a"]["ok"] > 0 and row["b"]["ok"] > 0 and not row["a"]["errors"] and
              not row["b"]["errors"], "vms: %r" % row)
        check(pb in json.dumps(doc) and f.path in json.dumps(doc), "the files are not named")
        rc, _, err = rpcbench("run", "--workload", pair, timeout=20)
        check(rc == 2 and "one file" in err, "run --workload A,B: rc %d %r" % (rc, err))


def check_seq(values):
    check(values == sorted(values) and len(set(values)) == len(values),
          "${seq} not unique and increasing: %r" % values[:20])


def test_templates_give_what_they_promise():
    with Files() as f, xml_server() as xs:
        run_against(xs, "xmlrpc", f.path, conns="1")
        calls = xs.seen
    status = [c for c in calls if c[0] == "aria2.tellStatus"]
    add = [c for c in calls if c[0] == "aria2.addUri"]
    check(all(c[1][0] in PICKS for c in status), "a ${pick} value not from the file")
    check(len({c[1][0] for c in status}) == len(PICKS), "${pick} never took some lines")
    check(all(isinstance(c[1][1], int) for c in status), "a whole ${seq} is an int")
    seqs = [c[1][1] if c[0] == "aria2.tellStatus"
            else int(re.match(r"http://x/(\d+)\.iso$", c[1][0][0]).group(1))
            for c in calls if c[0] != "system.types"]
    check_seq(seqs)
    check(seqs[0] == 0, "${seq} starts at 0: %r" % seqs[:3])
    rands = [c[1][1]["n"] for c in add]
    check(all(isinstance(v, int) and 10 <= v <= 20 for v in rands), "rand %r" % rands[:10])
    check(len(set(rands)) > 3, "${rand} varies: %r" % rands[:10])
    uuids = [c[1][1]["id"] for c in add]
    check(all(re.match(r"^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$", u)
              for u in uuids) and len(set(uuids)) == len(uuids), "uuid %r" % uuids[:3])
    t = [c for c in calls if c[0] == "system.types"][0]
    check(isinstance(t[1][0], xmlrpc.client.Binary) and t[1][0].data == b"hello", "base64 %r" % (t[1][0],))
    check(isinstance(t[1][1], xmlrpc.client.DateTime) and t[1][1].value == "20240102T03:04:05",
          "datetime %r" % (t[1][1],))
    check(b"<i8>7</i8>" in t[2], "$i8 is sent as <i8>: %r" % t[2][:300])


def test_same_seed_same_values():
    runs = []
    for _ in range(2):
        with Files() as f, json_server() as js:
            run_against(js, "jsonrpc", f.path, "--seed", "42", conns="1", rate="50", duration="1s")
            runs.append([json.dumps(c[1]) for c in js.seen])
    n = min(len(runs[0]), len(runs[1]))
    check(n > 20 and runs[0][:n] == runs[1][:n], "--seed 42 twice: other values")


def test_every_line_runs_at_its_period():
    text = ('{"name": "poll", "method": "tick", "every": "100ms"}\n'
            '{"name": "status", "method": "aria2.tellStatus", "params": ["${seq}", 0]}\n')
    with Files(text) as f, xml_server() as xs:
        r = run_against(xs, "xmlrpc", f.path, rate="20", duration="3s")
        calls = xs.seen
    ticks = sum(1 for c in calls if c[0] == "tick")
    check(r["verbs"]["poll"]["requests"] == ticks, "report %r, server %d" % (r["verbs"]["poll"], ticks))
    check(29 <= ticks <= 31, "every 100ms for 3s: %d ticks" % ticks)
    status = sum(1 for c in calls if c[0] == "aria2.tellStatus")
    check(58 <= status <= 62, "the mix keeps --rate 20/s over 3s: %d" % status)
    with Files('{"name": "poll", "method": "tick", "every": "200ms"}\n') as f, xml_server() as xs:
        url = "http://127.0.0.1:%d/RPC2" % xs.port
        _, r, _ = run_json("-u", url, "--workload", f.path, "-d", "2s")
        check(r["requests"]["sent"] == len(xs.seen) and 9 <= len(xs.seen) <= 11,
              "only every lines, no --rate: %d calls" % len(xs.seen))


class ClosingXml(XmlHandler):
    """HTTP/1.0: a connection per call, so once the listener is closed
    every new connect is refused."""
    protocol_version = "HTTP/1.0"


def closing_xml_server():
    s = xml_server().server
    s.RequestHandlerClass = ClosingXml
    return Recorder(s)


def test_failed_sends_count_under_their_call():
    """The server goes away after 1 s: every connection then waits to
    reconnect and each send due is given up at once, unsent (as `connect`,
    no error: never written). A periodic call's given-up send counts under
    that call, and the mix's round robin is not moved by it: each call's
    count is what was scheduled."""
    text = ('{"name": "poll", "method": "tick", "every": "100ms"}\n'
            '{"name": "a", "method": "aria2.tellStatus", "params": [1]}\n'
            '{"name": "b", "method": "aria2.addUri", "params": [2]}\n')
    with Files(text) as f:
        srv = closing_xml_server()
        srv.__enter__()
        threading.Timer(1.0, srv.__exit__).start()
        r = run_against(srv, "xmlrpc", f.path, rate="20", duration="3s")
        calls = srv.seen
    v, req = r["verbs"], r["requests"]
    check(req["unsent_given_up"] > 20 and req["unsent_given_up_as"] == "connect" and
          r["errors"]["connect"] == 0, "no given-up sends: %r %r" % (req, r["errors"]))
    check(req["offered"] == req["sent"] + req["unsent"] == 90 and
          req["sent"] == req["ok"] + req["errors"] + req["unfinished"], "%r" % req)
    check(v["poll"]["requests"] == 30, "poll: %r, 30 scheduled (every 100ms for 3s)" % v["poll"])
    check(v["a"]["requests"] == v["b"]["requests"] == 30, "the mix a:1 b:1 at 20/s for 3s: "
          "a %r, b %r" % (v["a"], v["b"]))
    for name, method in (("poll", "tick"), ("a", "aria2.tellStatus"), ("b", "aria2.addUri")):
        got = sum(1 for c in calls if c[0] == method)
        check(got == v[name]["ok"], "%s: the server answered %d, the report says ok %d"
              % (name, got, v[name]["ok"]))
        check(v[name]["requests"] == v[name]["ok"] + v[name]["errors"] + v[name]["unfinished"]
              + v[name]["unsent"], "%s: %r" % (name, v[name]))
        check(v[name]["unsent"] > 0, "%s: nothing given up after the server went: %r"
              % (name, v[name]))


class SlowXml(XmlHandler):
    def decode_request_content(self, data):
        time.sleep(0.3)
        return super().decode_request_content(data)


def test_periodic_sends_left_at_the_end_are_unsent():
    """One connection and a server that takes 0.3 s a call: a call every
    100 ms piles up. The sends still waiting at the end count as unsent
    (never written), as the mix's do, so each call's requests are what was
    scheduled: offered = sent + unsent and sent = ok + errors + unfinished,
    per call and for the run; the server got what was sent."""
    text = ('{"name": "poll", "method": "tick", "every": "100ms"}\n'
            '{"name": "types", "method": "system.types", "every": "200ms"}\n')
    with Files(text) as f:
        s = xml_server().server
        s.RequestHandlerClass = SlowXml
        with Recorder(s) as srv:
            url = "http://127.0.0.1:%d/RPC2" % srv.port
            _, r, _ = run_json("-u", url, "--workload", f.path, "-d", "2s", "-c", "1")
            calls = srv.seen
    v, req = r["verbs"], r["requests"]
    check(v["poll"]["requests"] == 20 and v["types"]["requests"] == 10,
          "scheduled: poll 20, types 10; counted %r" % v)
    check(v["poll"]["unsent"] > 5, "nothing left unsent: %r" % v["poll"])
    check(req["offered"] == req["sent"] + req["unsent"] == 30, "%r" % req)
    check(req["sent"] == req["ok"] + req["errors"] + req["unfinished"], "%r" % req)
    check(req["unsent_given_up"] == 0 and req["queued"] >= req["unsent"], "%r" % req)
    for name, method in (("poll", "tick"), ("types", "system.types")):
        x = v[name]
        check(x["requests"] == x["ok"] + x["errors"] + x["unfinished"] + x["unsent"],
              "%s: %r" % (name, x))
        got = sum(1 for c in calls if c[0] == method)
        check(got <= x["ok"] + x["unfinished"] and got >= x["ok"],
              "%s: the server got %d, the report %r" % (name, got, x))


def test_forty_calls():
    """A mix of 40 calls (the limit is 64): every call is sent and counted
    as the server received it, the per-verb table lists them all, and the
    tables of buckets of the run and of compare (text and HTML) show the
    busiest only, saying so."""
    text = "".join('{"name": "c%02d", "method": "m%02d", "params": [%d], "weight": %d}\n'
                   % (i, i, i, 1 + i % 4) for i in range(40))
    with Files(text) as f, json_server() as js:
        url = "http://127.0.0.1:%d/jsonrpc" % js.port
        html = os.path.join(f.dir, "r.html")
        _, r, out = run_json("-u", url, "-p", "jsonrpc", "--workload", f.path, "-R", "400",
                             "-d", "2s", "--html", html)
        calls = js.seen
        with open(html) as h:
            page = h.read()
        code, cout, cerr = rpcbench("compare", "-u", url + "," + url, "-p", "jsonrpc",
                                    "--workload", f.path, "-R", "200", "-d", "1s", "--rounds", "1",
                                    "--html", html, timeout=120)
        check(code == 0, "compare: rc %d %s" % (code, cerr))
        with open(html) as h:
            cpage = h.read()
    check(len(r["verbs"]) == 40 and r["requests"]["ok"] == r["requests"]["sent"] == len(calls),
          "%d verbs, %r, server %d" % (len(r["verbs"]), r["requests"], len(calls)))
    for i in range(40):
        v = r["verbs"]["c%02d" % i]
        got = sum(1 for c in calls if c[0] == "m%02d" % i)
        check(v["requests"] == got > 0, "c%02d: report %r, server %d" % (i, v, got))
        check(abs(v["requests"] - 800 * (1 + i % 4) / 100) <= 1, "c%02d's share: %r" % (i, v))
    check(all(re.search(r"^c%02d +\d" % i, out, re.M) for i in range(40)), "per-verb rows:\n" + out)
    check("(40 calls; each in the per-verb table)" in out, "verbs line:\n" + out)
    check("(the 16 verbs with the most requests of 40; the table above has them all)" in out
          and "the 16 verbs with the most requests of 40" in page, "the run's grid says it is cut")
    grid = out[out.index("response time %"):].splitlines()[0].split()[3:]
    busiest = sorted(range(40), key=lambda i: (-(1 + i % 4), i))[:16]
    check(grid == ["c%02d" % i for i in sorted(busiest)], "busiest: %r" % grid)
    check(len(re.findall(r"^c\d\d % +A +B$", cout, re.M)) == 8 and "the 8 verbs with the most requests of 40" in cout
          and "the 8 verbs with the most requests of 40" in cpage
          and cpage.count("cumulative % of answers under each edge") == 9,
          "compare's bucket tables:\n" + cout)


def test_stomp_carries_the_same_file():
    text = ('{"name": "ping", "method": "Host.ping", "params": {}, "weight": 3}\n'
            '{"name": "vms", "method": "Host.getVMList", "params": {"onlyUUID": true, "x": "${uuid}"}}\n')
    with Files(text) as f, Server("--vms", "5") as srv:
        _, r, _ = run_json("-u", "stomp://127.0.0.1:%d" % srv.port, "-p", "jsonrpc",
                           "--workload", f.path, "-R", "100", "-d", "2s")
    v = r["verbs"]
    check(r["requests"]["ok"] == r["requests"]["sent"] == r["requests"]["offered"] > 0,
          "ok %r" % r["requests"])
    share = v["ping"]["requests"] / r["requests"]["offered"]
    check(abs(share - 0.75) <= 0.05, "ping's share %.3f" % share)


def test_stomp_line_expect_checks_its_call():
    """Over STOMP (answers matched by id, not by connection) a line's own
    expect still checks only its call's answers."""
    text = ('{"name": "ping", "method": "Host.ping", "params": {}, "weight": 3}\n'
            '{"name": "vms", "method": "Host.getVMList", "params": {"onlyUUID": true}, '
            '"expect": "nosuch exists"}\n')
    with Files(text) as f, Server("--vms", "5") as srv:
        _, r, _ = run_json("-u", "stomp://127.0.0.1:%d" % srv.port, "-p", "jsonrpc",
                           "--workload", f.path, "-R", "100", "-d", "1s")
    v = r["verbs"]
    check(v["vms"]["requests"] > 0 and v["vms"]["errors"] == v["vms"]["requests"] ==
          r["errors"]["check"] and v["ping"]["errors"] == 0 and v["ping"]["ok"] > 0,
          "per call %r, errors %r" % (v, r["errors"]))
    check("vms's expect 'nosuch exists' broke: got no member nosuch" in
          r["error_samples"].get("check", ""), r["error_samples"])


def test_stomp_ring_holds_the_periodic_calls():
    """STOMP keeps its requests in flight in a ring sized from the rate:
    a periodic call at 200/s beside a mix at 1/s, each answered after
    1 s, has some 200 in flight. Sized for the mix alone (128 slots), a
    slot reused early ended a live request as a timeout."""
    text = ('{"name": "ping", "method": "Host.ping", "params": {}}\n'
            '{"name": "fast", "method": "Host.ping", "params": {}, "every": "5ms"}\n')
    with Files(text) as f, Server("--vms", "1", "--delay", "1s") as srv:
        _, r, _ = run_json("-u", "stomp://127.0.0.1:%d" % srv.port, "-p", "jsonrpc",
                           "--workload", f.path, "-R", "1", "-d", "2s", "-c", "2")
    req, v = r["requests"], r["verbs"]
    # the point: no live request ended as a false timeout; a loaded client may
    # leave the last few periodic sends unsent at the end
    check(req["errors"] == 0 and req["ok"] + req["unfinished"] == req["sent"] and
          req["sent"] + req["unsent"] == req["offered"] and req["unsent_given_up"] == 0,
          "%r %r" % (req, r["errors"]))
    check(v["fast"]["requests"] == 400 and v["fast"]["ok"] >= 380 and v["ping"]["requests"] == 2,
          "%r" % v)


def test_sweep_cells_have_per_call_tables():
    """sweep -u URL1,URL2 -p xmlrpc,jsonrpc --workload: every cell's result
    has its per-call table, with the weights' shares, and the servers got
    exactly what the cells' tables count, call by call."""
    method_of = {"status": "aria2.tellStatus", "add": "aria2.addUri", "types": "system.types"}
    with Files() as f, xml_server() as xs, json_server() as js:
        out = os.path.join(f.dir, "s.json")
        urls = "http://127.0.0.1:%d/RPC2,http://127.0.0.1:%d/jsonrpc" % (xs.port, js.port)
        code, text, err = rpcbench("sweep", "-u", urls, "-p", "xmlrpc,jsonrpc", "--workload",
                                   f.path, "-R", "50,100", "-d", "1s", "--output", out,
                                   timeout=120)
        check(code == 0 and "4 cells" in text, "sweep: rc %d %s %s" % (code, text, err))
        with open(out) as o:
            cells = json.load(o)["cells"]
        seen = {"xmlrpc": xs.seen, "jsonrpc": js.seen}
    for proto in ("xmlrpc", "jsonrpc"):
        mine = [c for c in cells if c["params"]["proto"] == proto]
        check(sorted(c["params"]["rate"] for c in mine) == [50, 100], "cells %r" % cells)
        for name, method in method_of.items():
            counted = 0
            for c in mine:
                v, rate = c["result"]["verbs"][name], c["params"]["rate"]
                want = rate * (0.6 if name == "status" else 0.2)
                check(v["ok"] == v["requests"] and abs(v["requests"] - want) <= 1,
                      "%s %s at %s/s: %r" % (proto, name, rate, v))
                counted += v["requests"]
            got = sum(1 for x in seen[proto] if x[0] == method)
            check(got == counted, "%s %s: the server got %d, the cells count %d"
                  % (proto, name, got, counted))


def test_job_file_equals_command_line():
    """workload = FILE in a --config job file is the run made with
    --workload FILE on the command line: the same saved configuration and,
    with one seed, the same calls with the same values."""
    same = ["--workload", None, "--rate", "40", "--duration", "1s", "--seed", "5",
            "--connections", "1", "-p", "jsonrpc"]
    runs = []
    with Files() as f:
        same[1] = f.path
        job = f.write("job.ini", "workload = %s\nrate = 40\nduration = 1s\nseed = 5\n"
                      "connections = 1\nproto = jsonrpc\n" % f.path)
        for args in (["--config", job], same):
            with json_server() as js:
                url = "http://127.0.0.1:%d/jsonrpc" % js.port
                _, r, _ = run_json("-u", url, *args)
                runs.append((r, [json.dumps(c[:2]) for c in js.seen]))
    (a, sa), (b, sb) = runs
    ca, cb = dict(a["config"]), dict(b["config"])
    for c in (ca, cb):
        c.pop("options", None), c.pop("job_file", None), c.pop("job_options", None)
    check(ca == cb, "job file %r\ncommand line %r" % (ca, cb))
    check(a["config"].get("job_file") == job, "the job file is recorded: %r" % a["config"])
    check(a["verbs"].keys() == b["verbs"].keys() == {"status", "add", "types"}, a["verbs"])
    check(len(sa) == 40 and sa == sb, "the calls differ: %d vs %d" % (len(sa), len(sb)))


class FieldHandler(JsonRpcHandler):
    """Only the call "with" answers with a member field."""

    def answer(self, req):
        return 200, {"field": 1} if req["method"] == "with" else {"other": 2}


MIX = """{"name": "with", "method": "with"%s}
{"name": "without", "method": "without"}
"""


def checked(srv, text, *more, code=0):
    """The run's check failures, its requests, and the calls' requests
    (code 3: no request succeeded)."""
    with Files(text) as f:
        _, r, _ = run_json("-u", "http://127.0.0.1:%d/jsonrpc" % srv.port, "-p", "jsonrpc",
                           "--workload", f.path, "-R", "100", "-d", "1s", *more, code=code)
    calls = {k: v["requests"] for k, v in r["verbs"].items()}
    check(min(calls.values()) > 0, "both calls ran: %r" % calls)
    check(r["requests"]["sent"] == r["requests"]["ok"] + r["errors"]["check"],
          "every answer came back: %r %r" % (r["requests"], r["errors"]))
    # what the checks cost is reported whichever form asked for them
    check(r.get("checks", {}).get("checked", 0) >= r["requests"]["sent"], "checks %r"
          % r.get("checks"))
    return r["errors"]["check"], r["requests"]["sent"], calls


def test_line_expect_checks_its_call_only():
    with Recorder(http.server.ThreadingHTTPServer(("127.0.0.1", 0), FieldHandler)) as srv:
        # the run's --expect checks every call: "without" has no field
        failed, _, calls = checked(srv, MIX % "", "--expect", "field exists")
        check(failed == calls["without"], "--expect fails the other call's %d answers, not %d"
              % (calls["without"], failed))
        # the line's own checks only its call's answers
        failed, sent, _ = checked(srv, MIX % ', "expect": "field exists"')
        check(failed == 0 and sent > 0, "a line's expect: %d of %d failed" % (failed, sent))
        # and is applied: a false one fails exactly that call's answers
        failed, _, calls = checked(srv, MIX % ', "expect": ["field exists", "field==2"]')
        check(failed == calls["with"], "a false line expect fails %d, not %d"
              % (calls["with"], failed))
        # both apply: the run's on every call, the line's on its own
        failed, _, _ = checked(srv, MIX % ', "expect": "field=1"', "--expect", "len(.)==1")
        check(failed == 0, "both holding: %d failed" % failed)
        failed, sent, _ = checked(srv, MIX % ', "expect": "field=1"', "--expect", "len(.)=2",
                               code=3)
        check(failed == sent, "the run's --expect still checks every call: %d of %d"
              % (failed, sent))


def usage(f, *args):
    code, out, err = rpcbench("run", "--workload", f, "-R", "5", "-d", "1s", *args, timeout=30)
    return code, err.strip()


def test_usage_errors_name_the_line():
    cases = [
        ('{"method": "a"}\n{"method": "b", "params": [1,\n', ":2: not one JSON object"),
        ('{"method": "a", "params": ["${nope}"]}\n', ":1: unknown template ${nope}"),
        ('\n{"method": "a", "params": ["${pick:missing.txt}"]}\n', ":2: "),
        ('{"method": "a", "params": ["${rand:9:1}"]}\n', ":1: ${rand:9:1}"),
        ('{"method": "a", "wieght": 3}\n', ':1: unknown key "wieght"'),
        ('{"method": "a", "every": "15s", "weight": 2}\n', ':1: "every" and "weight"'),
        ('{"method": "a"}\n{"method": "a"}\n', ':2: the name "a" is line 1'),
        ('{"method": "a", "params": [{"$i8": "x"}]}\n', ':1: {"$i8"'),
        ('# only a comment\n', ":1: no calls"),
        ('{"method": "a"}\n{"method": "b", "expect": "len(.)=5O"}\n',
         ":2: \"expect\" 'len(.)=5O': len(...) compares with a number, not '5O'"),
        ('{"method": "a", "expect": ["n=1", 5]}\n', ':1: "expect": item 2 is not a string'),
        ('{"method": "a", "expect": []}\n', ':1: "expect": want a check'),
        ('{"verb": "add"}\n', ':1: "verb": \'add\' is none of VDSM\'s verbs'),
        ('{"verb": "list", "method": "list"}\n', ':1: give "method" (sent as written) or "verb"'),
    ]
    for text, says in cases:
        with Files(text) as f:
            code, err = usage(f.path)
            check(code == 2 and f.path + says in err and len(err.splitlines()) == 1,
                  "%r: rc %d %r" % (text, code, err))
    with Files('{"method": "a", "params": ["${pick:missing.txt}"]}\n') as f:
        code, err = usage(f.path)
        check("missing.txt" in err and "No such file" in err, err)
    with Files('{"method": "a", "params": {"k": 1}}\n') as f:
        code, err = usage(f.path, "-p", "xmlrpc")
        check(code == 2 and "positional" in err and f.path + ":1" in err, "named xmlrpc: %r" % err)
        code, err = usage(f.path, "-p", "jsonrpc", "--verb", "ping")
        check(code == 2 and "--workload" in err, "with --verb: %r" % err)
        code, err = usage(f.path, "-p", "jsonrpc", "--params", "[1]")
        check(code == 2 and "--workload" in err, "with --params: %r" % err)
    with Files('{"method": "a", "every": "1s"}\n') as f:
        code, err = usage(f.path)
        check(code == 2 and "--rate" in err and "own period" in err, "every only, -R: %r" % err)
    with Files('{"method": "a", "every": "1s"}\n{"method": "b"}\n') as f:
        code, _, err = rpcbench("run", "--workload", f.path, "-R", "max", "-d", "1s", timeout=30)
        check(code == 2 and "--rate max" in err and "never sends" in err,
              "every in a closed loop: %r" % err)
    with Files('{"method": "a", "expect": "n=1"}\n') as f:
        code, err = usage(f.path, "--validate", "cheap")
        check(code == 2 and "--validate full" in err, "a line's expect needs full: %r" % err)
    code, err = usage("/nonexistent/w.jsonl")
    check(code == 2 and "/nonexistent/w.jsonl" in err, err)


if __name__ == "__main__":
    main([test_one_file_both_encodings_same_shares, test_one_file_names_each_encodings_methods,
          test_compare_workload_a_b, test_templates_give_what_they_promise,
          test_same_seed_same_values, test_every_line_runs_at_its_period,
          test_failed_sends_count_under_their_call,
          test_periodic_sends_left_at_the_end_are_unsent, test_forty_calls,
          test_stomp_carries_the_same_file, test_stomp_line_expect_checks_its_call,
          test_stomp_ring_holds_the_periodic_calls,
          test_sweep_cells_have_per_call_tables, test_job_file_equals_command_line,
          test_line_expect_checks_its_call_only, test_usage_errors_name_the_line])
