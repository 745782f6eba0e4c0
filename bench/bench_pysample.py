"""bench_pysample.py: what the Python sampler (--profile-mode python,
issue 37) costs, by hand (not a part of `make bench`): whole runs of
`rpcbench run` on tests/pyplanted_server.py (Debian's /usr/bin/python3,
4 ms of planted CPU per XML-RPC call) at 20 calls/s, without --profile
and with the sampler at 99 and 1000 Hz, interleaved, REPS each. Prints a
markdown table: the server's CPU-ms per call (median, and each mode's
median over "off" - 1), the sampler's own CPU as a share of one core over
its life, and the samples per second of the window. The sampler reads
the server's memory and never stops it, so what it costs the server is
only the contention for the 2 cores.

Usage: bench/bench_pysample.py [REPS]   (default 6; ./rpcbench built)"""
import json
import os
import statistics
import subprocess
import sys
import tempfile
import time

ROOT = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..")
RPCBENCH = os.path.join(ROOT, "rpcbench")
SERVER = os.path.join(ROOT, "tests", "pyplanted_server.py")
MODES = (("off", ()), ("python 99 Hz", ("--profile", "--profile-mode", "python")),
         ("python 1000 Hz", ("--profile", "--profile-mode", "python", "--profile-freq", "1000")))
SECONDS = 5


def one(port, pid, extra):
    with tempfile.TemporaryDirectory() as d:
        out = os.path.join(d, "r.json")
        t0 = time.monotonic()
        subprocess.run([RPCBENCH, "run", "--url", "http://127.0.0.1:%d/RPC2" % port, "-p",
                        "xmlrpc", "--method", "work", "--server-pid", str(pid), "-R", "20", "-d",
                        "%ds" % SECONDS, "--warmup", "1s", "--idle-baseline", "0", "--validate",
                        "none", "--output", out, "--quiet", *extra], check=True, timeout=120,
                       stdout=subprocess.DEVNULL)
        wall = time.monotonic() - t0
        res = json.load(open(out))
    p = res.get("profile") or {}
    return (res["server_cpu"]["cpu_ms_per_call"], p.get("profiler_cpu_ms"), wall,
            p.get("samples"), p.get("window_s"))


def main():
    reps = int(sys.argv[1]) if len(sys.argv) > 1 else 6
    srv = subprocess.Popen(["/usr/bin/python3", SERVER], stdout=subprocess.PIPE, text=True)
    try:
        port = int(srv.stdout.readline().rsplit(":", 1)[1])
        rows = {name: [] for name, _ in MODES}
        for _ in range(reps):
            for name, extra in MODES:
                rows[name].append(one(port, srv.pid, extra))
    finally:
        srv.kill()
        srv.wait()
    base = statistics.median(r[0] for r in rows["off"])
    print("| mode | runs | server CPU-ms/call (median) | vs off | sampler's own CPU (% of a core) "
          "| samples/s |")
    print("|---|---|---|---|---|---|")
    for name, _ in MODES:
        r = rows[name]
        med = statistics.median(x[0] for x in r)
        own = ["%.1f" % (100 * x[1] / 1000 / x[2]) for x in r if x[1] is not None]
        rate = [x[3] / x[4] for x in r if x[3] is not None and x[4]]
        print("| %s | %d | %.3f | %s | %s | %s |" % (
            name, len(r), med, "" if name == "off" else "%+.1f %%" % (100 * (med / base - 1)),
            statistics.median(float(o) for o in own) if own else "-",
            "%.0f" % statistics.median(rate) if rate else "-"))


if __name__ == "__main__":
    main()
