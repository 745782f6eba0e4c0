"""it_report_truth: what the report says is true (issue 13). Runs where nothing
succeeded read n/a, warn with the first error of each kind and exit 3; an
interrupted run says how long it measured and exits 130; the warnings of an
overloaded server agree with each other and with their figures; the
failed share is in the ledger's words (answers that broke a check were
answered, timeouts were not, and neither is counted as the other); `report`
on the saved JSON reproduces the run's own text line for line; percentiles
stay within min and max; one unit per table; the automatic bucket table has
no repeated rows. Real `rpcbench serve` on loopback, every subprocess with
a timeout."""
import http.server
import json
import os
import re
import signal
import subprocess
import sys
import tempfile
import threading
import time

sys.path.insert(0, os.path.dirname(__file__))
from rpctest import RPCBENCH, JsonRpcHandler, Recorder, Server, check, main, rpcbench  # noqa: E402

UNIT = re.compile(r"^(-?\d+(?:\.\d+)?)(us|ms|s)$")


def run_saved(d, name, *args, code=0, timeout=60):
    """`run ... --output d/name.json` (text on stdout); returns (stdout, result)."""
    path = os.path.join(d, name + ".json")
    rc, out, err = rpcbench("run", *args, "--output", path, "--quiet", timeout=timeout)
    check(rc == code, "run %s exited %d, wanted %d: %s" % (name, rc, code, err.strip()))
    with open(path) as f:
        return out, json.load(f), path


def warnings_of(text):
    return [l[4:] for l in text.splitlines() if l.startswith("  ! ")]


def check_reproduced(text, path):
    """`report saved.json` prints the run's report line for line."""
    rc, again, err = rpcbench("report", path, timeout=30)
    check(rc == 0, "report exited %d: %s" % (rc, err))
    a, b = text.splitlines(), again.splitlines()
    for i, (x, y) in enumerate(zip(a, b)):
        check(x == y, "line %d differs:\n  run:    %s\n  report: %s" % (i + 1, x, y))
    check(len(a) == len(b), "run has %d lines, report %d" % (len(a), len(b)))


def check_within_extremes(h, what):
    """Every pNN of a {min, max, pNN} block lies within min and max."""
    if h["min"] is None:
        return
    for k, v in h.items():
        if k.startswith("p"):
            check(h["min"] <= v <= h["max"], "%s %s %r outside [%r, %r]"
                  % (what, k, v, h["min"], h["max"]))


def test_all_fail_wrong_encoding(srv, d):
    """XML-RPC sent to the JSON-RPC path: every answer fails to decode."""
    out, r, path = run_saved(d, "wrongenc", "--url", srv.url("/jsonrpc"), "-p", "xmlrpc",
                             "-R", "10", "-d", "1s", code=3)
    check("average=n/a min=n/a max=n/a" in out, out)
    rows = [l.split() for l in out.splitlines() if re.match(r"^(p[\d.]+|mean) ", l)]
    check(rows and all(r_[1:] == ["n/a", "n/a"] for r_ in rows), "percentile rows: %r" % rows)
    check(not re.search(r"\b0(us|ms)\b", out.split("requests")[0]), "a 0 latency: " + out)
    w = warnings_of(out)
    check(any(re.match(r"no request succeeded: 10 of 10 answered requests failed \(100%\)", x)
              for x in w), "failed share: %r" % w)
    check(any(x.startswith("first decode error (10 in all): JSON where XML-RPC was expected")
              for x in w), "decode sample: %r" % w)
    check(r["latency_ms"]["p50"] is None and r["latency_ms"]["max"] is None, r["latency_ms"])
    check(r["error_samples"]["decode"].startswith("JSON where XML-RPC was expected"),
          r["error_samples"])
    check(r["buckets"] == [], r["buckets"])
    check_reproduced(out, path)


def test_all_fail_wrong_path(srv, d):
    out, r, path = run_saved(d, "wrongpath", "--url", srv.url("/nope"), "-R", "10", "-d", "1s",
                             "--buckets", "1,2,5", code=3)
    check(r["errors"]["http"] == 10, r["errors"])
    # explicit buckets: rows stay, each a share of nothing, so n/a (null), never 0.0
    check(re.findall(r"^<(\S+)ms: (\S+)$", out, re.M) == [("1", "n/a"), ("2", "n/a"),
                                                         ("5", "n/a")], out)
    check([b["pct"] for b in r["buckets"]] == [None, None, None], r["buckets"])
    check_reproduced(out, path)
    check(r["error_samples"]["http"].startswith("HTTP 404 Not Found"), r["error_samples"])
    check(any("first http error (10 in all): HTTP 404 Not Found" in x for x in warnings_of(out)),
          out)


def test_fault_sample(srv, d):
    # serve answers with VDSM's own texts: XML-RPC's fault 1, JSON-RPC's -32601
    want = {"xmlrpc": 'fault 1: method "noSuchMethod" is not supported',
            "jsonrpc": "fault -32601: The method does not exist or is not available: "
                       "{'method': 'noSuchMethod'}"}
    for proto, path in (("xmlrpc", "/RPC2"), ("jsonrpc", "/jsonrpc")):
        out, r, _ = run_saved(d, "fault-" + proto, "--url", srv.url(path), "-p", proto,
                              "--method", "noSuchMethod", "--params", "[]", "-R", "10", "-d",
                              "1s", code=3)
        check(r["error_samples"].get("fault") == want[proto],
              "%s: %r" % (proto, r["error_samples"]))
        check(list(r["error_samples"]) == ["fault"], r["error_samples"])


def test_partial_failure_exits_zero(srv, d):
    """A mix with some failures still exits 0 and says the share."""
    out, r, _ = run_saved(d, "mix", "--url", srv.url("/RPC2"), "--verb",
                          "ping:1,getVmStats:1", "--vm-id", "no-such-vm", "-R", "20", "-d",
                          "1s", "--vms", "5")
    check(r["requests"]["ok"] > 0 and r["errors"]["fault"] > 0, r["requests"])
    done = r["requests"]["ok"] + r["requests"]["errors"]
    share = "%.1f%% of answered requests failed (%d of %d)" % (
        100.0 * r["requests"]["errors"] / done, r["requests"]["errors"], done)
    check(any(x.startswith(share) for x in warnings_of(out)), "%s in %r" % (share, out))


def test_failed_checks_were_answered(srv, d):
    """Every answer came back and broke its check: all answered, 0 never
    answered (it said "10 failed, 10 of them never answered")."""
    out, r, _ = run_saved(d, "allcheck", "--url", srv.url("/RPC2"), "--expect", "nope exists",
                          "-R", "10", "-d", "1s", code=3)
    n = r["errors"]["check"]
    check(n == r["requests"]["errors"] == r["requests"]["sent"] > 0, r["errors"])
    want = ("no request succeeded: %d of %d answered requests failed (100%%), 0 never answered; "
            "latency figures are n/a" % (n, n))
    check(want in warnings_of(out), "%s\nnot in %r" % (want, warnings_of(out)))


class StallingHandler(JsonRpcHandler):
    """Of every three requests: one answered, one refused with HTTP 500 (an
    answered error), one never answered while the run lasts."""

    def answer(self, req):
        with self.server.lock:
            k = len(self.server.seen)
            self.server.seen.append(k)
        if k % 3 == 2:
            self.server.release.wait(20)
        return (500, None) if k % 3 == 1 else (200, True)


class QuietServer(http.server.ThreadingHTTPServer):
    daemon_threads = True

    def handle_error(self, *a):  # the client gave up on a stalled answer: expected
        pass


def test_stalled_server_split(srv, d):
    """Answered, failed and never answered are each the count its words
    name: the answered share leaves the timeouts out (it said "62.5% of
    answered requests failed (250 of 400)" with 249 of them timeouts)."""
    peer = QuietServer(("127.0.0.1", 0), StallingHandler)
    peer.release = threading.Event()
    with Recorder(peer):
        try:
            out, r, _ = run_saved(d, "stalled", "--url", "http://127.0.0.1:%d/" % peer.server_address[1],
                                  "-p", "jsonrpc", "--method", "x", "-R", "40", "-d", "1.5s",
                                  "-c", "40", "--timeout", "200ms")
        finally:
            peer.release.set()
    e, ok = r["errors"], r["requests"]["ok"]
    never = e["timeout"] + e["closed"] + e["connect"] + e["handshake"]
    check(ok > 0 and e["http"] > 0 and e["timeout"] > 0, "ok %d, errors %r" % (ok, e))
    check(never + e["http"] == r["requests"]["errors"], "only these kinds: %r" % e)
    kinds = ", ".join("%s %d" % (k, e[k]) for k in ("connect", "timeout", "closed", "handshake")
                      if e[k])
    want = ("%.1f%% of answered requests failed (%d of %d), %d never answered (%s); latency "
            "covers the successful ones" % (100.0 * e["http"] / (ok + e["http"]), e["http"],
                                            ok + e["http"], never, kinds))
    check(want in warnings_of(out), "%s\nnot in %r" % (want, warnings_of(out)))


def test_help_documents_exit_codes(srv, d):
    rc, out, _ = rpcbench("run", "--help")
    check(rc == 0 and "3 a --threshold condition failed, or no request succeeded" in out
          and "130 interrupted" in out, out)


def test_interrupted(srv, d):
    path = os.path.join(d, "int.json")
    p = subprocess.Popen([RPCBENCH, "run", "--url", srv.url("/RPC2"), "-R", "20", "-d", "10s",
                          "--vms", "5", "--quiet", "--output", path],
                         stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    time.sleep(1.5)
    p.send_signal(signal.SIGINT)
    out, err = p.communicate(timeout=30)
    check(p.returncode == 130, "exit %d after SIGINT: %s" % (p.returncode, err))
    with open(path) as f:
        r = json.load(f)
    check(r["interrupted"] and r["duration_s"] < 10, r["duration_s"])
    want = "duration    %.2fs measured of 10s planned, INTERRUPTED" % r["duration_s"]
    check(want in out, "%r not in %s" % (want, out))
    check(any(x.startswith("interrupted (SIGINT) after %.2fs of the planned 10s" % r["duration_s"])
              for x in warnings_of(out)), out)
    check_reproduced(out, path)


def test_overload_warnings_agree(srv, d):
    """The simulator's XML-RPC getAllVmStats at about 4x its capacity: the
    server is the bottleneck, so the backlog counts as queued, pacer lag
    stays the pacer's, and nothing calls the idle client the limit. The
    queued share is of the requests offered (written late, or never)."""
    out, r, path = run_saved(d, "overload", "-R", "60", "-d", "3s")
    q = r["requests"]
    check(q["offered"] == q["sent"] + q["unsent"] and
          q["sent"] == q["ok"] + q["errors"] + q["unfinished"], "counts %r" % q)
    queued = q["queued"]
    check(0.5 * q["offered"] <= queued <= q["offered"], "queued %d of %d offered"
          % (queued, q["offered"]))
    check(r["pacing_lag_ms"]["p99"] < r["send_lag_ms"]["p99"],
          "pacer lag %r send lag %r" % (r["pacing_lag_ms"], r["send_lag_ms"]))
    w = warnings_of(out)
    if r["client_cpu"]["mean_pct"] <= 80:
        check(not any("client-bound" in x for x in w), "client at %.0f%%: %r"
              % (r["client_cpu"]["mean_pct"], w))
    share = "%.1f%% of the requests offered waited for a free connection" % (
        100.0 * queued / q["offered"])
    check(any(x.startswith(share) for x in w), "%s in %r" % (share, w))
    m = re.search(r"^pacer lag   p50 \S+  p99 (\S+)", out, re.M)
    for x in w:  # a pacer-lag warning quotes the figure the report shows
        q = re.search(r"pacer lag p99 ([\d.]+)ms", x)
        if q:
            v, unit = UNIT.match(m.group(1)).groups()
            shown = float(v) * {"us": 0.001, "ms": 1, "s": 1000}[unit]
            check(abs(shown - float(q.group(1))) <= 0.01 * shown + 0.001, "%s vs %s" % (x, m.group(0)))
    check_reproduced(out, path)


def test_report_reproduces_runs(srv, d):
    """ok with a verb mix and --percentiles, and over STOMP."""
    out, r, path = run_saved(d, "ok", "--url", srv.url("/RPC2"), "--verb",
                             "list:4,getAllVmStats:1", "-R", "20", "-d", "1s", "--vms", "5",
                             "--percentiles", "50,75,99,100")
    check(r["pacing_lag_ms"]["max"] is not None, r["pacing_lag_ms"])
    check_reproduced(out, path)
    out, r, path = run_saved(d, "stomp", "--url", "stomp://127.0.0.1:%d" % srv.port, "-p",
                             "jsonrpc", "-R", "20", "-d", "1s", "--vms", "5")
    check(r["requests"]["ok"] > 0, r["requests"])
    check_reproduced(out, path)
    rc, js, _ = rpcbench("report", path, "--format", "json")
    back = json.loads(js)
    for k in ("latency_ms", "service_ms", "send_lag_ms", "pacing_lag_ms"):
        check(back[k] == r[k], "%s: %r vs %r" % (k, back[k], r[k]))


def test_percentiles_within_min_max(srv, d):
    out, r, path = run_saved(d, "pcts", "--url", srv.url("/jsonrpc"), "-p", "jsonrpc",
                             "--verb", "ping:3,list:1", "-R", "100", "-d", "1s",
                             "--percentiles", "0,50,90,99,99.9,100")
    rc, js, _ = rpcbench("report", path, "--format", "json")
    for res in (r, json.loads(js)):
        for k in ("latency_ms", "service_ms", "send_lag_ms", "pacing_lag_ms"):
            check_within_extremes(res[k], k)
        for v, x in res["verbs"].items():
            check_within_extremes(x["latency_ms"], v)
        check(res["latency_ms"]["p100"] == res["latency_ms"]["max"], res["latency_ms"])


def cells(line):
    return [c for c in line.split()[1:]]


def test_one_unit_per_table(srv, d):
    out, r, _ = run_saved(d, "units", "--url", srv.url("/jsonrpc"), "-p", "jsonrpc", "--verb",
                          "ping:3,list:1", "-R", "100", "-d", "1s")
    avg = re.search(r"^average=(\S+)ms min=(\S+)ms max=(\S+)ms$", out, re.M)
    check(avg, out)
    decimals = {len(x.split(".")[1]) if "." in x else 0 for x in avg.groups()}
    check(len(decimals) == 1, "decimals differ: " + avg.group(0))
    pct = [l for l in out.splitlines() if re.match(r"^(p[\d.]+|mean) ", l)]
    units = {UNIT.match(c).group(2) for l in pct for c in cells(l)}
    check(len(units) == 1, "percentile table mixes %r:\n%s" % (units, "\n".join(pct)))
    verbs = out.split("\nverb ")[1].splitlines()[1:3]
    # verb, requests, ok, errors, unfinished, unsent, p50, p99
    units = {UNIT.match(c).group(2) for l in verbs for c in l.split()[6:8]}
    check(len(units) == 1, "verb table mixes %r: %r" % (units, verbs))
    for name in ("send lag", "pacer lag"):
        line = re.search(r"^%s +p50 (\S+)  p99 (\S+)  max (\S+)" % name, out, re.M)
        check(len({UNIT.match(x).group(2) for x in line.groups()}) == 1, line.group(0))
    check(re.search(r"^bytes       request \d+ B, response \d+(\.\d+)? k?B \(mean\)$", out, re.M),
          out)
    out, r, _ = run_saved(d, "units-big", "-R", "5", "-d", "1s")
    check(re.search(r"response 2\.\d\d MB \(mean\)", out), out)
    check(re.search(r"\(1 thread\)", out), out)
    check(re.search(r"RSS \d+(\.\d)? MB -> \d+(\.\d)? MB", out), out)


def bucket_rows(text):
    return [l for l in text.splitlines() if re.match(r"^<[\d.]+ms:", l)]


def test_auto_buckets_few_rows(srv, d):
    out, r, a = run_saved(d, "five", "--url", srv.url("/RPC2"), "-R", "5", "-d", "1s")
    rows = bucket_rows(out)
    pcts = [float(l.split()[1]) for l in rows]
    check(r["requests"]["ok"] == 5 and 2 <= len(rows) <= 6, "%d rows for 5 requests:\n%s"
          % (len(rows), "\n".join(rows)))
    check(all(x != y for x, y in zip(pcts, pcts[1:])), "repeated rows:\n" + "\n".join(rows))
    check(pcts[-1] == 100.0, rows)
    _, _, b = run_saved(d, "five-json", "--url", srv.url("/jsonrpc"), "-p", "jsonrpc", "-R", "5",
                        "-d", "1s")
    rc, out, err = rpcbench("compare", a, b, timeout=30)
    check(rc == 0, err)
    rows = [l.split()[1:3] for l in bucket_rows(out)]
    check(2 <= len(rows) <= 12, "compare: %d rows\n%s" % (len(rows), out))
    check(all(x != y for x, y in zip(rows, rows[1:])), "compare repeats a row:\n" + out)


if __name__ == "__main__":
    with Server("--vms", "150") as srv, tempfile.TemporaryDirectory() as tmp:
        main([test_all_fail_wrong_encoding, test_all_fail_wrong_path, test_fault_sample,
              test_partial_failure_exits_zero, test_failed_checks_were_answered,
              test_stalled_server_split, test_help_documents_exit_codes, test_interrupted,
              test_overload_warnings_agree, test_report_reproduces_runs,
              test_percentiles_within_min_max, test_one_unit_per_table,
              test_auto_buckets_few_rows], srv, tmp)
