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
import json
import os
import shutil
import socketserver
import tempfile
import threading
import time
from http.server import BaseHTTPRequestHandler, HTTPServer

from pcapwire import Capture, grid_counts, http_exchanges, near_edge
from rpctest import check, main, rpcbench, skip

BODY = (b"<?xml version='1.0'?><methodResponse><params><param><value><string>ok"
        b"</string></value></param></params></methodResponse>")
EDGE_S = 0.002       # a stamp this near an interval's edge may fall either side
MATCH_S = 0.005      # the log's stamp of a request against the capture's


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

    def __init__(self, at, length):
        super().__init__(("127.0.0.1", 0), Handler)
        self.at, self.length, self.t0 = at, length, None
        self.lock = threading.Lock()
        threading.Thread(target=self.serve_forever, daemon=True).start()

    def stall_if_due(self):
        now = time.monotonic()
        with self.lock:
            if self.t0 is None:
                self.t0 = now
        rel = now - self.t0
        if self.at <= rel < self.at + self.length:
            time.sleep(self.at + self.length - rel)

    def url(self):
        return "http://127.0.0.1:%d/RPC2" % self.server_address[1]


def captured_run(stall_at, stall_s, *args):
    """A run against a stalling server with the wire captured: (result,
    the log's rows, the capture's connections)."""
    if not shutil.which("tcpdump"):
        skip("tcpdump is not installed (scripts/deps.sh check installs it)")
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
        with open(log) as f:
            rows = list(csv.DictReader(f))
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
    check(outcomes.count("unsent") == q["unsent"], "log: %d unsent rows, result %d"
          % (outcomes.count("unsent"), q["unsent"]))
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
    sent_rows = sorted((int(x["sent_us"]), x) for x in rows if x["sent_us"])
    worst_sent = max((abs(t0 + us / 1e6 - w) for (us, _), (w, _) in zip(sent_rows, reqs)),
                     default=0)
    check(worst_sent <= MATCH_S, "a request's write stamp is %.3f ms off the wire's"
          % (worst_sent * 1e3))
    ok_rows = sorted(int(x["intended_us"]) + int(x["latency_us"]) for x in rows
                     if x["outcome"] == "ok")
    worst_lat = max((abs(t0 + us / 1e6 - w) for us, (w, _) in zip(ok_rows, answers)), default=0)
    check(worst_lat <= MATCH_S, "an answer's arrival (intended + latency) is %.3f ms off the "
          "wire's" % (worst_lat * 1e3))
    return worst_sent, worst_lat


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
    r, rows, conns = captured_run(1.5, 2.0, "-R", "100", "-d", "2s", "-c", "1", "--timeout",
                                  "5s")
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


if __name__ == "__main__":
    os.chdir(os.path.dirname(os.path.abspath(__file__)))
    main([test_stall_with_timeouts, test_stall_over_the_end, test_ramp_two_connections])
