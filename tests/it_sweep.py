#!/usr/bin/python3
# rpctest: timed test_capacity_of_one_worker: the capacity found must be 85-100/s of a 100/s worker, which a sanitizer build cannot reach
"""Integration test of `rpcbench sweep`: grids on the built-in simulator and
capacity searches against `rpcbench serve --workers 1 --delay 10ms`, a server
whose capacity is known (one worker, 10 ms a call: 100 calls/s). Short runs,
few VMs; every rpcbench has a hard timeout.

The capacity figure is a property of a queueing server, not a timing race:
above 100/s the queue grows for the whole run, so p99 passes 50 ms within a
second; below it nothing waits (constant arrivals 10.5 ms apart or more)."""
import csv
import json
import os
import signal
import socket
import subprocess
import tempfile
import threading
import time

from rpctest import RPCBENCH, Server, check, main, rpcbench
from hdrcodec import total as hist_total

GRID = ["--vms", "5", "--verb", "ping", "-d", "0.5s", "--interval", "250ms"]


def one_worker():
    return Server("--workers", "1", "--delay", "10ms", "--vms", "1")


def search(srv, *args, code, d, timeout=120):
    """sweep --find-max against srv; returns (stdout, the saved JSON)."""
    out = os.path.join(d, "s.json")
    got, stdout, stderr = rpcbench("sweep", "--url", srv.url("/RPC2"), "--verb", "ping",
                                   "--output", out, "--quiet", *args, timeout=timeout)
    check(got == code, "sweep exited %d, want %d: %s\n%s" % (got, code, stderr[-2000:], stdout))
    with open(out) as f:
        return stdout, json.load(f)


def find_capacity(srv, d):
    # 3 s a probe: below the knee a stall of the machine must last over 70 ms
    # to put 1 % of the answers past 50 ms (2 s: 60 ms).
    return search(srv, "--find-max", "p99<50ms", "-d", "3s", "--rate-min", "20",
                  "--rate-max", "1000", "--resolution", "5%", code=0, d=d)


def test_capacity_of_one_worker():
    """The issue's "done when". Above 100/s the queue grows for the whole
    run: that bound cannot move, so a capacity over 100/s fails at once.
    Below it the knee is steep but real: at 85 % load a stall of the
    machine (other processes, a busy hypervisor) takes 6 times its own
    length to drain, so a busy machine can break a probe below 85/s; such a
    low figure is measured again (three searches at most) before it fails."""
    with one_worker() as srv, tempfile.TemporaryDirectory() as d:
        for attempt in range(3):
            stdout, s = find_capacity(srv, d)
            good = s["capacity"][0]["max_good_rate"]
            check(good is not None and good <= 100, "capacity %r/s over 100/s:\n%s"
                  % (good, stdout))
            if good >= 85:
                break
            print("note: capacity %r/s on attempt %d (a busy machine?), again" % (good, attempt + 1))
    check(len(s["capacity"]) == 1, "one search, got %d" % len(s["capacity"]))
    cap = s["capacity"][0]
    bad = cap["first_bad_rate"]
    check(cap["outcome"] == "found", "outcome %r" % cap["outcome"])
    check(85 <= good <= 100, "capacity %r/s, want 85..100 (one 10 ms worker):\n%s"
          % (good, stdout))
    check(good < bad and (bad - good) / good <= 0.05, "good %r, bad %r: not within 5%%"
          % (good, bad))
    probes = cap["probes"]
    # one verdict per rate: a break is confirmed by a second run at that rate
    rates = [p["rate"] for i, p in enumerate(probes) if i == 0 or p["rate"] != probes[i - 1]["rate"]]
    check(rates[:4] == [20, 40, 80, 160], "the search doubles from --rate-min: %r" % rates)
    at160 = [p for p in probes if p["rate"] == 160][-1]
    check(not at160["pass"] and "p99" in at160["reason"], "160/s should break p99<50ms: %r"
          % at160)
    for i, p in enumerate(probes):  # every break seen twice: the second run confirms it
        if not p["pass"] and (i == 0 or probes[i - 1]["rate"] != p["rate"]):
            check(i + 1 < len(probes) and probes[i + 1]["rate"] == p["rate"],
                  "a break at %r/s not confirmed: %r" % (p["rate"], [q["rate"] for q in probes]))
    check(all(p["pass"] == (p["reason"] == "") for p in probes), "reasons: %r" % probes)
    check(len(s["cells"]) == len(probes), "every probe is a cell: %d cells, %d probes"
          % (len(s["cells"]), len(probes)))
    check("capacity xmlrpc ping" in stdout and stdout.count(" FAIL ") >= 1,
          "the capacity section and its probes: %s" % stdout)


def test_capacity_exit_codes():
    # p99<500ms: far from the knee both ways (at 300/s the backlog passes
    # 500 ms within the second; at 5/s and 8/s nothing waits).
    with one_worker() as srv, tempfile.TemporaryDirectory() as d:
        _, s = search(srv, "--find-max", "p99<500ms", "-d", "1s", "--rate-min", "300", code=3,
                      d=d)
        cap = s["capacity"][0]
        # a break is confirmed by a second run at the same rate
        check(cap["outcome"] == "min_breaks" and [p["rate"] for p in cap["probes"]] == [300, 300]
              and not any(p["pass"] for p in cap["probes"]), "%r" % cap)
        check(cap["max_good_rate"] is None and cap["first_bad_rate"] == 300, "%r" % cap)
        _, s = search(srv, "--find-max", "p99<500ms", "-d", "1s", "--rate-min", "5",
                      "--rate-max", "8", code=4, d=d)
        cap = s["capacity"][0]
        check(cap["outcome"] == "max_holds", "%r" % cap)
        check([p["rate"] for p in cap["probes"]] == [5, 8], "doubling capped at --rate-max: %r"
              % cap["probes"])
        # Two searches (both encodings) and one breaks at --rate-min: 3, the worst.
        _, s = search(srv, "--find-max", "p99<500ms", "-d", "1s", "--rate-min", "300",
                      "--proto", "xmlrpc,jsonrpc", code=3, d=d)
        check([c["proto"] for c in s["capacity"]] == ["xmlrpc", "jsonrpc"], "%r" % s["capacity"])


def test_overload_is_the_servers():
    """A one-worker server at twice its capacity: every connection is busy,
    the rate is not held, the client idles. The cell is the server's doing
    (server-bound), never "client-bound", and the diagnosis names its rule."""
    with one_worker() as srv:
        code, out, err = rpcbench("sweep", "--url", srv.url("/RPC2"), "--verb", "ping", "-R",
                                  "200", "-d", "1s", "--quiet", timeout=60)
        check(code == 0, "exit %d: %s" % (code, err[-500:]))
        row = row_of(out, 1)
        check("server-bound" in row and "client-bound" not in row, "row: %r" % row)
        check("busy for 1% of the sends" in out, "the rule and its threshold: %r" % out)


def test_find_max_names_the_saturation_rule():
    """--cpu-saturation is the rule that stops a probe here (a server that
    burns ~10 ms of CPU a call, far from 3 % of a core at 10/s); the reason
    says so with its threshold, and `off` lets the same search run to
    --rate-max."""
    with Server("--vms", "10", "--work-us-per-vm", "1000") as srv, \
            tempfile.TemporaryDirectory() as d:
        args = ["--find-max", "errors=0", "--rate-min", "10", "--rate-max", "20", "-d", "1s",
                "--interval", "500ms", "--server-pid", str(srv.proc.pid)]
        out = os.path.join(d, "s.json")
        code, _, err = rpcbench("sweep", "--url", srv.url("/RPC2"), "--verb", "getAllVmStats",
                                "--output", out, *args, "--cpu-saturation", "3%", timeout=60)
        check(code == 3, "saturated at --rate-min: exit %d: %s" % (code, err[-1000:]))
        with open(out) as f:
            probes = json.load(f)["capacity"][0]["probes"]
        check(all("server saturated" in p["reason"] and ">= --cpu-saturation 3%" in p["reason"]
                  for p in probes), "reasons: %r" % [p["reason"] for p in probes])
        code, _, err = rpcbench("sweep", "--url", srv.url("/RPC2"), "--verb", "getAllVmStats",
                                "--output", out, *args, "--cpu-saturation", "off", timeout=60)
        check(code == 4, "off: --rate-max holds, exit %d: %s" % (code, err[-1000:]))


def row_of(stdout, cell):
    """The table row of cell number `cell` ("5*" when the baseline)."""
    for line in stdout.splitlines():
        first = line.split()[:1]
        if first and first[0].rstrip("*") == str(cell):
            return line
    raise AssertionError("no row %d in %s" % (cell, stdout))


def test_grid_outputs():
    with tempfile.TemporaryDirectory() as d:
        out, csvp, svg, hlog = (os.path.join(d, n) for n in ("s.json", "s.csv", "s.svg", "s.hlog"))
        code, stdout, stderr = rpcbench(
            "sweep", *GRID, "--proto", "xmlrpc,jsonrpc", "--rate", "2,4,8", "--repeat", "2",
            "--baseline", "rate=4,proto=jsonrpc", "--output", out, "--csv", csvp, "--plot", svg,
            "--hdr-log", hlog, timeout=120)
        check(code == 0, "sweep exited %d: %s" % (code, stderr[-2000:]))
        with open(out) as f:
            s = json.load(f)
        entries = s["cells"]
        check(len(entries) == 12, "6 cells x 2 repeats: %d entries" % len(entries))
        cells = sorted({(e["cell"], e["params"]["proto"], e["params"]["rate"]) for e in entries})
        check(cells == [(1, "xmlrpc", 2), (2, "xmlrpc", 4), (3, "xmlrpc", 8),
                        (4, "jsonrpc", 2), (5, "jsonrpc", 4), (6, "jsonrpc", 8)],
              "the cross product, rate fastest: %r" % cells)
        for e in entries:
            cfg = e["result"]["config"]
            check(cfg["rate"] == e["params"]["rate"] and e["result"]["requests"]["sent"] > 0,
                  "cell %d ran at its own rate: %r" % (e["cell"], cfg["rate"]))
        # Interleaved: every cell once, then every cell again.
        order = [line.split(":")[0] for line in stderr.splitlines()
                 if line.startswith("sweep cell ")]
        want = ["sweep cell %d/6 repeat %d/2" % (i, r) for r in (1, 2) for i in range(1, 7)]
        check(order == want, "run order %r" % order)
        check("left" in stderr, "progress shows the time left: %s" % stderr[:500])
        # The baseline's row is 100 % wherever it has a figure.
        base = row_of(stdout, 5)
        check(base.startswith("5*"), "baseline marked: %r" % base)
        pcts = [t for t in base.split() if t.endswith("%")]
        check(pcts and all(t == "100.0%" for t in pcts), "baseline row: %r" % base)
        check(any(t != "100.0%" for t in row_of(stdout, 3).split() if t.endswith("%")),
              "another row is not all 100%%: %r" % row_of(stdout, 3))
        with open(csvp) as f:
            rows = list(csv.reader(f))
        check(len(rows) == 7, "CSV: a header and 6 rows, got %d" % len(rows))
        with open(svg) as f:
            check("<svg" in f.read(2000), "the plot is an SVG")
        # --hdr-log holds every run's intervals (it once held the header alone).
        with open(hlog) as f:
            rows = [line.split(",") for line in f.read().splitlines()
                    if line and line[0] not in '#"']
        ok = sum(e["result"]["requests"]["ok"] for e in entries)
        check(len(rows) >= 12 and sum(hist_total(r[3]) for r in rows) == ok,
              "--hdr-log: %d intervals holding %d latencies, the runs' ok %d"
              % (len(rows), sum(hist_total(r[3]) for r in rows), ok))
        code, again, err = rpcbench("report", out)
        check(code == 0, "report S.json exited %d: %s" % (code, err))
        check(all(row_of(again, i) for i in range(1, 7)), "report re-renders 6 rows")


def test_verb_mix_with_plus():
    with tempfile.TemporaryDirectory() as d:
        out = os.path.join(d, "s.json")
        code, stdout, stderr = rpcbench("sweep", "--vms", "3", "-d", "0.3s", "--rate", "5",
                                        "--verb", "ping+list:2,ping", "--output", out,
                                        "--quiet", timeout=60)
        check(code == 0, "exit %d: %s" % (code, stderr))
        with open(out) as f:
            s = json.load(f)
        verbs = [e["params"]["verb"] for e in s["cells"]]
        check(verbs == ["ping,list:2", "ping"], "two cells, the first a mix: %r" % verbs)
        names = [v["name"] for v in s["cells"][0]["result"]["config"]["verbs"]]
        check(names == ["ping", "list"], "the mix's verbs: %r" % names)


def test_url_list_pairs_with_protocols():
    """-u A,B -p xmlrpc,jsonrpc: each protocol's cells measure its own URL
    (one server, XML-RPC at /RPC2, JSON-RPC at /jsonrpc)."""
    with Server() as srv, tempfile.TemporaryDirectory() as d:
        out = os.path.join(d, "s.json")
        code, _, stderr = rpcbench("sweep", "-u", srv.url("/RPC2") + "," + srv.url("/jsonrpc"),
                                   "-p", "xmlrpc,jsonrpc", "-R", "5,10", "-d", "0.4s",
                                   "--verb", "ping", "--output", out, "--quiet", timeout=60)
        check(code == 0, "exit %d: %s" % (code, stderr))
        with open(out) as f:
            s = json.load(f)
        got = [(c["params"]["proto"], c["result"]["target"]["url"].rsplit("/", 1)[1],
                c["result"]["requests"]["ok"] > 0) for c in s["cells"]]
        check(got == [("xmlrpc", "RPC2", True)] * 2 + [("jsonrpc", "jsonrpc", True)] * 2,
              "cells: %r" % got)
        code, _, stderr = rpcbench("sweep", "-u", srv.url("/RPC2") + "," + srv.url("/jsonrpc"),
                                   "-p", "xmlrpc", "-d", "0.4s")
        check(code == 2 and "2 URLs for 1 --proto value" in stderr, "%d %r" % (code, stderr))


class Listener:
    """A bare TCP listener counting the connections made to it: a usage
    error must send nothing."""

    def __init__(self):
        self.sock = socket.socket()
        self.sock.bind(("127.0.0.1", 0))
        self.sock.listen(16)
        self.sock.settimeout(0.2)
        self.accepted = 0
        self.stop = False
        self.t = threading.Thread(target=self.loop, daemon=True)
        self.t.start()

    def loop(self):
        while not self.stop:
            try:
                c, _ = self.sock.accept()
                self.accepted += 1
                c.close()
            except OSError:
                pass

    def url(self):
        return "http://127.0.0.1:%d/RPC2" % self.sock.getsockname()[1]

    def close(self):
        self.stop = True
        self.t.join()
        self.sock.close()


def test_usage_errors():
    lst = Listener()
    try:
        bad = [["--rate", "5,x"], ["--rate", "10:5:1"], ["--rate", "1:5:0"], ["--rate", "1,,2"],
               ["--vms", "10,20"], ["--baseline", "rate=7"], ["--rate", "1:200:1"],
               ["--rate", "1:60:1", "--connections", "1,2,3,4,5"], ["--find-max", "p99<<5"],
               ["--find-max", "list.p99<5ms", "--verb", "ping"], ["--verb", "ping,ping"],
               ["--verb", "ping,nope"], ["--proto", "xmlrpc,soap"], ["--repeat", "0"],
               ["--find-max", "p99<5ms", "--rate", "5"], ["--rate-min", "5"],
               ["--find-max", "p99<5ms", "--rate-min", "10", "--rate-max", "5"],
               ["--find-max", "p99<5ms", "--resolution", "0"], ["--format", "csv-summary"],
               ["--threshold", "list.p99<5ms", "--verb", "ping"],
               ["--find-max", "p99<5ms", "--threshold", "p99<5ms"],
               ["--find-max", "p99<5ms", "--proto", "xmlrpc,jsonrpc",
                "--verb", "ping,list,fullList,getAllVmStats,ping+list,list+fullList,"
                          "ping+fullList,ping+getAllVmStats,list+getAllVmStats"], ["--csv", "/nonexistent/x"],
               ["--bogus"], ["--rate"], ["--verb", "ping", "--vm-id", "x"],
               ["--verb", "ping", "--method", "x"]]
        for args in bad:
            code, out, err = rpcbench("sweep", "--url", lst.url(), "-d", "1s", *args, timeout=20)
            check(code == 2, "%r: exit %d (%s)" % (args, code, err))
            check(len(err.strip().splitlines()) == 1 and err.startswith("rpcbench sweep: "),
                  "%r: one line, got %r" % (args, err))
        check(lst.accepted == 0, "a usage error sent something (%d connections)" % lst.accepted)
    finally:
        lst.close()
    code, out, _ = rpcbench("sweep", "--help")
    check(code == 0 and "--find-max" in out and "'+'" in out, "--help: %d %r" % (code, out[:200]))


def test_sigint_keeps_what_was_measured():
    with tempfile.TemporaryDirectory() as d:
        out = os.path.join(d, "s.json")
        cells_1s = ["1s" if a == "0.5s" else a for a in GRID]  # -d twice is a usage error
        p = subprocess.Popen([RPCBENCH, "sweep", *cells_1s, "--rate", "5,10,20,40",
                              "--output", out], stdout=subprocess.PIPE,
                             stderr=subprocess.PIPE, text=True)
        try:
            for line in p.stderr:  # wait until the second cell runs
                if line.startswith("sweep cell 2/4"):
                    break
            time.sleep(0.3)
            p.send_signal(signal.SIGINT)
            stdout, _ = p.communicate(timeout=30)
        finally:
            if p.poll() is None:
                p.kill()
        check(p.returncode == 130, "exit %r after SIGINT" % p.returncode)
        with open(out) as f:
            s = json.load(f)
        check(s["interrupted"] is True, "saved as interrupted")
        n = len(s["cells"])
        check(1 <= n <= 2, "the cells done (1, and the one cut short): %d" % n)
        check(s["cells"][0]["result"]["interrupted"] is False, "cell 1 ran whole")
        check("rate" in stdout, "the table still printed: %r" % stdout[:300])


if __name__ == "__main__":
    main([test_usage_errors, test_overload_is_the_servers, test_find_max_names_the_saturation_rule,
          test_verb_mix_with_plus, test_url_list_pairs_with_protocols, test_sigint_keeps_what_was_measured,
          test_grid_outputs, test_capacity_exit_codes, test_capacity_of_one_worker])
