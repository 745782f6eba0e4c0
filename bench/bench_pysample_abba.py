"""bench_pysample_abba.py: what the Python sampler (`--profile` on a
CPython server, issue 37) costs the server it samples, with sampling on
and off within one run, as part P measures perf. Target: < 5 % of the
server's CPU per call at the default rate (--profile-freq 99). By hand,
not a part of `make bench`; ported from branch py37's part Y.

tests/pyplanted_server.py under Debian's /usr/bin/python3.11 is loaded by
one fixed-rate `rpcbench run` (no --profile) per encoding, while
$BUILD/bench/bench_pysample_abba starts and stops the sampler in ABBA
blocks of PHASE_S phases. A phase's figure is the server's CPU (its
process CPU clock) over the calls the rate sends in it; a block's
overhead is on / off - 1. The verdict is the blocks' median with its
distribution-free 95 % interval (as part P's, bench_profile.py). The
sampler's own CPU runs in rpcbench, beside the server, and is given
apart per call.

usage: BUILD=build/rel python3 bench/bench_pysample_abba.py [SECONDS] [HZ...]
prints a Markdown table (bench/RESULTS.md, part Q)."""
import os
import subprocess
import sys
import time

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from bench_profile import _mean_ci, _median_ci, _verdict  # noqa: E402

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(HERE)
BUILD = os.environ.get("BUILD", "build/rel")
RPCBENCH = os.path.join(ROOT, BUILD, "rpcbench")
SAMPLER = os.path.join(ROOT, BUILD, "bench", "bench_pysample_abba")
SERVER = ["/usr/bin/python3.11", os.path.join(ROOT, "tests", "pyplanted_server.py")]
PHASE_S = 1.0
RATE = 30
PATHS = {"xmlrpc": "/RPC2", "jsonrpc": "/jsonrpc"}


def blocks(out):
    """The phases' lines of the sampler's output: (block overheads %,
    server CPU-ms/call off per block)."""
    phases = [ln.split() for ln in out.splitlines() if ln.split()[0] in ("on", "off")]
    per_call = [(p[0] == "on", int(p[1]) / 1e6 / (RATE * float(p[2]))) for p in phases]
    ovs, offs = [], []
    for i in range(0, len(per_call) - 3, 4):
        block = per_call[i:i + 4]
        on = sum(v for o, v in block if o)
        off = sum(v for o, v in block if not o)
        offs.append(off / 2)
        if off > 0:
            ovs.append(100 * (on / off - 1))
    return sorted(ovs), sorted(offs), sum(1 for o, _ in per_call if o)


def one(proto, hz, seconds):
    """One run of seconds: (block overheads %, server CPU-ms/call off,
    the sampler's CPU-ms per call)."""
    srv = subprocess.Popen(SERVER, stdout=subprocess.PIPE, text=True, start_new_session=True)
    try:
        addr = srv.stdout.readline().split()[-1]
        load = subprocess.Popen([RPCBENCH, "run", "--url", "http://%s%s" % (addr, PATHS[proto]),
                                 "-p", proto, "--method", "work", "-R", str(RATE), "-d",
                                 "%ds" % (seconds + 4), "--validate", "none",
                                 "--idle-baseline", "0", "--quiet"],
                                stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        time.sleep(2)
        out = subprocess.run([SAMPLER, str(srv.pid), str(hz), str(seconds), str(PHASE_S)],
                             capture_output=True, text=True, timeout=seconds + 60).stdout
        load.wait(60)
    finally:
        os.killpg(srv.pid, 9)
        srv.wait()
    ovs, offs, on_phases = blocks(out)
    sampler_ms = float(out.split("sampler_cpu_ms")[1]) if "sampler_cpu_ms" in out else 0.0
    return ovs, offs[len(offs) // 2], sampler_ms / max(RATE * PHASE_S * on_phases, 1)


def main():
    seconds = int(sys.argv[1]) if len(sys.argv) > 1 else 60
    rates = [int(x) for x in sys.argv[2:]] or [99, 1000]
    print("| encoding | ticks/s | server CPU-ms/call (off, median) | overhead, median "
          "[95 % interval] | mean [95 % CI] | verdict | sampler's own CPU-ms/call | blocks |")
    print("|---|---|---|---|---|---|---|---|")
    for proto in ("xmlrpc", "jsonrpc"):
        for hz in rates:
            ovs, off, own = one(proto, hz, seconds)
            med, mean = _median_ci(ovs), _mean_ci(ovs)
            print("| %s | %d | %.3f | %s | %s | %s | %.3f | %d |" % (
                proto, hz, off,
                "%+.1f %% [%+.1f, %+.1f]" % med if med else "n/a",
                "%+.1f %% [%+.1f, %+.1f]" % mean if mean else "n/a",
                _verdict(ovs), own, len(ovs)), flush=True)


if __name__ == "__main__":
    main()
