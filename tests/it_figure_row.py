"""it_figure_row: a figure is one row (issue 40). The figure-row build
(build/figrow/rpcbench, `make check` builds it: -DRPCBENCH_TEST_FIGURE adds
one row to model/metric.h's table and nothing else) is seen in every
output without a line of code elsewhere:
- a run: its text report and page (a line of its own), its JSON
  ("figures"), csv-summary (a column), --threshold;
- compare: the table, the JSON (arms' figures and ratios), the page's
  cells, --gate, and the saved comparison read back;
- sweep: the table, the CSV, the page and the saved sweep read back.
The row's value, 41713, is one no run has by chance."""
import csv
import io
import json
import os
import re
import tempfile

from rpctest import bounded, check, main

FIG = os.environ.get("RPCBENCH_FIGURE_ROW") or os.path.abspath("build/figrow/rpcbench")
VALUE = "41713"
KEY = "test_figure_n"
SHORT = ("--vms", "3", "-R", "20", "-d", "1s")


def fig(*args, code=0, timeout=90):
    """Runs the figure-row build; returns stdout, after checking the exit code."""
    check(os.access(FIG, os.X_OK), "no figure-row build %s: make check builds it "
          "(make FIGURE_ROW=1 build/figrow/rpcbench)" % FIG)
    p = bounded([FIG] + list(args), timeout)
    check(p.returncode == code, "%s exited %d, not %d: %s"
          % (" ".join(args[:2]), p.returncode, code, p.stderr[-1500:]))
    return p.stdout


def test_run_outputs():
    with tempfile.TemporaryDirectory() as d:
        saved, page = os.path.join(d, "r.json"), os.path.join(d, "r.html")
        out = fig("run", *SHORT, "--output", saved, "--html", page)
        check(re.search(r"^\s+test figure %s$" % VALUE, out, re.M), "text report:\n" + out)
        check(re.search(r"<td>test figure %s</td>" % VALUE, open(page).read()), "run page")
        check(json.load(open(saved))["figures"][KEY] == int(VALUE), "the run's JSON figures")
        rows = list(csv.DictReader(io.StringIO(fig("report", saved, "--format", "csv-summary"))))
        check(rows[0][KEY] == VALUE, "csv-summary: %r" % rows[0])
        check(re.search(r"^\s+test figure %s$" % VALUE, fig("report", saved), re.M),
              "report of the saved run")
        fig("report", saved, "--threshold", "test_figure<50000")
        out = fig("report", saved, "--threshold", "test_figure<100", code=3)
        check("test_figure = %s, bound < 100: FAIL" % VALUE in out, "threshold:\n" + out)


def check_compare_row(out, what):
    check(re.search(r"^test figure\s+%s\s+%s\s+1\.000\s" % (VALUE, VALUE), out, re.M),
          "%s: no test figure row:\n%s" % (what, out))


def test_compare_outputs():
    with tempfile.TemporaryDirectory() as d:
        saved, page = os.path.join(d, "c.json"), os.path.join(d, "c.html")
        out = fig("compare", *SHORT, "--rounds", "3", "--gate", "test_figure:+10%",
                  "--output", saved, "--html", page, "--quiet")
        check_compare_row(out, "live compare")
        check(re.search(r"^test_figure:\+10%\s+1\.000\s.*\spass$", out, re.M), "gate:\n" + out)
        doc = json.load(open(saved))
        check(all(a["figures"][KEY] == int(VALUE) for a in doc["arms"]), "arms' figures")
        check(doc["ratios"][KEY]["ratio"] == 1, "ratio %r" % doc["ratios"][KEY])
        html = open(page).read()
        check('<td id="cmp-test_figure-a">%s</td>' % VALUE in html, "page cells")
        check_compare_row(fig("compare", saved), "the saved comparison")


def test_sweep_outputs():
    with tempfile.TemporaryDirectory() as d:
        saved, table, page = (os.path.join(d, n) for n in ("s.json", "s.csv", "s.html"))
        out = fig("sweep", "--vms", "3", "--verb", "ping", "-c", "1,2", "-R", "20", "-d",
                  "0.5s", "--quiet", "--output", saved, "--csv", table, "--html", page)
        for text, what in ((out, "sweep"), (fig("report", saved), "the saved sweep")):
            head = next((ln for ln in text.splitlines() if ln.startswith("#  ")), "")
            check("test fig" in head, "%s: table head %r" % (what, head))
            # the figure is the last number of each row; the flags column
            # after it holds words when the machine was busy ("late pacer")
            check(len(re.findall(r"^[12]\s.*\s%s(\s{2,}[a-z][a-z ,]*)?\s*$" % VALUE, text,
                                 re.M)) == 2, "%s: both rows:\n%s" % (what, text))
        rows = list(csv.DictReader(open(table)))
        check([r[KEY] for r in rows] == [VALUE, VALUE], "CSV: %r" % rows)
        check("test fig" in open(page).read() and VALUE in open(page).read(), "sweep page")


if __name__ == "__main__":
    main([test_run_outputs, test_compare_outputs, test_sweep_outputs])
