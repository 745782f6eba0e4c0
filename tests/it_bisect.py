# rpctest: timed test_control_every_commit_good: every commit of an A/A control must read good on a latency gate
"""it_bisect: `git bisect run` with `rpcbench compare --gate ... --bisect`
names the commit that made a server slower (docs/compare-and-gates.md "Finding the commit that
made it slower"). A throwaway git repository (a temp dir) holds 8 commits of
a tiny XML-RPC server written with Python's standard library
(tests/bisect_server.py); commit 5 makes every call 40 % slower (sleep 10 ms
-> 14 ms). Each bisect step starts the candidate beside a baseline server
(the first commit's copy) and runs the compare; git bisect must name commit
5. A control repository where no commit regresses: the same step exits 0
(good) on every commit. Short rounds; every process has a timeout."""
import os
import re
import shutil
import subprocess
import sys
import tempfile

from rpctest import RPCBENCH, check, main, need_package

HERE = os.path.dirname(os.path.abspath(__file__))
SERVER = open(os.path.join(HERE, "bisect_server.py")).read()
GOOD_MARK = re.search(r"^DELAY = .*$", SERVER, re.M).group(0)
PY = sys.executable

# The step: build (nothing to build for Python), start the baseline and the
# candidate, compare them, stop both; its exit code is rpcbench's --bisect one.
STEP = r'''
import os, select, subprocess, sys
def start(path):
    p = subprocess.Popen([sys.executable, path], stdout=subprocess.PIPE, text=True)
    ready, _, _ = select.select([p.stdout], [], [], 10)
    line = p.stdout.readline() if ready else ""
    if not line.startswith("listening on "):
        p.kill()
        sys.exit(125)  # could not start: skip this commit
    return p, "http://%s/RPC2" % line.split()[-1]
base, base_url = start(sys.argv[1])
cand, cand_url = start("server.py")
try:
    rc = subprocess.run([os.environ["RPCBENCH"], "compare", "--url", base_url + "," + cand_url,
                         "--method", "ping", "-c", "2", "-R", "40", "-d", "0.5s",
                         "--warmup", "0.1s", "--gate", "p50:+10%", "--rounds", "auto",
                         "--bisect", "--quiet"], stdout=sys.stderr,
                        timeout=90).returncode
except subprocess.TimeoutExpired:
    rc = 128  # stops git bisect run
finally:
    for p in (base, cand):
        p.kill()
        p.wait()
sys.exit(rc)
'''


def git(repo, *args, timeout=30):
    p = subprocess.run(["git", "-C", repo] + list(args), capture_output=True, text=True,
                       timeout=timeout)
    check(p.returncode == 0 or args[0] == "bisect",
          "git %s: %d %s" % (" ".join(args), p.returncode, p.stderr))
    return p


def make_repo(d, slow_at):
    """8 commits; commit slow_at (1-based; None: none) sets the 14 ms delay,
    which the later ones keep. Returns the commits' hashes, oldest first."""
    need_package(shutil.which("git"), "git", "git")
    repo = os.path.join(d, "repo")
    os.mkdir(repo)
    git(repo, "init", "-q")
    git(repo, "config", "user.email", "t@example.invalid")
    git(repo, "config", "user.name", "it_bisect")
    commits, delay = [], "DELAY = 0.010"
    for i in range(1, 9):
        if i == slow_at:
            delay = "DELAY = 0.014"
        text = SERVER.replace(GOOD_MARK, delay) + "# change %d\n" % i
        with open(os.path.join(repo, "server.py"), "w") as f:
            f.write(text)
        git(repo, "add", "server.py")
        git(repo, "commit", "-q", "-m", "change %d" % i)
        commits.append(git(repo, "rev-parse", "HEAD").stdout.strip())
    return repo, commits


def write_step(d, repo, first):
    base = os.path.join(d, "base_server.py")
    with open(base, "w") as f:
        f.write(git(repo, "show", "%s:server.py" % first).stdout)
    step = os.path.join(d, "step.py")
    with open(step, "w") as f:
        f.write(STEP)
    return [PY, step, base]


def env():
    e = dict(os.environ)
    e["RPCBENCH"] = os.path.abspath(RPCBENCH)
    return e


def test_bisect_names_the_slow_commit():
    with tempfile.TemporaryDirectory() as d:
        repo, commits = make_repo(d, 5)
        step = write_step(d, repo, commits[0])
        git(repo, "bisect", "start", commits[-1], commits[0])
        p = subprocess.run(["git", "-C", repo, "bisect", "run"] + step, capture_output=True,
                           text=True, timeout=400, env=env())
        git(repo, "bisect", "reset")
        m = re.search(r"^([0-9a-f]{40}) is the first bad commit", p.stdout, re.M)
        check(p.returncode == 0 and m, "bisect run: %d %s %s" % (p.returncode, p.stdout[-1500:],
                                                                 p.stderr[-500:]))
        check(m.group(1) == commits[4], "bisect named %s, planted %s (log %s)"
              % (m.group(1), commits[4], p.stdout[-1500:]))


def test_control_every_commit_good():
    with tempfile.TemporaryDirectory() as d:
        repo, commits = make_repo(d, None)
        step = write_step(d, repo, commits[0])
        for i, c in enumerate(commits):
            git(repo, "checkout", "-q", c)
            p = subprocess.run(step, cwd=repo, capture_output=True, text=True, timeout=120,
                               env=env())
            check(p.returncode == 0, "commit %d (%s) of the control: exit %d, want 0 (good): %s"
                  % (i + 1, c[:10], p.returncode, p.stderr[-3000:]))


if __name__ == "__main__":
    main([test_bisect_names_the_slow_commit, test_control_every_commit_good])
