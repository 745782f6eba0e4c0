"""it_saved_outputs: a short run against the built-in simulator saves its result,
HdrHistogram interval log, percentile table and plot; `rpcbench report`
re-renders the saved file with other buckets/percentiles, as CSV, and merges
two files. Every subprocess has a timeout."""
import json
import os
import shutil
import tempfile

from rpctest import check, rpcbench, svg_charts  # noqa: E402
from hdrcodec import total as hist_total  # noqa: E402

RPCBENCH = os.environ.get("RPCBENCH", "./rpcbench")


def run(args, timeout=60):
    return rpcbench(*args, timeout=timeout)




def main():
    tmp = tempfile.mkdtemp(prefix="rpcbench-it-report-")
    try:
        res, hlog, pd, svg = (os.path.join(tmp, n) for n in ("r.json", "r.hlog", "r.pd", "r.svg"))
        rc, out, err = run(["run", "-d", "2s", "-R", "20", "--vms", "10", "--quiet",
                            "--output", res, "--hdr-log", hlog, "--percentile-dist", pd,
                            "--plot", svg])
        check(rc == 0, "run: rc %d: %s" % (rc, err))
        saved = json.load(open(res))
        ok = saved["requests"]["ok"]
        check(ok > 0, "run answered nothing")

        # --hdr-log: a 1.3 interval log whose histograms add up to requests.ok
        lines = open(hlog).read().splitlines()
        check(lines[0] == "#[Histogram log format version 1.3]", "hdr log header: %r" % lines[:1])
        rows = [l for l in lines if l and not l.startswith("#") and not l.startswith('"')]
        check(len(rows) >= 2, "hdr log has %d intervals" % len(rows))
        total = sum(hist_total(r.split(",")[3]) for r in rows)
        check(total == ok, "hdr log total %d != requests.ok %d" % (total, ok))

        # --percentile-dist: the HdrHistogram table, in ms
        table = open(pd).read()
        check("Value" in table and "Percentile" in table and "#[Mean" in table,
              "percentile table: %r" % table[:200])

        # --plot: one SVG, the page's charts, each panel with its series; no
        # program runs, so nothing is left beside it
        charts = svg_charts(svg)
        check(list(charts) == ["chart-pct", "chart-tl-rate", "chart-tl-lat", "chart-tl-cpu"],
              "plot panels %r" % list(charts))
        check(charts["chart-pct"] == ["latency", "service"], "percentile series %r"
              % charts["chart-pct"])
        check(charts["chart-tl-lat"] == ["p50", "p99"], "timeline series %r"
              % charts["chart-tl-lat"])
        left = sorted(f for f in os.listdir(tmp) if f.startswith("r.") and
                      (f.endswith(".gp") or f.endswith(".dat")))
        check(left == [], "plot left %r beside the SVG" % left)

        # re-bucket the saved histogram: exactly the rows asked for
        rc, out, err = run(["report", res, "--buckets", "1,2,5", "--percentiles", "50,75"], 20)
        check(rc == 0, "report: rc %d: %s" % (rc, err))
        rows = [l.split(":")[0] for l in out.splitlines() if l.startswith("<")]
        check(rows == ["<1ms", "<2ms", "<5ms"], "bucket rows %r" % rows)
        check(any(l.startswith("p75 ") for l in out.splitlines()), "no p75 row")

        # CSV: header and one row per interval
        rc, out, err = run(["report", res, "--format", "csv"], 20)
        lines = out.strip().splitlines()
        check(rc == 0 and lines[0].startswith("t,due,sent,unsent,ok,"), "csv header %r" % lines[:1])
        check(len(lines) == 1 + len(saved["intervals"]), "csv rows %d" % len(lines))

        # merging a file with itself: counts and rates double, percentiles stay
        rc, out, err = run(["report", res, res, "--format", "json"], 20)
        check(rc == 0, "merge: rc %d: %s" % (rc, err))
        merged = json.loads(out)
        check(merged["requests"]["ok"] == 2 * ok, "merged ok %d" % merged["requests"]["ok"])
        check(abs(merged["rate"]["achieved"] - 2 * saved["rate"]["achieved"]) < 1e-6,
              "merged rate")
        check(merged["latency_ms"]["p99"] == saved["latency_ms"]["p99"], "merged p99 changed")

        # bad input fails cleanly
        bad = os.path.join(tmp, "bad.json")
        open(bad, "w").write('{"not": "a result"}')
        for args, want in ((["report"], 2), (["report", bad], 1),
                           (["report", os.path.join(tmp, "none.json")], 2),
                           (["report", res, "--buckets", "x"], 2)):
            rc, out, err = run(args, 20)
            check(rc == want and err.startswith("rpcbench report: "),
                  "%r: rc %d, stderr %r" % (args, rc, err))
    finally:
        shutil.rmtree(tmp, ignore_errors=True)
    print("ok")


if __name__ == "__main__":
    main()
