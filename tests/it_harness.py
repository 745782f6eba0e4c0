"""The test harness itself: rpctest.main and tests/run.sh report a skipped
test as skipped, never as passed; check() still fails under `python -O`
(where a bare assert would be compiled away); what a test starts never
outlives it: rpctest.bounded kills the whole process group on timeout, and
run.sh's bound per test file ends a hung one with everything it started;
run.sh runs programs in parallel, the ones marked alone by themselves, and
one program or one test function (T=). Runs small scripts and a copy of
run.sh in a scratch tree, no rpcbench needed."""
import os
import shutil
import subprocess
import sys
import tempfile
import time

from rpctest import check, main

HERE = os.path.dirname(os.path.abspath(__file__))
PY = os.environ.get("PY", sys.executable)

SCRIPT = """from rpctest import check, main, skip

def test_passes():
    check(1 + 1 == 2, "arithmetic")

def test_skips():
    skip("no widget here")
%s
if __name__ == "__main__":
    main([test_passes, test_skips%s])
"""
FAILING = """
def test_fails():
    check(False, "this must fail, also under -O")
"""
CMOCKA_OUT = """[==========] tests: Running 2 test(s).
[ RUN      ] test_ok
[       OK ] test_ok
[ RUN      ] test_absent
[  SKIPPED ] test_absent
[==========] tests: 2 test(s) run.
[  PASSED  ] 1 test(s).
[  SKIPPED ] 1 test(s), listed below:
[  SKIPPED ] test_absent
"""


def write(path, text, mode=0o644):
    os.makedirs(os.path.dirname(path), exist_ok=True)
    with open(path, "w") as f:
        f.write(text)
    os.chmod(path, mode)


def tree_env(**extra):
    """The environment for run.sh in a fake tree: this one's, without a
    make T= that names a program of the real tree, a strict mode, or the
    sanitizer pass's RPCTEST_ALONE=leave (CI: the fake tree's alone program
    must run)."""
    e = {k: v for k, v in os.environ.items() if k not in ("T", "RPCTEST_STRICT", "RPCTEST_ALONE")}
    e.update(extra)
    return e


def run_script(d, text, *flags, env=None):
    """Runs text as a script next to a copy of rpctest.py; returns (code, output)."""
    write(os.path.join(d, "rpctest.py"), open(os.path.join(HERE, "rpctest.py")).read())
    path = os.path.join(d, "it_x.py")
    write(path, text)
    e = {k: v for k, v in os.environ.items() if k != "RPCTEST_STRICT"}
    e.update(env or {})
    p = subprocess.run([PY, *flags, path], capture_output=True, text=True, timeout=60, env=e)
    return p.returncode, p.stdout


def test_main_counts_a_skip_apart():
    with tempfile.TemporaryDirectory() as d:
        code, out = run_script(d, SCRIPT % ("", ""))
        check(code == 0, "a skip failed the script: %d\n%s" % (code, out))
        check("ok   test_passes" in out and "skip test_skips: no widget here" in out,
              "per-test lines:\n" + out)
        check("ok   test_skips" not in out, "the skipped test was reported as passed:\n" + out)
        check(out.strip().splitlines()[-1] == "1 passed, 0 failed, 1 skipped", "closing line:\n" + out)
        code, out = run_script(d, SCRIPT % ("", ""), env={"RPCTEST_STRICT": "1"})
        check(code == 1, "RPCTEST_STRICT=1 let a skip pass: %d\n%s" % (code, out))


def test_check_fails_under_python_O():
    with tempfile.TemporaryDirectory() as d:
        for flags in ((), ("-O",)):
            code, out = run_script(d, SCRIPT % (FAILING, ", test_fails"), *flags)
            check(code == 1 and "FAIL test_fails" in out and "this must fail" in out,
                  "python %s: exit %d\n%s" % (" ".join(flags), code, out))
            check(out.strip().splitlines()[-1] == "1 passed, 1 failed, 1 skipped",
                  "python %s: closing line:\n%s" % (" ".join(flags), out))


def test_main_fails_a_forgotten_test():
    with tempfile.TemporaryDirectory() as d:
        code, out = run_script(d, SCRIPT % (FAILING, ""))
        check(code == 1 and "not in main()'s list: test_fails" in out, "exit %d\n%s" % (code, out))


BOUNDED = """from rpctest import bounded
try:
    bounded(["sh", "-c", "sleep 300 & echo $! > %s; wait"], 2)
except AssertionError as e:
    print("raised:", e)
"""

HANGS = """import os, time
from rpctest import main, spawn

def test_hangs():
    p = spawn(["sh", "-c", "sleep 300 & echo $! > %s; wait"])
    time.sleep(300)

if __name__ == "__main__":
    main([test_hangs])
"""


def gone(pidfile, within=10):
    """The pid written in pidfile is dead (or a zombie) within `within` s."""
    end = time.monotonic() + within
    while time.monotonic() < end and not os.path.exists(pidfile):
        time.sleep(0.05)
    pid = int(open(pidfile).read())
    while time.monotonic() < end:
        try:
            with open("/proc/%d/stat" % pid) as f:
                if f.read().rsplit(")", 1)[1].split()[0] == "Z":
                    return True
        except FileNotFoundError:
            return True
        time.sleep(0.05)
    os.kill(pid, 9)  # leave nothing behind, even when the check fails
    return False


def test_bounded_kills_the_group():
    """A grandchild (sleep under sh) dies with its group when bounded() times out."""
    with tempfile.TemporaryDirectory() as d:
        pidfile = os.path.join(d, "pid")
        code, out = run_script(d, BOUNDED % pidfile)
        check(code == 0 and "raised:" in out and "process group was killed" in out,
              "exit %d\n%s" % (code, out))
        check(gone(pidfile), "the grandchild outlived bounded()'s timeout")


def test_run_sh_bounds_a_hung_file():
    """run.sh's bound ends a hung test file as a failure, and what the file
    started (its own process group) dies with it."""
    with tempfile.TemporaryDirectory() as d:
        os.makedirs(os.path.join(d, "tests"))
        for f in ("run.sh", "rpctest.py"):
            shutil.copy(os.path.join(HERE, f), os.path.join(d, "tests", f))
        pidfile = os.path.join(d, "pid")
        write(os.path.join(d, "tests", "it_hang.py"), HANGS % pidfile)
        env = tree_env(BUILD="build/rel", PY=PY, RPCTEST_FILE_TIMEOUT="3")
        t0 = time.monotonic()
        p = subprocess.run(["sh", os.path.join(d, "tests", "run.sh")], capture_output=True,
                           text=True, timeout=120, env=env)
        took = time.monotonic() - t0
        check(p.returncode == 1 and "  FAIL  it_hang.py" in p.stdout and
              "timed out: killed after 3s" in p.stdout, "exit %d\n%s" % (p.returncode, p.stdout))
        check(took < 60, "run.sh took %.0f s for a 3 s bound" % took)
        check(gone(pidfile), "the hung file's grandchild outlived run.sh's bound")


def fake_tree(d):
    """A scratch checkout: run.sh and rpctest.py, a cmocka-like unit binary
    with one skip, a script with a pass and a skip, and one that only skips."""
    os.makedirs(os.path.join(d, "tests"))
    for f in ("run.sh", "rpctest.py"):
        shutil.copy(os.path.join(HERE, f), os.path.join(d, "tests", f))
    write(os.path.join(d, "build", "rel", "tests", "test_fake"),
          "#!/bin/sh\ncat <<'END'\n%sEND\n" % CMOCKA_OUT, 0o755)
    write(os.path.join(d, "tests", "it_one.py"), SCRIPT % ("", ""))
    write(os.path.join(d, "tests", "it_all.py"),
          "from rpctest import main, skip\n\ndef test_only():\n    skip(\"nothing to run on\")\n\n"
          "if __name__ == \"__main__\":\n    main([test_only])\n")


def test_run_sh_shows_skips():
    with tempfile.TemporaryDirectory() as d:
        fake_tree(d)
        env = tree_env(BUILD="build/rel", PY=PY)
        env.pop("RPCTEST_STRICT", None)
        p = subprocess.run(["sh", os.path.join(d, "tests", "run.sh")], capture_output=True,
                           text=True, timeout=120, env=env)
        out = p.stdout
        check(p.returncode == 0, "skips failed run.sh: %d\n%s%s" % (p.returncode, out, p.stderr))
        for want in ("  PASS  test_fake", "  skip test_fake: test_absent", "  PASS  it_one.py",
                     "  skip it_one.py: test_skips: no widget here", "  SKIP  it_all.py",
                     "  skip it_all.py: test_only: nothing to run on"):
            check(want in out, "no %r in:\n%s" % (want, out))
        check(out.strip().splitlines()[-1] == "check: 2 passed, 0 failed, 3 skipped",
              "closing line:\n" + out)
        env["RPCTEST_STRICT"] = "1"
        p = subprocess.run(["sh", os.path.join(d, "tests", "run.sh")], capture_output=True,
                           text=True, timeout=120, env=env)
        check(p.returncode == 1 and p.stdout.strip().endswith("check: 0 passed, 3 failed, 3 skipped"),
              "RPCTEST_STRICT=1: exit %d\n%s" % (p.returncode, p.stdout))


TIMED = """import sys, time
from rpctest import main
def test_timed():
    t0 = time.time()
    time.sleep(2)
    open(%r, "a").write("%s %%.3f %%.3f\\n" %% (t0, time.time()))
if __name__ == "__main__":
    main([test_timed])
"""


def spans(path):
    """{name: (start, end)} from the lines the TIMED scripts appended."""
    out = {}
    for line in open(path):
        name, a, b = line.split()
        out[name] = (float(a), float(b))
    return out


def test_run_sh_runs_in_parallel_and_alone():
    """Two programs run at once (RPCTEST_JOBS=2), and one whose file says
    "# rpctest: alone: why" runs after them, by itself."""
    with tempfile.TemporaryDirectory() as d:
        fake_tree(d)
        times = os.path.join(d, "times")
        for name, head in (("it_p1", ""), ("it_p2", ""),
                           ("it_solo", "# rpctest: alone: it times something\n")):
            write(os.path.join(d, "tests", name + ".py"), head + TIMED % (times, name))
        env = tree_env(BUILD="build/rel", PY=PY, RPCTEST_JOBS="2")
        p = subprocess.run(["sh", os.path.join(d, "tests", "run.sh")], capture_output=True,
                           text=True, timeout=120, env=env)
        check(p.returncode == 0 and p.stdout.strip().endswith("check: 5 passed, 0 failed, 3 skipped"),
              "exit %d\n%s%s" % (p.returncode, p.stdout, p.stderr))
        s = spans(times)
        (a0, a1), (b0, b1), (c0, c1) = s["it_p1"], s["it_p2"], s["it_solo"]
        check(a0 < b1 and b0 < a1, "it_p1 %r and it_p2 %r did not overlap" % (s["it_p1"], s["it_p2"]))
        check(c0 >= max(a1, b1), "the alone program %r overlapped %r" % (s["it_solo"], s))


TWO_TIMED = """import sys, time
from rpctest import main
def timed(name):
    t0 = time.time()
    time.sleep(2)
    open(%r, "a").write("%%s %%.3f %%.3f\\n" %% (name, t0, time.time()))
def test_quick():
    timed("it_part.quick")
def test_timing():
    timed("it_part.timing")
if __name__ == "__main__":
    main([test_quick, test_timing])
"""


def test_run_sh_runs_alone_tests_apart():
    """"# rpctest: alone test_timing: why": the program's other test runs
    beside another program, test_timing after them, by itself, as the
    program it_part.py[alone]; T=it_part.py::test_timing runs it alone.
    RPCTEST_ALONE=leave leaves it out, and test_quick, marked timed."""
    with tempfile.TemporaryDirectory() as d:
        fake_tree(d)
        times = os.path.join(d, "times")
        write(os.path.join(d, "tests", "it_p1.py"), TIMED % (times, "it_p1"))
        write(os.path.join(d, "tests", "it_part.py"), "# rpctest: alone test_timing: it times\n"
              "# rpctest: timed test_quick: it judges\n" + TWO_TIMED % times)
        env = tree_env(BUILD="build/rel", PY=PY, RPCTEST_JOBS="2")
        p = subprocess.run(["sh", os.path.join(d, "tests", "run.sh")], capture_output=True,
                           text=True, timeout=120, env=env)
        out = p.stdout
        check(p.returncode == 0 and "  PASS  it_part.py (" in out and
              "  PASS  it_part.py[alone] (" in out, "exit %d\n%s%s" % (p.returncode, out, p.stderr))
        s = spans(times)
        (a0, a1), (q0, q1), (t0, t1) = s["it_p1"], s["it_part.quick"], s["it_part.timing"]
        check(a0 < q1 and q0 < a1, "test_quick %r did not run beside it_p1 %r" % ((q0, q1), (a0, a1)))
        check(t0 >= max(a1, q1), "test_timing %r overlapped %r" % ((t0, t1), s))
        os.remove(times)
        p = subprocess.run(["sh", os.path.join(d, "tests", "run.sh")], capture_output=True,
                           text=True, timeout=120, env=dict(env, T="it_part.py::test_timing"))
        check(p.returncode == 0 and "  PASS  it_part.py[alone] (" in p.stdout and
              list(spans(times)) == ["it_part.timing"], "T=: %s" % p.stdout)
        os.remove(times)
        p = subprocess.run(["sh", os.path.join(d, "tests", "run.sh")], capture_output=True,
                           text=True, timeout=120, env=dict(env, RPCTEST_ALONE="leave"))
        last = p.stdout.strip().splitlines()[-1]
        check(p.returncode == 0 and "it_part.py[alone]" in last and "it_part.py::test_quick" in last
              and "  PASS  it_part.py (" in p.stdout and list(spans(times)) == ["it_p1"],
              "RPCTEST_ALONE=leave (the alone and the timed test left out): %s" % p.stdout)


def test_two_suites_keep_alone_alone():
    """Two run.sh of one checkout at once (.ci/run runs the plain and the
    sanitizer suite so): a program that runs alone overlaps no program of
    either suite, while the suites' other programs do run side by side."""
    with tempfile.TemporaryDirectory() as d:
        fake_tree(d)
        times = os.path.join(d, "times")
        for name, head in (("it_p1", ""), ("it_p2", ""),
                           ("it_solo", "# rpctest: alone: it times something\n")):
            timed = TIMED.replace('"%s %%.3f', '"%s-" + __import__("os").environ["SUITE"] + " %%.3f')
            write(os.path.join(d, "tests", name + ".py"), head + timed % (times, name))
        suites = [subprocess.Popen(["sh", os.path.join(d, "tests", "run.sh")], text=True,
                                   stdout=subprocess.PIPE, stderr=subprocess.STDOUT,
                                   env=tree_env(BUILD="build/rel", PY=PY, RPCTEST_JOBS="2",
                                                SUITE=x)) for x in "xy"]
        for p in suites:
            out = p.communicate(timeout=120)[0]
            check(p.returncode == 0, "a suite failed:\n%s" % out)
        s = spans(times)
        for solo in ("it_solo-x", "it_solo-y"):
            c0, c1 = s[solo]
            for name, (a0, a1) in s.items():
                check(name == solo or a1 <= c0 or a0 >= c1,
                      "%s %r overlapped %s %r" % (solo, s[solo], name, (a0, a1)))
        (a0, a1), (b0, b1) = s["it_p1-x"], s["it_p1-y"]
        check(a0 < b1 and b0 < a1, "the suites' it_p1 did not run side by side: %r" % s)


def test_run_sh_runs_one_test():
    """T=PROGRAM runs one program, T=PROGRAM::TEST one function of it; an
    unknown program exits 2 and an unknown function fails, naming it."""
    with tempfile.TemporaryDirectory() as d:
        fake_tree(d)
        env = tree_env(BUILD="build/rel", PY=PY)
        env.pop("RPCTEST_STRICT", None)

        def run(t):
            p = subprocess.run(["sh", os.path.join(d, "tests", "run.sh")], capture_output=True,
                               text=True, timeout=120, env=dict(env, T=t))
            return p.returncode, p.stdout + p.stderr
        code, out = run("it_one.py::test_passes")
        check(code == 0 and "  skip " not in out and "test_fake" not in out and
              out.strip().endswith("check: 1 passed, 0 failed, 0 skipped"), "%d\n%s" % (code, out))
        code, out = run("it_one.py")
        check(code == 0 and out.strip().endswith("check: 1 passed, 0 failed, 1 skipped"),
              "%d\n%s" % (code, out))
        code, out = run("it_one.py::test_typo")
        check(code == 1 and "no such test in it_one.py: test_typo" in out, "%d\n%s" % (code, out))
        code, out = run("it_nope.py")
        check(code == 2 and "no test program it_nope.py" in out, "%d\n%s" % (code, out))


if __name__ == "__main__":
    main([test_main_counts_a_skip_apart, test_check_fails_under_python_O,
          test_main_fails_a_forgotten_test, test_run_sh_shows_skips,
          test_bounded_kills_the_group, test_run_sh_bounds_a_hung_file,
          test_run_sh_runs_in_parallel_and_alone, test_run_sh_runs_alone_tests_apart, test_two_suites_keep_alone_alone, test_run_sh_runs_one_test])
