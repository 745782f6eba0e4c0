"""it_sweep_report: a saved sweep (the format `sweep --output` writes), built
here from six real runs (proto xmlrpc,jsonrpc x rate 2,4,8 against the
built-in simulator), is re-rendered by `rpcbench report`: the table (one row
per cell), CSV, --baseline (100 % on its row only), --buckets, --plot; bad
selectors are usage errors of one line; `compare S.json#SEL S.json#SEL`
compares two of its cells. Every subprocess has a timeout."""
import csv
import io
import json
import os
import re
import shutil
import sys
import tempfile

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from rpctest import check, main, rpcbench, svg_charts  # noqa: E402

PROTOS = ("xmlrpc", "jsonrpc")
RATES = (2, 4, 8)


def build_sweep(tmp):
    """Runs the 2 x 3 grid, one run each, and writes the sweep document."""
    cells = []
    for proto in PROTOS:
        for rate in RATES:
            out = os.path.join(tmp, "%s-%d.json" % (proto, rate))
            rc, _, err = rpcbench("run", "--proto", proto, "-R", rate, "-d", "1s", "--vms", "5",
                                  "--verb", "getAllVmStats", "--quiet", "--output", out,
                                  timeout=60)
            check(rc == 0, "run %s %d: rc %d: %s" % (proto, rate, rc, err))
            with open(out) as f:
                result = json.load(f)
            cells.append({"params": {"rate": rate, "connections": 1, "vms": 5, "proto": proto,
                                     "verb": "getAllVmStats", "repeat": 1},
                          "result": result})
    doc = {"kind": "sweep", "version": 1, "repeats": 1, "interrupted": False,
           "cells": cells, "capacity": []}
    path = os.path.join(tmp, "S.json")
    with open(path, "w") as f:
        json.dump(doc, f)
    return path


def table_rows(out):
    """The table's cell rows: number (with '*' for the baseline), fields."""
    return [ln.split() for ln in out.splitlines() if re.match(r"^\d+\*?\s", ln)]


def test_table(s, tmp):
    rc, out, err = rpcbench("report", s, timeout=30)
    check(rc == 0, "report: rc %d: %s" % (rc, err))
    rows = table_rows(out)
    check(len(rows) == 6, "6 rows:\n" + out)
    check([(r[1], r[2]) for r in rows] == [(str(x), p) for p in PROTOS for x in RATES],
          "rate and proto columns in order:\n" + out)
    check("in every cell: connections=1,vms=5,verb=getAllVmStats" in out, out)
    header = out.splitlines()[1]
    for col in ("achieved/s", "p50", "p90", "p99", "errors", "CPU %", "CPU-ms/call", "flags"):
        check(col in header, "column %s:\n%s" % (col, header))
    for r in rows:  # 2, 4, 8/s offered: achieved close to it (no timing threshold: 1 decimal)
        check(abs(float(r[3]) - float(r[1])) <= float(r[1]), "achieved %s for %s" % (r[3], r[1]))


def test_csv(s, tmp):
    rc, out, err = rpcbench("report", s, "--format", "csv", timeout=30)
    check(rc == 0, "csv: rc %d: %s" % (rc, err))
    rows = list(csv.DictReader(io.StringIO(out)))
    check(len(rows) == 6, "6 data rows:\n" + out)
    check([r["proto"] for r in rows] == ["xmlrpc"] * 3 + ["jsonrpc"] * 3, out)
    for r in rows:
        check(float(r["p50_ms"]) > 0 and float(r["p99_ms"]) >= float(r["p50_ms"]), str(r))
        check(r["repeats"] == "1" and r["errors"] == "0", str(r))


def test_baseline(s, tmp):
    rc, out, err = rpcbench("report", s, "--baseline", "rate=2,proto=xmlrpc", timeout=30)
    check(rc == 0, "baseline: rc %d: %s" % (rc, err))
    rows = table_rows(out)
    check(len(rows) == 6 and rows[0][0] == "1*", "cell 1 marked:\n" + out)
    check(all(not r[0].endswith("*") for r in rows[1:]), "one mark:\n" + out)
    base_pcts = [f for f in rows[0] if f.endswith("%")]
    check(len(base_pcts) >= 7 and all(p == "100.0%" for p in base_pcts),
          "baseline row 100%:\n" + out)
    for r in rows[1:]:  # no other cell is 100 % in all (0 of 0 errors is n/a there)
        pcts = [f for f in r if f.endswith("%")]
        check(pcts.count("100.0%") < len(base_pcts), "not 100%% in %s:\n%s" % (r[0], out))
    rc, out, err = rpcbench("report", s, "--format", "csv", "--baseline", "5", timeout=30)
    rows = list(csv.DictReader(io.StringIO(out)))
    check(rc == 0 and [r["baseline"] for r in rows] == ["0"] * 4 + ["1", "0"], out + err)
    check(float(rows[4]["p99_ms_pct_of_baseline"]) == 100, str(rows[4]))


def test_bad_selectors(s, tmp):
    for sel, want in (("rate=7", "no cell has rate=7 (rate: 2, 4, 8)"),
                      ("rate=8", "matches 2 cells; name more of"),
                      ("speed=8", "unknown key 'speed'"),
                      ("9", "no cell 9: the sweep has 6 cells")):
        rc, out, err = rpcbench("report", s, "--baseline", sel, timeout=30)
        check(rc == 2, "--baseline %s: rc %d" % (sel, rc))
        check(err.count("\n") == 1 and err.startswith("rpcbench report: --baseline %s: " % sel)
              and want in err, "--baseline %s: %r" % (sel, err))
        check(out == "", "nothing on stdout: %r" % out)
    rc, _, err = rpcbench("compare", s + "#rate=3", s + "#1", timeout=30)
    check(rc == 2 and err.count("\n") == 1 and "no cell has rate=3" in err, "compare: %r" % err)


def test_buckets(s, tmp):
    rc, out, err = rpcbench("report", s, "--buckets", "1,10,1000", timeout=30)
    check(rc == 0, "buckets: rc %d: %s" % (rc, err))
    lines = out.splitlines()
    head = [i for i, ln in enumerate(lines) if ln.startswith("response time")]
    check(len(head) == 1 and lines[head[0]].split()[2:] == ["#%d" % i for i in range(1, 7)],
          "one column per cell:\n" + out)
    last = lines[head[0] + 3].split()
    check(last[0] == "<1000ms:" and all(v == "100.0" for v in last[1:]),
          "every answer under 1 s:\n" + out)


def test_plot(s, tmp):
    svg = os.path.join(tmp, "S.svg")
    rc, out, err = rpcbench("report", s, "--plot", svg, timeout=60)
    check(rc == 0, "plot: rc %d: %s" % (rc, err))
    charts = svg_charts(svg)  # well-formed XML, a panel per chart
    check(list(charts) == ["chart-sweep-lat", "chart-sweep-rate", "chart-sweep-cpu",
                           "chart-sweep-cpu-call"], "plot panels %r" % list(charts))
    # the page's charts, their lines named as on the page (the same documents)
    lat = charts["chart-sweep-lat"]
    for t in ("proto=xmlrpc p50", "proto=xmlrpc p99", "proto=jsonrpc p50", "proto=jsonrpc p99"):
        check(t in lat, "series %r in the latency panel %r" % (t, lat))
    text = open(svg).read()
    for t in ("Achieved rate", "Server CPU per call"):
        check(t in text, "title %r in the SVG" % t)
    left = [f for f in os.listdir(tmp) if f.endswith(".gp") or f.endswith(".dat")]
    check(left == [], "nothing beside the SVG: %r" % left)


def test_compare_cells(s, tmp):
    rc, out, err = rpcbench("compare", s + "#rate=8,proto=xmlrpc", s + "#rate=8,proto=jsonrpc",
                            timeout=60)
    check(rc == 0, "compare cells: rc %d: %s" % (rc, err))
    check("rate=8,proto=xmlrpc" in out and "rate=8,proto=jsonrpc" in out,
          "arms named by their cells:\n" + out)
    check(re.search(r"^p99\s", out, re.M), "figures:\n" + out)
    # a run file is no sweep, and a sweep is no run file
    rc, _, err = rpcbench("compare", s, s, timeout=30)
    check(rc == 1 and "a saved sweep, not a run" in err, "sweep as a run: %r" % err)


def test_resave(s, tmp):
    again = os.path.join(tmp, "again.json")
    rc, out1, err = rpcbench("report", s, "--output", again, timeout=30)
    check(rc == 0, "resave: rc %d: %s" % (rc, err))
    doc = json.load(open(again))
    check(doc["kind"] == "sweep" and len(doc["cells"]) == 6, "six entries")
    check([c["cell"] for c in doc["cells"]] == list(range(1, 7)), "numbered")
    rc, out2, err = rpcbench("report", again, timeout=30)
    check(rc == 0 and table_rows(out1) == table_rows(out2), "the same table from the copy")


def variant(s, tmp, name, change):
    """A copy of the sweep at s, changed by change(doc), as tmp/name."""
    with open(s) as f:
        doc = json.load(f)
    change(doc)
    path = os.path.join(tmp, name)
    with open(path, "w") as f:
        json.dump(doc, f)
    return path


def test_capacity(s, tmp):
    def add(doc):
        doc["capacity"] = [
            {"proto": "jsonrpc", "verb": "getAllVmStats", "condition": "p99<1s",
             "outcome": "found", "max_good_rate": 4, "first_bad_rate": 8,
             "probes": [{"rate": 2, "pass": True, "reason": "", "cell": 4},
                        {"rate": 4, "pass": True, "reason": "", "cell": 5},
                        {"rate": 8, "pass": False, "reason": "made up", "cell": 6}]},
            {"proto": "xmlrpc", "verb": "getAllVmStats", "condition": "p99<1us",
             "outcome": "min_breaks", "max_good_rate": None, "first_bad_rate": 2,
             "probes": [{"rate": 2, "pass": False, "reason": "p99 over 1us", "cell": 1}]}]
    c = variant(s, tmp, "C.json", add)
    svg = os.path.join(tmp, "C.svg")
    rc, out, err = rpcbench("report", c, "--plot", svg, timeout=60)
    check(rc == 0, "capacity: rc %d: %s" % (rc, err))
    check("capacity jsonrpc getAllVmStats under 'p99<1s': 4/s; first bad 8/s" in out, out)
    check("capacity xmlrpc getAllVmStats under 'p99<1us': even --rate-min 2/s breaks it: "
          "p99 over 1us" in out, out)
    probes = re.findall(r"^\s+(\d+)\s+(\d+)\s+(\d+) (pass|FAIL)\b.*$", out, re.M)
    check([p[:4] for p in probes] == [("1", "4", "2", "pass"), ("2", "5", "4", "pass"),
                                       ("3", "6", "8", "FAIL"), ("1", "1", "2", "FAIL")],
          "probes in order, with their cells:\n" + out)
    if os.path.exists(svg):
        # marked as the page marks it (the same chart document)
        check("capacity jsonrpc getAllVmStats: 4/s" in open(svg).read(), "capacity marked")


def test_repeats(s, tmp):
    def twice(doc):
        again = json.loads(json.dumps(doc["cells"]))
        for e in again:
            e["params"]["repeat"] = 2
        doc["cells"] += again
        doc["repeats"] = 2
    r = variant(s, tmp, "R.json", twice)
    rc, out, err = rpcbench("report", r, timeout=30)
    check(rc == 0, "repeats: rc %d: %s" % (rc, err))
    check(len(table_rows(out)) == 6 and "6 cells x 2 repeats" in out, "grouped:\n" + out)
    check("median of the repeats [min-max]" in out and "[" in table_rows(out)[0][4], out)
    rc, out, err = rpcbench("compare", r + "#3", r + "#6", timeout=60)
    check(rc == 0 and re.search(r"^2\s+B\s", out, re.M), "two rounds per cell:\n" + out + err)


def test_usage(s, tmp):
    run = os.path.join(tmp, "xmlrpc-2.json")
    for args, want in (((s, "--percentiles", "50"), "--percentiles: not for a saved sweep"),
                       ((s, "--format", "csv-summary"), "a sweep is text, csv or json"),
                       ((s, run), "a saved sweep is reported alone"),
                       ((run, "--baseline", "1"), "--baseline: only for a saved sweep")):
        rc, out, err = rpcbench("report", *args, timeout=30)
        check(rc == 2 and err.count("\n") == 1 and want in err, "%s: %d %r" % (args, rc, err))
    rc, out, err = rpcbench("report", s, "--format", "json", timeout=30)
    check(rc == 0 and json.loads(out)["kind"] == "sweep", "--format json: %r" % err)
    bad = os.path.join(tmp, "bad.json")
    with open(bad, "w") as f:
        json.dump({"kind": "sweep", "cells": [{"params": {"rate": 1}}]}, f)
    rc, out, err = rpcbench("report", bad, timeout=30)
    check(rc == 1 and err == "rpcbench report: %s: cells[0].params.connections: want a number "
          "in 0..1e+06\n" % bad, "a bad file: %r" % err)
    rc, out, err = rpcbench("report", run, s, timeout=30)
    check(rc == 1 and "a saved sweep, not a run" in err, "a sweep among runs: %r" % err)


if __name__ == "__main__":
    TMP = tempfile.mkdtemp(prefix="rpcbench-it-sweep-")
    try:
        main([test_table, test_csv, test_baseline, test_bad_selectors, test_buckets, test_plot,
              test_compare_cells, test_resave, test_capacity, test_repeats, test_usage],
             build_sweep(TMP),
             TMP)
    finally:
        shutil.rmtree(TMP, ignore_errors=True)
