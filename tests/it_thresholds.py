"""it_thresholds: `run --threshold` and `report --threshold` give the
verdict. Against `rpcbench serve --delay 20ms --vms 5` (a server that takes 20 ms,
with small answers, so nothing is left unfinished on a loaded machine),
p99<5ms fails (exit 3, the failed condition and its measured value named)
and a generous bound passes (exit 0); report on the saved JSON gives the
same verdicts, and the boundary at the measured value itself is exact. A bad
condition exits 2 before any connection is made. Per-verb and list forms,
the JSON "thresholds" array, and the JUnit file (parsed with xml.etree)."""
import json
import os
import re
import tempfile
import time
import xml.etree.ElementTree as ET

from rpctest import Peer, Server, check, main, rpcbench, threshold_verdicts

RUN = ("-d", "1s", "-R", "10", "-c", "4", "--quiet")




def test_run_fails_then_passes_and_report_agrees():
    with Server("--delay", "20ms", "--vms", "5") as srv, tempfile.TemporaryDirectory() as d:
        saved = os.path.join(d, "r.json")
        rc, out, err = rpcbench("run", "--url", srv.url("/RPC2"), *RUN,
                                "--threshold", "p99<5ms", "--output", saved)
        check(rc == 3, "p99<5ms on a 20 ms server: rc %d %r" % (rc, err))
        v = threshold_verdicts(out)
        check(list(v) == ["p99<5ms"] and v["p99<5ms"][1] == "FAIL", "verdict lines: %r" % out)
        m = re.match(r"p99 = ([0-9.]+)ms, bound < 5ms$", v["p99<5ms"][0])
        check(m and float(m.group(1)) >= 20, "measured value named: %r" % v["p99<5ms"][0])
        doc = json.load(open(saved))
        t = doc["thresholds"]
        check(len(t) == 1 and t[0]["expr"] == "p99<5ms" and t[0]["metric"] == "p99"
              and t[0]["bound"] == 5 and t[0]["pass"] is False
              and abs(t[0]["value"] - float(m.group(1))) < 0.001, "JSON thresholds: %r" % t)
        rc, out, err = rpcbench("run", "--url", srv.url("/RPC2"), *RUN, "--threshold", "p99<10s")
        check(rc == 0, "p99<10s: rc %d %r %r" % (rc, out[-300:], err))
        check(threshold_verdicts(out)["p99<10s"][1] == "pass", "pass line: %r" % out[-300:])
        # the saved result judged again, without running
        rc, out, err = rpcbench("report", saved, "--threshold", "p99<5ms", "--threshold", "p99<10s")
        v = threshold_verdicts(out)
        check(rc == 3 and v["p99<5ms"][1] == "FAIL" and v["p99<10s"][1] == "pass",
              "report: rc %d %r %r" % (rc, v, err))
        value = t[0]["value"]  # the boundary: the measured value itself
        rc, _, err = rpcbench("report", saved, "--threshold", "p99<=%.3fms" % value)
        check(rc == 0, "p99<=%.3fms: rc %d %r" % (value, rc, err))
        rc, _, err = rpcbench("report", saved, "--threshold", "p99<%.3fms" % value)
        check(rc == 3, "p99<%.3fms: rc %d %r" % (value, rc, err))


def test_bad_condition_exits_2_before_sending():
    peer = Peer(lambda sock, rec: sock.recv(1))
    url = "http://127.0.0.1:%d/RPC2" % peer.port
    for cond, says in (("p99<<5ms", "one operator"), ("p99<5", "needs a unit"),
                       ("latency<5ms", "unknown metric"), ("p99<5ms,", "empty condition"),
                       ("ping.p99<5ms", "this run has no verb 'ping'")):
        rc, out, err = rpcbench("run", "--url", url, *RUN, "--threshold", cond, timeout=10)
        line = err.strip()
        check(rc == 2 and "\n" not in line and line.startswith("rpcbench run: --threshold: '%s'"
              % cond) and says in line, "%s: rc %d %r" % (cond, rc, err))
        check("METRIC OP VALUE[UNIT]" in line or "no verb" in line, "accepted form: %r" % line)
    rc, _, err = rpcbench("run", "--url", url, *RUN, "--junit", "x.xml", timeout=10)
    check(rc == 2 and "--junit: needs --threshold" in err, "junit alone: %d %r" % (rc, err))
    time.sleep(0.2)
    check(peer.conns == [], "nothing sent: %d connections" % len(peer.conns))
    peer.close()
    rc, _, err = rpcbench("report", "/nonexistent.json", "--threshold", "p99<5", timeout=10)
    check(rc == 2 and "--threshold: 'p99<5'" in err, "report: rc %d %r" % (rc, err))


def test_per_verb_list_and_junit():
    with Server("--delay", "20ms", "--vms", "5") as srv, tempfile.TemporaryDirectory() as d:
        junit, saved = os.path.join(d, "run.xml"), os.path.join(d, "r.json")
        conds = "getAllVmStats.p50<5ms,list.p99<10s,errors=0"
        rc, out, err = rpcbench("run", "--url", srv.url("/RPC2"), *RUN,
                                "--verb", "list:1,getAllVmStats:1", "--threshold", conds,
                                "--threshold", "rate>=1%", "--junit", junit, "--output", saved)
        check(rc == 3, "rc %d %r" % (rc, err))
        v = threshold_verdicts(out)
        check([k for k in v] == conds.split(",") + ["rate>=1%"], "one line each: %r" % v)
        check(v["getAllVmStats.p50<5ms"][1] == "FAIL" and v["list.p99<10s"][1] == "pass"
              and v["errors=0"] == ("errors = 0, bound = 0", "pass")
              and v["rate>=1%"][1] == "pass", "verdicts: %r" % v)
        check(v["getAllVmStats.p50<5ms"][0].startswith("getAllVmStats.p50 = "), repr(v))
        doc = json.load(open(saved))
        check([t.get("verb") for t in doc["thresholds"]] == ["getAllVmStats", "list", None, None],
              "per-verb in JSON: %r" % doc["thresholds"])
        root = ET.parse(junit).getroot()
        suite = root.find("testsuite")
        check(suite.get("tests") == "4" and suite.get("failures") == "1", "suite: %r" % suite.attrib)
        cases = suite.findall("testcase")
        check([c.get("name") for c in cases] == conds.split(",") + ["rate>=1%"],
              "testcases: %r" % [c.get("name") for c in cases])
        failure = cases[0].find("failure")
        check(failure is not None and re.match(r"getAllVmStats\.p50 = [0-9.]+ms, bound < 5ms",
              failure.get("message")), "failure message: %r" % (failure is not None and failure.attrib))
        check(all(c.find("failure") is None for c in cases[1:]), "only the first fails")
        # report --junit on the saved result: the same cases
        rj = os.path.join(d, "report.xml")
        rc, _, err = rpcbench("report", saved, "--threshold", conds, "--junit", rj,
                              "--format", "json")
        cases = ET.parse(rj).getroot().find("testsuite").findall("testcase")
        check(rc == 3 and [c.find("failure") is not None for c in cases] == [True, False, False],
              "report junit: rc %d %r" % (rc, err))


def test_no_success_fails_whatever_the_conditions():
    """A run where nothing succeeded exits 3 even when its conditions hold,
    and a latency condition on it is n/a, which fails."""
    def refuse(sock, rec):
        sock.recv(65536)
        sock.sendall(b"HTTP/1.1 500 No\r\nContent-Length: 0\r\n\r\n")
    peer = Peer(refuse)
    url = "http://127.0.0.1:%d/RPC2" % peer.port
    rc, out, err = rpcbench("run", "--url", url, *RUN, "--threshold", "errors>0", timeout=30)
    check(rc == 3 and threshold_verdicts(out)["errors>0"][1] == "pass", "rc %d %r %r" % (rc, out[-300:], err))
    rc, out, err = rpcbench("run", "--url", url, *RUN, "--threshold", "p99<1s", timeout=30)
    check(rc == 3 and threshold_verdicts(out)["p99<1s"] == (
        "p99 n/a (no successful response), bound < 1000ms", "FAIL"), "n/a: %r" % out[-300:])
    peer.close()


def test_unknown_figure_fails_saying_so():
    """A condition on a figure that was not measured (no server watched:
    its CPU is unknown) never passes: it fails, n/a and why, the JSON's
    value null, at run time and on the saved result alike (issue 36)."""
    conds = "server_cpu<80%,cpu_ms_per_call<1000"
    why = "n/a (not sampled: no --server-pid or --server-name)"
    with Server("--delay", "20ms", "--vms", "5") as srv, tempfile.TemporaryDirectory() as d:
        saved = os.path.join(d, "r.json")
        rc, out, err = rpcbench("run", "--url", srv.url("/RPC2"), *RUN, "--threshold", conds,
                                "--output", saved)
        check(rc == 3, "unknown figures: rc %d, want 3 %r" % (rc, err[-300:]))
        v = threshold_verdicts(out)
        check(v.get("server_cpu<80%") == ("server_cpu %s, bound < 80%%" % why, "FAIL") and
              v.get("cpu_ms_per_call<1000") == ("cpu_ms_per_call %s, bound < 1000" % why, "FAIL"),
              "verdict lines: %r" % v)
        for t in json.load(open(saved))["thresholds"]:
            check(t["value"] is None and t["pass"] is False and "not sampled" in t["na"],
                  "JSON threshold %r" % t)
        rc, out, _ = rpcbench("report", saved, "--threshold", "server_cpu>=0%")
        check(rc == 3 and threshold_verdicts(out)["server_cpu>=0%"][1] == "FAIL",
              "report, a bound any figure meets: rc %d %r" % (rc, out[-300:]))


def test_compare_judges_each_arm_and_writes_gates_to_junit():
    """compare --threshold judges both arms' merged results (a failed one
    exits 3 even when the gate passes); --junit has a testcase per arm and
    condition, one per gate, and one for the implied failures rule."""
    with Server("--delay", "20ms", "--vms", "5") as srv, tempfile.TemporaryDirectory() as d:
        junit, saved = os.path.join(d, "c.xml"), os.path.join(d, "c.json")
        rc, out, err = rpcbench("compare", "--url", srv.url("/RPC2"), "--rounds", "2", "-d", "1s",
                                "-R", "10", "--quiet", "--threshold", "p99<5ms,errors=0",
                                "--gate", "p50:+100%", "--junit", junit, "--output", saved,
                                timeout=90)
        check(rc == 3, "a failed threshold in compare: rc %d %r" % (rc, err[-500:]))
        check(re.search(r"^thresholds, arm A ", out, re.M) and
              re.search(r"^thresholds, arm B ", out, re.M), "per-arm lines:\n" + out[-800:])
        check(threshold_verdicts(out)["p99<5ms"][1] == "FAIL" and threshold_verdicts(out)["errors=0"][1] == "pass",
              "verdicts %r" % threshold_verdicts(out))
        doc = json.load(open(saved))
        check(set(doc["thresholds"]) == {"A", "B"} and
              [t["pass"] for t in doc["thresholds"]["A"]] == [False, True], doc.get("thresholds"))
        cases = {c.get("name"): c for c in ET.parse(junit).getroot().iter("testcase")}
        # and the failures rule (issue 41): an A/A fails no more in B
        check(set(cases) == {"A p99<5ms", "A errors=0", "B p99<5ms", "B errors=0",
                             "gate p50:+100%", "gate errors:+0% (implied)"},
              "testcases %r" % sorted(cases))
        check(cases["A p99<5ms"].find("failure") is not None and
              cases["B errors=0"].find("failure") is None and
              cases["gate errors:+0% (implied)"].find("failure") is None, "failures")
        gate = cases["gate p50:+100%"]
        check(gate.get("classname") == "rpcbench.compare.gate", gate.attrib)
        # 2 rounds at 95 %: pass when the interval lies under 2, else inconclusive (a failure)
        check(doc["gates"][0]["verdict"] in ("pass", "inconclusive") and
              (gate.find("failure") is None) == (doc["gates"][0]["verdict"] == "pass"),
              "gate verdict %r and its testcase" % doc["gates"][0]["verdict"])


if __name__ == "__main__":
    main([test_compare_judges_each_arm_and_writes_gates_to_junit,
          test_run_fails_then_passes_and_report_agrees, test_bad_condition_exits_2_before_sending,
          test_per_verb_list_and_junit, test_no_success_fails_whatever_the_conditions,
          test_unknown_figure_fails_saying_so])
