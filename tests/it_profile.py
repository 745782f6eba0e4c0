# rpctest: alone test_xmlrpc_per_call test_jsonrpc_per_call test_window_is_the_measured_one test_compare_diff test_sweep_cells test_simulator_names_the_libraries: they judge the planted functions' CPU-ms per call, or the window's samples, to 30 %: perf samples at 499 Hz, and a second program on the 2 cores takes the planted functions' samples
"""--profile: the server's profile over the measured window, per call
(issue 27). A C server with planted costs (tests/planted/planted_server.c:
per XML-RPC call planted_xml_only burns 1 ms and its callee
planted_xml_child 1 ms more; per JSON-RPC call planted_json_only 0.5 ms;
planted_common 1 ms in both) is profiled by Linux perf through rpcbench:
each planted function's CPU-ms per call within +-30 % of its truth, the
window exactly the measured one (the samples match the server's CPU in
the window, and a warmup as long as the window is left out), a saturated
run marked, the saved profile re-rendered by `report`. --profiler with a
stand-in script (tests/fake_profiler.py) checks the placeholders. Where
perf cannot run here (checked independently of rpcbench), the perf tests
skip saying why; rpcbench must then refuse --profile in one line."""
import json
import os
import shutil
import subprocess
import sys
import tempfile

from rpctest import Listening, RPCBENCH, check, main, need_package, rpcbench, skip

HERE = os.path.dirname(os.path.abspath(__file__))
BUILD = os.environ.get("BUILD", "build/rel")
PLANTED = os.environ.get("PLANTED", os.path.join(HERE, "..", BUILD, "tests", "planted_server"))
FAKE = os.path.join(HERE, "fake_profiler.py")
# The planted costs are a few ms a call at 40 calls/s: 499 Hz (not the
# default 99) gives enough samples in a few seconds for +-30 %.
HZ = 499
# The tests that run alone (the serial phase of make check) send twice
# that rate for half as long: the same calls and CPU-ms, so the same perf
# samples and the same margins, in half the time (the server then at
# about 24 % of a core, far from saturation).
FAST = "80"
TRUTH = {"planted_xml_only": ("total", 2.0), "planted_xml_child": ("self", 1.0),
         "planted_common": ("self", 1.0)}
TRUTH_JSON = {"planted_json_only": ("self", 0.5), "planted_common": ("self", 1.0)}


def perf_unusable():
    """Why perf cannot sample here (None: it can), found without rpcbench.
    perf itself must be there: scripts/deps.sh check installs linux-perf,
    so its absence fails; a kernel that refuses perf_event_open (a
    container, perf_event_paranoid) is no package's to give, and skips."""
    need_package(shutil.which("perf"), "perf", "linux-perf")
    with tempfile.TemporaryDirectory() as d:
        p = subprocess.run(["perf", "record", "-q", "-e", "cpu-clock", "-g", "-o",
                            os.path.join(d, "p.data"), "--", "true"],
                           capture_output=True, text=True, timeout=60)
    if p.returncode != 0:
        return "perf record fails here: %s" % (p.stderr.strip().splitlines() or ["?"])[-1]
    return None


def need_perf():
    why = perf_unusable()
    if why:
        code, _, err = rpcbench("run", "--profile", "-d", "1s")
        check(code == 2 and err.count("\n") == 1 and "--profile" in err,
              "perf is unusable (%s) but rpcbench did not refuse --profile in one line: %d %r"
              % (why, code, err))
        skip(why)
    check(os.path.exists(PLANTED), "%s is not built (make %s)" % (PLANTED, PLANTED))


def planted(scale=1):
    return Listening([PLANTED, str(scale)], "planted_server")


def profiled_run(srv, path, proto, *extra, rate="40", duration="4s", warmup="1s"):
    """rpcbench run --profile on the planted server; returns (result, stdout)."""
    with tempfile.TemporaryDirectory() as d:
        out = os.path.join(d, "r.json")
        code, stdout, err = rpcbench("run", "--url", srv.url(path), "-p", proto, "--server-pid",
                                     str(srv.proc.pid), "-R", rate, "-d", duration, "--warmup",
                                     warmup, "--idle-baseline", "0", "--validate", "none",
                                     "--profile", "--profile-freq", str(HZ), "--output", out,
                                     "--quiet", *extra, timeout=120)
        check(code == 0, "run --profile exited %d: %s" % (code, err))
        with open(out) as f:
            return json.load(f), stdout


def rows(res):
    return {r["function"]: r for r in res["profile"]["functions"]}


def check_truth(res, truth):
    got = rows(res)
    for fn, (kind, ms) in truth.items():
        check(fn in got, "%s not among the profile's rows: %s" % (fn, sorted(got)[:20]))
        v = got[fn]["%s_ms_per_call" % kind]
        check(abs(v - ms) <= 0.3 * ms, "%s %s %.3f ms/call, truth %.1f (+-30 %%)"
              % (fn, kind, v, ms))


def test_xmlrpc_per_call():
    need_perf()
    with planted() as srv:
        res, out = profiled_run(srv, "/RPC2", "xmlrpc", rate=FAST, duration="2s", warmup="0.5s")
    p = res["profile"]
    check_truth(res, TRUTH)
    check("planted_json_only" not in rows(res), "a JSON-only cost in an XML-RPC run")
    check(not p["saturated"], "a server at ~12 % CPU called saturated")
    check(p["profiler_cpu_ms"] > 0 and p["rate_hz"] > 0, "profiler cost and rate: %r" % p)
    for head in ("server profile (perf", "self ms/call", "total ms/call", "planted_xml_only"):
        check(head in out, "the report lacks %r" % head)


def test_jsonrpc_per_call():
    need_perf()
    with planted() as srv:
        res, _ = profiled_run(srv, "/jsonrpc", "jsonrpc", rate=FAST, duration="2s",
                              warmup="0.5s")
    check_truth(res, TRUTH_JSON)
    check("planted_xml_only" not in rows(res), "an XML-only cost in a JSON-RPC run")


def test_window_is_the_measured_one():
    """A warmup as long as the window, and the drain after it, left out:
    the window's samples are the server's CPU there at perf's rate."""
    need_perf()
    with planted() as srv:
        res, _ = profiled_run(srv, "/RPC2", "xmlrpc", rate=FAST, duration="1.5s",
                              warmup="1.5s")
    p = res["profile"]
    cpu_ms = res["server_cpu"]["cpu_ms"] if "cpu_ms" in res["server_cpu"] else None
    check(cpu_ms, "no server CPU in the result: %r" % res["server_cpu"])
    want = cpu_ms / 1000 * HZ
    check(0.8 * want <= p["samples"] <= 1.2 * want,
          "%d samples in the window, the server's %.0f CPU-ms there make %.0f at %d Hz"
          % (p["samples"], cpu_ms, want, HZ))
    check(p["samples_outside_window"] >= 0.6 * want,
          "the warmup's samples (%d) were not left out" % p["samples_outside_window"])


def test_saturated_marked():
    need_perf()
    with planted(5) as srv:  # 15 ms per call at 40/s: 60 % of a core
        res, out = profiled_run(srv, "/RPC2", "xmlrpc", "--cpu-saturation", "40", duration="3s")
    check(res["profile"]["saturated"], "a server at ~60 %% CPU under --cpu-saturation 40 not "
          "marked: %r" % res["server_cpu"])
    check("taken under saturation: it shows overload, not cost" in out, "no mark in the text")


def test_report_rerenders():
    need_perf()
    with planted() as srv, tempfile.TemporaryDirectory() as d:
        res, _ = profiled_run(srv, "/RPC2", "xmlrpc", "--profile-out", d, duration="2s")
        with open(os.path.join(d, "r.json"), "w") as f:
            json.dump(res, f)
        folded = open(os.path.join(d, "run.folded")).read()
        code, out, err = rpcbench("report", "--profile-top", "3", os.path.join(d, "r.json"))
    check(code == 0, "report exited %d: %s" % (code, err))
    table = out[out.index("server profile"):].split("\n(self")[0].splitlines()
    check(len(table) == 2 + 3, "--profile-top 3 gave %r" % table)
    check(sum(int(l.rsplit(" ", 1)[1]) for l in folded.splitlines()) == res["profile"]["samples"],
          "run.folded does not hold the window's samples")


def test_profiler_command():
    """--profiler: {pid}, {seconds}, {out} replaced; its folded stacks read."""
    with planted() as srv:
        cmd = "%s %s {pid} {seconds} {out}" % (sys.executable, FAKE)
        with tempfile.TemporaryDirectory() as d:
            out = os.path.join(d, "r.json")
            code, _, err = rpcbench("run", "--url", srv.url("/RPC2"), "--server-pid",
                                    str(srv.proc.pid), "-R", "20", "-d", "2s", "--idle-baseline",
                                    "0", "--profiler", cmd, "--output", out, "--quiet",
                                    timeout=120)
            check(code == 0, "run --profiler exited %d: %s" % (code, err))
            res = json.load(open(out))
    got = rows(res)
    pid = "pid_%d" % srv.proc.pid
    check(pid in got and "secs_2" in got, "placeholders not replaced: %s" % sorted(got))
    check(abs(got["fake_hot"]["self_pct"] - 75) < 0.01, "fake_hot: %r" % got["fake_hot"])
    check(res["profile"]["samples"] == 40, "the line that is no stack was counted")


def test_profiler_failure_exits_1():
    """A profiler that fails after the run (writes no {out}): the run's
    report and saved result stand with a warning, and the exit code is 1,
    not 0: a profile was asked for and not delivered. Through compare too."""
    with planted() as srv, tempfile.TemporaryDirectory() as d:
        out = os.path.join(d, "r.json")
        base = ["--server-pid", str(srv.proc.pid), "-R", "20", "-d", "1s", "--idle-baseline",
                "0", "--profiler", "true {out}", "--quiet"]
        code, _, err = rpcbench("run", "--url", srv.url("/RPC2"), *base, "--output", out,
                                timeout=120)
        check(code == 1 and "profile" in err, "run with a failing profiler: %d %r" % (code, err))
        res = json.load(open(out))
        check(res["requests"]["ok"] > 0 and any("no profile" in w for w in res["warnings"]),
              "the run's result and its warning: %r" % res.get("warnings"))
        code, _, err = rpcbench("compare", "--url", srv.url("/RPC2"), *base, "--rounds", "1",
                                timeout=120)
        check(code == 1 and "have no profile" in err, "compare: %d %r" % (code, err))


def test_server_name():
    """--profile --server-name NAME: the one process tree called NAME is
    profiled (its planted functions are in the rows). The server runs as a
    copy named for this test's pid: another checkout's suite on the same
    machine may run its own planted_server at the same time."""
    need_perf()
    with tempfile.TemporaryDirectory() as d:
        name = "planted_%d" % os.getpid()  # under 16 bytes: the kernel's comm
        exe = os.path.join(d, name)
        shutil.copy2(PLANTED, exe)
        with Listening([exe, "1"], name) as srv:
            out = os.path.join(d, "r.json")
            code, _, err = rpcbench("run", "--url", srv.url("/RPC2"), "-p", "xmlrpc",
                                    "--server-name", name, "-R", "20",
                                    "-d", "2s", "--idle-baseline", "0", "--validate", "none",
                                    "--profile", "--profile-freq", str(HZ), "--output", out,
                                    "--quiet", timeout=120)
            check(code == 0, "run --profile --server-name exited %d: %s" % (code, err))
            res = json.load(open(out))
    got = rows(res)
    check("planted_xml_only" in got and res["profile"]["samples"] > 0,
          "--server-name's profile: %d samples, rows %s" % (res["profile"]["samples"],
                                                           sorted(got)[:10]))


def compared(srv, *extra, rounds="3", rate="40", duration="3s"):
    """compare --profile, XML-RPC (A) against JSON-RPC (B) on the planted
    server; returns (the saved comparison, stdout, the folded files)."""
    with tempfile.TemporaryDirectory() as d:
        out = os.path.join(d, "c.json")
        code, stdout, err = rpcbench(
            "compare", "--url", "%s,%s" % (srv.url("/RPC2"), srv.url("/jsonrpc")), "-p",
            "xmlrpc,jsonrpc", "--server-pid", str(srv.proc.pid), "-R", rate, "-d", duration,
            "--rounds", rounds, "--idle-baseline", "0", "--validate", "none", "--profile",
            "--profile-freq", str(HZ), "--profile-out", d, "--output", out, "--quiet", *extra, timeout=300)
        check(code == 0, "compare --profile exited %d: %s" % (code, err))
        return json.load(open(out)), stdout, sorted(f for f in os.listdir(d) if ".folded" in f)


def test_compare_diff():
    """B - A: the XML-only function first and most of the difference, the
    JSON-only one up, the common one within 15 % of its 1 ms."""
    need_perf()
    with planted() as srv:
        res, out, files = compared(srv, rate=FAST, duration="1.5s")
    check(files == ["A.r%d.folded" % i for i in (1, 2, 3)] +
          ["B.r%d.folded" % i for i in (1, 2, 3)], "--profile-out wrote %r" % files)
    d = res["profile_diff"]
    fs = {f["function"]: f for f in d["functions"]}
    check(d["functions"][0]["function"] in ("planted_xml_only", "planted_xml_child"),
          "first row %r" % d["functions"][0])
    x = fs["planted_xml_only"]
    check(abs(x["delta_total_ms_per_call"] + 2.0) <= 0.6 and x["significant"],
          "planted_xml_only B-A with callees %r, truth -2.0" % x)
    check(abs(x["delta_total_ms_per_call"]) > 0.5 * abs(d["delta_cpu_ms_per_call"]),
          "the XML-only function explains little of %r" % d["delta_cpu_ms_per_call"])
    j = fs["planted_json_only"]
    check(abs(j["delta_self_ms_per_call"] - 0.5) <= 0.15 and j["significant"], "json %r" % j)
    c = fs["planted_common"]
    # the same 1 ms of work in both arms: no difference worth a row's rank
    # (a few % of real difference, caches and clocks, can be significant)
    check(abs(c["delta_self_ms_per_call"]) < 0.15, "common %r" % c)
    check("jsonrpc costs" in out and "planted_xml_" in out.split("jsonrpc costs")[1].split("\n")[0],
          "no sum line")
    m = res["profile_diff_modules"]["functions"]
    check(m[0]["function"] == "planted_server" and m[0]["significant"],
          "the module diff's first row: %r" % m[0])


def test_compare_refuses_saturated():
    need_perf()
    with planted(5) as srv, tempfile.TemporaryDirectory() as d:
        page = os.path.join(d, "c.html")
        res, out, _ = compared(srv, "--cpu-saturation", "40", "--html", page, rounds="1")
        check("taken under saturation" in res["profile_diff"].get("refused", ""),
              "a saturated profile was diffed: %r" % res["profile_diff"])
        html = open(page).read()
        check('id="flame-a"' in html and 'id="flame-diff"' not in html
              and "no differential: a round" in html, "the page's flame graphs under saturation")
        check("--profile-saturated" in out, "the refusal does not name --profile-saturated")
        res, out, _ = compared(srv, "--cpu-saturation", "40", "--profile-saturated",
                               rounds="1")
    check("functions" in res["profile_diff"], "--profile-saturated did not diff")


def test_simulator_names_the_libraries():
    """The worked example: on the built-in simulator (call graphs dwarf by
    default, its time being in xmlrpc-c, json-c and libc, built without
    frame pointers) the XML-RPC run's top rows name libxmlrpc, and its
    first module is xmlrpc-c's; the JSON-RPC run's first module json-c."""
    need_perf()
    ldd = subprocess.run(["ldd", RPCBENCH], capture_output=True, text=True, timeout=30).stdout
    if "libasan" in ldd:  # its allocator is then the simulator's busiest module
        skip("a sanitizer build: libasan's allocator takes the simulator's top rows")
    for proto, lib in (("xmlrpc", "libxmlrpc"), ("jsonrpc", "libjson-c")):
        with tempfile.TemporaryDirectory() as d:
            out = os.path.join(d, "r.json")
            # 15 calls, as at 5/s for 3 s: the same samples, in half the time
            code, _, err = rpcbench("run", "-p", proto, "--verb", "getAllVmStats", "-R", "10",
                                    "-d", "1.5s", "--profile", "--profile-freq", str(HZ),
                                    "--output", out, "--quiet", timeout=120)
            check(code == 0, "run --profile on the simulator exited %d: %s" % (code, err))
            p = json.load(open(out))["profile"]
        check("call graphs dwarf" in p["profiler"], "auto did not pick dwarf: %r" % p["profiler"])
        top = p["functions"][:p["top"]]
        if proto == "xmlrpc":
            check(any(r["module"].startswith(lib) for r in top),
                  "no %s function among the top rows: %r" % (lib, [r["function"] for r in top]))
        check(p["modules"] and p["modules"][0]["function"].startswith(lib),
              "%s: the first module is not %s: %r" % (proto, lib, p["modules"][:3]))


def test_usage_errors():
    cases = [(["--profile", "--url", "http://127.0.0.1:1/RPC2"], "--server-pid"),
             (["--profile-top", "3"], "needs --profile"),
             (["--profile", "--profile-top", "0"], "--profile-top"),
             (["--profiler", "true"], "{out}"),
             (["--profile", "--profile-freq", "0"], "--profile-freq"),
             (["--profile-call-graph", "dwarf"], "needs --profile"),
             (["--profile", "--profile-call-graph", "lbr"], "--profile-call-graph"),
             (["--profiler", "x {out}", "--profile-freq", "99"], "not --profiler's")]
    for args, want in cases:
        code, out, err = rpcbench("run", *args, "-d", "1s")
        check(code == 2 and want in err and err.count("\n") == 1,
              "%s: %d %r" % (args, code, err))
    for cmd in ("run", "sweep"):
        code, _, err = rpcbench(cmd, "--profile", "--url", "http://127.0.0.1:1/RPC2", "-d", "1s")
        check(code == 2 and "--server-pid" in err and err.count("\n") == 1,
              "%s --profile without --server-pid: %d %r" % (cmd, code, err))
    code, _, err = rpcbench("sweep", "--profile", "--profile-saturated", "-d", "1s")
    check(code == 2 and "--profile-saturated" in err, "sweep --profile-saturated: %d %r"
          % (code, err))


def test_sweep_cells():
    """sweep --profile: each cell profiled over its own window, its top
    rows in its saved result (the planted costs per call within 30 %), a
    line per cell in the text naming its top functions, its stacks in
    --profile-out as cellN.rM.folded, and report re-renders the lines."""
    need_perf()
    with planted() as srv, tempfile.TemporaryDirectory() as d:
        out = os.path.join(d, "s.json")
        code, stdout, err = rpcbench("sweep", "--url", srv.url("/RPC2"), "-p", "xmlrpc",
                                     "--server-pid", str(srv.proc.pid), "-R", "40,%s" % FAST,
                                     "-d", "1.5s", "--warmup", "0.5s", "--idle-baseline", "0",
                                     "--validate", "none", "--profile", "--profile-freq",
                                     str(HZ), "--profile-out", d, "--output", out, "--quiet",
                                     timeout=300)
        check(code == 0, "sweep --profile exited %d: %s" % (code, err))
        res = json.load(open(out))
        files = sorted(f for f in os.listdir(d) if f.endswith(".folded"))
        code, again, err = rpcbench("report", out)
        check(code == 0, "report of the sweep: %d %s" % (code, err))
    check(files == ["cell1.r1.folded", "cell2.r1.folded"], "--profile-out wrote %r" % files)
    check(len(res["cells"]) == 2, "cells: %d" % len(res["cells"]))
    for cell in res["cells"]:
        check_truth(cell["result"], TRUTH)
    for text in (stdout, again):
        lines = [ln for ln in text.splitlines() if ln.startswith("profile, cell ")]
        check(len(lines) == 2 and all("planted_" in ln and "ms/call self" in ln for ln in lines),
              "the profile's lines per cell: %r" % lines)


if __name__ == "__main__":
    main([test_xmlrpc_per_call, test_jsonrpc_per_call, test_window_is_the_measured_one,
          test_saturated_marked, test_report_rerenders, test_profiler_command,
          test_profiler_failure_exits_1, test_server_name,
          test_compare_diff, test_compare_refuses_saturated, test_simulator_names_the_libraries,
          test_sweep_cells, test_usage_errors])
