"""it_formats: what rpcbench writes for programs and spreadsheets.
- JSON (stdout, --output, compare's, report's): no number with more than
  10 significant digits (no 99.900000000000006), no escaped slash.
- CSV: the timeline in time order, also after `report` merges inputs of
  different lengths; --format csv-summary and csv-buckets are one table
  each, agreeing with the JSON and the text report.
- `report A.json B.json` describes both inputs, not only the first.
- compare: a single --proto is both arms' (an A/A, said so), and 2 rounds
  are flagged as too few rather than read as "no significant difference"."""
import csv
import io
import json
import os
import re
import tempfile

from rpctest import Server, check, main, rpcbench

# a JSON number token: sign, digits, fraction, exponent
START = re.compile(r'"start_unix": \d+\.(\d+)')
SUM_SQ = re.compile(r'"sum_sq": [-+.\deE]+')
NUMBER = re.compile(r'(?<=[\s\[:,])-?(\d+)(?:\.(\d+))?(?:[eE][-+]?\d+)?(?=[\s,\]}])')


def significant_digits(intpart, frac):
    digits = (intpart + (frac or "")).lstrip("0")
    return len(digits.rstrip("0")) if frac else len(digits)


def check_json_text(text, what):
    check("\\/" not in text, "%s: escaped slash" % what)
    check('"http://' in text, "%s: no plain URL" % what)
    # start_unix: epoch seconds written to the microsecond on purpose
    check(all(len(m.group(1)) <= 6 for m in START.finditer(text)), "%s: start_unix" % what)
    text = START.sub('"start_unix": 0', text)
    # sum_sq: every digit on purpose (the stddev recomputed from it cancels)
    text = SUM_SQ.sub('"sum_sq": 0', text)
    noisy = [m.group(0) for m in NUMBER.finditer(text)
             if m.group(2) and significant_digits(m.group(1), m.group(2)) > 10]
    check(noisy == [], "%s: float noise %r" % (what, noisy[:5]))
    json.loads(text)


def run(*args):
    rc, out, err = rpcbench(*args, timeout=60)
    check(rc == 0, "%s: rc %d %s" % (" ".join(args[:3]), rc, err[-500:]))
    return out


def test_json_numbers_and_slashes():
    with Server("--vms", "5") as s, tempfile.TemporaryDirectory() as tmp:
        saved = os.path.join(tmp, "r.json")
        # 10/3 per s and 99.9: values whose binary forms print with 17 digits
        out = run("run", "--url", s.url("/RPC2"), "-R", "1/300ms", "-d", "2s", "--quiet",
                  "--percentiles", "50,99.9", "--format", "json", "--output", saved)
        check_json_text(out, "run stdout")
        check_json_text(open(saved).read(), "run --output")
        check_json_text(run("report", saved, saved, "--format", "json"), "report json")
        doc = json.loads(out)
        check("p99.9" in doc["latency_ms"] and doc["config"]["percentiles"] == [50, 99.9],
              "percentiles %r" % doc["config"].get("percentiles"))
        check(abs(doc["config"]["rate"] - 10 / 3) < 1e-6, "rate %r" % doc["config"]["rate"])


def intervals_in_order(text, what):
    rows = list(csv.DictReader(io.StringIO(text)))
    ts = [float(r["t"]) for r in rows]
    check(ts and ts == sorted(ts), "%s: t not in order %r" % (what, ts))
    return rows


def test_csv_order_sections_and_merged_header():
    with Server("--vms", "5") as s, tempfile.TemporaryDirectory() as tmp:
        long_, short = os.path.join(tmp, "long.json"), os.path.join(tmp, "short.json")
        run("run", "--url", s.url("/RPC2"), "-R", "10", "-d", "3s", "--quiet", "--label", "long",
            "--output", long_)
        run("run", "--url", s.url("/jsonrpc"), "-p", "jsonrpc", "--verb", "ping", "-R", "10",
            "-d", "1500ms", "--quiet", "--label", "short", "--output", short)
        # the runs line up by absolute time: each interval in the slot its
        # absolute end rounds to, the short run's last (1.5 s) included
        rows = intervals_in_order(run("report", long_, short, "--format", "csv"), "merged csv")
        ins = [json.load(open(f)) for f in (long_, short)]
        t0 = min(r["start_unix"] for r in ins)
        want = sorted({round(r["start_unix"] + iv["t"] - t0) for r in ins for iv in r["intervals"]})
        check([float(r["t"]) for r in rows] == want, "merged intervals %r, wanted %r"
              % ([r["t"] for r in rows], want))

        text = run("report", long_, short)
        check(re.search(r"^target .*/RPC2? \+ .*/jsonrpc \(xmlrpc\+jsonrpc\)", text, re.M) or
              re.search(r"^target .* \+ .*\(xmlrpc\+jsonrpc\)", text, re.M), "targets: " + text[:300])
        check(re.search(r"^verbs\s+getAllVmStats:1,ping:1$", text, re.M), "verbs: " + text[:300])
        check(re.search(r"merged from 2 saved results \(long 3s, short 1.5s\)", text), "inputs")
        merged = json.loads(run("report", long_, short, "--format", "json"))
        check(merged["target"]["proto"] == "xmlrpc+jsonrpc", "merged proto %r" % merged["target"])

        saved = json.load(open(long_))
        summary = list(csv.DictReader(io.StringIO(run("report", long_, "--format", "csv-summary"))))
        check(len(summary) == 1, "csv-summary rows %d" % len(summary))
        row = summary[0]
        check(row["label"] == "long" and int(row["ok"]) == saved["requests"]["ok"], "row %r" % row)
        check(abs(float(row["latency_p99_ms"]) - saved["latency_ms"]["p99"]) < 1e-6, "p99")
        check({"errors_decode", "server_cpu_ms_per_call", "latency_p50_ms"} <= set(row), "cols")

        spec = ["--buckets", "1,2,5,10,1000"]
        buckets = list(csv.DictReader(io.StringIO(run("report", long_, "--format", "csv-buckets",
                                                      *spec))))
        text_rows = re.findall(r"^<([0-9.]+)ms:\s+([0-9.]+)$", run("report", long_, *spec), re.M)
        check([(b["lt_ms"], b["pct"]) for b in buckets] == text_rows,
              "csv-buckets %r != text %r" % (buckets, text_rows))
        check(buckets[-1]["pct"] == "100.0", "last bucket %r" % buckets[-1])


def test_compare_single_proto_is_an_aa_and_two_rounds_are_too_few():
    with Server("--vms", "5") as s, tempfile.TemporaryDirectory() as tmp:
        out_json = os.path.join(tmp, "c.json")
        # on the built-in simulator, as the README's single-value rule is written
        rc, out, err = rpcbench("compare", "--proto", "jsonrpc", "--vms", "5",
                                "--rounds", "2", "-R", "20", "-d", "1s", "--quiet",
                                "--output", out_json, timeout=60)
        check(rc == 0, "compare: rc %d %s" % (rc, err))
        check("2 rounds give an interval too wide" in err, "no start warning: %r" % err)
        check("A and B are the same configuration (A/A)" in out, "A/A not said: " + out[:400])
        check(re.search(r"^A\s+jsonrpc-A: .* \(jsonrpc\)$", out, re.M) and
              re.search(r"^B\s+jsonrpc-B: .* \(jsonrpc\)$", out, re.M), "arms: " + out[:400])
        check("no significant difference" not in out, "2 rounds read as no difference")
        check(not re.search(r"\[1, 1\] B (lower|higher)", out), "a verdict beyond what it prints")
        if "too few rounds to tell" in out:
            check("2 rounds: the interval cannot exclude 1" in out and "use 3 or more" in out,
                  "no round-count note: " + out)
        doc = json.load(open(out_json))
        check(doc["same_configuration"] is True, "same_configuration %r" % doc["same_configuration"])
        check([a["proto"] for a in doc["arms"]] == ["jsonrpc", "jsonrpc"], "protos")
        check_json_text(open(out_json).read(), "compare --output")

        rc, out, err = rpcbench("compare", "--url", s.url("/jsonrpc") + "," + s.url("/RPC2"),
                                "--proto", "jsonrpc,xmlrpc", "--rounds", "1", "-R", "20",
                                "-d", "1s", "--quiet", timeout=60)
        check(rc == 0 and "A/A" not in out and "too wide" not in err, "A/B: %r %r" % (out, err))
        check(re.search(r"^A\s+jsonrpc: ", out, re.M) and re.search(r"^B\s+xmlrpc: ", out, re.M),
              "A/B arms: " + out[:300])


if __name__ == "__main__":
    main([test_json_numbers_and_slashes, test_csv_order_sections_and_merged_header,
          test_compare_single_proto_is_an_aa_and_two_rounds_are_too_few])
