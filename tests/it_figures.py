#!/usr/bin/python3
"""it_figures: what the outputs print is what was measured (issue 36, part
2). Real runs of ./rpcbench against `rpcbench serve` on 127.0.0.1, each
bounded:

- a figure that was measured never prints as zero: a 0.2 ms median in a
  percentile table whose largest figure is a second (the server stopped
  with SIGSTOP for 1.2 s) keeps its digits;
- a figure that was not measured is unknown in every format: null in JSON,
  empty in CSV, n/a in text; never 0; so is one an older version saved as
  -1 (an RSS as 0);
- csv-summary marks the percentiles that are lower bounds;
- `report --requests-log` keeps the run's configuration and says n/a for
  what the log does not hold;
- a merged report says it was merged and names every arrival process."""
import csv
import io
import json
import os
import re
import signal
import subprocess
import sys
import tempfile
import threading

sys.path.insert(0, os.path.dirname(__file__))
from rpctest import RPCBENCH, Server, check, main, rpcbench, spawn, kill_group  # noqa: E402

ZERO = re.compile(r"(?<![\d.])0\.0*(s|ms|us)\b")


def stalled_run(d, name, extra=()):
    """A 4 s run at 20/s against a server stopped for 1.2 s from 1 s in:
    most answers take a fraction of a ms, the stalled ones up to a second.
    Returns (stdout, the saved JSON's path)."""
    out = os.path.join(d, name + ".json")
    with Server("--vms", "1") as srv:
        run = spawn([RPCBENCH, "run", "--url", srv.url("/RPC2"), "-R", "20", "-d", "4s",
                     "-c", "4", "--output", out] + list(extra),
                    stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                    text=True)
        threading.Event().wait(1.0)
        os.kill(srv.proc.pid, signal.SIGSTOP)
        threading.Event().wait(1.2)
        os.kill(srv.proc.pid, signal.SIGCONT)
        try:
            stdout, stderr = run.communicate(timeout=30)
        finally:
            kill_group(run)
        check(run.returncode == 0, "run: exit %r: %s" % (run.returncode, stderr))
    return stdout, out


def pct_table(text):
    """The percentile table's rows: {"p50": [latency, service], ...}."""
    rows, on = {}, False
    for line in text.splitlines():
        if line.startswith("percentile"):
            on = True
        elif on and (not line.strip() or line.startswith("(")):
            break
        elif on and line.split():
            rows[line.split()[0]] = line.split()[1:]
    return rows


UNITS = {"s": 1e6, "ms": 1e3, "us": 1.0}
CELL = re.compile(r"^(?:\u2265)?(\d+(?:\.\d+)?)(s|ms|us)$")


def cell_us(cell):
    m = CELL.match(cell)
    check(m, "not a latency cell: %r" % cell)
    return float(m.group(1)) * UNITS[m.group(2)]


def test_no_measured_figure_prints_zero():
    """Every cell of the percentile table reads as its figure in the JSON
    within 5 %, with 2 significant digits at least: a sub-ms median in a table of seconds printed 0.001s (or
    0.000s for 0.22 ms), 1 or 0 significant digits."""
    with tempfile.TemporaryDirectory() as d:
        stdout, saved = stalled_run(d, "stall")
        r = json.load(open(saved))
        lat, svc = r["latency_ms"], r["service_ms"]
        check(lat["max"] >= 1000 and 0 < lat["p50"] < 10,
              "the run did not make a table of seconds with a sub-ms median: %r" % lat)
        rc, again, err = rpcbench("report", saved, timeout=30)
        check(rc == 0, "report: %s" % err)
        for what, text in (("run", stdout), ("report", again)):
            rows = pct_table(text)
            check("p50" in rows, "%s: no percentile table:\n%s" % (what, text))
            for key, cells in rows.items():
                for cell, fig in zip(cells, (lat[key], svc[key])):
                    want = fig * 1000
                    digits = CELL.match(cell).group(1).replace(".", "").lstrip("0") if \
                        CELL.match(cell) else ""
                    check(abs(cell_us(cell) - want) <= max(0.05 * want, 1) and len(digits) >= 2,
                          "%s: %s prints %s for %.1f us" % (what, key, cell, want))


def slow_run(d, name, extra=()):
    """2 s at 10/s on 2 connections against one worker serving 150 ms a
    call: requests queue, and those unanswered at the end are censored.
    Returns (stdout, saved JSON path, the result)."""
    out = os.path.join(d, name + ".json")
    with Server("--delay", "150ms", "--workers", "1") as srv:
        rc, stdout, err = rpcbench("run", "--url", srv.url("/RPC2"), "-R", "10", "-d", "2s",
                                   "-c", "2", "--output", out, *extra, timeout=30)
    check(rc == 0, "run: exit %d: %s" % (rc, err))
    return stdout, out, json.load(open(out))


def test_unsampled_server_is_unknown():
    """Without --server-pid the server's CPU and memory were not measured:
    server_cpu is null, the timeline's server_rss_kb null in JSON and
    empty in CSV (they were 0, an object of nulls)."""
    with tempfile.TemporaryDirectory() as d:
        _, saved, r = slow_run(d, "plain")
        check(r["server_cpu"] is None, "server_cpu not null: %r" % (r["server_cpu"],))
        check(r["intervals"], "no intervals")
        rss = [i["server_rss_kb"] for i in r["intervals"]]
        check(all(x is None for x in rss), "server_rss_kb of an unsampled server: %r" % rss)
        rc, text, err = rpcbench("report", saved, "--format", "csv", timeout=30)
        check(rc == 0, "report --format csv: %s" % err)
        rows = list(csv.DictReader(io.StringIO(text)))
        check(rows and all(x["server_rss_kb"] == "" and x["server_cpu_pct"] == "" for x in rows),
              "the CSV timeline has figures for an unsampled server: %r" % rows[:2])
        rc, again, err = rpcbench("report", saved, "--format", "json", timeout=30)
        check(rc == 0 and json.loads(again)["server_cpu"] is None,
              "re-rendered JSON: server_cpu %r" % json.loads(again).get("server_cpu"))


def old_markers(doc):
    """doc as versions before unknown was null saved what they had not
    measured: -1, and 0 for a memory size."""
    for i in doc["intervals"]:
        i.update(server_cpu_pct=-1, client_cpu_pct=-1, server_rss_kb=0)
    cpu = doc["server_cpu"]
    cpu.update(mean_pct=-1, p50_pct=-1, max_pct=-1, cpu_ms=-1, rss_start_kb=0, rss_end_kb=0)
    for x in cpu["samples"]:
        x.update(pct=-1, rss_kb=0)
    doc["system"].update(busy_pct=-1, steal_pct=-1, loadavg=-1)
    return doc


def test_old_markers_load_as_unknown():
    """A result saved by an older version, -1 (RSS 0) for the figures it
    had not measured, re-renders them as unknown: null, empty, n/a; never
    -1 or 0 (issue 36)."""
    with tempfile.TemporaryDirectory() as d, Server() as srv:
        saved = os.path.join(d, "r.json")
        rc, _, err = rpcbench("run", "--url", srv.url("/RPC2"), "-R", "10", "-d", "1s",
                              "--server-pid", str(srv.proc.pid), "--idle-baseline", "0",
                              "--quiet", "--output", saved, timeout=30)
        check(rc == 0, "run: exit %d: %s" % (rc, err))
        old = os.path.join(d, "old.json")
        with open(old, "w") as f:
            json.dump(old_markers(json.load(open(saved))), f)
        rc, text, err = rpcbench("report", old, "--format", "json", timeout=30)
        r = json.loads(text)
        cpu = r["server_cpu"]
        check(rc == 0 and all(cpu[k] is None for k in ("mean_pct", "cpu_ms", "cpu_ms_per_call",
                                                       "rss_start_kb", "rss_end_kb")),
              "server_cpu of old markers: %r" % {k: cpu.get(k) for k in cpu if k != "samples"})
        check(all(x["pct"] is None and x["rss_kb"] is None for x in cpu["samples"]) and
              all(i["server_cpu_pct"] is None and i["server_rss_kb"] is None
                  for i in r["intervals"]), "samples or intervals: %r" % cpu["samples"][:2])
        check(all(r["system"][k] is None for k in ("busy_pct", "steal_pct", "loadavg")),
              "system: %r" % r["system"])
        rc, text, _ = rpcbench("report", old, "--format", "csv", timeout=30)
        rows = list(csv.DictReader(io.StringIO(text)))
        check(rows and all(x["server_cpu_pct"] == x["client_cpu_pct"] == x["server_rss_kb"] == ""
                           for x in rows), "CSV timeline: %r" % rows[:2])
        rc, text, _ = rpcbench("report", old, timeout=30)
        check("CPU n/a (not measured" in text and "RSS n/a -> n/a" in text and
              "busy n/a (all cores), load n/a" in text and
              not re.search(r"(?<![\w.-])-1(\.0+)?\b", text.split("\nwarnings")[0]),
              "text: %s" % text[-1500:])


def test_interval_without_answers_has_no_latency():
    """An interval in which nothing was answered has no p50 or p99: null in
    the JSON timeline, empty in the CSV, never 0.0; a file saved when they
    were 0 re-renders them so."""
    with tempfile.TemporaryDirectory() as d, Server() as srv:
        saved = os.path.join(d, "r.json")
        rc, text, err = rpcbench("run", "--url", srv.url("/RPC2"), "--verb", "ping", "--stages",
                                 "1s:4/s,1s:0/s", "--quiet", "--output", saved, "--format", "csv",
                                 timeout=30)
        check(rc == 0, "run: exit %d: %s" % (rc, err))
        rows = list(csv.DictReader(io.StringIO(text)))
        check(len(rows) == 2 and rows[0]["p50_ms"] != "" and rows[1]["ok"] == "0" and
              rows[1]["p50_ms"] == rows[1]["p99_ms"] == "", "CSV timeline: %r" % rows)
        doc = json.load(open(saved))
        quiet = doc["intervals"][1]
        check(quiet["ok"] == 0 and quiet["p50_ms"] is None and quiet["p99_ms"] is None,
              "JSON interval without answers: %r" % quiet)
        quiet.update(p50_ms=0.0, p99_ms=0.0)  # as versions before wrote it
        with open(saved, "w") as f:
            json.dump(doc, f)
        rc, again, _ = rpcbench("report", saved, "--format", "json", timeout=30)
        back = json.loads(again)["intervals"]
        check(back[1]["p50_ms"] is None and back[0]["p50_ms"] is not None, "reloaded: %r" % back)


def test_csv_summary_marks_lower_bounds():
    """csv-summary names the latency columns that are lower bounds, as
    JSON's latency_ms.lower_bound does, and counts the censored."""
    with tempfile.TemporaryDirectory() as d:
        _, saved, r = slow_run(d, "slow")
        check(r["requests"]["censored"] > 0, "nothing censored: %r" % r["requests"])
        rc, text, err = rpcbench("report", saved, "--format", "csv-summary", timeout=30)
        check(rc == 0, "csv-summary: %s" % err)
        row = next(csv.DictReader(io.StringIO(text)))
        check(row.get("censored") == str(r["requests"]["censored"]), "censored: %r" % row)
        want = {"latency_%s_ms" % ("p" + k[1:] if k.startswith("p") else k)
                for k in r["latency_ms"]["lower_bound"]}
        got = set(row.get("latency_lower_bound", "").split())
        check(got == want and "latency_max_ms" in got,
              "lower bounds: csv %r, json %r" % (sorted(got), sorted(want)))
        for col in got:
            check(col in row, "names no column: %r" % col)


def test_hlog_holds_the_censored_and_merges_say_so():
    """--hdr-log holds every latency the report does, the censored waits
    after a "#[Censored: N" line; `report a.hlog a.hlog` counts them and
    its merged log's header says how many are lower bounds."""
    with tempfile.TemporaryDirectory() as d:
        hlog = os.path.join(d, "r.hlog")
        _, _, r = slow_run(d, "slow", ("--hdr-log", hlog))
        n, ok = r["requests"]["censored"], r["requests"]["ok"]
        check(n > 0, "nothing censored: %r" % r["requests"])
        text = open(hlog).read()
        check(re.search(r"^#\[Censored: %d of the %d values" % (n, n), text, re.M),
              "no censored mark for %d in:\n%s" % (n, text[:800]))
        merged = os.path.join(d, "m.hlog")
        rc, out, err = rpcbench("report", hlog, hlog, "--hdr-log", merged, timeout=30)
        check(rc == 0, "report: %s" % err)
        check("total count %d" % (2 * (ok + n)) in out and
              "of them %d lower bounds" % (2 * n) in out, "summary: %r" % out)
        check("%d of its values are lower bounds" % (2 * n) in open(merged).read(),
              "the merged log does not say it")


def test_merged_report_says_how():
    """report a.json b.json (a constant and a Poisson run, one after the
    other): the text's duration is the JSON's (it said the first run's
    2s), says the runs were merged and how, and names both arrival
    processes (it said "constant"); a saved merge keeps it."""
    with tempfile.TemporaryDirectory() as d, Server("--vms", "1") as srv:
        paths = []
        for arrival in ("constant", "poisson"):
            p = os.path.join(d, arrival + ".json")
            rc, _, err = rpcbench("run", "--url", srv.url("/RPC2"), "-R", "20", "-d", "2s",
                                  "--arrival", arrival, "--output", p, "--quiet", timeout=30)
            check(rc == 0, "run %s: %s" % (arrival, err))
            paths.append(p)
        merged = os.path.join(d, "m.json")
        rc, text, err = rpcbench("report", *paths, "--output", merged, timeout=30)
        check(rc == 0, "report: %s" % err)
        j = json.load(open(merged))
        check(j.get("merged") == {"runs": 2, "how": "consecutive",
                                  "arrivals": ["constant", "poisson"]},
              "merged: %r" % j.get("merged"))
        rc, again, err = rpcbench("report", merged, timeout=30)
        check(rc == 0, "report of the merge: %s" % err)
        for what, t in (("report a b", text), ("report merged.json", again)):
            dur = re.search(r"^duration\s+(\d+(?:\.\d+)?)s measured", t, re.M)
            check(dur and abs(float(dur.group(1)) - j["duration_s"]) < 0.01,
                  "%s: duration line %r, JSON %.3f s" % (what, dur and dur.group(0),
                                                         j["duration_s"]))
            check("2 runs merged one after the other" in t, "%s: how merged not said" % what)
            check("(constant + poisson arrivals" in t, "%s: arrivals not named:\n%s"
                  % (what, t[:600]))


if __name__ == "__main__":
    main([test_no_measured_figure_prints_zero, test_unsampled_server_is_unknown,
          test_csv_summary_marks_lower_bounds, test_hlog_holds_the_censored_and_merges_say_so,
          test_merged_report_says_how, test_old_markers_load_as_unknown,
          test_interval_without_answers_has_no_latency])
