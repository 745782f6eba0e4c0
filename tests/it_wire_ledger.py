# rpctest: alone: each request is matched to the capture within 10 ms
"""it_wire_ledger: what the report counts is what the loopback wire carried
(issue 36). tcpdump captures the run's port; a parser of our own
(pcapwire.py) reads every request the client wrote and every answer the
server wrote, with the kernel's stamps. Against a standard-library HTTP
server that stalls for a set time, the run's JSON result and its
--requests-log must agree with the capture:

- sent = requests on the wire, request by request (the log's sent_us
  against each request's first byte), and the bytes each way;
- offered = sent + unsent, sent = ok + errors + unfinished, for the run,
  the calls and the intervals; the log's rows say the same;
- answers read = ok, each one's latency (arrival - intended) as the
  capture's;
- per interval: sent by the write, ok by the answer's arrival, as the
  capture's stamps put them (a stamp within 2 ms of an edge may fall on
  either side: clocks are read by two parties);
- unsent (never written) are exactly the offered requests the wire never
  saw: given up while the only connection was down (timeouts), or left
  waiting when the run ended; queued counts them.

Cases: a 1 s stall with --timeout 300ms (timeouts, requests given up), a
stall over the window's end (requests left unsent), a ramp on two
connections."""
import csv
import io
import json
import os
import re
import shutil
import socket
import socketserver
import subprocess
import tempfile
import threading
import time
import urllib.request
from http.server import BaseHTTPRequestHandler, HTTPServer

from pcapwire import Capture, grid_counts, http_exchanges, near_edge
from rpctest import RPCBENCH, Server, bounded, check, kill_group, main, need_package, rpcbench, spawn

BODY = (b"<?xml version='1.0'?><methodResponse><params><param><value><string>ok"
        b"</string></value></param></params></methodResponse>")
EDGE_S = 0.002       # a stamp this near an interval's edge may fall either side
# The log's stamp of a request against the capture's: the median within
# MEDIAN_S (quiet: 3-100 us), each one within MATCH_S, half the 20 ms
# between two requests at 50/s, so a request counted as another's still
# fails. A loaded machine (a sanitizer build beside another suite) moved
# one by 7.8 ms: the client reads the real-time clock to convert the
# kernel's stamp, and may be preempted between its two readings.
MEDIAN_S = 0.001
MATCH_S = 0.010


class Handler(BaseHTTPRequestHandler):
    protocol_version = "HTTP/1.1"

    def log_message(self, *args):
        pass

    def handle_one_request(self):
        try:
            super().handle_one_request()
        except (BrokenPipeError, ConnectionResetError):
            self.close_connection = True

    def do_POST(self):
        n = int(self.headers.get("Content-Length", 0))
        self.rfile.read(n)
        self.server.stall_if_due()
        # one write: no delayed-ACK wait between head and body
        self.wfile.write(b"HTTP/1.1 200 OK\r\nContent-Type: text/xml\r\nContent-Length: %d"
                         b"\r\n\r\n" % len(BODY) + BODY)


class Stalling(socketserver.ThreadingMixIn, HTTPServer):
    """Answers at once, but every call that arrives in [at, at + length)
    after the first call waits until the stall is over."""
    daemon_threads = True

    def __init__(self, at, length, delay=0.0):
        super().__init__(("127.0.0.1", 0), Handler)
        self.at, self.length, self.t0, self.delay, self.calls = at, length, None, delay, 0
        self.lock = threading.Lock()
        threading.Thread(target=self.serve_forever, daemon=True).start()

    def stall_if_due(self):
        now = time.monotonic()
        with self.lock:
            if self.t0 is None:
                self.t0 = now
            self.calls += 1
        time.sleep(self.delay)
        rel = now - self.t0
        if self.at <= rel < self.at + self.length:
            time.sleep(self.at + self.length - rel)

    def url(self):
        return "http://127.0.0.1:%d/RPC2" % self.server_address[1]


def rebuilt(log):
    """`report --requests-log` of log, as JSON."""
    p = bounded([RPCBENCH, "report", "--requests-log", log, "--format", "json"], 60)
    check(p.returncode in (0, 3), "report --requests-log: %d %s" % (p.returncode, p.stderr))
    return json.loads(p.stdout)


def captured_run(stall_at, stall_s, *args, keep=None):
    """A run against a stalling server with the wire captured: (result,
    the log's rows, the capture's connections); keep: a folder that gets
    the saved result as r.json."""
    need_package(shutil.which("tcpdump"), "tcpdump", "tcpdump")
    srv = Stalling(stall_at, stall_s)
    port = srv.server_address[1]
    with tempfile.TemporaryDirectory() as d:
        pcap, out, log = (os.path.join(d, n) for n in ("w.pcap", "r.json", "log.csv"))
        cap = Capture(port, pcap)
        try:
            code, text, err = rpcbench("run", "--url", srv.url(), "--method", "x", "--output",
                                       out, "--requests-log", log, "--quiet", *args, timeout=120)
        finally:
            cap.stop()
            srv.shutdown()
            srv.server_close()
        check(code == 0, "run exited %d: %s" % (code, err))
        with open(out) as f:
            r = json.load(f)
        with open(log) as f:  # the first line, "#rpcbench-config ...", is no row
            rows = list(csv.DictReader(line for line in f if not line.startswith("#")))
        if keep:
            shutil.copy(out, os.path.join(keep, "r.json"))
            shutil.copy(log, os.path.join(keep, "log.csv"))
        return r, rows, http_exchanges(pcap, port)


def check_identities(r, rows):
    """offered = sent + unsent and sent = ok + errors + unfinished, for the
    run, each call, the intervals and the log's rows."""
    q = r["requests"]
    check(q["offered"] == q["sent"] + q["unsent"], "offered != sent + unsent: %r" % q)
    check(q["sent"] == q["ok"] + q["errors"] + q["unfinished"],
          "sent != ok + errors + unfinished: %r" % q)
    for name, v in r["verbs"].items():
        check(v["requests"] == v["ok"] + v["errors"] + v["unfinished"] + v["unsent"],
              "call %s: %r" % (name, v))
    iv = r["intervals"]
    for k in ("sent", "unsent", "ok", "errors"):
        check(sum(x[k] for x in iv) == q[k], "the intervals' %s add up to %d, not %d"
              % (k, sum(x[k] for x in iv), q[k]))
    check(sum(x["due"] for x in iv) == q["offered"], "the intervals' due != offered")
    outcomes = [x["outcome"] for x in rows]
    check(len(rows) == q["offered"], "%d log rows for %d offered" % (len(rows), q["offered"]))
    unsent = [x for x in rows if not x["sent_us"]]
    check(len(unsent) == q["unsent"], "log: %d rows never written, result unsent %d"
          % (len(unsent), q["unsent"]))
    # left waiting: "unsent"; given up: the connections' failure kind
    check(outcomes.count("unsent") == q["unsent"] - q["unsent_given_up"],
          "log: %d rows unsent (waiting), result %r" % (outcomes.count("unsent"), q))
    check(outcomes.count("ok") == q["ok"], "log: ok rows != ok")
    check(sum(1 for x in rows if x["sent_us"]) == q["sent"], "log: rows with sent_us != sent")


def wire_requests(conns):
    """Every request on the wire, [(first byte stamp, size)], in time order."""
    return sorted(x for c in conns.values() for x in c["requests"])


def wire_answers(conns):
    """Every answer the client read whole, [(last byte stamp, size)]."""
    return sorted((t, n) for c in conns.values() for t, n, read in c["answers"] if read)


def check_against_wire(r, rows, conns):
    """Counts, bytes and per-request stamps against the capture; returns the
    worst differences (s) for the note: (sent, latency)."""
    q, t0 = r["requests"], r["start_unix"]
    reqs, answers = wire_requests(conns), wire_answers(conns)
    check(len(reqs) == q["sent"], "the wire carried %d requests, the report says sent %d"
          % (len(reqs), q["sent"]))
    check(len(answers) == q["ok"], "the client read %d answers, the report says ok %d"
          % (len(answers), q["ok"]))
    check(sum(n for _, n in reqs) == r["bytes"]["sent"], "request bytes: wire %d, report %d"
          % (sum(n for _, n in reqs), r["bytes"]["sent"]))
    check(sum(n for _, n in answers) == r["bytes"]["received"],
          "answer bytes: wire %d, report %d" % (sum(n for _, n in answers),
                                                r["bytes"]["received"]))
    sent_rows = sorted(int(x["sent_us"]) for x in rows if x["sent_us"])
    off_sent = sorted(abs(t0 + us / 1e6 - w) for us, (w, _) in zip(sent_rows, reqs))
    ok_rows = sorted(int(x["intended_us"]) + int(x["latency_us"]) for x in rows
                     if x["outcome"] == "ok")
    off_lat = sorted(abs(t0 + us / 1e6 - w) for us, (w, _) in zip(ok_rows, answers))
    for what, off in (("a request's write stamp", off_sent),
                      ("an answer's arrival (intended + latency)", off_lat)):
        if not off:
            continue
        check(off[len(off) // 2] <= MEDIAN_S, "%s: the median is %.3f ms off the wire's"
              % (what, off[len(off) // 2] * 1e3))
        check(off[-1] <= MATCH_S, "%s is %.3f ms off the wire's" % (what, off[-1] * 1e3))
    return (off_sent[-1] if off_sent else 0), (off_lat[-1] if off_lat else 0)


def check_intervals(r, conns):
    """Per interval: sent by the write, ok by the answer's arrival."""
    iv, t0 = r["intervals"], r["start_unix"]
    step = r["config"]["interval_s"]
    reqs = [t for t, _ in wire_requests(conns)]
    answers = [t for t, _ in wire_answers(conns)]
    for key, stamps in (("sent", reqs), ("ok", answers)):
        want = grid_counts(stamps, t0, step, len(iv))
        for k, x in enumerate(iv):
            slack = near_edge(stamps, t0, step, k, EDGE_S)
            check(abs(x[key] - want[k]) <= slack, "interval %d: %s %d, the wire %d (%d near "
                  "its edges)" % (k + 1, key, x[key], want[k], slack))


def test_stall_with_timeouts():
    """1 s stall, one connection, --timeout 300ms: timeouts, and the
    requests due while the connection was down are given up, unsent."""
    r, rows, conns = captured_run(2.0, 1.0, "-R", "50", "-d", "5s", "-c", "1", "--timeout",
                                  "300ms")
    check_identities(r, rows)
    q = r["requests"]
    check(q["errors"] >= 1 and r["errors"]["timeout"] == q["errors"], "no timeout: %r" % q)
    check(q["unsent"] > 0 and q["unsent_given_up"] == q["unsent"],
          "requests due while the connection was down are unsent, given up: %r" % q)
    check(r["rate"]["achieved"] < 50 * 0.99, "achieved counts what was written: %r"
          % r["rate"])
    worst = check_against_wire(r, rows, conns)
    check_intervals(r, conns)
    print("wire: sent %d = capture; worst write stamp %.3f ms, worst arrival %.3f ms"
          % (q["sent"], worst[0] * 1e3, worst[1] * 1e3))


def test_stall_over_the_end():
    """A stall that outlasts the window: the requests due after it began
    were never written (unsent, queued), the one in flight is answered in
    the drain."""
    with tempfile.TemporaryDirectory() as keep:
        r, rows, conns = captured_run(1.5, 2.0, "-R", "100", "-d", "2s", "-c", "1", "--timeout",
                                      "5s", keep=keep)
        again = rebuilt(os.path.join(keep, "log.csv"))
    # the log keeps when the run was over: the rebuilt report censors the
    # unsent's waits as the run did, so its percentiles are the run's
    lat, lat2 = r["latency_ms"], again["latency_ms"]
    for k in ("p50", "p99", "max"):
        check(abs(lat[k] - lat2[k]) <= 0.002 * lat[k] + 0.002,
              "%s: run %.3f ms, rebuilt from the log %.3f ms" % (k, lat[k], lat2[k]))
    check(again["requests"]["censored"] == r["requests"]["censored"], "censored: run %d, "
          "rebuilt %d" % (r["requests"]["censored"], again["requests"]["censored"]))
    check_identities(r, rows)
    q = r["requests"]
    check(q["unsent"] >= 40 and q["unsent_given_up"] == 0, "unsent at the end: %r" % q)
    check(q["queued"] >= q["unsent"], "queued misses the unsent: %r" % q)
    check(q["censored"] >= q["unsent"], "the unsent's waits are censored: %r" % q)
    check_against_wire(r, rows, conns)
    check_intervals(r, conns)
    check(r["intervals"][-1]["unsent"] == q["unsent"], "unsent by intended time: the last "
          "interval's: %r" % [x["unsent"] for x in r["intervals"]])


def test_ramp_two_connections():
    """A ramp on two connections: each interval's writes and answers as the
    capture has them."""
    r, rows, conns = captured_run(100, 0, "--stages", "3s:20/s-120/s", "-c", "2")
    check_identities(r, rows)
    check(r["requests"]["unsent"] == 0, "nothing unsent: %r" % r["requests"])
    check_against_wire(r, rows, conns)
    check_intervals(r, conns)
    sent = [x["sent"] for x in r["intervals"]]
    check(sent[0] < sent[-1], "a ramp: %r" % sent)


COUNTS = ("offered", "sent", "unsent", "ok", "errors", "unfinished")


def identities(c, where):
    check(c["offered"] == c["sent"] + c["unsent"], "%s: offered != sent + unsent: %r"
          % (where, c))
    check(c["sent"] == c["ok"] + c["errors"] + c["unfinished"],
          "%s: sent != ok + errors + unfinished: %r" % (where, c))


def report_of(saved, *args):
    p = bounded([RPCBENCH, "report", saved, *args], 60)
    check(p.returncode == 0, "report %r: %d %s" % (args, p.returncode, p.stderr))
    return p.stdout


def scrape_until_done(port, p, last):
    """The run's /metrics, scraped until it ends (the last good page in
    last[0]); --metrics-linger waits for the scrape after the end."""
    while p.poll() is None:
        try:
            with urllib.request.urlopen("http://127.0.0.1:%d/metrics" % port, timeout=1) as r:
                text = r.read().decode()
            if "rpcbench_sent_total" in text:
                last[0] = text
        except OSError:
            pass
        time.sleep(0.1)


def metric_sum(text, name, label=""):
    """The sum of the samples named name (with label among their labels)."""
    return sum(float(line.rsplit(" ", 1)[1]) for line in text.splitlines()
               if line.startswith(name + "{") and label in line)


def test_every_output_says_the_same():
    """The stall with timeouts again: the text, CSV summary, CSV timeline,
    HTML page and live metrics carry the same counts, and the identities
    hold in each."""
    s = socket.socket()
    s.bind(("127.0.0.1", 0))
    mport = s.getsockname()[1]
    s.close()
    srv = Stalling(1.5, 1.0)
    last = [""]
    try:
        with tempfile.TemporaryDirectory() as d:
            saved, page = os.path.join(d, "r.json"), os.path.join(d, "r.html")
            p = spawn([RPCBENCH, "run", "--url", srv.url(), "--method", "x", "-R", "50", "-d",
                       "4s", "-c", "1", "--timeout", "300ms", "--quiet", "--output", saved,
                       "--metrics-listen", "127.0.0.1:%d" % mport, "--metrics-linger", "3s"],
                      stdout=subprocess.DEVNULL)
            try:
                scrape_until_done(mport, p, last)
                p.wait(30)
            finally:
                kill_group(p)
            with open(saved) as f:
                r = json.load(f)
            q = r["requests"]
            identities(q, "json")
            check(q["unsent"] > 0 and q["errors"] > 0, "the stall's unsent and timeouts: %r" % q)
            text = report_of(saved)
            m = re.search(r"^requests +offered (\d+) +sent (\d+) +unsent (\d+) +ok (\d+) +"
                          r"errors (\d+) +unfinished (\d+)", text, re.M)
            check(m and dict(zip(COUNTS, map(int, m.groups()))) == {k: q[k] for k in COUNTS},
                  "text: %r" % (m and m.group(0)))
            row = next(csv.DictReader(io.StringIO(report_of(saved, "--format", "csv-summary"))))
            check({k: int(row[k]) for k in COUNTS} == {k: q[k] for k in COUNTS},
                  "csv-summary: %r" % row)
            tl = list(csv.DictReader(io.StringIO(report_of(saved, "--format", "csv"))))
            for k, want in (("due", q["offered"]), ("sent", q["sent"]), ("unsent", q["unsent"]),
                            ("ok", q["ok"]), ("errors", q["errors"])):
                check(sum(int(x[k]) for x in tl) == want, "csv timeline: %s" % k)
            report_of(saved, "--html", page)
            with open(page) as f:
                html = f.read()
            got = {k: int(re.search(r'<th scope="row">%s</th><td>(\d+)</td>' % k, html).group(1))
                   for k in COUNTS}
            check(got == {k: q[k] for k in COUNTS}, "html: %r" % got)
    finally:
        srv.shutdown()
        srv.server_close()
    om = last[0]
    check(om, "no /metrics page with the run's figures")
    live = {"offered": metric_sum(om, "rpcbench_requests_total"),
            "sent": metric_sum(om, "rpcbench_sent_total")}
    for k, outcome in (("ok", "ok"), ("errors", "error"), ("unfinished", "unfinished"),
                       ("unsent", "unsent")):
        live[k] = metric_sum(om, "rpcbench_answers_total", 'outcome="%s"' % outcome)
    check({k: int(v) for k, v in live.items()} == {k: q[k] for k in COUNTS},
          "live metrics %r, result %r" % (live, q))


def test_fleet_of_slow_hosts():
    """--targets with three hosts that take 300 ms a call, polled at 10/s
    each on one connection: each host's row says sent what that host
    received, the rest unsent (waiting at the end), and the totals add up."""
    hosts = [Stalling(100, 0, delay=0.3) for _ in range(3)]
    try:
        with tempfile.TemporaryDirectory() as d:
            targets, out = os.path.join(d, "hosts.txt"), os.path.join(d, "r.json")
            with open(targets, "w") as f:
                f.write("".join(h.url() + "\n" for h in hosts))
            code, text, err = rpcbench("run", "--targets", targets, "--method", "x", "-R", "30",
                                       "-d", "3s", "--timeout", "5s", "--quiet", "--output",
                                       out, timeout=120)
            check(code == 0, "run exited %d: %s" % (code, err))
            with open(out) as f:
                r = json.load(f)
    finally:
        for h in hosts:
            h.shutdown()
            h.server_close()
    q, rows = r["requests"], {x["url"]: x for x in r["targets"]}
    got = {h.url(): h.calls for h in hosts}
    for url, n in got.items():
        x = rows[url]
        check(x["sent"] == n, "host %s received %d, its row says sent %d" % (url, n, x["sent"]))
        check(x["offered"] == x["sent"] + x["unsent"] and x["unsent"] > 0, "row %r" % x)
    check(q["sent"] == sum(got.values()), "the hosts received %d, the report says sent %d"
          % (sum(got.values()), q["sent"]))
    check(q["offered"] == q["sent"] + q["unsent"], "requests %r" % q)
    check("unsent %d" % q["unsent"] in text or q["unsent"] == 0, text[-600:])


def test_a_server_gone_fails_errors_zero():
    """The requests given up after the server went away are failures:
    `errors=0` fails even when `unfinished<100%` allows the requests left
    waiting, and the threshold's figure counts them. The server is killed
    once the run's first interval has shown answers (a sanitizer build
    may take a second to start: a timer from the start could kill it
    before any answer)."""
    with Server("--vms", "5") as srv:
        p = spawn([RPCBENCH, "run", "--url", srv.url("/RPC2"), "--verb", "list", "-R", "20",
                   "-d", "4s", "--format", "json", "--threshold", "errors=0,unfinished<100%"],
                  stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
        try:
            line = p.stderr.readline()  # "[   1.0s/4.0s] rate ... ok N ..."
            check(line.startswith("["), "no progress line: %r" % line)
            srv.proc.kill()
            out, _ = p.communicate(timeout=60)
        finally:
            kill_group(p)
    r = json.loads(out)
    q = r["requests"]
    check(q["unsent_given_up"] > 0 and q["ok"] > 0, "a server gone mid-run: %r" % q)
    check(p.returncode == 3, "errors=0 passed with %d requests given up: exit %d, %s"
          % (q["unsent_given_up"], p.returncode, r.get("thresholds")))


if __name__ == "__main__":
    os.chdir(os.path.dirname(os.path.abspath(__file__)))
    main([test_stall_with_timeouts, test_stall_over_the_end, test_ramp_two_connections,
          test_fleet_of_slow_hosts, test_every_output_says_the_same,
          test_a_server_gone_fails_errors_zero])
