# rpctest: alone test_ab_regression_in_a_few_rounds: its --bisect must decide a 40 % p50 regression within --rounds auto's rounds, which three neighbours' load made undecided (exit 125, CI runs 2 and 4)
# rpctest: timed test_default_rounds_decide_and_say_what_they_need test_aa_passes test_auto_stops_once_a_regression_decides: their verdicts judge latency gates round by round, which a sanitizer build's late pacer turns undecided
"""it_gate: `compare --gate METRIC:+TOL%` with `--rounds auto` against two
real `rpcbench serve` (--delay 10ms and 14ms): an A/A passes (exit 0), a B
40 % slower is a regression (exit 3; 1 with --bisect) in a few rounds; the
report and the JSON show the ratio, the interval, the rounds, the verdict
and the method; saved comparisons and saved runs are gated too (one look;
one round has no interval: inconclusive, exit 4; so has a figure never
measured, which the report, the JSON and JUnit name); a call's gate
(CALL.METRIC, as --threshold names calls) is judged the same way on that
call's figures, in the text, JSON and JUnit, and the per-call rows carry
their interval; bad gates, and a call the workload does not have, exit 2
before anything is sent. Every subprocess has a timeout."""
import http.server
import json
import os
import re
import tempfile
import time
import xml.etree.ElementTree as ET

from rpctest import JsonRpcHandler, Recorder, Server, check, main, rpcbench

SHORT = ["--verb", "ping", "-R", "40", "-d", "0.5s", "--warmup", "0.1s", "--quiet"]
ACCEPTED = "accepted: METRIC:+TOL%"


def compare(*args, timeout=120):
    return rpcbench("compare", *(list(args) + SHORT), timeout=timeout)


def gate_of(doc, expr):
    gates = [g for g in doc["gates"] if g["gate"] == expr]
    check(len(gates) == 1, "gate %s in %r" % (expr, doc.get("gates")))
    g = gates[0]
    for k in ("metric", "tolerance_pct", "bound", "ratio", "ci_low", "ci_high", "confidence",
              "rounds", "max_rounds", "verdict", "method"):
        check(k in g, "gate JSON lacks %s: %r" % (k, g))
    check(g["method"] == "bonferroni", "method %r" % g["method"])
    return g


def test_aa_passes():
    with Server("--delay", "10ms") as s, tempfile.TemporaryDirectory() as d:
        out = os.path.join(d, "aa.json")
        rc, text, err = compare("--url", s.url("/RPC2"), "--gate", "p50:+10%", "--gate",
                                "errors:+0%", "--rounds", "auto", "--output", out)
        check(rc == 0, "A/A exit %d: %s %s" % (rc, text[-1500:], err[-500:]))
        check(re.search(r"^p50:\+10%\s+[0-9.]+\s+\[[0-9.]+, [0-9.]+\] 99%\s+\d+\s+pass$",
                        text, re.M), "gate row: %s" % text[:2500])
        check("method: Bonferroni alpha spending" in text and "5 looks" in text, "method line")
        g = gate_of(json.load(open(out)), "p50:+10%")
        check(g["verdict"] == "pass" and 4 <= g["rounds"] <= 12 and g["max_rounds"] == 12,
              "A/A gate %r" % g)
        check(g["rounds"] % 2 == 0, "a look after %d rounds: not a whole block" % g["rounds"])
        check(g["ci_low"] <= g["ratio"] <= g["ci_high"] < 1.1, "A/A interval %r" % g)
        check(abs(g["confidence"] - 0.99) < 1e-9, "per-look confidence %r" % g["confidence"])
        e = gate_of(json.load(open(out)), "errors:+0%")
        check(e["verdict"] == "pass" and e["ratio"] is None, "no errors in either arm: %r" % e)


def test_ab_regression_in_a_few_rounds():
    with Server("--delay", "10ms") as a, Server("--delay", "14ms") as b, \
            tempfile.TemporaryDirectory() as d:
        out = os.path.join(d, "ab.json")
        urls = "%s,%s" % (a.url("/RPC2"), b.url("/RPC2"))
        rc, text, err = compare("--url", urls, "--gate", "p50:+10%", "--gate", "rate:-2%",
                                "--rounds", "auto:8", "--output", out)
        check(rc == 3, "A/B exit %d, want 3: %s %s" % (rc, text[-1500:], err[-500:]))
        doc = json.load(open(out))
        g = gate_of(doc, "p50:+10%")
        check(g["verdict"] == "regression" and g["ci_low"] > 1.1 and g["max_rounds"] == 8,
              "A/B gate %r" % g)
        check(g["rounds"] in (4, 6) and doc["rounds"] == g["rounds"],
              "a 40%% regression took %d rounds" % g["rounds"])
        check(gate_of(doc, "rate:-2%")["bound"] == 0.98, "rate's bound")
        # the same comparison for git bisect run: bad
        rc, _, err = compare("--url", urls, "--gate", "p50:+10%", "--rounds", "auto", "--bisect")
        check(rc == 1, "--bisect on a regression: exit %d %s" % (rc, err[-300:]))
        # the saved comparison gated again: one look, a 95 % interval
        rc, text, err = rpcbench("compare", out, "--gate", "p50:+10%", "--format", "json",
                                 timeout=30)
        check(rc == 3, "saved comparison: exit %d %s" % (rc, err))
        g = gate_of(json.loads(text), "p50:+10%")
        check(g["verdict"] == "regression" and abs(g["confidence"] - 0.95) < 1e-9, "saved %r" % g)
        rc, _, _ = rpcbench("compare", out, "--gate", "p50:+100%", timeout=30)
        check(rc == 0, "saved comparison, p50:+100%%: exit %d" % rc)


def test_auto_stops_once_a_regression_decides():
    """A regression fixes the exit code: --rounds auto stops there, though
    another gate (CPU, never sampled here) could never be decided."""
    with Server("--delay", "10ms") as a, Server("--delay", "14ms") as b, \
            tempfile.TemporaryDirectory() as d:
        out = os.path.join(d, "ab.json")
        urls = "%s,%s" % (a.url("/RPC2"), b.url("/RPC2"))
        rc, text, err = compare("--url", urls, "--gate", "p50:+10%", "--gate",
                                "cpu_ms_per_call:+5%", "--rounds", "auto:8", "--output", out)
        check(rc == 3, "exit %d, want 3: %s %s" % (rc, text[-1500:], err[-500:]))
        doc = json.load(open(out))
        check(gate_of(doc, "p50:+10%")["verdict"] == "regression", "p50 gate")
        check(gate_of(doc, "cpu_ms_per_call:+5%")["verdict"] == "inconclusive", "cpu gate")
        check(doc["rounds"] < 8, "ran %d of 8 rounds after the outcome was decided"
              % doc["rounds"])
        check("the outcome was decided" in text, "says why it stopped: %s" % text[-2000:])


def test_saved_runs_one_round_is_inconclusive():
    with Server("--delay", "10ms") as s, tempfile.TemporaryDirectory() as d:
        paths = [os.path.join(d, n) for n in ("a.json", "b.json")]
        for p in paths:
            rc, _, err = rpcbench("run", "--url", s.url("/RPC2"), "--output", p,
                                  *SHORT, timeout=30)
            check(rc == 0, "run: %d %s" % (rc, err))
        rc, text, err = rpcbench("compare", paths[0], paths[1], "--gate", "p50:+10%", timeout=30)
        check(rc == 4, "one round: exit %d, want 4 (inconclusive): %s" % (rc, err))
        check(re.search(r"^p50:\+10%.*n/a \(1 round\)\s+1\s+inconclusive$", text, re.M),
              "gate row: %s" % text[:2000])
        rc, _, _ = rpcbench("compare", paths[0], paths[1], "--gate", "p50:+10%", "--bisect",
                            timeout=30)
        check(rc == 125, "--bisect, inconclusive: exit %d, want 125 (skip)" % rc)


def test_unknown_figure_is_inconclusive_saying_so():
    """A gate on a figure never measured (no server watched: its CPU) has
    no ratio: inconclusive (exit 4; skip under --bisect), never a pass, and
    the report and the JSON say the figure was unknown (issue 36)."""
    with Server("--delay", "10ms") as s, tempfile.TemporaryDirectory() as d:
        out, junit = os.path.join(d, "u.json"), os.path.join(d, "u.xml")
        rc, text, err = compare("--url", s.url("/RPC2"), "--gate", "cpu_ms_per_call:+5%",
                                "--rounds", "2", "--output", out, "--junit", junit)
        check(rc == 4, "unknown figure: exit %d, want 4: %s %s" % (rc, text[-1500:], err[-300:]))
        check(re.search(r"^cpu_ms_per_call:\+5%\s+n/a\s+n/a \(figure unknown\)\s+2\s+"
                        r"inconclusive$", text, re.M), "gate row: %s" % text[-2500:])
        g = gate_of(json.load(open(out)), "cpu_ms_per_call:+5%")
        check(g["verdict"] == "inconclusive" and g["ratio"] is None and
              g.get("unknown_rounds") == {"A": 2, "B": 2}, "gate JSON %r" % g)
        cases = {c.get("name"): c for c in ET.parse(junit).getroot().iter("testcase")}
        failure = cases["gate cpu_ms_per_call:+5%"].find("failure")
        check(failure is not None and failure.get("message", "").startswith(
            "cpu_ms_per_call unknown (not measured) in 2 of 2 rounds of A and 2 of B"),
            "JUnit: %r" % (failure.attrib if failure is not None else None))
        rc, text, _ = rpcbench("compare", out, "--gate", "server_cpu:+5%", "--format", "json",
                               timeout=30)
        g = gate_of(json.loads(text), "server_cpu:+5%")
        check(rc == 4 and g["verdict"] == "inconclusive" and
              g.get("unknown_rounds") == {"A": 2, "B": 2}, "saved: exit %d, %r" % (rc, g))
        rc, _, _ = rpcbench("compare", out, "--gate", "server_cpu:+5%", "--bisect", timeout=30)
        check(rc == 125, "--bisect, unknown figure: exit %d, want 125 (skip)" % rc)


def test_bad_gates_are_usage_errors():
    for gate, why in (("p99", "no ':'"), ("p98:+5%", "unknown metric"),
                      ("p99:5%", "takes +"), ("rate:+2%", "rate takes -"),
                      ("p99:+5", "percentage"), ("p99:+x%", "percentage"),
                      ("rate:-100%", "percentage"), ("p99:+-5%", "percentage")):
        rc, out, err = rpcbench("compare", "--gate", gate, timeout=10)
        check(rc == 2 and not out, "--gate %s: exit %d, want 2" % (gate, rc))
        check(("'%s'" % gate) in err and why in err and ACCEPTED in err,
              "--gate %s: message %r" % (gate, err))
    for args, what, code in ((["--rounds", "auto"], "needs at least one --gate", 2),
                             (["--bisect"], "needs at least one --gate", 128),
                             (["--rounds", "auto:3", "--gate", "p50:+5%"], "--rounds auto:MAX", 2),
                             (["--rounds", "automatic", "--gate", "p50:+5%"], "--rounds", 2)):
        rc, _, err = rpcbench("compare", *args, timeout=10)
        check(rc == code and what in err, "%s: exit %d %r" % (args, rc, err))
    rc, _, err = rpcbench("run", "--gate", "p50:+5%", timeout=10)
    check(rc == 2 and "only for compare" in err, "run --gate: %d %r" % (rc, err))
    # under git bisect run a usage error stops the bisection (> 127), never "bad"
    rc, _, err = rpcbench("compare", "--gate", "p98:+5%", "--bisect", timeout=10)
    check(rc == 128 and "unknown metric" in err, "--bisect, bad gate: exit %d %r" % (rc, err))


def test_default_rounds_decide_and_say_what_they_need():
    """With a gate and no --rounds, compare looks again after each round up
    to 12 (issue 41 part 4); a gate left inconclusive says its half-width
    and the rounds (or round length) that would decide it, in the text,
    the JUnit message and the JSON; --bisect prints its cost per commit
    before the first round."""
    with Server("--delay", "10ms") as s, tempfile.TemporaryDirectory() as d:
        out, junit = os.path.join(d, "aa.json"), os.path.join(d, "j.xml")
        rc, text, err = compare("--url", s.url("/RPC2"), "--gate", "p50:+0%", "--bisect",
                                "--output", out, "--junit", junit, timeout=240)
        check(re.search(r"--bisect: each commit costs \S+ to \S+ \(4 to 12 rounds x 2 arms",
                        err), "no cost line: %r" % err[-800:])
        g = gate_of(json.load(open(out)), "p50:+0%")
        check(g["max_rounds"] == 12, "default rounds with a gate: %r" % g)
        if g["verdict"] != "inconclusive":  # an A/A at +0 % is inconclusive but by chance
            return
        check(rc == 125, "inconclusive under --bisect: exit %d" % rc)
        n = g["needs"]
        check(n["half_width_pct"] > 0 and (n["rounds"] is None or n["rounds"] > g["rounds"]),
              "needs %r" % n)
        check(re.search(r"^p50:\+0% inconclusive: B/A \+-[0-9.]+% after \d+ rounds", text, re.M),
              "no needs line: %s" % text[:3000])
        check("now" in open(junit).read(), "JUnit message without the half-width")


def test_short_rounds_are_lengthened_for_cpu_per_call():
    """--rounds auto with a cpu_ms_per_call gate doubles rounds whose arms
    answered fewer than 30 calls, after a whole block, up to --longest-round,
    and says so on stderr, under the gates table and in the JSON."""
    with Server("--vms", "5", "--work-us-per-vm", "100") as s, tempfile.TemporaryDirectory() as d:
        out = os.path.join(d, "l.json")
        rc, text, err = rpcbench("compare", "--url", s.url("/RPC2"), "--server-pid", s.proc.pid,
                                 "--verb", "getAllVmStats", "-R", "10", "-d", "1s",
                                 "--longest-round", "2s", "--gate", "cpu_ms_per_call:+50%",
                                 "--rounds", "auto:6", "--quiet", "--output", out, timeout=240)
        check(rc in (0, 4), "exit %d: %s" % (rc, err[-800:]))
        doc = json.load(open(out))
        lg = doc.get("lengthened")
        check(lg and lg["from_round"] == 3 and lg["from_s"] == 1 and lg["to_s"] == 2 and
              lg["answered_calls"] < 30, "lengthened %r" % lg)
        check("rounds 3 and on last 2s, not 1s" in err, "stderr: %r" % err[-800:])
        check("rounds lengthened from round 3, from 1s up to 2s" in text, "text: %s" % text[:3000])
        lens = [round(r["duration_s"]) for r in doc["arms"][0]["rounds"]]
        check(lens[:2] == [1, 1] and all(x == 2 for x in lens[2:]), "round lengths %r" % lens)

def test_short_rounds_are_lengthened_for_a_percentile():
    """A p99 gate rests on the calls beyond p99: rounds of 50 calls (fewer
    than the 1000 that leave 10 beyond it) are lengthened like a CPU gate's,
    and the reason names the gate and its need."""
    with Server("--vms", "5", "--work-us-per-vm", "50") as s, tempfile.TemporaryDirectory() as d:
        out = os.path.join(d, "l.json")
        rc, text, err = rpcbench("compare", "--url", s.url("/RPC2"), "--verb", "list",
                                 "-R", "50", "-d", "1s", "--longest-round", "2s",
                                 "--gate", "p99:+50%", "--rounds", "auto:4", "--quiet",
                                 "--output", out, timeout=240)
        check(rc in (0, 4), "exit %d: %s" % (rc, err[-800:]))
        lg = json.load(open(out)).get("lengthened")
        check(lg and lg["from_round"] == 3 and lg["to_s"] == 2 and lg["min_calls"] == 1000 and
              lg["for_gate"] == "p99:+50%" and lg["server_cpu_ms"] is None, "lengthened %r" % lg)
        check("too few for p99:+50% (1000 calls at least)" in err, "stderr: %r" % err[-800:])
        check("rounds lengthened from round 3, from 1s up to 2s" in text, "text: %s" % text[:3000])


class SleepyHandler(JsonRpcHandler):
    """Answers each method after the server's own delay for it (s)."""

    def answer(self, req):
        with self.server.lock:
            self.server.seen.append(req["method"])
        time.sleep(self.server.delays[req["method"]])
        return 200, True


def sleepy(**delays):
    s = http.server.ThreadingHTTPServer(("127.0.0.1", 0), SleepyHandler)
    s.daemon_threads = True
    s.delays = delays
    return Recorder(s)


CALLS = '{"name": "add", "method": "add"}\n{"name": "list", "method": "list"}\n'


def call_compare(a, b, d, *args, timeout=120):
    wl = os.path.join(d, "calls.jsonl")
    with open(wl, "w") as f:
        f.write(CALLS)
    urls = "http://127.0.0.1:%d/,http://127.0.0.1:%d/" % (a.port, b.port)
    return rpcbench("compare", "--url", urls, "-p", "jsonrpc", "--workload", wl, "-R", "40",
                    "-d", "0.6s", "--warmup", "0.1s", "--quiet", *args, timeout=timeout)


def test_call_gates_judge_each_call():
    """B's add takes twice as long, its list as long as A's: the whole-run
    p50 mixes both, add.p50 is a regression and list.p50 a pass, each with
    its own interval, in the text, the JSON and JUnit (it said "unknown
    metric")."""
    with sleepy(add=0.005, list=0.005) as a, sleepy(add=0.010, list=0.005) as b, \
            tempfile.TemporaryDirectory() as d:
        out, junit = os.path.join(d, "c.json"), os.path.join(d, "c.xml")
        rc, text, err = call_compare(a, b, d, "--gate", "add.p50:+10%", "--gate",
                                     "list.p50:+50%", "--rounds", "3", "--output", out,
                                     "--junit", junit)
        doc = json.load(open(out)) if os.path.exists(out) else {}
        cases = {c.get("name"): c for c in ET.parse(junit).getroot().iter("testcase")} \
            if os.path.exists(junit) else {}
        # the saved comparison is gated per call too, and checks the call's name
        src, saved, serr = rpcbench("compare", out, "--gate", "add.p50:+10%", "--format", "json",
                                    timeout=30)
        urc, _, uerr = rpcbench("compare", out, "--gate", "nope.p50:+10%", timeout=30)
    check(src == 3 and gate_of(json.loads(saved or "{}"), "add.p50:+10%")["verdict"] ==
          "regression", "saved: exit %d %s" % (src, serr[-300:]))
    check(urc == 2 and "no call 'nope'" in uerr, "saved, unknown call: exit %d %r" % (urc, uerr))
    check(rc == 3, "exit %d, want 3 (regression): %s %s" % (rc, text[-2000:], err[-500:]))
    check(re.search(r"^add\.p50:\+10%\s+[0-9.]+\s+\[[0-9.]+, [0-9.]+\] 95%\s+3\s+regression$",
                    text, re.M), "add gate row: %s" % text[-3000:])
    check(re.search(r"^list\.p50:\+50%\s+[0-9.]+\s+\[[0-9.]+, [0-9.]+\] 95%\s+3\s+pass$",
                    text, re.M), "list gate row: %s" % text[-3000:])
    ga, gl = gate_of(doc, "add.p50:+10%"), gate_of(doc, "list.p50:+50%")
    check(ga["call"] == "add" and ga["metric"] == "p50" and ga["verdict"] == "regression" and
          1.1 < ga["ci_low"] <= ga["ratio"] <= ga["ci_high"], "add gate %r" % ga)
    check(gl["call"] == "list" and gl["verdict"] == "pass" and gl["ci_high"] < 1.5,
          "list gate %r" % gl)
    check(cases["gate add.p50:+10%"].find("failure") is not None and
          cases["gate list.p50:+50%"].find("failure") is None, "JUnit %r" % list(cases))
    # the per-call rows: B/A with its interval, from the rounds' own per-call figures
    verbs = {v["verb"]: v for v in doc["verbs"]}
    add, lst = verbs["add"]["p50_ci"], verbs["list"]["p50_ci"]
    check(add["low"] > 1.1 and add["verdict"] == "higher" and
          abs(add["ratio"] - ga["ratio"]) < 1e-9, "add row %r (gate %r)" % (add, ga["ratio"]))
    check(lst["low"] <= lst["ratio"] <= lst["high"] < 1.5, "list row %r" % lst)
    check(re.search(r"^add\s+\d+\s+\d+\s+\S+\s+\S+\s+[0-9.]+\s+\[[0-9.]+, [0-9.]+\] higher",
                    text, re.M), "text row of add: %s" % text[-3000:])


def test_call_gate_names_a_call_of_the_workload():
    """A call the workload does not have, or a figure a call has not, is a
    usage error before the first request: neither server gets one."""
    with sleepy(add=0, list=0) as a, sleepy(add=0, list=0) as b, \
            tempfile.TemporaryDirectory() as d:
        for gate, says in (("nope.p50:+10%", "no call 'nope' (it has add, list)"),
                           ("add.rate:-2%", "a call's gate takes p50, p90, p99 or mean")):
            rc, out, err = call_compare(a, b, d, "--gate", gate, "--rounds", "3")
            check(rc == 2 and says in err and len(err.strip().splitlines()) == 1,
                  "--gate %s: exit %d %r" % (gate, rc, err))
        check(a.seen == [] and b.seen == [], "requests sent: %d, %d" % (len(a.seen), len(b.seen)))


if __name__ == "__main__":
    main([test_default_rounds_decide_and_say_what_they_need,
          test_short_rounds_are_lengthened_for_cpu_per_call,
          test_short_rounds_are_lengthened_for_a_percentile,
          test_aa_passes, test_ab_regression_in_a_few_rounds,
          test_auto_stops_once_a_regression_decides, test_saved_runs_one_round_is_inconclusive,
          test_unknown_figure_is_inconclusive_saying_so, test_bad_gates_are_usage_errors,
          test_call_gates_judge_each_call, test_call_gate_names_a_call_of_the_workload])
