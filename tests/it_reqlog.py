"""it_reqlog: `rpcbench run --requests-log FILE[.gz]` against the real
`rpcbench serve` writes one row per request the run counts in
requests.offered, whose outcomes add up to its ok, errors, unfinished and
unsent (the rows with a write time to its sent); a .gz name writes
gzip; `rpcbench report --requests-log FILE` rebuilds the run's percentiles
(within the histogram's precision). Every subprocess has a timeout."""
import collections
import csv
import gzip
import json
import os
import signal
import subprocess
import tempfile
import time

from rpctest import RPCBENCH, Server, check, kill_group, main, rpcbench, spawn

HEADER = ["intended_us", "sent_us", "latency_us", "service_us", "call", "target", "outcome",
          "bytes_sent", "bytes_received", "conn", "rank"]


def run_logged(url, log, *extra):
    """A run with --requests-log log; returns its saved result."""
    out = log + ".json"
    rc, _, err = rpcbench("run", "--url", url, "--output", out, "--quiet",
                          "--requests-log", log, *extra, timeout=60)
    check(rc in (0, 3), "run exited %d: %s" % (rc, err.strip()))
    with open(out) as f:
        return json.load(f)


CONFIG_TAG = "#rpcbench-config "


def config_of(log):
    """The log's configuration line (before the header), parsed."""
    opener = gzip.open if log.endswith(".gz") else open
    with opener(log, "rt", newline="") as f:
        first = f.readline()
    check(first.startswith(CONFIG_TAG), "no config line: %r" % first[:80])
    return json.loads(first[len(CONFIG_TAG):])


def run_interrupted(url, log, after_s, code, *extra):
    """run_logged, ended by SIGINT after_s into it, exiting with code."""
    out = log + ".json"
    p = spawn([RPCBENCH, "run", "--url", url, "--output", out, "--quiet", "--requests-log", log,
               *extra], stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True)
    try:
        time.sleep(after_s)
        p.send_signal(signal.SIGINT)
        _, err = p.communicate(timeout=30)
    finally:
        kill_group(p)
    check(p.returncode == code, "interrupted run exited %d (want %d): %s"
          % (p.returncode, code, err.strip()))
    with open(out) as f:
        return json.load(f)


def rows_of(log):
    opener = gzip.open if log.endswith(".gz") else open
    with opener(log, "rt", newline="") as f:
        rows = list(csv.reader(line for line in f if not line.startswith("#")))
    check(rows and rows[0] == HEADER, "header: %r" % rows[:1])
    return [dict(zip(HEADER, r)) for r in rows[1:]]


def accounted(res, rows):
    """One row per request offered (offered = sent + unsent, sent = ok +
    errors + unfinished); the rows written (a sent_us) are the sent, the
    unsent rows the unsent; outcomes and calls add up to the result's."""
    q = res["requests"]
    check(q["offered"] == q["sent"] + q["unsent"] and
          q["sent"] == q["ok"] + q["errors"] + q["unfinished"], "counts %r" % q)
    check(len(rows) == q["offered"], "%d rows, %d offered" % (len(rows), q["offered"]))
    written = sum(1 for r in rows if r["sent_us"])
    check(written == q["sent"], "%d rows with a sent_us, %d sent" % (written, q["sent"]))
    kinds = collections.Counter(r["outcome"] for r in rows)
    check(kinds["ok"] == q["ok"], "ok rows %d != %d" % (kinds["ok"], q["ok"]))
    check(kinds["unfinished"] == q["unfinished"],
          "unfinished rows %d != %d" % (kinds["unfinished"], q["unfinished"]))
    # never written: "unsent" when it waited for a connection until the end,
    # the connections' failure kind when it was given up at once
    unsent = [r for r in rows if not r["sent_us"]]
    check(len(unsent) == q["unsent"], "unsent rows %d != %d" % (len(unsent), q["unsent"]))
    check(kinds["unsent"] == q["unsent"] - q["unsent_given_up"],
          "unsent (waiting) rows %d, %r" % (kinds["unsent"], q))
    errs = collections.Counter(r["outcome"] for r in rows
                               if r["sent_us"] and r["outcome"] not in ("ok", "unfinished"))
    check(sum(errs.values()) == q["errors"], "error rows %r != %d" % (errs, q["errors"]))
    for k, n in errs.items():
        check(res["errors"][k] == n, "errors.%s %d != %d rows" % (k, res["errors"][k], n))
    calls = collections.Counter(r["call"] for r in rows)
    for name, v in res["verbs"].items():
        check(calls[name] == v["requests"], "%s: %d rows, %d requests" %
              (name, calls[name], v["requests"]))
    for r in rows:
        if not r["sent_us"]:
            check(r["sent_us"] == r["latency_us"] == r["service_us"] == "" and r["conn"] == "-1"
                  and r["bytes_sent"] == r["bytes_received"] == "0", "unsent row %r" % r)
        elif r["outcome"] == "unfinished":
            check(r["latency_us"] == "" and r["service_us"] == "", "unfinished row %r" % r)
        else:
            check(int(r["latency_us"]) >= 0, "latency in %r" % r)
        check(r["rank"] == "0", "rank in %r" % r)


def close(a, b, what):
    check(abs(a - b) <= 0.01 * max(abs(a), abs(b)) + 0.002, "%s: %r vs %r" % (what, a, b))


def test_rows_match_the_run_and_report_rebuilds_it():
    with Server("--vms", "10") as s, tempfile.TemporaryDirectory() as d:
        log = os.path.join(d, "req.csv")
        res = run_logged(s.url("/RPC2"), log, "--verb", "list:3,ping:1", "-R", "200",
                         "-d", "2s", "--warmup", "500ms")
        rows = rows_of(log)
        accounted(res, rows)
        check(res["requests"]["ok"] > 300, "few answers: %r" % res["requests"])
        ok = [r for r in rows if r["outcome"] == "ok"]
        check(all(int(r["bytes_sent"]) > 0 and int(r["bytes_received"]) > 0 for r in ok),
              "bytes missing in ok rows")
        check(min(int(r["intended_us"]) for r in rows) >= 0, "a warmup row")
        rc, out, err = rpcbench("report", "--requests-log", log, "--format", "json", timeout=30)
        check(rc == 0, "report exited %d: %s" % (rc, err))
        rebuilt = json.loads(out)
        for k in ("offered", "sent", "unsent", "ok", "errors", "unfinished"):
            check(rebuilt["requests"][k] == res["requests"][k], "requests.%s" % k)
        for h in ("latency_ms", "service_ms"):
            for p in ("p50", "p99"):
                close(rebuilt[h][p], res[h][p], "%s.%s" % (h, p))
        rc, out, err = rpcbench("report", "--requests-log", log, timeout=30)
        check(rc == 0 and "p99" in out and "requests log" in out, "text report: %s" % err)


def test_gzip_unsent_and_unfinished():
    # one connection, 20 ms per call, 200/s offered: most wait, and those
    # still waiting at the end are never written (unsent rows)
    with Server("--vms", "5", "--delay", "20ms") as s, tempfile.TemporaryDirectory() as d:
        log = os.path.join(d, "req.csv.gz")
        res = run_logged(s.url("/RPC2"), log, "--verb", "ping", "-R", "200", "-d", "1s",
                         "-c", "1")
        with open(log, "rb") as f:
            check(f.read(2) == b"\x1f\x8b", "not gzip")
        rows = rows_of(log)
        accounted(res, rows)
        q = res["requests"]
        check(q["unsent"] > 0 and q["unsent_given_up"] == 0, "nothing left waiting: %r" % q)
        rc, out, err = rpcbench("report", "--requests-log", log, "--format", "json", timeout=30)
        check(rc == 0, "report exited %d: %s" % (rc, err))
        rebuilt = json.loads(out)
        for k in ("offered", "sent", "unsent", "unfinished"):
            check(rebuilt["requests"][k] == res["requests"][k], "requests.%s: rebuilt %r, run %r"
                  % (k, rebuilt["requests"], res["requests"]))
        # the run's percentiles count the waits of those left unsent as lower
        # bounds (censored until the run was over); the log's last line keeps
        # that instant, so the rebuilt ones censor the same waits
        check(rebuilt["requests"]["censored"] == q["censored"] > 0 and
              rebuilt["latency_ms"].get("lower_bound"), "rebuilt censored %r, run %r"
              % (rebuilt["requests"], q))
    # a request in flight when the run ends (SIGINT: 2 s per call on the one
    # connection, so one is always out) is unfinished: written, no latency;
    # nothing answered, so exit 3 (no request succeeded) rather than 130
    with Server("--vms", "5", "--delay", "2s") as s, tempfile.TemporaryDirectory() as d:
        log = os.path.join(d, "int.csv.gz")
        res = run_interrupted(s.url("/RPC2"), log, 1.5, 3, "--verb", "ping", "-R", "20",
                              "-d", "20s", "-c", "1")
        rows = rows_of(log)
        accounted(res, rows)
        q = res["requests"]
        check(res["interrupted"] and q["unfinished"] == 1 and q["unsent"] > 0,
              "interrupted with one in flight: %r" % q)
        check([r["sent_us"] != "" for r in rows if r["outcome"] == "unfinished"] == [True],
              "the unfinished row: %r" % [r for r in rows if r["outcome"] == "unfinished"])


def test_stomp_and_a_timeout():
    """STOMP (requests matched by id in the ring) and an error kind: the
    server answers in 300 ms, the client waits 100 ms."""
    with Server("--vms", "5") as s, tempfile.TemporaryDirectory() as d:
        log = os.path.join(d, "stomp.csv")
        res = run_logged("stomp://127.0.0.1:%d" % s.port, log, "--verb", "list", "-R", "100",
                         "-d", "1s")
        rows = rows_of(log)
        accounted(res, rows)
        ok = [r for r in rows if r["outcome"] == "ok"]
        check(len(ok) > 50, "few STOMP answers: %r" % res["requests"])
        check(all(int(r["bytes_sent"]) > 0 and int(r["bytes_received"]) > 0 for r in ok),
              "STOMP bytes missing")
        check(all(r["target"].startswith("stomp://") for r in rows), "target column")
    with Server("--vms", "5", "--delay", "300ms") as s, tempfile.TemporaryDirectory() as d:
        log = os.path.join(d, "slow.csv")
        res = run_logged(s.url("/RPC2"), log, "--verb", "ping", "-R", "20", "-d", "1s",
                         "--timeout", "100ms")
        rows = rows_of(log)
        accounted(res, rows)
        check(res["errors"]["timeout"] > 0, "no timeout: %r" % res["errors"])
        # a timeout of a written request waited from the write, within the
        # loop timer's millisecond; the requests due while every connection
        # reconnected after a timeout are given up: rows with no sent_us
        # whose outcome is the connections' failure, timeout
        t = [r for r in rows if r["outcome"] == "timeout" and r["sent_us"]]
        short = [r for r in t if int(r["service_us"]) < 99000]
        check(t and not short, "timeout rows: %r" % (short or t)[:2])
        q = res["requests"]
        given_up = [r for r in rows if not r["sent_us"] and r["outcome"] != "unsent"]
        check(len(given_up) == q["unsent_given_up"] and
              all(r["outcome"] == "timeout" for r in given_up),
              "given-up rows %d, result %r" % (len(given_up), q))
        check(q["unsent_given_up"] == 0 or q["unsent_given_up_as"] == "timeout",
              "given up as: %r" % q)


def test_only_for_run_and_report():
    for cmd in ("compare", "sweep"):
        rc, _, err = rpcbench(cmd, "--requests-log", "x.csv", timeout=20)
        check(rc == 2 and "only for run" in err, "%s: %d %s" % (cmd, rc, err))
    rc, _, err = rpcbench("report", "--requests-log", "/nonexistent.csv", timeout=20)
    check(rc != 0 and "cannot open" in err, "missing log: %d %s" % (rc, err))


def test_report_says_only_what_the_log_holds():
    """The log keeps the run's configuration (its first line) and the
    answers' bytes as the wire had them (head and body: the run's
    bytes.received); the rebuilt report shows the timeout, warmup and
    protocol of the run, and n/a (null) for what no row holds: queued, the
    warmup's counts, the machine's busy, steal and load. A log without the
    config line (as written before it) still reads, its timeout n/a."""
    with Server("--delay", "150ms", "--workers", "1") as s, tempfile.TemporaryDirectory() as d:
        log = os.path.join(d, "req.csv")
        res = run_logged(s.url("/RPC2"), log, "-R", "10", "-d", "2s", "-c", "2",
                         "--warmup", "1s", "--timeout", "5s")
        cfg = config_of(log)
        check(cfg["config"]["timeout_s"] == 5 and cfg["config"]["warmup_s"] == 1 and
              cfg["target"]["proto"] == "xmlrpc", "config line: %r" % cfg)
        rows = rows_of(log)
        check(sum(int(r["bytes_received"]) for r in rows) == res["bytes"]["received"],
              "rows' bytes_received %d, the wire %d" % (
                  sum(int(r["bytes_received"]) for r in rows), res["bytes"]["received"]))
        rc, out, err = rpcbench("report", "--requests-log", log, "--format", "json", timeout=30)
        check(rc == 0, "report: %s" % err)
        j = json.loads(out)
        check(j["config"]["timeout_s"] == 5 and j["config"]["warmup_s"] == 1 and
              j["target"]["proto"] == "xmlrpc", "rebuilt config: %r" % j["config"])
        check(j["requests"]["queued"] is None and set(j["warmup"].values()) == {None},
              "queued %r, warmup %r" % (j["requests"]["queued"], j["warmup"]))
        check(set(j["system"][k] for k in ("busy_pct", "steal_pct", "loadavg")) == {None},
              "system %r" % j["system"])
        check(j["bytes"]["received"] == res["bytes"]["received"], "bytes %r" % j["bytes"])
        rc, text, err = rpcbench("report", "--requests-log", log, timeout=30)
        check(rc == 0 and "timeout 5s" in text and "(+1s warmup)" in text and
              "(queued n/a)" in text and "busy n/a" in text and "load n/a" in text and
              "(xmlrpc)" in text, "text report:\n%s" % text)
        old = os.path.join(d, "old.csv")
        with open(log) as f, open(old, "w") as g:
            g.writelines(line for line in f if not line.startswith("#"))
        rc, text, err = rpcbench("report", "--requests-log", old, timeout=30)
        check(rc == 0 and "timeout n/a" in text and "(+n/a warmup)" in text,
              "a log without the config line: %d %s\n%s" % (rc, err, text))


if __name__ == "__main__":
    main([test_rows_match_the_run_and_report_rebuilds_it, test_gzip_unsent_and_unfinished,
          test_stomp_and_a_timeout, test_only_for_run_and_report,
          test_report_says_only_what_the_log_holds])
