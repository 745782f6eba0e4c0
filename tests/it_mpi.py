# rpctest: alone test_split_two_and_four_ranks test_delay_mixture_percentiles test_server_cpu_on_its_host: mpirun starts 3-4 ranks, and the percentiles and the server's CPU need a quiet machine
"""it_mpi: distributed runs under Open MPI's mpirun (docs/distributed.md, "More than one
client"), with the MPI build that `make check` puts in build/mpi/rpcbench
and names in RPCBENCH_MPI (never ./rpcbench). Against one real
`rpcbench serve` on loopback:

- the schedule splits exactly: under 2 and 4 ranks at 200/s for 3 s the job
  sends 600 (+-1) requests at 200/s, rank r sends its k*N + r share exactly,
  the merged histograms hold every rank's buckets summed, the intervals and
  rank 0's --hdr-log (merged live) add up to the ok requests;
- merged percentiles of a known delay mixture match a single process's;
- the built-in simulator serves N ranks (rank 0 starts it);
- a rank killed mid-run is reported lost with what it had sent, and the
  survivors exit (bounded: a machine too loaded to start the ranks skips);
- an unreachable target: every rank exits 1 with the reason;
- SIGINT to mpirun still writes the merged result;
- the MPI binary without mpirun is the plain rpcbench;
- a plain build under an MPI launcher's environment refuses (exit 2), and
  --version says whether MPI is built in; `make MPI=1` installs Open MPI.
Each mpirun is short: the test machine may have two cores. Every process is
its own group (rpctest.spawn), killed whole on timeout."""
import csv
import json
import os
import re
import shutil
import signal
import subprocess
import tempfile
import time

from rpctest import RPCBENCH, Listening, Peer, Server, bounded, check, kill_group, main, need_package, skip, spawn
from hdrcodec import buckets  # noqa: E402

MPI_BIN = os.environ.get("RPCBENCH_MPI", "")
MPIRUN = shutil.which("mpirun")
# As root (CI containers) Open MPI wants both; --oversubscribe lets 4 ranks
# share 2 cores.
ENV = dict(os.environ, OMPI_ALLOW_RUN_AS_ROOT="1", OMPI_ALLOW_RUN_AS_ROOT_CONFIRM="1",
           OMPI_MCA_rmaps_base_oversubscribe="1")


def need_mpi():
    need_package(MPIRUN, "mpirun", "openmpi-bin")
    need_package(MPI_BIN and os.access(MPI_BIN, os.X_OK),
                 "the MPI build (RPCBENCH_MPI=%r: make check builds build/mpi/rpcbench "
                 "with mpicc)" % MPI_BIN, "libopenmpi-dev")


def mpirun(n, *args, extra=(), timeout=90):
    """`mpirun -n N MPI_BIN args`; returns (code, stdout, stderr)."""
    p = bounded([MPIRUN, "-n", str(n), "--oversubscribe"] + list(extra) + [MPI_BIN] + list(args),
                timeout, env=ENV)
    return p.returncode, p.stdout, p.stderr




def added(dicts):
    total = {}
    for d in dicts:
        for k, v in d.items():
            total[k] = total.get(k, 0) + v
    return total


def hlog_total(path):
    rows = [l for l in open(path).read().splitlines()
            if l and not l.startswith("#") and not l.startswith('"')]
    return sum(sum(buckets(r.split(",")[3]).values()) for r in rows)


def split_run(s, n, d):
    out, hlog, prefix = (os.path.join(d, x) for x in ("m.json", "m.hlog", "rank"))
    rc, stdout, err = mpirun(n, "run", "--url", s.url("/RPC2"), "--verb", "ping", "-R", "200",
                             "-d", "3s", "-c", "4", "--output", out, "--hdr-log", hlog,
                             "--rank-output", prefix)
    check(rc == 0, "mpirun -n %d: rc %d: %s" % (n, rc, err[-2000:]))
    check(stdout.count("requests    offered") == 1, "one report, from rank 0:\n" + stdout)
    merged = json.load(open(out))
    ranks = [json.load(open("%s.%d.json" % (prefix, r))) for r in range(n)]
    again = bounded([RPCBENCH, "report", out], 30)
    # the first line names the binary that printed it (git describe): the
    # MPI build and ./rpcbench may differ there, never in the report
    check(again.stdout.split("\n", 1)[1:] == stdout.split("\n", 1)[1:],
          "report of the merged file differs from the run's:\n%s\n---\n%s"
          % (stdout, again.stdout))
    return merged, ranks, hlog


def check_split(merged, ranks, hlog, n):
    req = merged["requests"]
    check(abs(req["offered"] - 600) <= 1, "-n %d offered %d, want 600 +-1" % (n, req["offered"]))
    check(req["offered"] == req["sent"] + req["unsent"] and
          req["sent"] == req["ok"] + req["errors"] + req["unfinished"], "-n %d: %r" % (n, req))
    check(abs(merged["rate"]["achieved"] - 200) <= 200 * 0.02,
          "-n %d achieved %r/s" % (n, merged["rate"]["achieved"]))
    check(merged["rate"]["target"] == 200 and merged["config"]["connections"] == 4,
          "the merged config is the job's: %r" % merged["config"])
    # rank r sends requests r, r+N, ...: exactly its count of 0..599
    for r, rr in enumerate(ranks):
        want = len(range(r, 600, n))
        check(abs(rr["requests"]["offered"] - want) <= 1,
              "rank %d offered %d, want %d" % (r, rr["requests"]["offered"], want))
    rows = merged["ranks"]
    check([x["rank"] for x in rows] == list(range(n)) and not any(x["lost"] for x in rows),
          "ranks %r" % rows)
    for k in ("sent", "unsent", "ok", "errors"):
        check(sum(x[k] for x in rows) == req[k], "ranks' %s do not add up: %r" % (k, rows))
    # the merged histograms: every rank's buckets summed, exactly
    for name in ("latency_us", "service_us", "send_lag_us"):
        want = added(buckets(rr["histograms"][name]) for rr in ranks)
        check(buckets(merged["histograms"][name]) == want, "-n %d %s is not the sum" % (n, name))
    check(req["ok"] == sum(rr["requests"]["ok"] for rr in ranks), "ok does not add up")
    # merged live: the intervals and rank 0's --hdr-log hold every rank's
    check(sum(i["ok"] for i in merged["intervals"]) == req["ok"],
          "intervals' ok %d != %d" % (sum(i["ok"] for i in merged["intervals"]), req["ok"]))
    check(hlog_total(hlog) == req["ok"], "hdr log holds %d, ok %d" % (hlog_total(hlog), req["ok"]))


def test_split_two_and_four_ranks():
    need_mpi()
    with Server("--vms", "2") as s:
        for n in (2, 4):
            with tempfile.TemporaryDirectory() as d:
                check_split(*split_run(s, n, d), n)


def pcts(*cmd):
    with tempfile.TemporaryDirectory() as d:
        out = os.path.join(d, "r.json")
        p = bounded(list(cmd) + ["--output", out, "--quiet"], 90, env=ENV)
        check(p.returncode == 0, "%s: rc %d %s" % (cmd[:3], p.returncode, p.stderr[-1500:]))
        lat = json.load(open(out))["latency_ms"]
        return lat["p50"], lat["p90"]


def near_mixture(got):
    """p50/p90 of 300 draws of uniform 5..15 ms: 10/14 ms (spread ~0.3 ms)."""
    return abs(got[0] - 10) < 1.5 and abs(got[1] - 14) < 1.5


def test_delay_mixture_percentiles():
    """uniform 5..15 ms: p50 10 ms, p90 14 ms, merged as a single process's.
    The delays are a floor under any load; the figures themselves only on a
    machine quiet enough to give them: up to 3 tries each, else a skip
    saying what the load made of them (the exact merge of the histograms is
    test_split_two_and_four_ranks's)."""
    need_mpi()
    tries = {"one process": [], "2 ranks": []}
    with Server("--vms", "2", "--delay", "uniform:5ms:15ms") as s:
        args = ["run", "--url", s.url("/RPC2"), "--verb", "ping", "-R", "100", "-d", "3s",
                "-c", "8"]
        for name, cmd in (("one process", [RPCBENCH]),
                          ("2 ranks", [MPIRUN, "-n", "2", "--oversubscribe", MPI_BIN])):
            while len(tries[name]) < 3 and not any(map(near_mixture, tries[name])):
                got = pcts(*cmd, *args)
                check(got[0] > 8.5 and got[1] > 12.5,
                      "%s: p50/p90 %r below the delays' 10/14 ms" % (name, got))
                tries[name].append(got)
    if not all(any(map(near_mixture, t)) for t in tries.values()):
        skip("machine too loaded for percentiles: p50/p90 %r for 10/14 ms" % tries)


def test_simulator_under_mpirun():
    need_mpi()
    with tempfile.TemporaryDirectory() as d:
        out = os.path.join(d, "r.json")
        rc, _, err = mpirun(3, "run", "--verb", "ping", "-R", "150", "-d", "2s", "--vms", "5",
                            "--quiet", "--output", out)
        check(rc == 0, "rc %d: %s" % (rc, err[-1500:]))
        r = json.load(open(out))
    q = r["requests"]
    check(abs(q["offered"] - 300) <= 1 and q["ok"] == q["sent"] == q["offered"],
          "requests %r" % q)
    check(len(r["ranks"]) == 3 and all(x["sent"] > 0 for x in r["ranks"]), "ranks %r" % r["ranks"])
    check(r["server_cpu"]["mean_pct"] is not None and r["server_cpu"]["mean_pct"] >= 0,
          "rank 0 samples its simulator: %r" % r["server_cpu"])


def rank_pids(parent, n, within):
    """{rank: pid} of mpirun's n ranks (each one's OMPI_COMM_WORLD_RANK),
    once all n are there; None if not within `within` seconds."""
    end = time.monotonic() + within
    while time.monotonic() < end:
        ranks = {}
        kids = subprocess.run(["pgrep", "-P", str(parent)], capture_output=True, text=True,
                              timeout=10).stdout.split()
        for pid in kids:
            try:
                env = open("/proc/%s/environ" % pid, "rb").read().split(b"\0")
            except OSError:
                continue
            for v in env:
                if v.startswith(b"OMPI_COMM_WORLD_RANK="):
                    ranks[int(v.split(b"=")[1])] = int(pid)
        if len(ranks) == n:
            return ranks
        time.sleep(0.1)
    return None


def wait_for(path, text, within):
    """True once the file at path holds text, within `within` seconds."""
    end = time.monotonic() + within
    while time.monotonic() < end:
        with open(path, errors="replace") as f:
            if text in f.read():
                return True
        time.sleep(0.1)
    return False


def test_rank_killed_is_reported():
    """Rank 2 killed once the run is under way (rank 0's first progress line):
    rank 0 reports it lost, and every survivor exits, mpirun with them. A
    machine too loaded to get the ranks going skips, saying so; survivors
    that do not exit fail the test, and everything is killed either way."""
    need_mpi()
    with Server("--vms", "2") as s, tempfile.TemporaryDirectory() as d:
        out, errpath = os.path.join(d, "r.json"), os.path.join(d, "err")
        with open(errpath, "w") as errf:
            p = spawn([MPIRUN, "-n", "3", "--oversubscribe", "--enable-recovery", MPI_BIN,
                       "run", "--url", s.url("/RPC2"), "--verb", "ping", "-R", "150",
                       "-d", "8s", "--interval", "1s", "--output", out],
                      stdout=subprocess.DEVNULL, stderr=errf, env=ENV)
        try:
            ranks = rank_pids(p.pid, 3, 60)
            if ranks is None:
                skip("loaded machine: mpirun's 3 ranks were not all up within 60 s")
            if not wait_for(errpath, "[", 60):
                skip("loaded machine: the run did not start within 60 s of the ranks")
            os.kill(ranks[2], signal.SIGKILL)
            try:
                p.wait(120)  # 8 s run, rank 0's 3 s wait for a silent rank, and margin
            except subprocess.TimeoutExpired:
                raise AssertionError("the survivors still ran 120 s after rank 2 was killed "
                                     "(a hang: killed now)")
        finally:
            kill_group(p)
        err = open(errpath, errors="replace").read()
        check(os.path.exists(out), "no merged result: %s" % err[-1500:])
        r = json.load(open(out))
    lost = [x for x in r["ranks"] if x["lost"]]
    check(len(lost) == 1 and lost[0]["rank"] == 2 and lost[0]["sent"] > 0,
          "ranks %r" % r["ranks"])
    check(any("was lost mid-run" in w for w in r["warnings"]), "warnings %r" % r["warnings"])
    for k in ("sent", "unsent"):
        check(r["requests"][k] == sum(x[k] for x in r["ranks"]),
              "the lost rank's requests are in the totals (%s): %r / %r"
              % (k, r["requests"], r["ranks"]))


def test_unreachable_every_rank_exits_1():
    need_mpi()
    rc, _, err = mpirun(2, "run", "--url", "http://127.0.0.1:1/RPC2", "-R", "10", "-d", "1s",
                        "--quiet")
    check(rc == 1 and "cannot connect to 127.0.0.1:1" in err, "rc %d: %s" % (rc, err[-1500:]))


def test_sigint_writes_merged_result():
    need_mpi()
    with Server("--vms", "2") as s, tempfile.TemporaryDirectory() as d:
        out = os.path.join(d, "r.json")
        p = spawn([MPIRUN, "-n", "2", "--oversubscribe", MPI_BIN, "run", "--url",
                   s.url("/RPC2"), "--verb", "ping", "-R", "100", "-d", "20s",
                   "--quiet", "--output", out],
                  stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, env=ENV)
        time.sleep(2.5)
        p.send_signal(signal.SIGINT)
        try:
            p.wait(30)
        finally:
            kill_group(p)
        check(os.path.exists(out), "no merged result after SIGINT")
        r = json.load(open(out))
    check(r["interrupted"] and len(r["ranks"]) == 2, "interrupted %r ranks %r" %
          (r["interrupted"], r.get("ranks")))
    check(0 < r["requests"]["sent"] < 2000, "requests %r" % r["requests"])


def test_server_cpu_on_its_host():
    """--server-pid is sampled where the process is; --server-host H limits
    sampling to the ranks on H (another name: nobody samples)."""
    need_mpi()
    host = os.uname().nodename
    with Server("--vms", "2") as s:
        got = {}
        for h in (host, "no-such-host"):
            with tempfile.TemporaryDirectory() as d:
                out = os.path.join(d, "r.json")
                rc, _, err = mpirun(2, "run", "--url", s.url("/RPC2"), "--verb", "ping", "-R",
                                    "100", "-d", "2s", "--quiet", "--output", out,
                                    "--server-pid", s.proc.pid, "--server-host", h)
                check(rc == 0, "rc %d: %s" % (rc, err[-1500:]))
                got[h] = json.load(open(out))["server_cpu"]
    check(got[host]["pids"] == [s.proc.pid] and got[host]["mean_pct"] >= 0,
          "sampled on %s: %r" % (host, got[host]))
    # no rank on that host: no server watched, so server_cpu is null (or unknown)
    check(got["no-such-host"] is None or got["no-such-host"]["mean_pct"] is None,
          "sampled elsewhere: %r" % got["no-such-host"])


def test_compare_under_mpirun():
    """Every round is a distributed run (on rank 0's simulator); rank 0
    alone reports."""
    need_mpi()
    with tempfile.TemporaryDirectory() as d:
        out = os.path.join(d, "c.json")
        rc, stdout, err = mpirun(2, "compare", "--vms", "2", "--verb", "ping", "-R", "60",
                                 "-d", "1s", "--rounds", "3", "--quiet", "--output", out)
        check(rc == 0, "rc %d: %s" % (rc, err[-1500:]))
        check(stdout.count("round  arm") == 1, "one report:\n" + stdout)
        c = json.load(open(out))
    text = json.dumps(c)
    check(text.count('"ranks"') == 6, "each of the 6 runs has its ranks: %d" % text.count('"ranks"'))


def test_mpi_binary_without_mpirun():
    need_mpi()
    with Server("--vms", "2") as s, tempfile.TemporaryDirectory() as d:
        out = os.path.join(d, "r.json")
        p = bounded([MPI_BIN, "run", "--url", s.url("/RPC2"), "--verb", "ping", "-R",
                     "100", "-d", "1s", "--output", out], 60, env=ENV)
        check(p.returncode == 0, "rc %d: %s" % (p.returncode, p.stderr))
        r = json.load(open(out))
    q = r["requests"]
    check(q["offered"] == q["sent"] == 100 and "ranks" not in r, "a plain result: %r" % q)
    check("requests    offered 100  sent 100" in p.stdout, "the plain report:\n" + p.stdout)


LAUNCHERS = ({"OMPI_COMM_WORLD_SIZE": "2", "OMPI_COMM_WORLD_RANK": "0"},
             {"OMPI_COMM_WORLD_SIZE": "2", "OMPI_COMM_WORLD_RANK": "1"},
             {"PMI_SIZE": "4", "PMI_RANK": "0"}, {"PMIX_RANK": "1"},
             {"SLURM_STEP_NUM_TASKS": "2", "SLURM_PROCID": "0"})


def test_plain_build_under_launcher_refuses():
    """A plain build started as a rank (the launcher's environment, faked)
    would run the whole load in every rank: it refuses at once, exit 2, and
    sends nothing. A launch of one process, and no launcher, run."""
    def count(c, rec):
        rec["bytes"] = len(c.recv(4096))
    peer = Peer(count, timeout=5)
    url = "http://127.0.0.1:%d/RPC2" % peer.port
    bare = {k: v for k, v in os.environ.items()
            if not k.startswith(("OMPI_", "PMI", "SLURM_"))}
    try:
        for env in LAUNCHERS:
            p = bounded([RPCBENCH, "run", "--url", url, "-R", "10", "-d", "1s", "--quiet"], 30,
                        env=dict(bare, **env))
            check(p.returncode == 2 and p.stderr.startswith(
                "rpcbench: this rpcbench was built without MPI: make MPI=1") and
                  p.stderr.count("\n") == 1, "%r: rc %d %r" % (env, p.returncode, p.stderr))
        check(not peer.conns, "a refused run connected: %r" % peer.conns)
        p = bounded([RPCBENCH, "--version"], 30, env=dict(bare, OMPI_COMM_WORLD_SIZE="1"))
        check(p.returncode == 0 and "(without MPI)" in p.stdout,
              "--version of the plain build: %r" % p.stdout)
    finally:
        peer.close()
    if MPI_BIN and os.access(MPI_BIN, os.X_OK):
        p = bounded([MPI_BIN, "--version"], 30, env=ENV)
        check(p.returncode == 0 and "(with MPI" in p.stdout, "MPI build: %r" % p.stdout)


def test_plain_build_under_real_mpirun_refuses():
    """The situation it was found in: `mpirun -n 2 ./rpcbench run` with the
    plain build printed two unrelated reports, each claiming the whole rate.
    Every rank now refuses, and nothing reaches the server."""
    need_package(MPIRUN, "mpirun", "openmpi-bin")

    def count(c, rec):
        rec["bytes"] = len(c.recv(4096))
    peer = Peer(count, timeout=5)
    try:
        p = bounded([MPIRUN, "-n", "2", "--oversubscribe", RPCBENCH, "run", "--url",
                     "http://127.0.0.1:%d/RPC2" % peer.port, "-R", "400", "-d", "1s"], 90, env=ENV)
        lines = [ln for ln in p.stderr.splitlines() if "built without MPI" in ln]
        check(p.returncode != 0 and len(lines) == 2 and "make MPI=1" in lines[0],
              "mpirun of the plain build: rc %d %r" % (p.returncode, p.stderr[-600:]))
        check("achieved" not in p.stdout, "a rank reported a run: %r" % p.stdout[-600:])
        check(not peer.conns, "a refused rank connected: %r" % peer.conns)
    finally:
        peer.close()


def test_fleet_rows_merged():
    """run --targets under 2 ranks: each rank drives its own hosts (target
    i on rank i mod 2), and rank 0's merged result has every host's row,
    in the file's order, each with the counts its host served and its
    histogram; `report` of the merged file shows the same table."""
    need_mpi()
    with tempfile.TemporaryDirectory() as d:
        targets, stats = os.path.join(d, "hosts.txt"), os.path.join(d, "stats.csv")
        out, prefix = os.path.join(d, "m.json"), os.path.join(d, "rank")
        with Listening([RPCBENCH, "serve", "--hosts", "3", "--listen", "127.0.0.1:0", "--vms",
                        "5", "--targets-out", targets, "--stats-out", stats], "serve") as srv:
            urls = open(targets).read().split()
            rc, stdout, err = mpirun(2, "run", "--targets", targets, "-R", "10", "-d", "2s",
                                     "--verb", "ping", "--output", out, "--rank-output", prefix)
            check(rc == 0, "mpirun: rc %d: %s" % (rc, err[-2000:]))
            srv.stop()
        merged = json.load(open(out))
        served = {row["url"]: int(row["requests"]) for row in csv.DictReader(open(stats))}
        ranks = [json.load(open("%s.%d.json" % (prefix, r))) for r in range(2)]
        again = bounded([RPCBENCH, "report", out], 30)
    rows = merged["targets"]
    check([r["url"] for r in rows] == urls, "merged rows: %r" % [r["url"] for r in rows])
    check([[r["url"] for r in rr["targets"]] for rr in ranks] == [urls[0::2], urls[1::2]],
          "dealt out: %r" % [rr.get("targets") for rr in ranks])
    for key in ("offered", "sent", "unsent", "ok"):
        check(sum(r[key] for r in rows) == merged["requests"][key], "%s: %r" % (key, rows))
    for r in rows:
        check(served[r["url"]] == r["sent"] == r["ok"] and sum(buckets(r["latency_us"]).values())
              == r["ok"], "host %s: served %d, row %r" % (r["url"], served[r["url"]], r))
    # each rank's share is its own hosts' rate, the job's target all of them
    check(not any("could not hold" in w for w in merged["warnings"]) and
          abs(merged["rate"]["target"] - 30) < 0.5, "%r %r" % (merged["rate"], merged["warnings"]))
    table = [l for l in stdout.splitlines() if l.startswith("http://")]
    check(len(table) == 3 and table == [l for l in again.stdout.splitlines()
                                        if l.startswith("http://")],
          "tables: %r %r" % (stdout, again.stdout))


def test_make_mpi_installs_open_mpi():
    """`make MPI=1` installs what the MPI build needs before it builds: its
    deps step asks scripts/deps.sh for the mpi set, which holds Open MPI."""
    root = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..")
    p = bounded(["make", "-n", "--no-print-directory", "MPI=1", "deps"], 60, cwd=root)
    check(p.returncode == 0 and "scripts/deps.sh mpi" in p.stdout, "make -n: %r %r"
          % (p.stdout, p.stderr))
    deps = open(os.path.join(root, "scripts", "deps.sh")).read()
    m = re.search(r'^mpi="\$build ([^"]*)"$', deps, re.M)
    check(m and {"openmpi-bin", "libopenmpi-dev"} <= set(m.group(1).split()) and
          re.search(r"^mpi\) want=\$mpi ;;$", deps, re.M), "deps.sh has no mpi set with Open MPI")


if __name__ == "__main__":
    os.chdir(os.path.dirname(os.path.abspath(__file__)))
    main([test_split_two_and_four_ranks, test_delay_mixture_percentiles,
          test_simulator_under_mpirun, test_rank_killed_is_reported,
          test_unreachable_every_rank_exits_1, test_sigint_writes_merged_result,
          test_server_cpu_on_its_host, test_compare_under_mpirun,
          test_mpi_binary_without_mpirun, test_plain_build_under_launcher_refuses,
          test_plain_build_under_real_mpirun_refuses, test_fleet_rows_merged,
          test_make_mpi_installs_open_mpi])
