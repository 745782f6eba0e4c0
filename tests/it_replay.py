"""it_replay: `run --replay FILE` (issue 38, part 2) sends a recording's
calls at their recorded times, each recorded connection's on one
connection of its own, latency from each call's recorded time. A
standard-library JSON-RPC server logs what reached it and when: exactly
the recorded calls (methods and params), the recorded connections kept,
the intervals as recorded (and divided by 10 with --speed 10); the run's
--requests-log agrees (its intended times are the recorded ones, its send
lag small). Against the real `rpcbench serve`: serve counts every call
(--stats-out), a JSON-RPC recording replayed --as xmlrpc reaches serve's
XML-RPC verbs, and `compare --replay` gives per-verb rows in each arm; a
call with no counterpart is refused by name before anything is sent
(exit 2); thresholds, --html and the request log work on a replay; --loop
repeats it for -d. Every subprocess is bounded."""
import csv
import re
import subprocess
import sys
import http.server
import json
import os
import socketserver
import tempfile
import threading
import time

from rpctest import (RPCBENCH, JsonRpcHandler, Listening, Recorder, Server, check, kill_group,
                     main, rpcbench, spawn)

# (t, conn, method, params): three connections, a poll of each as the engine sends
CALLS = sorted(
    [(0.05 + 0.3 * k, 1, "Host.getVMList", {"onlyUUID": False}) for k in range(6)] +
    [(0.10 + 0.5 * k, 2, "Host.getAllVmStats", {}) for k in range(4)] +
    [(0.20 + 0.7 * k, 3, "VM.getStats", {"vmID": "vm-%d" % k}) for k in range(3)])
SEND_LAG_P99_MS = 5.0  # the pacer's usual figure on a loaded 2-core machine, with room
# ... unless the run itself says the machine held its pacer back ("late pacer"): a wake
# late by a busy machine is no replay's doing, but it stays bounded
SEND_LAG_LATE_MACHINE_MS = 50.0
ARRIVAL_SLACK_S = 0.03  # a Python server's thread stamps arrivals that late at worst


def write_recording(path, calls=CALLS, encoding="jsonrpc"):
    with open(path, "w") as f:
        f.write(json.dumps({"rpcbench_recording": 1, "started_unix": time.time(),
                            "listen": "127.0.0.1:1", "to": "http://127.0.0.1:2/jsonrpc",
                            "tls": False}) + "\n")
        f.write("# an unknown line, skipped\n{\"note\": \"unknown keys and lines are skipped\"}\n")
        for t, conn, method, params in calls:
            f.write(json.dumps({"t": t, "conn": conn, "transport": "http", "encoding": encoding,
                                "path": "/jsonrpc", "method": method, "params": params,
                                "request_bytes": 100, "response_bytes": 100, "latency_ms": 1.0,
                                "outcome": "ok", "extra": 1}) + "\n")
        f.write(json.dumps({"end": True, "calls": len(calls)}) + "\n")



class Logged(JsonRpcHandler):
    def answer(self, req):
        with self.server.lock:
            self.server.seen.append((time.monotonic(), self.client_address[1], req["method"],
                                     req.get("params")))
        return 200, True


class Threaded(socketserver.ThreadingMixIn, http.server.HTTPServer):
    daemon_threads = True


def replay_logged(d, *args, calls=CALLS):
    """Replays a recording of calls against a logging server; returns
    (what it saw, the request log's rows, the saved result)."""
    rec, log, out = (os.path.join(d, n) for n in ("rec.jsonl", "rl.csv", "r.json"))
    write_recording(rec, calls)
    with Recorder(Threaded(("127.0.0.1", 0), Logged)) as srv:
        rc, _, err = rpcbench("run", "--replay", rec, "-u",
                              "http://127.0.0.1:%d/jsonrpc" % srv.port, "--quiet",
                              "--requests-log", log, "--output", out, *args, timeout=60)
        check(rc == 0, "run --replay: rc %d %r" % (rc, err[-600:]))
        seen = srv.seen
    with open(log) as f:
        rows = list(csv.DictReader(line for line in f if not line.startswith("#")))
    with open(out) as f:
        return seen, rows, json.load(f)


def p99(xs):
    xs = sorted(xs)
    return xs[min(len(xs) - 1, int(0.99 * len(xs)))]


def check_times(seen, rows, speed, doc):
    """Arrivals and intended times as recorded, divided by speed."""
    want = [t / speed for t, *_ in CALLS]
    intended = sorted(int(r["intended_us"]) for r in rows)
    check(len(intended) == len(CALLS), "request log rows: %d" % len(intended))
    for w, got in zip(want, intended):
        check(abs(got - w * 1e6) <= 2, "intended %d us, recorded %.0f us" % (got, w * 1e6))
    lag = [(int(r["sent_us"]) - int(r["intended_us"])) / 1000 for r in rows]
    late = any("late pacer" in w for w in doc["warnings"])
    bound = SEND_LAG_LATE_MACHINE_MS if late else SEND_LAG_P99_MS
    check(p99(lag) < bound, "send lag p99 %.3f ms (bound %g ms)" % (p99(lag), bound))
    check(late or doc["send_lag_ms"]["p99"] < SEND_LAG_P99_MS, "the run's own send lag: %r"
          % doc["send_lag_ms"])
    arrived = sorted(s[0] for s in seen)
    for k in range(1, len(arrived)):
        gap, rec_gap = arrived[k] - arrived[0], want[k] - want[0]
        check(abs(gap - rec_gap) < ARRIVAL_SLACK_S,
              "call %d arrived %.3fs after the first; recorded %.3fs" % (k, gap, rec_gap))


def test_replay_sends_recorded_calls_at_their_times():
    with tempfile.TemporaryDirectory() as d:
        seen, rows, doc = replay_logged(d)
        got = sorted((m, json.dumps(p, sort_keys=True)) for _, _, m, p in seen)
        want = sorted((m, json.dumps(p, sort_keys=True)) for _, _, m, p in CALLS)
        check(got == want, "the server got %r, recorded %r" % (got, want))
        check_times(seen, rows, 1, doc)
        # one TCP connection per recorded connection, and none shared
        ports = {}
        for (_, port, m, p) in seen:
            ports.setdefault(m, set()).add(port)
        check(all(len(v) == 1 for v in ports.values()), "connections per method: %r" % ports)
        check(len(set.union(*ports.values())) == 3, "connections: %r" % ports)
        check(doc["requests"]["ok"] == len(CALLS), "ok %r" % doc["requests"])
        names = sorted(v["name"] for v in doc["config"]["verbs"])
        check(names == ["Host.getAllVmStats", "Host.getVMList", "VM.getStats",
                        "VM.getStats#2", "VM.getStats#3"], "verbs %r" % names)


def test_speed_divides_intervals():
    with tempfile.TemporaryDirectory() as d:
        seen, rows, doc = replay_logged(d, "--speed", "10")
        check(len(seen) == len(CALLS), "the server got %d calls" % len(seen))
        check_times(seen, rows, 10, doc)
        check(doc["duration_s"] < 0.3, "a 2.2 s recording at x10 took %.3fs" % doc["duration_s"])


def test_loop_repeats_for_duration():
    with tempfile.TemporaryDirectory() as d:
        calls = [(0.1 * k, 1, "Host.ping", None) for k in range(5)]  # 0.5 s a round
        seen, rows, _ = replay_logged(d, "--loop", "-d", "1.5s", calls=calls)
        # a round is the span plus the mean gap (0.5 s): three rounds in 1.5 s
        check(len(seen) == 15, "the server got %d calls, 3 rounds of 5 expected" % len(seen))
        intended = sorted(int(r["intended_us"]) for r in rows)
        check(intended[5] == 500000 and intended[10] == 1000000, "rounds at %r" % intended)


def recording_for_serve(d):
    rec = os.path.join(d, "rec.jsonl")
    write_recording(rec, [c for c in CALLS if c[2] != "VM.getStats"] +
                    [(1.5, 3, "VM.getStats", {"vmID": "no-such-vm"})])
    return rec


def test_serve_counts_every_call_over_stomp():
    with tempfile.TemporaryDirectory() as d:
        rec, stats = recording_for_serve(d), os.path.join(d, "stats.csv")
        with Server("--vms", "5", "--stats-out", stats) as srv:
            out = os.path.join(d, "r.json")
            rc, _, err = rpcbench("run", "--replay", rec, "-u", "stomp://%s" % srv.addr,
                                  "--quiet", "--output", out, timeout=60)
            check(rc == 0, "rc %d %r" % (rc, err[-400:]))
            srv.stop()
        with open(stats) as f:
            served = sum(int(r["requests"]) for r in csv.DictReader(f))
        with open(out) as f:
            doc = json.load(f)
        check(served == 11, "serve counted %d requests, 11 recorded" % served)
        check(doc["requests"]["sent"] == 11 and doc["requests"]["ok"] == 10,
              "requests %r" % doc["requests"])


def test_as_xmlrpc_reaches_xmlrpc_verbs():
    with tempfile.TemporaryDirectory() as d:
        rec = recording_for_serve(d)
        with Server("--vms", "5") as srv:
            out = os.path.join(d, "r.json")
            rc, stdout, err = rpcbench("run", "--replay", rec, "--as", "xmlrpc", "-u",
                                       srv.url("/RPC2"), "--output", out, timeout=60)
            check(rc == 0, "rc %d %r" % (rc, err[-400:]))
        with open(out) as f:
            doc = json.load(f)
        check(doc["target"]["proto"] == "xmlrpc", "proto %r" % doc["target"])
        verbs = doc["verbs"]
        check(verbs["Host.getVMList"]["ok"] == 6 and verbs["Host.getAllVmStats"]["ok"] == 4,
              "verbs %r" % verbs)
        # VM.getStats reached getVmStats: VDSM's "no such VM", not "no such method"
        check("Virtual machine does not exist" in stdout and "not supported" not in stdout,
              "the fault said: %r" % stdout[-800:])


def test_no_counterpart_refused_before_sending():
    with tempfile.TemporaryDirectory() as d:
        rec = os.path.join(d, "rec.jsonl")
        write_recording(rec, CALLS + [(2.5, 1, "Host.setupNetworks", {})])
        with Recorder(Threaded(("127.0.0.1", 0), Logged)) as srv:
            rc, _, err = rpcbench("run", "--replay", rec, "--as", "xmlrpc", "-u",
                                  "http://127.0.0.1:%d/RPC2" % srv.port, timeout=30)
            check(rc == 2 and "Host.setupNetworks" in err and err.count("\n") == 1,
                  "rc %d %r" % (rc, err))
            check(srv.seen == [], "sent before refusing: %r" % srv.seen)
        with open(rec, "w") as f:
            f.write('{"t": 0, "conn": 1, "encoding": "jsonrpc", "method": "Host.ping"}\n')
        rc, _, err = rpcbench("run", "--replay", rec, timeout=30)
        check(rc == 2 and "not a recording" in err, "no header: rc %d %r" % (rc, err))


def test_thresholds_html_and_log_on_a_replay():
    with tempfile.TemporaryDirectory() as d:
        rec, html = recording_for_serve(d), os.path.join(d, "r.html")
        with Server("--vms", "5") as srv:
            rc, out, err = rpcbench("run", "--replay", rec, "-u", srv.url("/jsonrpc"),
                                    "--threshold", "p99<10s", "--threshold",
                                    "Host.getVMList.errors=0", "--threshold",
                                    "Host.getAllVmStats.p50<1us", "--html", html, timeout=60)
        check(rc == 3, "a failed threshold is exit 3: rc %d %r" % (rc, err[-400:]))
        check("FAIL" in out and "Host.getAllVmStats" in out, "verdicts: %r" % out[-800:])
        with open(html) as f:
            page = f.read()
        check("replay of" in page and "Host.getVMList" in page, "the page names no replay")


def free_port():
    import socket
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def test_live_metrics_and_a_gate_on_a_replay():
    """A replay serves --metrics-listen like any run: mid-run, /metrics
    counts the recorded methods' calls; and compare --replay judges a gate
    (on the server's CPU per call, --server-pid) as any compare does."""
    import urllib.request
    with tempfile.TemporaryDirectory() as d:
        rec, port = recording_for_serve(d), free_port()
        with Server("--vms", "5") as srv:
            p = spawn([RPCBENCH, "run", "--replay", rec, "--loop", "-d", "4s", "-u",
                       srv.url("/jsonrpc"), "--metrics-listen", "127.0.0.1:%d" % port,
                       "--quiet"], stdout=subprocess.DEVNULL)
            try:
                page, until = "", time.time() + 10
                while "Host.getVMList" not in page and time.time() < until:
                    time.sleep(0.3)
                    try:
                        with urllib.request.urlopen("http://127.0.0.1:%d/metrics" % port,
                                                    timeout=2) as r:
                            page = r.read().decode()
                    except OSError:
                        pass
                check("rpcbench_requests" in page and "Host.getVMList" in page,
                      "no replayed calls on /metrics: %r" % page[:600])
                check(p.wait(20) == 0, "run --replay --metrics-listen: rc %r" % p.returncode)
            finally:
                kill_group(p)
            rc, out, err = rpcbench("compare", "--replay", rec, "-u",
                                    "%s,%s" % (srv.url("/jsonrpc"), srv.url("/jsonrpc")),
                                    "--server-pid", "%d,%d" % (srv.proc.pid, srv.proc.pid),
                                    "--rounds", "2", "--gate", "p50:+1000%", timeout=120)
        check(rc in (0, 4), "compare --replay --gate: rc %d %r" % (rc, err[-600:]))
        check(re.search(r"^p50:\+1000%\s", out, re.M), "no gate row:\n" + out[-1500:])


def test_profile_on_a_replay():
    """--profile over a replay's window, through --profiler (a stand-in
    that writes folded stacks naming what it was given: no perf needed):
    the profile is in the result, over the replay's window."""
    fake = os.path.join(os.path.dirname(os.path.abspath(__file__)), "fake_profiler.py")
    with tempfile.TemporaryDirectory() as d:
        rec, out = recording_for_serve(d), os.path.join(d, "r.json")
        with Server("--vms", "5") as srv:
            rc, _, err = rpcbench("run", "--replay", rec, "-u", srv.url("/jsonrpc"),
                                  "--server-pid", str(srv.proc.pid), "--idle-baseline", "0",
                                  "--profiler", "%s %s {pid} {seconds} {out}"
                                  % (sys.executable, fake), "--output", out, "--quiet",
                                  timeout=60)
        check(rc == 0, "run --replay --profiler: rc %d %r" % (rc, err[-600:]))
        with open(out) as f:
            prof = json.load(f)["profile"]
        names = {r["function"] for r in prof["functions"]}
        check("fake_hot" in names and "pid_%d" % srv.proc.pid in names,
              "the replay's profile: %r" % sorted(names))


def test_compare_replay_each_arm_translated():
    with tempfile.TemporaryDirectory() as d:
        rec, out = recording_for_serve(d), os.path.join(d, "c.json")
        with Server("--vms", "5") as srv:
            rc, _, err = rpcbench("compare", "--replay", rec, "--proto", "xmlrpc,jsonrpc",
                                  "-u", "%s,%s" % (srv.url("/RPC2"), srv.url("/jsonrpc")),
                                  "--rounds", "1", "--output", out, "--quiet", timeout=120)
        check(rc == 0, "compare --replay: rc %d %r" % (rc, err[-600:]))
        with open(out) as f:
            doc = json.load(f)
        rows = {v["verb"]: v for v in doc["verbs"]}
        for name, n in (("Host.getVMList", 6), ("Host.getAllVmStats", 4)):
            check(rows[name]["a"]["ok"] == n and rows[name]["b"]["ok"] == n,
                  "%s: %r" % (name, rows.get(name)))


def test_record_then_replay():
    """rpcbench record between a client (rpcbench run over STOMP, two
    connections) and serve, then its recording replayed against serve: the
    same calls, methods and connections, at the recorded times."""
    with tempfile.TemporaryDirectory() as d:
        rec, log = os.path.join(d, "rec.jsonl"), os.path.join(d, "rl.csv")
        with Server("--vms", "5") as srv:
            proxy = Listening([RPCBENCH, "record", "--listen", "127.0.0.1:0", "--to",
                               "stomp://%s" % srv.addr, "--out", rec], "record")
            with proxy:
                rc, _, err = rpcbench("run", "-u", "stomp://%s" % proxy.addr, "--verb",
                                      "list@200ms,getAllVmStats@500ms", "-d", "2s", "-c", "2",
                                      "--quiet", "--output", os.devnull, timeout=60)
                check(rc == 0, "the client through record: rc %d %r" % (rc, err[-400:]))
                proxy.stop()
            with open(rec) as f:
                calls = [json.loads(x) for x in f if '"method"' in x]
            rc, _, err = rpcbench("run", "--replay", rec, "-u", "stomp://%s" % srv.addr,
                                  "--quiet", "--requests-log", log, "--output", os.devnull,
                                  timeout=60)
            check(rc == 0, "replay: rc %d %r" % (rc, err[-400:]))
        with open(log) as f:
            rows = list(csv.DictReader(x for x in f if not x.startswith("#")))
        check(len(rows) == len(calls) >= 10, "%d rows, %d recorded" % (len(rows), len(calls)))
        want = sorted(round(c["t"] * 1e6) for c in calls)
        got = sorted(int(r["intended_us"]) for r in rows)
        check(all(abs(a - b) <= 2 for a, b in zip(want, got)), "times %r vs %r" % (got, want))
        check(sorted(r["call"] for r in rows) == sorted(c["method"] for c in calls),
              "methods differ")
        check(len({r["conn"] for r in rows}) == len({c["conn"] for c in calls}),
              "connections differ")
        check(all(r["outcome"] == "ok" for r in rows), "outcomes %r" % rows[:3])


if __name__ == "__main__":
    main([test_replay_sends_recorded_calls_at_their_times, test_speed_divides_intervals,
          test_loop_repeats_for_duration, test_serve_counts_every_call_over_stomp,
          test_as_xmlrpc_reaches_xmlrpc_verbs, test_no_counterpart_refused_before_sending,
          test_thresholds_html_and_log_on_a_replay, test_compare_replay_each_arm_translated,
          test_record_then_replay, test_live_metrics_and_a_gate_on_a_replay,
          test_profile_on_a_replay])
