"""it_stages: `run --stages` (issue 26, part 3) against the real `rpcbench
serve`. A ramp's achieved rate follows the offered rate interval by
interval (within 10 %), the offered rate is the integral of the ramp over
each interval, the stage rows add up to the run's totals (and each stage
sent what its integral offers), the stages survive --output, report and
report FILE FILE, the page has the stage table and an "offered" series,
stageN.METRIC thresholds pass and fail as they should, a stage that is
not held is warned of by name, and every misuse
is one line and exit 2 before anything is sent."""
import json
import os
import re
import tempfile
import time

from rpctest import Peer, Server, check, main, rpcbench, threshold_verdicts

RAMP = "2s:20/s,4s:20/s-100/s,2s:100/s"
# the ramp's mean rate over each 1 s interval: its integral over it
OFFERED = [20, 20, 30, 50, 70, 90, 100, 100]


def ramp_run(srv, d, *extra):
    saved, page = os.path.join(d, "r.json"), os.path.join(d, "r.html")
    rc, out, err = rpcbench("run", "--url", srv.url("/RPC2"), "--stages", RAMP, "--interval",
                            "1s", "-c", "8", "--verb", "ping", "--server-pid",
                            str(srv.proc.pid), "--output", saved, "--html", page, *extra,
                            timeout=60)
    check(rc == 0, "ramp run: rc %d %r" % (rc, err[-600:]))
    with open(saved) as f:
        return json.load(f), out, err, saved, page


def stages_add_up(st, req):
    """Each stage's offered_count = sent + unsent and sent = ok + errors +
    unfinished; the stages' counts sum to the run's."""
    for s in st:
        check(s["offered_count"] == s["sent"] + s["unsent"] and
              s["sent"] == s["ok"] + s["errors"] + s["unfinished"], "stage %r" % s)
    for k, total in (("offered_count", "offered"), ("sent", "sent"), ("unsent", "unsent"),
                     ("ok", "ok"), ("errors", "errors"), ("unfinished", "unfinished")):
        check(sum(s[k] for s in st) == req[total], "stages' %s add up: %r vs %s %r"
              % (k, [s[k] for s in st], total, req[total]))


def test_ramp_follows_offered():
    with Server("--vms", "5") as srv, tempfile.TemporaryDirectory() as d:
        doc, out, err, saved, page = ramp_run(srv, d)
        iv = doc["intervals"]
        check(len(iv) == len(OFFERED), "intervals: %r" % iv)
        figures = []
        for x, want in zip(iv, OFFERED):
            check(abs(x["offered"] - want) < 1e-6, "offered %r, want %r" % (x["offered"], want))
            figures.append("%g/%g" % (x["sent"], x["offered"]))
            check(abs(x["sent"] - x["offered"]) <= 0.1 * x["offered"],
                  "interval at %gs sent %d, offered %g/s" % (x["t"], x["sent"], x["offered"]))
        print("     sent/offered per 1s interval: %s" % " ".join(figures))
        # the progress lines say both
        lines = [l for l in err.splitlines() if "offered" in l]
        check(len(lines) == len(OFFERED), "progress lines: %r" % err[-800:])
        check(doc["config"]["stages"] == [{"duration_s": 2, "from": 20, "to": 20},
                                          {"duration_s": 4, "from": 20, "to": 100},
                                          {"duration_s": 2, "from": 100, "to": 100}],
              "config.stages: %r" % doc["config"]["stages"])
        check(abs(doc["rate"]["target"] - 60) < 1e-9, "target: the mean: %r" % doc["rate"])
        st, req = doc["stages"], doc["requests"]
        check([s["stage"] for s in st] == [1, 2, 3], "stages: %r" % st)
        stages_add_up(st, req)
        for s, want in zip(st, (40, 240, 200)):
            check(s["offered"] == want and s["offered_count"] == want and
                  abs(s["sent"] - want) <= 1, "stage %d sent %d of %g offered (%d counted)"
                  % (s["stage"], s["sent"], s["offered"], s["offered_count"]))
            # per call: over the calls answered while the stage ran (by arrival:
            # a call intended at a stage's end may be answered in the next)
            check(s["server_cpu_pct"] is not None and s["server_cpu_ms_per_call"] is not None and
                  abs(s["answered"] - s["ok"]) <= 8 and
                  abs(s["server_cpu_ms_per_call"] - s["server_cpu_ms"] / s["answered"]) < 1e-6,
                  "stage CPU: %r" % s)
            check(s["latency_ms"]["p99"] is not None, "stage latency: %r" % s["latency_ms"])
        check(req["ok"] <= sum(s["answered"] for s in st) <= req["ok"] + req["errors"],
              "the stages' answered add up to the answers: %r" % [s["answered"] for s in st])
        check(len(doc["histograms"]["stages"]) == 3, "stage histograms saved")
        # the text's table, one row per stage, the same from the saved file
        rows = re.findall(r"^([123]) +(\S+) +(\S+) +(\S+)/s +(\d+) +(\d+) ", out, re.M)
        check(len(rows) == 3 and [int(r[4]) for r in rows] == [s["ok"] for s in st],
              "text rows: %r\n%s" % (rows, out))
        rc, again, rerr = rpcbench("report", saved)
        table = lambda t: t[t.index("\nstages\n"):t.index("\nrequests")]
        check(rc == 0 and table(again) == table(out), "report: %r %r" % (rerr, again[-600:]))
        html = open(page).read()
        check('id="stages"' in html and 'id="st-stage3-p99"' in html, "page: stage table")
        check('"offered"' in html or "offered</" in html, "page: offered series")
        # two files side by side: counts add, the offered rates too
        rc, both, rerr = rpcbench("report", saved, saved, "--format", "json")
        m = json.loads(both)
        check(rc == 0 and [s["sent"] for s in m["stages"]] == [2 * s["sent"] for s in st]
              and m["stages"][1]["to"] == 200, "merge: %r %r" % (rerr, m.get("stages")))


def test_poisson_ramp():
    """Poisson arrivals by time rescaling: 3 s ramping 50 -> 150/s offer
    300; the count is Poisson (sd ~17): within 5 sd."""
    with Server("--vms", "5") as srv:
        rc, out, err = rpcbench("run", "--url", srv.url("/RPC2"), "--stages", "3s:50/s-150/s",
                                "--arrival", "poisson", "--seed", "7", "--verb", "ping",
                                "--quiet", "--format", "json", timeout=30)
        check(rc == 0, "rc %d %r" % (rc, err))
        doc = json.loads(out)
        n = doc["stages"][0]["offered_count"]
        check(215 <= n <= 385, "poisson ramp offered %d of 300" % n)
        stages_add_up(doc["stages"], doc["requests"])
        iv = doc["intervals"]
        check(iv[0]["sent"] < iv[-1]["sent"], "the ramp rises: %r" % iv)


def test_stage_thresholds():
    with Server("--delay", "20ms", "--vms", "5") as srv, tempfile.TemporaryDirectory() as d:
        saved = os.path.join(d, "r.json")
        args = ("run", "--url", srv.url("/RPC2"), "--stages", "1s:10/s,1s:10/s-30/s", "-c", "8",
                "--quiet")
        rc, out, err = rpcbench(*args, "--threshold", "stage2.p99<5ms", "--output", saved)
        v = threshold_verdicts(out)
        check(rc == 3 and v["stage2.p99<5ms"][1] == "FAIL" and
              v["stage2.p99<5ms"][0].startswith("stage2.p99 = "), "fail: %d %r %r" % (rc, v, err))
        t = json.load(open(saved))["thresholds"][0]
        check(t["stage"] == 2 and t["value"] >= 20, "JSON verdict: %r" % t)
        rc, out, err = rpcbench(*args, "--threshold", "stage2.p99<10s,stage1.rate>=90%,"
                                "stage2.errors=0")
        v = threshold_verdicts(out)
        check(rc == 0 and all(x[1] == "pass" for x in v.values()) and len(v) == 3,
              "pass: %d %r %r" % (rc, v, err))
        rc, out, err = rpcbench("report", saved, "--threshold", "stage1.p99<10s",
                                "--threshold", "stage1.p50<1ms")
        v = threshold_verdicts(out)
        check(rc == 3 and v["stage1.p99<10s"][1] == "pass" and v["stage1.p50<1ms"][1] == "FAIL",
              "report: %d %r" % (rc, v))


def test_stage_not_held():
    """A server that takes 50 ms on 2 connections holds 10/s and not a ramp
    to 200/s: that stage is warned of by name and fails stage2.rate>=99%,
    and the requests it left waiting at the end (unsent: never written)
    keep the rows adding up."""
    with Server("--delay", "50ms", "--vms", "5") as srv:
        rc, out, err = rpcbench("run", "--url", srv.url("/RPC2"), "--stages",
                                "1s:10/s,2s:10/s-200/s", "-c", "2", "--quiet", "--format", "json",
                                "--threshold", "stage1.rate>=99%,stage2.rate>=99%", timeout=30)
        doc = json.loads(out)
        v = {t["expr"]: t for t in doc["thresholds"]}
        check(rc == 3 and v["stage1.rate>=99%"]["pass"] and not v["stage2.rate>=99%"]["pass"],
              "rc %d %r %r" % (rc, v, err))
        st = doc["stages"]
        check(any(w.startswith("stage 2: ") and "rate not held" in w for w in doc["warnings"])
              and not any(w.startswith("stage 1: ") for w in doc["warnings"]),
              "warnings: %r" % doc["warnings"])
        check(st[1]["unsent"] > 0 and st[1]["rate_achieved"] < 0.9 * 105, "stage 2: %r" % st[1])
        stages_add_up(st, doc["requests"])


def stage_run(srv, d, name, stages, *extra):
    """A --stages run watching srv, saved; returns (text, the result)."""
    saved = os.path.join(d, name + ".json")
    rc, out, err = rpcbench("run", "--url", srv.url("/RPC2"), "--stages", stages, "-c", "2",
                            "--server-pid", str(srv.proc.pid), "--idle-baseline", "0",
                            "--quiet", "--output", saved, *extra, timeout=60)
    check(rc in (0, 3), "%s: rc %d %r" % (name, rc, err[-600:]))
    with open(saved) as f:
        return out, json.load(f), saved


def test_stage_cpu_per_call_over_answered():
    """A stage's CPU-ms per call is its CPU over the calls the server
    answered in it (the ledger's answered: ok, and the faults it answered
    too); a stage that answered nothing is n/a, never CPU / 0 or / sent."""
    with Server("--vms", "5") as srv, tempfile.TemporaryDirectory() as d:
        # 4/s for 1 s, then a pause: every answer comes long before 1 s
        out, r, saved = stage_run(srv, d, "pause", "1s:4/s,1s:0/s", "--verb", "ping")
        one, two = r["stages"]
        check(one["answered"] == one["ok"] == 4 and two["answered"] == 0 and
              sum(s["answered"] for s in r["stages"]) == r["requests"]["ok"],
              "answered: %r" % [(s["ok"], s["answered"]) for s in r["stages"]])
        check(one["server_cpu_ms"] is not None and
              abs(one["server_cpu_ms_per_call"] - one["server_cpu_ms"] / one["answered"]) < 1e-6,
              "stage 1: %r" % one)
        check(two["server_cpu_ms"] is not None and two["server_cpu_ms_per_call"] is None,
              "stage 2 answered nothing: %r" % two)
        row = [l for l in out.splitlines() if re.match(r"\s*2\s+1-2s\s", l)]
        check(len(row) == 1 and row[0].rstrip().endswith("n/a"), "stage 2's row: %r" % row)
        rc, text, _ = rpcbench("report", saved, "--threshold", "stage2.cpu_ms_per_call<1000")
        v = threshold_verdicts(text)["stage2.cpu_ms_per_call<1000"]
        check(rc == 3 and v == ("stage2.cpu_ms_per_call n/a (no request answered), bound < 1000",
                                "FAIL"), "stage 2's threshold: rc %d %r" % (rc, v))
        # every call a fault: none ok, every one answered by the server
        _, r, _ = stage_run(srv, d, "faults", "1s:10/s", "--method", "no.such.method")
        st = r["stages"][0]
        check(st["ok"] == 0 and st["answered"] == st["errors"] == 10 and
              abs(st["server_cpu_ms_per_call"] - st["server_cpu_ms"] / 10) < 1e-6,
              "faults are answers: %r" % {k: st[k] for k in st if k != "latency_ms"})


def test_usage_errors_before_sending():
    peer = Peer(lambda sock, rec: sock.recv(1))
    url = "http://127.0.0.1:%d/RPC2" % peer.port
    cases = (
        (("--stages", "1s:10/s", "-R", "5"), "--stages and --rate"),
        (("--stages", "1s:10/s", "--duration", "5s"), "--stages and --duration"),
        (("--stages", "1s:max"), "closed loop"),
        (("--stages", "1s:10/s,5s"), "stage 2 '5s' is not D:R"),
        (("--stages", "0s:10/s"), "the duration must be above zero"),
        (("--stages", "1x:10/s"), "stage 1"),
        (("--stages", "1s:10/s-fast"), "stage 1"),
        (("--stages", "1s:0"), "every rate is 0"),
        (("--stages", ",".join(["1s:5/s"] * 17)), "16 stages at most"),
        (("--stages", "1s:5/s,1s:5/s", "--threshold", "stage3.p99<1s"), "no stage 3 (it has 2)"),
        (("-d", "1s", "--threshold", "stage1.p99<1s"), "no stages"),
        (("--stages", "1s:5/s", "--threshold", "stage1.send_lag_max<1s"), "no send lag"),
        (("--stages", "1s:5/s", "--threshold", "stage17.p99<1s"), "from 1 to 16"),
    )
    for extra, says in cases:
        rc, out, err = rpcbench("run", "--url", url, "--quiet", *extra, timeout=10)
        line = err.strip()
        check(rc == 2 and "\n" not in line and says in line, "%r: rc %d %r" % (extra, rc, err))
    time.sleep(0.2)
    check(peer.conns == [], "nothing sent: %d connections" % len(peer.conns))
    peer.close()
    rc, _, err = rpcbench("compare", "--stages", "1s:5/s", "a.json", timeout=10)
    check(rc == 2 and "--stages" in err, "compare refuses it: %d %r" % (rc, err))


if __name__ == "__main__":
    main([test_ramp_follows_offered, test_poisson_ramp, test_stage_thresholds,
          test_stage_not_held, test_stage_cpu_per_call_over_answered,
          test_usage_errors_before_sending])
