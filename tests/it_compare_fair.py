"""it_compare_fair: verdicts a CI can block on (issue 41, parts 1, 2 and 6),
against peers written for the purpose (tests/verdictpeers.py, standard
library JSON-RPC servers):

- a candidate that answers HTTP 500 on every 5th call and truncated JSON
  on every 7th is a regression whatever its latency: gates on p50 and CPU
  per call fail (exit 3), `--bisect` says bad (1), and an errors gate is
  decided on the counts, never n/a (on main: exit 0, 0 and 125);
- `--gate errors:+3%` lets a B that fails 2 % of its calls pass, where
  `errors:+0%` fails it (on main: inconclusive, exit 4);
- an A/A on a server whose service time grows 1.5x per second is not
  significant, as the arms run in blocks A B, B A, which the report, the
  page and the JSON show (on main, A first in every round: p50 B/A about
  1.4, "B higher");
- the warnings each run of the failing candidate gives are one line each,
  with the count of runs (on main: one line per run);
- sweep judges its cells by the same rule: a failing cell fails its
  --threshold, and --find-max finds no capacity where every call fails
  too often (on main: exit 0 and 4).

Rounds are short (1 s, 3 or 4 of them); every process is bounded (rpctest)."""
import json
import os
import re
import sys
import tempfile

from rpctest import Listening, check, main, rpcbench

PEERS = os.path.join(os.path.dirname(os.path.abspath(__file__)), "verdictpeers.py")


def peer(*args):
    return Listening([sys.executable, PEERS] + [str(a) for a in args], "verdictpeers")


def compare(a, b, *args, rate=50, rounds=3, length="1s", timeout=120):
    """compare of peers a and b (JSON-RPC over HTTP, rounds of `length`);
    returns (exit code, stdout, stderr)."""
    urls = "%s,%s" % (a.url("/"), b.url("/"))
    return rpcbench("compare", "--proto", "jsonrpc", "--url", urls, "--verb", "ping",
                    "-R", str(rate), "-d", length, "--warmup", "0.2s", "--rounds", str(rounds),
                    "--quiet", *args, timeout=timeout)


def test_a_burst_is_neither_regression_nor_pass():
    """B fails 40 calls in a row in its first round and none after (a
    burst, as a second of overload gives): counted as independent requests
    that is p < 1e-9, but the rounds disagree (dispersion far above 1), so
    the failures rule is inconclusive, exit 4: not a regression an A/A on a
    loaded machine would fail on, and not a pass either."""
    with peer("good") as a, peer("burst", 20, 40) as b, tempfile.TemporaryDirectory() as d:
        out = os.path.join(d, "c.json")
        rc, text, err = compare(a, b, "--gate", "p50:+1000%", "--output", out, rounds=4)
        check(rc == 4, "a burst: exit %d, want 4:\n%s%s" % (rc, text, err[-800:]))
        f = json.load(open(out))["failures"]
        check(f["verdict"] == "inconclusive" and f["p"] < 1e-6 and f["dispersion"] > 5 and
              f["p_bursts"] > 0.0125 and f["b"]["failed"] == 40, "JSON failures %r" % f)
        check(re.search(r"^errors:\+0% \(implied\)\s+.*inconclusive$", text, re.M),
              "the implied row:\n" + text)
        check("B fails more in bursts?: 40 vs 0 failed" in text, "the errors row:\n" + text)


def test_failing_candidate_is_a_regression():
    """The issue's command: p50:+50% and cpu_ms_per_call:+100% pass on the
    latency and the CPU, and the candidate still fails 31 % of its calls:
    exit 3, the implied failures verdict a regression in the table, the
    JSON and the JUnit file; with --bisect and an errors gate, bad."""
    with peer("good") as a, peer("failing") as b, tempfile.TemporaryDirectory() as d:
        out, junit = os.path.join(d, "c.json"), os.path.join(d, "c.xml")
        pids = "%d,%d" % (a.proc.pid, b.proc.pid)
        rc, text, err = compare(a, b, "--server-pid", pids, "--gate", "p50:+50%", "--gate",
                                "cpu_ms_per_call:+100%", "--output", out, "--junit", junit)
        check(rc == 3, "a failing candidate: exit %d, want 3:\n%s%s" % (rc, text, err[-800:]))
        row = re.search(r"^errors:\+0% \(implied\)\s+-\s+p (\S+) \(counts\)\s+3\s+regression$",
                        text, re.M)
        check(row and float(row.group(1)) < 1e-6, "no implied failures row:\n" + text)
        check(re.search(r"^errors\s+0\s+\d+\s+-\s+B fails more: \d+ vs 0 failed \(counts, p ", text, re.M),
              "the errors row is n/a:\n" + text)
        f = json.load(open(out))["failures"]
        check(f["verdict"] == "regression" and f["judged"] and f["a"]["failed"] == 0,
              "JSON failures %r" % f)
        share = f["b"]["failed"] / f["b"]["requests"]
        check(0.25 < share < 0.38 and f["test"] == "exact", "B's failure share %r" % f)
        xml = open(junit).read()
        check(re.search(r'name="gate errors:\+0% \(implied\)">\s*<failure', xml),
              "JUnit has no failing implied testcase:\n" + xml)
        # git bisect run: a commit that fails its calls is bad, and an
        # errors gate is decided on the counts (on main: n/a, 125)
        rc, text, err = compare(a, b, "--gate", "errors:+0%", "--bisect")
        check(rc == 1, "--bisect, errors:+0%%: exit %d, want 1:\n%s%s" % (rc, text, err[-500:]))
        check(re.search(r"^errors:\+0%\s+-\s+p \S+ \(counts\)\s+3\s+regression$", text, re.M),
              "the errors gate's row:\n" + text)


def test_errors_gate_allows_a_small_share():
    """B fails every 50th call (2 %), A none: 24 or so failures in 1200
    calls per arm is far beyond chance, so errors:+0% fails; errors:+3%
    counts A as failing 3 % more and passes. The margins are wide on
    purpose: a loaded machine leaves a few of the good peer's last calls
    of a round unfinished (failed), and an A with 3 of them against a B
    failing every 150th call read p 0.17, a pass, under errors:+0%."""
    # 1200 calls an arm at 200/s, not 400/s in 1 s rounds: at 400/s a loaded
    # machine left the good peer's last calls of a round unfinished (failed)
    with peer("good") as a, peer("failing", 50, 0) as b:
        rc, text, err = compare(a, b, "--gate", "errors:+3%", rate=200, length="2s", rounds=3)
        check(rc == 0, "errors:+3%%: exit %d, want 0:\n%s%s" % (rc, text, err[-500:]))
        check(re.search(r"^errors:\+3%\s+-\s+p \S+ \(counts\)\s+3\s+pass$", text, re.M),
              "errors:+3% row:\n" + text)
        rc, text, err = compare(a, b, "--gate", "errors:+0%", "--format", "json", rate=200,
                                length="2s", rounds=3)
        gate = json.loads(text)["gates"][0]
        fails = gate["failures"]["b"]["failed"]
        check(rc == 3 and gate["verdict"] == "regression" and fails >= 15,
              "errors:+0%%: exit %d, %r" % (rc, gate))


def test_drifting_aa_is_not_significant():
    """An A/A on a server whose every call takes 1 ms x 1.5^t (t in s since
    it started): each run is about 1.5x slower than the one before it, so
    with A first in every round B/A of p50 is about 1.4 every round
    ("B higher"); in blocks A B, B A the ratios alternate about 1.5 and
    1/1.5, and the interval spans 1 widely."""
    with peer("drifting", 1, 1.5) as s, tempfile.TemporaryDirectory() as d:
        out, page = os.path.join(d, "aa.json"), os.path.join(d, "aa.html")
        # 4 connections: the last runs' calls (near 50 ms) never wait for one
        rc, text, err = compare(s, s, "-c", "4", "--output", out, "--html", page, rate=20,
                                rounds=4)
        check(rc == 0, "A/A exit %d:\n%s%s" % (rc, text, err[-500:]))
        doc = json.load(open(out))
        p50 = doc["ratios"]["p50_ms"]
        check(not p50["significant"] and p50["ci_low"] < 0.95 and p50["ci_high"] > 1.05,
              "a drifting A/A is significant: %r\n%s" % (p50, text))
        check(0.7 < p50["ratio"] < 1.4, "p50 B/A %r" % p50)
        check(doc.get("order") == ["AB", "BA", "AB", "BA"], "order %r" % doc.get("order"))
        check(re.search(r"^order\s+AB BA AB BA \(round by round", text, re.M),
              "no order line:\n" + text)
        # the per-round table lists the arms in the order run
        arms = re.findall(r"^(\d)\s+([AB])\s+jsonrpc-[AB]\s", text, re.M)
        check(arms == [("1", "A"), ("1", "B"), ("2", "B"), ("2", "A"), ("3", "A"), ("3", "B"),
                       ("4", "B"), ("4", "A")], "rounds table %r" % arms)
        check("AB BA AB BA" in open(page).read(), "the page does not say the order")


def test_repeated_warnings_are_one_line():
    """Each of the failing candidate's runs warns of its failure share and
    its first http and decode errors: one line each, with the count of runs
    and the worst; every line of the warnings is said once."""
    with peer("good") as a, peer("failing") as b:
        rc, text, err = compare(a, b, rounds=3)
        warn = text[text.index("\nwarnings\n"):]
        lines = [ln for ln in warn.splitlines() if ln.startswith("  ! ")]
        failed = [ln for ln in lines if "of answered requests failed" in ln]
        check(len(failed) == 1, "the failure share %d times:\n%s" % (len(failed), warn))
        check(re.match(r"  ! 3 runs \(B 1, 2, 3\), the worst B round [123]: \d+\.\d% of "
                       r"answered", failed[0]), failed[0])
        http = [ln for ln in lines if "first http error" in ln]
        check(len(http) == 1 and "3 runs (B 1, 2, 3)" in http[0], "http errors:\n" + warn)
        kinds = [re.sub(r"^  ! (\d+ runs \([^)]*\), the worst )?[AB]( round \d)?: ", "", ln)
                 for ln in lines]
        kinds = [re.sub(r"[0-9.]+", "#", k.split(":")[0]) for k in kinds]
        check(len(kinds) == len(set(kinds)), "a kind said twice:\n" + warn)


def test_sweep_failing_cells_fail():
    """The same rule in sweep: a cell whose calls fail 31 % fails its
    --threshold (which says nothing of errors), and --find-max finds no
    capacity (even --rate-min breaks, exit 3) where the failures are the
    only break (on main: the threshold holds, exit 0; the search runs to
    --rate-max, exit 4)."""
    with peer("failing") as b:
        common = ["--proto", "jsonrpc", "--url", b.url("/"), "--verb", "ping", "-d", "1s",
                  "--warmup", "0.1s", "--quiet"]
        rc, text, err = rpcbench("sweep", "-R", "20", "--threshold", "p99<1s", *common,
                                 timeout=60)
        check(rc == 3, "sweep --threshold on a failing server: exit %d\n%s%s" % (rc, text, err))
        check(re.search(r"^threshold \(failures\): cell 1 repeat 1: failures: \d+ of \d+ "
                        r"requests failed .*: FAIL$", text, re.M), "no failures line:\n" + text)
        rc, text, err = rpcbench("sweep", "--find-max", "p99<1s", "--rate-min", "10",
                                 "--rate-max", "40", *common, timeout=60)
        check(rc == 3, "--find-max on a failing server: exit %d\n%s%s" % (rc, text, err))
        check("even --rate-min 10/s breaks it: failures:" in text, "capacity line:\n" + text)
        # an errors condition says what may fail, and decides alone
        rc, text, err = rpcbench("sweep", "-R", "20", "--threshold", "p99<1s,errors<50%",
                                 *common, timeout=60)
        check(rc == 0, "errors<50%% allows them: exit %d\n%s%s" % (rc, text, err))


if __name__ == "__main__":
    main([test_failing_candidate_is_a_regression, test_a_burst_is_neither_regression_nor_pass,
          test_errors_gate_allows_a_small_share,
          test_drifting_aa_is_not_significant, test_repeated_warnings_are_one_line,
          test_sweep_failing_cells_fail])
