"""it_compare: `rpcbench compare` on the built-in simulator for two short
rounds gives both arms, ratios with a confidence interval, the side-by-side
buckets, per-round figures, the documented JSON, a plot and one HdrHistogram
log per arm; re-renders the saved comparison; then compares two saved
results (one round: no interval).
Every subprocess has a timeout."""
import json
import os
import re
import shutil
import signal
import subprocess
import tempfile
import time

from rpctest import Server, check, rpcbench, svg_charts  # noqa: E402

RPCBENCH = os.environ.get("RPCBENCH", "./rpcbench")
FIGURES = ("p50_ms", "p90_ms", "p99_ms", "mean_ms", "rate_per_s", "errors",
           "server_cpu_pct", "server_cpu_ms_per_call", "bytes_per_response")


def run(args, timeout=90):
    return rpcbench(*args, timeout=timeout)


def check_live(tmp):
    out_json, svg, hlog = (os.path.join(tmp, n) for n in ("c.json", "c.svg", "c.hlog"))
    rc, out, err = run(["compare", "--rounds", "2", "-d", "1s", "-R", "20", "--vms", "10",
                        "--output", out_json, "--plot", svg, "--hdr-log", hlog])
    check(rc == 0, "compare: rc %d: %s" % (rc, err[-2000:]))
    for i in (1, 2):
        for arm, label in (("A", "xmlrpc"), ("B", "jsonrpc")):
            check("round %d/2 arm %s (%s)" % (i, arm, label) in err, "no progress for %d %s" % (i, arm))
    check(re.search(r"^figure\s+A xmlrpc\s+B jsonrpc\s+B/A\s+95% CI", out, re.M), "summary head")
    p50 = re.search(r"^p50 latency\s+\S+\s+\S+\s+([0-9.]+)\s+(\[[0-9.]+, [0-9.]+\]|n/a)", out, re.M)
    check(p50 and float(p50.group(1)) > 0, "p50 row: %s" % out[:600])
    check(re.search(r"^response time\s+xmlrpc\s+jsonrpc$", out, re.M), "bucket head")
    check(re.search(r"^<[0-9.]+ms:\s+[0-9.]+\s+[0-9.]+$", out, re.M), "bucket rows")
    check(len(re.findall(r"^[12]\s+[AB]\s+", out, re.M)) == 4, "four per-round rows")
    check_one_unit_per_table(out)
    check(re.search(r"^bytes/response\s+[0-9.]+ (B|kB|MB)\s+[0-9.]+ (B|kB|MB)\s", out, re.M),
          "sizes human-readable:\n" + out[:1200])

    doc = json.load(open(out_json))
    check(doc["kind"] == "compare" and doc["rounds"] == 2, "json head %r" % doc.get("kind"))
    check([a["arm"] for a in doc["arms"]] == ["A", "B"], "arms")
    for a in doc["arms"]:
        check(set(FIGURES) <= set(a["figures"]), "figures of %s" % a["arm"])
        check(len(a["rounds"]) == 2, "rounds of %s" % a["arm"])
        for r in a["rounds"]:
            check("latency_us" in r["histograms"] and r["requests"]["ok"] > 0, "round result")
    check(doc["arms"][0]["proto"] == "xmlrpc" and doc["arms"][1]["proto"] == "jsonrpc", "protos")
    r = doc["ratios"]["p50_ms"]
    check(r["ratio"] > 0 and r["ci_low"] <= r["ci_high"], "p50 ratio %r" % r)
    check(isinstance(r["significant"], bool), "significant flag")
    # one verdict per figure in every output: the JSON's "significant" is
    # the table's "B lower"/"B higher" (both judge the interval as printed)
    shown = len(re.findall(r"\] B (?:lower|higher)$", out, re.M))
    flagged = sum(1 for v in doc["ratios"].values() if v["significant"])
    check(shown == flagged, "the table says %d significant, the JSON %d" % (shown, flagged))
    check(len(doc["buckets"]) > 0 and {"lt_ms", "a_pct", "b_pct"} <= set(doc["buckets"][0]),
          "buckets")

    # --plot: the page's charts in one SVG, each arm's lines named as on the page
    charts = svg_charts(svg)
    check(list(charts) == ["chart-pct", "chart-rate", "chart-lat", "chart-cpu"],
          "plot panels %r" % list(charts))
    for arm in ("A xmlrpc", "B jsonrpc"):
        for name in ("p50", "p99"):
            check("%s %s" % (arm, name) in charts["chart-lat"], "no %s %s line: %r"
                  % (arm, name, charts["chart-lat"]))
    for arm in ("A", "B"):
        log = open(hlog + "." + arm).read()
        check(log.startswith("#[Histogram log format version 1.3]"), "hdr log " + arm)
        check(len([l for l in log.splitlines() if l[:1].isdigit()]) >= 2, "hdr intervals " + arm)
    return doc


def check_saved(tmp, doc):
    """The per-round results in compare's JSON are saved results themselves."""
    a, b = os.path.join(tmp, "a.json"), os.path.join(tmp, "b.json")
    json.dump(doc["arms"][0]["rounds"][0], open(a, "w"))
    json.dump(doc["arms"][1]["rounds"][1], open(b, "w"))
    rc, out, err = run(["compare", a, b, "--buckets", "1,2,5,10"], 20)
    check(rc == 0, "compare files: rc %d: %s" % (rc, err))
    check("n/a (1 round)" in out, "one round should have no interval")
    rows = re.findall(r"^<([0-9.]+)ms:", out, re.M)
    check(rows == ["1", "2", "5", "10"], "bucket edges %r" % rows)
    rc, out, err = run(["compare", a, b, "--format", "json"], 20)
    ratio = json.loads(out)["ratios"]["p50_ms"]
    check(rc == 0 and ratio["ci_low"] is None and ratio["ratio"] > 0, "json one round %r" % ratio)
    rc, out, err = run(["compare", a], 20)
    check(rc == 1 and "not a saved comparison" in err, "one run result: rc %d %r" % (rc, err))
    for args in (["compare", a, b, a], ["compare", "--proto", "xmlrpc,soap"],
                 ["compare", "--proto", "soap"], ["compare", "--rounds", "0"]):
        rc, out, err = run(args, 20)
        check(rc == 2 and err.startswith("rpcbench compare: "), "%r: rc %d %r" % (args, rc, err))


def check_saved_comparison(tmp, doc):
    """compare --output re-renders with compare FILE (the same figures, new
    buckets), and report refuses it with a pointer to compare."""
    saved = os.path.join(tmp, "c.json")
    rc, out, err = run(["compare", saved, "--buckets", "1,2,5"], 20)
    check(rc == 0, "compare saved: rc %d: %s" % (rc, err))
    check("saved       %s, 2 rounds per arm" % saved in out, "saved head:\n" + out[:400])
    check(re.findall(r"^<([0-9.]+)ms:", out, re.M) == ["1", "2", "5"], "re-bucketed:\n" + out)
    check(len(re.findall(r"^[12]\s+[AB]\s+", out, re.M)) == 4, "four per-round rows again")
    rc, out, err = run(["compare", saved, "--format", "json"], 20)
    again = json.loads(out)
    for f in ("p50_ms", "p99_ms", "bytes_per_response"):
        check(abs(again["ratios"][f]["ratio"] - doc["ratios"][f]["ratio"]) < 1e-9,
              "%s ratio %r vs saved %r" % (f, again["ratios"][f], doc["ratios"][f]))
    rc, out, err = run(["report", saved], 20)
    check(rc != 0 and "rpcbench compare FILE" in err, "report of a comparison: rc %d %r" % (rc, err))


def check_one_unit_per_table(out):
    """Every latency of the summary table in one unit, and every p50/p99 of
    the per-round table in one unit (issue 13.9)."""
    cells = re.findall(r"^(?:p50|p90|p99|mean) latency\s+(\S+)\s+(\S+)", out, re.M)
    # a censored figure ("≥279.807ms": calls unfinished on a loaded machine) has its unit too
    units = {re.sub(r"^≥?[0-9.]+", "", c) for row in cells for c in row}
    check(len(cells) == 4 and len(units) == 1, "summary latency units %r" % cells)
    rows = re.findall(r"^[12]\s+[AB]\s+\S+\s+(\S+)\s+(\S+)", out, re.M)
    units = {re.sub(r"^≥?[0-9.]+", "", c) for row in rows for c in row}
    check(len(rows) == 4 and len(units) == 1, "per-round latency units %r" % rows)


def check_nothing_succeeded(tmp):
    """Both arms against a wrong path: every request fails, so there is
    nothing to compare: exit 3 (as run's), naming the arms, report still out."""
    with Server("--vms", "2") as srv:
        rc, out, err = run(["compare", "--url", srv.url("/nope"), "--rounds", "1", "-d", "1s",
                            "-R", "5"])
    check(rc == 3, "all failed: rc %d: %s" % (rc, err[-800:]))
    for arm in "AB":
        check("arm %s: none of its 5 requests succeeded" % arm in err, "stderr %r" % err[-800:])
    check(re.search(r"^p50 latency\s+n/a\s+n/a", out, re.M), "n/a latencies:\n" + out[:800])
    check("(no successful answer in either arm: nothing to bucket)" in out, "buckets:\n" + out)


def check_interrupted(tmp):
    """SIGINT in the second round: the complete round is reported, exit 130.
    The signal lands in round 2's A arm (4-6 s), a second from either edge."""
    p = subprocess.Popen([RPCBENCH, "compare", "--rounds", "3", "-d", "2s", "-R", "10",
                          "--vms", "2"], stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                         text=True)
    try:
        time.sleep(5)
        p.send_signal(signal.SIGINT)
        out, err = p.communicate(timeout=30)
    finally:
        p.kill()
    check(p.returncode == 130, "exit %d after SIGINT: %s" % (p.returncode, err[-800:]))
    check("rpcbench compare: interrupted; reporting 1 complete round(s)" in err, err[-800:])
    check(len(re.findall(r"^1\s+[AB]\s+", out, re.M)) == 2, "round 1 reported:\n" + out)


def saved_run(tmp, name, *args, rate="20"):
    path = os.path.join(tmp, name)
    rc, _, err = run(["run", "-R", rate, "-d", "0.5s", "--quiet", "--output", path] +
                     list(args), 30)
    check(rc == 0, "run %s: rc %d %s" % (name, rc, err[-500:]))
    return path


def check_arms_differ(tmp):
    """Two saved runs of different verbs are no A/A: text, JSON and HTML
    name the verb; the same configuration twice is one; so are two sweep
    cells that differ in connections."""
    with Server("--vms", "5") as srv:
        url = srv.url("/RPC2")
        lst = saved_run(tmp, "list.json", "--url", url, "--verb", "list")
        lst2 = saved_run(tmp, "list2.json", "--url", url, "--verb", "list")
        stats = saved_run(tmp, "stats.json", "--url", url, "--verb", "getAllVmStats")
    html = os.path.join(tmp, "d.html")
    rc, out, err = run(["compare", lst, stats, "--html", html], 30)
    check(rc == 0, "compare: rc %d %s" % (rc, err))
    check("A/A" not in out and re.search(r"^differ\s+A and B differ in: verb \(list:1 vs "
                                         r"getAllVmStats:1\)$", out, re.M), out[:600])
    check("differ in: verb (list:1 vs getAllVmStats:1)" in open(html).read(), "HTML")
    rc, out, err = run(["compare", lst, stats, "--format", "json"], 30)
    doc = json.loads(out)
    check(doc["same_configuration"] is False and
          [d["parameter"] for d in doc["differences"]] == ["verb"], "JSON %r" % doc["differences"])
    rc, out, err = run(["compare", lst, lst2], 30)
    check(rc == 0 and "A and B are the same configuration (A/A)" in out, out[:600])
    s = os.path.join(tmp, "s.json")
    rc, _, err = run(["sweep", "--vms", "5", "--verb", "ping", "-c", "1,2", "-R", "20",
                      "-d", "0.5s", "--quiet", "--output", s], 60)
    check(rc == 0, "sweep: rc %d %s" % (rc, err[-500:]))
    rc, out, err = run(["compare", s + "#1", s + "#2"], 30)
    check(rc == 0 and "A/A" not in out and "differ in: connections (1 vs 2)" in out,
          "sweep cells: rc %d %s\n%s" % (rc, err, out[:600]))


def check_warnings_of_b(tmp):
    """Only B warns (a one-worker server at twice its capacity): the
    warnings still have their header, and each names its arm."""
    a = os.path.join(tmp, "list.json")
    with Server("--workers", "1", "--delay", "20ms", "--vms", "1") as srv:
        b = saved_run(tmp, "slow.json", "--url", srv.url("/RPC2"), "--verb", "ping", "-c", "1",
                      rate="100")
    rc, out, err = run(["compare", a, b], 30)
    check(rc == 0, "compare: rc %d %s" % (rc, err))
    # a warning both arms had (hypervisor steal on a shared machine) is one
    # line, "N runs (A ..; B ..)", before or among the arms' own
    check(re.search(r"^warnings\n(  ! (A: |\d+ runs \().*\n)*  ! B: ", out, re.M),
          "B's warnings:\n" + out)


def check_verb_mix(tmp):
    """The engine's own mix, list:5,getAllVmStats:1: compare has a row per
    verb in the text, the JSON and the HTML, and a bucket table per verb;
    run's report has the per-verb bucket table."""
    mix = ["--verb", "list:5,getAllVmStats:1"]
    with Server("--vms", "5") as srv:
        a = saved_run(tmp, "mix_a.json", "--url", srv.url("/RPC2"), *mix, rate="30")
        b = saved_run(tmp, "mix_b.json", "--url", srv.url("/RPC2"), *mix, rate="30")
    html = os.path.join(tmp, "mix.html")
    rc, out, err = run(["compare", a, b, "--html", html], 30)
    check(rc == 0, "compare: rc %d %s" % (rc, err))
    check("<th>p50 B/A</th>" in open(html).read(), "HTML per-verb table")
    for verb in ("list", "getAllVmStats"):
        check(re.search(r"^%s\s+\d+\s+\d+\s+\S+ms\s+\S+ms\s+[0-9.]+\s" % verb, out, re.M),
              "per-verb row %s:\n%s" % (verb, out))
        check(re.search(r"^%s %%\s+A\s+B$" % verb, out, re.M), "%s buckets:\n%s" % (verb, out))
        check('<th scope="row">%s</th>' % verb in open(html).read(), "HTML row " + verb)
        check("%s: cumulative %% of answers under each edge" % verb in open(html).read(),
              "HTML buckets " + verb)
    rc, out, err = run(["compare", a, b, "--format", "json"], 30)
    verbs = json.loads(out)["verbs"]
    check([v["verb"] for v in verbs] == ["list", "getAllVmStats"] and
          all(v["a"]["requests"] > 0 and v["p50_ratio"] > 0 for v in verbs), "JSON %r" % verbs)
    rc, out, err = run(["report", a], 30)
    check(rc == 0 and re.search(r"^response time %\s+list\s+getAllVmStats$", out, re.M),
          "run's per-verb buckets:\n%s" % out)


def main():
    tmp = tempfile.mkdtemp(prefix="rpcbench-it-compare-")
    try:
        check_verb_mix(tmp)
        check_arms_differ(tmp)
        check_warnings_of_b(tmp)
        doc = check_live(tmp)
        check_saved_comparison(tmp, doc)
        check_saved(tmp, doc)
        check_nothing_succeeded(tmp)
        check_interrupted(tmp)
    finally:
        shutil.rmtree(tmp, ignore_errors=True)
    print("ok")


if __name__ == "__main__":
    main()
