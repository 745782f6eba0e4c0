"""it_fleet: a fleet of hosts (issue 26, part 4): `serve --hosts 3` writes
its targets file, `run --targets` drives the three hosts from one process,
and the per-target rows add up to the run's counts and match what each
host counted itself (serve's --stats-out); a host's own rate=R is
honoured, the first sends are spread within the first period (not all at
t=0), and a bad targets file is one line naming the file and the line,
exit 2, before anything is sent."""
import csv
import json
import os
import socket
import socketserver
import tempfile

from hostile_peers import CLOSE, HttpPeer, RAW
from rpctest import RPCBENCH, Listening, Recorder, check, jsonrpc_result, main, rpcbench

DURATION_S = 3
RATES = [10, 20, 10]  # the second line carries rate=20, the others take -R 10


def fleet(d, n=3):
    targets, stats = os.path.join(d, "hosts.txt"), os.path.join(d, "stats.csv")
    srv = Listening([RPCBENCH, "serve", "--hosts", str(n), "--listen", "127.0.0.1:0",
                     "--vms", "5", "--targets-out", targets, "--stats-out", stats],
                    "serve --hosts")
    return srv, targets, stats


def run_fleet(srv, d, targets, stats, *args, window=True, text=None):
    """run --targets with args (and -d DURATION_S when window) against
    srv, stopped after: the saved JSON and what each host counted itself
    (url: requests); text, a list, gets the report's text (else --quiet)."""
    saved = os.path.join(d, "r.json")
    dur = ["-d", "%ds" % DURATION_S] if window else []
    quiet = [] if text is not None else ["--quiet"]
    rc, out, err = rpcbench("run", "--targets", targets, *dur, *quiet, "--output", saved,
                            *args, timeout=60)
    if text is not None:
        text.append(out)
    check(rc == 0, "run: rc %d %r" % (rc, err[-600:]))
    srv.stop()
    with open(saved) as f:
        doc = json.load(f)
    with open(stats) as f:
        served = {row["url"]: int(row["requests"]) for row in csv.DictReader(f)}
    return doc, served


def test_fleet_counts_add_up():
    with tempfile.TemporaryDirectory() as d:
        srv, targets, stats = fleet(d)
        with srv:
            with open(targets) as f:
                urls = f.read().split()
            check(len(urls) == 3 and len(set(urls)) == 3, "targets file: %r" % urls)
            with open(targets, "w") as f:
                f.write("# three hosts\n%s\n%s rate=20\n\n%s\n" % tuple(urls))
            saved = os.path.join(d, "r.json")
            rc, out, err = rpcbench("run", "--targets", targets, "-R", "10", "-d",
                                    "%ds" % DURATION_S, "--verb", "ping", "--quiet",
                                    "--output", saved, timeout=60)
            check(rc == 0, "run: rc %d %r" % (rc, err[-600:]))
            code, serr = srv.stop()
        with open(saved) as f:
            doc = json.load(f)
        with open(stats) as f:
            served = {row["url"]: int(row["requests"]) for row in csv.DictReader(f)}
    rows = doc["targets"]
    req = doc["requests"]
    check([r["url"] for r in rows] == urls, "rows: %r" % rows)
    for key in ("sent", "ok", "errors", "unfinished"):
        check(sum(r[key] for r in rows) == req[key],
              "%s: targets %r, run %r" % (key, [r[key] for r in rows], req[key]))
    for r, rate in zip(rows, RATES):
        check(r["sent"] == r["ok"] + r["errors"] + r["unfinished"], "row: %r" % r)
        check(r["rate"] == rate, "rate: %r" % r)
        # the schedule offers rate * duration from the host's own start
        check(abs(r["sent"] - rate * DURATION_S) <= 1, "sent at rate %d: %r" % (rate, r))
        check(r["errors"] == 0 and r["unfinished"] == 0, "row: %r" % r)
        # the server got exactly what the report counts (no warmup)
        check(served[r["url"]] == r["sent"], "host %s got %d, report %d"
              % (r["url"], served[r["url"]], r["sent"]))
        check(0 <= r["start_s"] < 1.0 / rate, "start within the first period: %r" % r)
    starts = [r["start_s"] for r in rows]
    check(len(set(starts)) == 3 and max(starts) > 0, "spread starts: %r" % starts)
    check(sum(served.values()) == req["sent"], "served %r" % served)
    check("targets     3 (all shown)" in out, "report: %r" % out[-800:])
    check(code == 0 and "3 hosts stopped" in serr, "serve: %r %r" % (code, serr))


def closed_port():
    """A loopback port nothing listens on (bound, then closed)."""
    s = socket.socket()
    s.bind(("127.0.0.1", 0))
    port = s.getsockname()[1]
    s.close()
    return port


def test_dead_host_does_not_abort_the_fleet():
    """One of three hosts is a closed port: its due requests are given up,
    unsent, in its own row (and the totals), as connect failures (never
    written: no error of a sent request), its connections retry with
    backoff (no storm), the other two are served as usual and the run
    succeeds; the first-error sample names the dead host. Every host
    dead: exit 1, one line."""
    with tempfile.TemporaryDirectory() as d:
        srv, targets, stats = fleet(d, 2)
        dead = "http://127.0.0.1:%d" % closed_port()
        with srv:
            with open(targets) as f:
                live = f.read().split()
            urls = [live[0], dead, live[1]]
            with open(targets, "w") as f:
                f.write("\n".join(urls) + "\n")
            doc, served = run_fleet(srv, d, targets, stats, "-R", "10", "--verb", "ping")
        rows = {r["url"]: r for r in doc["targets"]}
        bad = rows[dead]
        check(bad["offered"] >= 10 * DURATION_S - 1 and bad["unsent"] == bad["offered"] and
              bad["sent"] == bad["ok"] == bad["errors"] == 0, "dead host's row: %r" % bad)
        req = doc["requests"]
        check(req["unsent_given_up"] == req["unsent"] == bad["unsent"] and
              req["unsent_given_up_as"] == "connect" and req["errors"] == 0,
              "requests %r, row %r" % (req, bad))
        for url in live:
            r = rows[url]
            check(r["ok"] == r["sent"] == served[url] and r["errors"] == 0,
                  "live host %s: %r, served %d" % (url, r, served[url]))
        tries = doc["transport"]["connection_failures"]["connect"]
        conns = doc["config"]["connections"]
        # backoff from 10 ms doubling to 1 s: about 10 tries in 3 s, whatever the rate
        check(conns == 1, "one connection a host without -c: %r" % doc["config"])
        check(1 <= tries <= 2 * DURATION_S + 12, "connect tries %d (no storm)" % tries)
        check(dead.split("//")[1] in doc["error_samples"]["connect"], doc["error_samples"])
        with open(targets, "w") as f:
            f.write("%s\nhttp://127.0.0.1:%d\n" % (dead, closed_port()))
        rc, out, err = rpcbench("run", "--targets", targets, "-R", "10", "-d", "2s",
                                "--verb", "ping", "--quiet", timeout=60)
        check(rc == 1 and "cannot connect to any of the 2 targets" in err and
              len(err.strip().splitlines()) == 1, "all dead: %d %r" % (rc, err))


def test_hostile_hosts_do_not_abort_the_fleet():
    """Two hostile hosts among live ones, before any live host answered: one
    accepts and closes at once, the other answers HTTP with a STOMP frame.
    Each is given up alone: its requests are errors in its own row, its
    connection retries with backoff (no storm), and the live hosts are
    served as usual. Every host hostile: exit 1, one line."""
    stomp_frame = RAW(b"CONNECTED\nversion:1.2\n\n\x00")
    with tempfile.TemporaryDirectory() as d, \
            HttpPeer(on_accept=lambda rec: [CLOSE]) as closer, \
            HttpPeer(on_accept=lambda rec: [stomp_frame, CLOSE]) as stomper:
        srv, targets, stats = fleet(d, 2)
        bad = [closer.url("http"), stomper.url("http")]
        with srv:
            with open(targets) as f:
                live = f.read().split()
            with open(targets, "w") as f:  # the hostile hosts meet the client first:
                # theirs start within 0.1 s, the live ones' within their 2 s period
                f.write("\n".join(bad + ["%s rate=1/2s" % u for u in live]) + "\n")
            doc, served = run_fleet(srv, d, targets, stats, "-R", "10", "--verb", "ping",
                                    "--timeout", "5s")
        rows = {r["url"]: r for r in doc["targets"]}
        for url in bad:
            r = rows[url]
            check(r["offered"] >= 10 * DURATION_S - 1 and r["errors"] == r["sent"] and
                  r["ok"] == 0 and r["errors"] + r["unsent"] == r["offered"],
                  "hostile host %s's row: %r" % (url, r))
        for url in live:
            r = rows[url]
            check(r["ok"] == r["sent"] == served[url] > 0 and r["errors"] == 0,
                  "live host %s: %r, served %d" % (url, r, served[url]))
        check(doc["requests"]["errors"] == sum(rows[u]["errors"] for u in bad),
              "errors %r" % doc["errors"])
        # backoff from 10 ms doubling to 1 s: about 10 tries in 3 s per host
        accepted = len(closer.conns) + len(stomper.conns)
        check(2 <= accepted <= 2 * (2 * DURATION_S + 12), "connections to hostile hosts %d"
              % accepted)
        with open(targets, "w") as f:
            f.write("\n".join(bad) + "\n")
        rc, out, err = rpcbench("run", "--targets", targets, "-R", "10", "-d", "3s",
                                "--verb", "ping", "--quiet", timeout=60)
        check(rc == 1 and "none of the 2 targets answered" in err and
              len(err.strip().splitlines()) == 1, "all hostile: %d %r" % (rc, err))


def ramp_count(stages, t):
    """Requests the stages [(seconds, from, to)] offer in their first t s."""
    n = 0.0
    for length, a, b in stages:
        part = min(max(t, 0.0), length)
        n += a * part + (b - a) * part * part / (2 * length)
        t -= length
    return n


def test_per_target_stages():
    """A line's stages= is that host's own ramp from its own start: its
    count follows the ramp's integral, the other host keeps its rate,
    each host got what its row says, the window is the longest ramp
    (no -d) and the target rate is what the window offered."""
    ramp = [(1.0, 0.0, 20.0), (2.0, 20.0, 20.0)]
    with tempfile.TemporaryDirectory() as d:
        srv, targets, stats = fleet(d, 2)
        with srv:
            with open(targets) as f:
                urls = f.read().split()
            with open(targets, "w") as f:
                f.write("%s stages=1s:0/s-20/s,2s:20/s\n%s\n" % tuple(urls))
            doc, served = run_fleet(srv, d, targets, stats, "-R", "10", "--verb", "ping",
                                    window=False)
    check(doc["duration_s"] == 3.0, "window %r" % doc["duration_s"])
    staged, steady = doc["targets"]
    want = ramp_count(ramp, 3.0 - staged["start_s"])
    check(abs(staged["sent"] - want) <= 1.5, "ramped host sent %d, its ramp offers %.1f: %r"
          % (staged["sent"], want, staged))
    check(abs(staged["rate"] - 50 / 3.0) < 0.01, "its rate is the ramp's mean: %r" % staged)
    check(abs(steady["sent"] - 10 * 3) <= 1, "steady host: %r" % steady)
    for r in (staged, steady):
        check(served[r["url"]] == r["sent"] == r["ok"], "host got %d: %r"
              % (served[r["url"]], r))
    total = doc["requests"]["sent"]
    check(abs(doc["rate"]["target"] * 3.0 - total) <= 2, "target %r for %d sent"
          % (doc["rate"], total))
    check(not any("rate not held" in w for w in doc["warnings"]), doc["warnings"])


def test_stomp_fleet():
    """stomp:// targets: every host its own -c connections (STOMP sends
    on the host's own connections only), its own rate, and each host
    served exactly what its row counts."""
    with tempfile.TemporaryDirectory() as d:
        srv, targets, stats = fleet(d)
        with srv:
            urls = [u.replace("http://", "stomp://") for u in open(targets).read().split()]
            with open(targets, "w") as f:
                f.write("%s\n%s rate=20\n%s\n" % tuple(urls))
            doc, _ = run_fleet(srv, d, targets, stats, "-p", "jsonrpc", "-R", "10", "--verb",
                               "ping", "-c", "2")
        with open(stats) as f:
            served = {row["url"].replace("http://", "stomp://"): row for row in csv.DictReader(f)}
    for r, rate in zip(doc["targets"], RATES):
        got = served[r["url"]]
        check(int(got["requests"]) == r["sent"] == r["ok"] and
              abs(r["sent"] - rate * DURATION_S) <= 1 and int(got["connections"]) == 2,
              "host %s served %r, row %r" % (r["url"], got, r))
    check(sum(r["sent"] for r in doc["targets"]) == doc["requests"]["sent"], doc["requests"])


def table_lines(text):
    return [l for l in text.splitlines() if l.startswith("http://")]


def test_rows_everywhere():
    """The per-target rows in every output: --format csv-targets (every
    host, the file's order, the JSON's figures), the --html page's table
    (the text's rows), and `report` of the saved JSON giving the same
    table and the same CSV again."""
    with tempfile.TemporaryDirectory() as d:
        srv, targets, stats = fleet(d)
        saved, page = os.path.join(d, "r.json"), os.path.join(d, "r.html")
        with srv:
            urls = open(targets).read().split()
            rc, out, err = rpcbench("run", "--targets", targets, "-R", "10", "-d", "2s",
                                    "--verb", "ping", "--quiet", "--output", saved, "--html",
                                    page, "--format", "csv-targets", timeout=60)
            check(rc == 0, "run: rc %d %r" % (rc, err[-600:]))
            srv.stop()
        doc = json.load(open(saved))
        rows = list(csv.DictReader(out.splitlines()))
        check([r["url"] for r in rows] == urls, "csv rows: %r" % out)
        for c, j in zip(rows, doc["targets"]):
            for key in ("sent", "ok", "errors", "unfinished"):
                check(int(c[key]) == j[key], "%s: csv %r json %r" % (key, c, j))
            check(abs(float(c["p99_ms"]) - j["p99_ms"]) < 1e-6 and float(c["rate"]) == j["rate"],
                  "csv %r json %r" % (c, j))
        rc, again, err = rpcbench("report", saved, "--format", "csv-targets", timeout=30)
        check(rc == 0 and again == out, "report's CSV: %r vs %r" % (again, out))
        rc, text, err = rpcbench("report", saved, timeout=30)
        shown = table_lines(text)
        # the percentiles come back from each row's histogram: none empty
        check(rc == 0 and len(shown) == 3 and all(l.endswith("s") and " 0us" not in l and
                                                  not l.endswith("-") for l in shown),
              "report: %r" % text)
        html = open(page).read()
        check('id="targets"' in html and all(u in html for u in urls), "page: no targets table")
        rc, text2, err = rpcbench("report", saved, "--html", page + "2", timeout=30)
        check(rc == 0 and table_lines(text2) == shown, "report again: %r" % text2)


class ByteCounter(socketserver.StreamRequestHandler):
    """A keep-alive HTTP/1.1 JSON-RPC peer that records, per request, the
    bytes it read (request line, headers, body) and answers true."""

    def handle(self):
        while True:
            n, length, line = 0, 0, self.rfile.readline()
            if not line:
                return
            while line not in (b"\r\n", b"\n", b""):
                n += len(line)
                if line.lower().startswith(b"content-length:"):
                    length = int(line.split(b":")[1])
                line = self.rfile.readline()
            body = self.rfile.read(length)
            n += len(line) + len(body)
            with self.server.lock:
                self.server.seen.append(n)
            answer = jsonrpc_result(json.loads(body)["id"])
            self.wfile.write(b"HTTP/1.1 200 OK\r\nContent-Type: application/json\r\n"
                             b"Content-Length: %d\r\n\r\n%s" % (len(answer), answer))


def test_requests_log_names_each_host():
    """--requests-log in a fleet: each row names its own host (not the
    first one's), and its bytes_sent is what that host read for it (the
    Host line differs per host), against three independent peers."""
    servers = [Recorder(socketserver.ThreadingTCPServer(("127.0.0.1", 0), ByteCounter))
               for _ in range(3)]
    with tempfile.TemporaryDirectory() as d, servers[0], servers[1], servers[2]:
        targets, log = os.path.join(d, "hosts.txt"), os.path.join(d, "log.csv")
        urls = ["http://127.0.0.1:%d/rpc" % s.port for s in servers]
        with open(targets, "w") as f:
            f.write("\n".join(urls) + "\n")
        rc, out, err = rpcbench("run", "--targets", targets, "-p", "jsonrpc", "--method",
                                "echo", "-R", "10", "-d", "2s", "--quiet", "--requests-log", log,
                                timeout=60)
        check(rc == 0, "run: rc %d %r" % (rc, err[-600:]))
        seen = [sorted(s.seen) for s in servers]
        with open(log) as f:
            rows = list(csv.DictReader(l for l in f if not l.startswith("#")))
    for url, got in zip(urls, seen):
        mine = sorted(int(r["bytes_sent"]) for r in rows if r["target"] == url)
        check(len(mine) == 20 and mine == got, "host %s read %r, its rows say %r"
              % (url, got, mine))


BAD = [
    ("", "has no target"),
    ("http://127.0.0.1:1/RPC2 rate=x\n", ":1: rate=x"),
    ("# c\nhttp://127.0.0.1:1/RPC2\nhttp://127.0.0.1:2/RPC2 speed=3\n", ":3: unknown key 'speed'"),
    ("http://127.0.0.1:1/RPC2\nhttps://127.0.0.1:2/RPC2\n", ":2: "),
    ("http://127.0.0.1:1/RPC2\nstomp://127.0.0.1:2\n", ":2: "),
    ("http://127.0.0.1:1/RPC2 rate\n", ":1: 'rate' is not KEY=VALUE"),
    ("ftp://x/\n", ":1: "),
    ("http://127.0.0.1:1/RPC2\nhttp://127.0.0.1:2/RPC2 stages=5s:x\n", ":2: stages=: stage 1"),
    ("http://127.0.0.1:1/RPC2 stages=5s:0/s\n", ":1: stages=: every rate is 0"),
    ("http://127.0.0.1:1/RPC2 rate=5 stages=5s:5/s\n", ":1: stages=: a line takes one"),
]



def test_every_host_polled_on_its_own_periods():
    """The engine's pattern, one workload file for every host: each host
    gets its own "every" calls from its own spread start, each host's
    server counted what its row says, and the target rate is what the
    window offered (no "rate not held" from the spread starts)."""
    with tempfile.TemporaryDirectory() as d:
        srv, targets, stats = fleet(d)
        work = os.path.join(d, "engine.jsonl")
        with open(work, "w") as f:
            f.write('{"name": "stats", "method": "Host.getAllVmStats", "params": [], '
                    '"every": "1s"}\n{"name": "list", "method": "Host.getVMList", '
                    '"params": [], "every": "250ms"}\n')
        with srv:
            doc, served = run_fleet(srv, d, targets, stats, "--workload", work, "-p", "jsonrpc",
                                    "-c", "2")
    check(doc["config"]["connections"] == 2, "-c 2 is each host's: %r" % doc["config"])
    verbs = {name: v["requests"] for name, v in doc["verbs"].items()}
    for r in doc["targets"]:
        # every 1 s and every 250 ms from the host's start, in the window
        left = DURATION_S - r["start_s"]
        want = int(-(-left // 1)) + int(-(-left // 0.25))
        check(abs(r["sent"] - want) <= 1, "host %r: sent %d, its periods give %d"
              % (r["url"], r["sent"], want))
        check(0 <= r["start_s"] < 1.0, "start within the longest period: %r" % r)
        check(served[r["url"]] == r["sent"] == r["ok"], "host %s got %d, report %r"
              % (r["url"], served[r["url"]], r))
    check(verbs["list"] > 3 * verbs["stats"], "per call: %r" % verbs)
    rate = doc["rate"]
    check(abs(rate["target"] * DURATION_S - doc["requests"]["sent"]) <= 3,
          "target %r for %d sent" % (rate, doc["requests"]["sent"]))
    check(not any("rate not held" in w for w in doc["warnings"]), doc["warnings"])

def test_verb_periods_name_the_fleet():
    """--verb V@P polls every host on its own periods, as a workload's
    "every" does; the report names the fleet (never its first host), shows
    the periods (never weight 0) and says that its target rate includes
    the spread-in of the starts, beside the steady rate."""
    with tempfile.TemporaryDirectory() as d:
        srv, targets, stats = fleet(d)
        texts = []
        with srv:
            doc, served = run_fleet(srv, d, targets, stats, "--verb",
                                    "list@250ms,getAllVmStats@1s", text=texts)
        text = texts[0]
    check("3 targets from %s" % targets in text, "target line: %r" % text[:600])
    check("verbs       list@250ms,getAllVmStats@1s" in text, "verbs line: %r" % text[:900])
    check("spread" in text and "steady 15.00/s" in text, "rate line: %r" % text[:900])
    for r in doc["targets"]:
        left = DURATION_S - r["start_s"]
        want = int(-(-left // 1)) + int(-(-left // 0.25))
        check(abs(r["sent"] - want) <= 1 and served[r["url"]] == r["sent"],
              "host %r: sent %d, periods give %d, served %d" % (r["url"], r["sent"], want,
                                                               served[r["url"]]))
    every = {v["name"]: v.get("every_s") for v in doc["config"]["verbs"]}
    check(every == {"list": 0.25, "getAllVmStats": 1.0}, "saved periods: %r" % every)


def test_compare_and_sweep_a_fleet():
    """compare --targets compares the encodings over a fleet, per-verb rows
    in each arm, each arm naming the fleet; sweep --targets sweeps it."""
    with tempfile.TemporaryDirectory() as d:
        srv, targets, stats = fleet(d)
        out = os.path.join(d, "c.json")
        with srv:
            rc, text, err = rpcbench("compare", "--targets", targets, "--proto",
                                     "xmlrpc,jsonrpc", "--verb", "list@500ms,getAllVmStats@1s",
                                     "-d", "2s", "--rounds", "1", "--output", out, timeout=120)
            check(rc == 0, "compare --targets: rc %d %r" % (rc, err[-600:]))
            rc2, stext, err2 = rpcbench("sweep", "--targets", targets, "--verb", "ping",
                                        "-R", "2,4", "-d", "2s", "--quiet", timeout=120)
            srv.stop()
        check(rc2 == 0, "sweep --targets: rc %d %r" % (rc2, err2[-600:]))
        with open(out) as f:
            doc = json.load(f)
        with open(stats) as f:
            served = sum(int(row["requests"]) for row in csv.DictReader(f))
    check(text.count("3 targets from %s" % targets) >= 2, "arms: %r" % text[:400])
    rows = {v["verb"]: v for v in doc["verbs"]}
    for name in ("list", "getAllVmStats"):
        check(rows[name]["a"]["ok"] > 0 and rows[name]["b"]["ok"] > 0, "%s: %r"
              % (name, rows.get(name)))
    lines = [line.split() for line in stext.splitlines() if line[:2] in ("1 ", "2 ")]
    got = [float(x[2]) for x in lines]
    # each host gets the cell's rate: 3 hosts at 2/s and 4/s
    check(len(got) == 2 and abs(got[0] - 6) < 1 and abs(got[1] - 12) < 1.5,
          "sweep rows: %r" % stext[-600:])
    check(served > 0, "the hosts counted nothing")


def test_bad_targets_files():
    with tempfile.TemporaryDirectory() as d:
        path = os.path.join(d, "hosts.txt")
        for text, want in BAD:
            with open(path, "w") as f:
                f.write(text)
            rc, out, err = rpcbench("run", "--targets", path, "-d", "1s", timeout=20)
            check(rc == 2 and want in err and path in err and len(err.splitlines()) == 1,
                  "%r: rc %d %r" % (text, rc, err))
        rc, _, err = rpcbench("run", "--targets", os.path.join(d, "none.txt"), timeout=20)
        check(rc == 2 and "cannot read" in err, "missing file: %d %r" % (rc, err))
        with open(path, "w") as f:
            f.write("http://127.0.0.1:1/RPC2\n")
        for extra, want in ((["--url", "http://127.0.0.1:1/RPC2"], "--url"),
                            (["--stages", "1s:5/s"], "--stages"),
                            (["-R", "max"], "closed loop")):
            rc, _, err = rpcbench("run", "--targets", path, *extra, timeout=20)
            check(rc == 2 and want in err, "%r: %d %r" % (extra, rc, err))
        for cmd in ("compare", "sweep"):  # their fleets are checked as run's, before a send
            rc, _, err = rpcbench(cmd, "--targets", path, "--url", "http://127.0.0.1:1/RPC2",
                                  timeout=20)
            check(rc == 2 and "--url" in err, "%s --targets --url: %d %r" % (cmd, rc, err))
        # every call on its own period: a line's rate= or stages= sets nothing
        work = os.path.join(d, "periodic.jsonl")
        with open(work, "w") as f:
            f.write('{"name": "list", "method": "Host.getVMList", "params": [], '
                    '"every": "1s"}\n')
        for key in ("rate=5", "stages=1s:5/s"):
            with open(path, "w") as f:
                f.write("http://127.0.0.1:1\nhttp://127.0.0.1:2 %s\n" % key)
            rc, _, err = rpcbench("run", "--targets", path, "--workload", work, "-p", "jsonrpc",
                                  "-d", "1s", timeout=20)
            check(rc == 2 and ":2: every call" in err and len(err.splitlines()) == 1,
                  "%s with every call periodic: %d %r" % (key, rc, err))


def test_serve_hosts_bad():
    rc, _, err = rpcbench("serve", "--hosts", "0", timeout=20)
    check(rc == 2 and "--hosts" in err, "--hosts 0: %d %r" % (rc, err))
    with tempfile.TemporaryDirectory() as d:
        rc, _, err = rpcbench("serve", "--hosts", "2", "--listen", "127.0.0.1:0",
                              "--targets-out", os.path.join(d, "no", "dir.txt"), timeout=20)
        check(rc == 2 and "--targets-out" in err, "unwritable: %d %r" % (rc, err))


if __name__ == "__main__":
    main([test_fleet_counts_add_up, test_every_host_polled_on_its_own_periods,
          test_verb_periods_name_the_fleet, test_compare_and_sweep_a_fleet,
          test_dead_host_does_not_abort_the_fleet, test_hostile_hosts_do_not_abort_the_fleet,
          test_per_target_stages, test_rows_everywhere,
          test_requests_log_names_each_host, test_stomp_fleet,
          test_bad_targets_files, test_serve_hosts_bad])
