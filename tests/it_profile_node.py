# rpctest: alone: perf samples two Node.js servers at 499 Hz, and a second program on the 2 cores takes the planted function's samples (at 5 jobs a run lost the long name's rows)
"""it_profile_node.py: the profile's words for a JIT runtime (issue 37,
"The profile's words, for every runtime"), with perf on two Node.js
servers (tests/nodeplanted_server.js under `node --perf-basic-prof`):
the same code, and the same with burn() spinning 2 ms a call. One
`compare --profile` between them, then:
- its one-line sentence names burn first, by its own total with its
  callees (the clock reads it makes about half of it), not the handler
  that calls it nor performance.now under it (tests/test_profile_fold.c's
  test_diff_explains_by_totals has the case where self time names the
  clock read);
- by module, JIT code is one module, "JIT", not one per process
  (perf-PID.map), in both B - A tables;
- a long JavaScript name (with its path) is cut to its column in the
  text and on a run's page, whole in the JSON and in the page's title."""
import html
import json
import os
import shutil
import tempfile

from it_profile import need_perf
from rpctest import Listening, check, main, need_package, rpcbench

HERE = os.path.dirname(os.path.abspath(__file__))
SERVER = os.path.join(HERE, "nodeplanted_server.js")
PLANT_MS = 2.0
LONG = "answerTheCallWithAVeryLongFunctionNameSoThatTheColumnMustCutIt"
_RESULT = {}


def node(plant_ms, cwd):
    """The server under node, in cwd: --perf-basic-prof also writes V8's
    log (isolate-*-v8.log) into its working directory."""
    need_package(shutil.which("node"), "node", "nodejs")
    return Listening(["env", "-C", cwd, "PLANT_MS=%g" % plant_ms, "node", "--perf-basic-prof",
                      "--no-turbo-inlining", SERVER], "nodeplanted_server")


def compared():
    """compare --profile release (A) against planted (B), and a run
    --profile --html on B, once for every test: (compare's JSON, its text,
    the run's JSON, its text, its page). This program runs alone (make
    check's serial phase): 80 calls/s for half the seconds 40/s took
    makes the same calls, so perf takes the same samples of them at 499
    Hz (B then at about 16 % of a core), in half the time."""
    if _RESULT:
        return _RESULT["r"]
    need_perf()
    pids = []
    try:
        with tempfile.TemporaryDirectory() as d, node(0, d) as a, node(PLANT_MS, d) as b:
            pids = [a.proc.pid, b.proc.pid]
            out, page = os.path.join(d, "c.json"), os.path.join(d, "c.html")
            code, text, err = rpcbench(
                "compare", "--url", "%s,%s" % (a.url("/jsonrpc"), b.url("/jsonrpc")),
                "-p", "jsonrpc", "--method", "work", "--server-pid", "%d,%d" % tuple(pids),
                "--label", "release,planted", "-R", "80", "-d", "1.5s", "--warmup", "0.5s",
                "--rounds", "2", "--validate", "none", "--profile", "--profile-freq", "499",
                "--output", out, timeout=300)
            check(code == 0, "compare --profile exited %d: %s" % (code, err[-800:]))
            # the page of a run (compare's page has the flame graphs, not the tables)
            run = os.path.join(d, "r.json")
            got, run_text, err = rpcbench("run", "--url", b.url("/jsonrpc"), "-p", "jsonrpc",
                                          "--method", "work", "--server-pid", str(pids[1]),
                                          "-R", "80", "-d", "1s", "--validate", "none",
                                          "--profile", "--html", page, "--output", run,
                                          timeout=120)
            check(got == 0, "run --profile --html exited %d: %s" % (got, err[-800:]))
            _RESULT["r"] = (json.load(open(out)), text, json.load(open(run)), run_text,
                            open(page).read())
    finally:  # node leaves its symbol maps behind
        for pid in pids:
            if os.path.exists("/tmp/perf-%d.map" % pid):
                os.unlink("/tmp/perf-%d.map" % pid)
    return _RESULT["r"]


def test_sentence_names_the_planted_function():
    res, text, _, _, _ = compared()
    d = res["profile_diff"]
    summary = d["summary"]
    check("; JS:*burn" in summary or "; JS:^burn" in summary or "; JS:~burn" in summary,
          "the sentence does not name burn first: %r" % summary)
    burn = [f for f in d["functions"] if ":" in f["function"] and "burn " in f["function"]]
    check(burn and burn[0]["delta_total_ms_per_call"] >= 0.5 * PLANT_MS,
          "burn's B - A with callees: %r (planted %.1f ms)" % (burn, PLANT_MS))
    check(summary in text, "the text lacks the sentence")


def test_jit_is_one_module():
    res, text, _, _, _ = compared()
    mods = [f["function"] for f in res["profile_diff_modules"]["functions"]]
    check("JIT" in mods, "no JIT module in B - A by module: %r" % mods)
    check(not any("perf-" in m for m in mods), "a JIT module per process: %r" % mods)
    fmods = {f["module"] for f in res["profile_diff"]["functions"]}
    check(not any("perf-" in m for m in fmods), "a function's module per process: %r" % fmods)
    check("perf-" not in text, "the text names a perf-PID.map")


def test_long_names_cut_to_the_column():
    _, _, res, text, page = compared()
    whole = [f["function"] for f in res["profile"]["functions"] if LONG in f["function"]]
    check(whole and whole[0].startswith("JS:") and ".js:" in whole[0],
          "the JSON's name is not whole (with its path): %r" % whole)
    rows = [ln for ln in text.splitlines() if ln.startswith("JS:") and "answerTheCall" in ln]
    check(rows and all(LONG not in ln and "..." in ln for ln in rows),
          "the text's rows are not cut: %r" % rows)
    heads = [ln for ln in text.splitlines() if ln.startswith("function ")]
    for ln in rows:  # the module column starts where its head does
        check(any(ln.index(" JIT ") + 1 == h.index("module") for h in heads),
              "the row runs into the module column: %r / %r" % (ln, heads))
    cut = html.escape(whole[0][:37], quote=True) + "...<"  # the run table's 40 characters
    check('title="%s"' % html.escape(whole[0], quote=True) in page and cut in page,
          "the page's name is not cut to its column with the whole in its title")


if __name__ == "__main__":
    main([test_sentence_names_the_planted_function, test_jit_is_one_module,
          test_long_names_cut_to_the_column])
