"""bench_gate_defaults: do compare's defaults decide? (issue 41 part 4)

Runs N A/A comparisons and N comparisons against a planted 2x slowdown,
each with the README's recommended blocking command (its gate:
cpu_ms_per_call:+10%, or the gates given) and compare's default rounds
(none given: with a gate, --rounds auto up to 12), against two
`rpcbench serve` processes
with --server-pid. Prints one line per comparison (exit code, rounds,
seconds) and the counts: the A/A must pass (exit 0) N of N, the 2x must
fail (exit 3) N of N.

Usage: /usr/bin/python3 bench/bench_gate_defaults.py [N] [RPCBENCH] [GATE ...]
(default 10, build/rel/rpcbench, cpu_ms_per_call:+10%). About 20 minutes
for N=10 on 2 cores."""
import json
import os
import socket
import subprocess
import sys
import tempfile
import time

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from benchlib import free_port  # noqa: E402

RB = sys.argv[2] if len(sys.argv) > 2 else "build/rel/rpcbench"
N = int(sys.argv[1]) if len(sys.argv) > 1 else 10
# A server whose getAllVmStats costs about 5 ms of CPU and 3 ms of wait;
# the slow build doubles both.
FAST = ["--vms", "20", "--work-us-per-vm", "250", "--delay", "3ms"]
SLOW = ["--vms", "20", "--work-us-per-vm", "500", "--delay", "6ms"]
GATES = sys.argv[3:] or ["cpu_ms_per_call:+10%"]
LOAD = ["--verb", "getAllVmStats", "-R", "50", "-d", "5s", "--warmup", "0.5s", "--quiet"]
for g in GATES:
    LOAD += ["--gate", g]


def serve(args):
    port = free_port()
    p = subprocess.Popen([RB, "serve", "--listen", "127.0.0.1:%d" % port] + args,
                         stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL,
                         start_new_session=True)
    for _ in range(100):
        try:
            socket.create_connection(("127.0.0.1", port), 0.2).close()
            return p, port
        except OSError:
            time.sleep(0.05)
    p.kill()
    raise SystemExit("serve did not listen")


def one(b_args):
    (a, pa), (b, pb) = serve(FAST), serve(b_args)
    try:
        with tempfile.TemporaryDirectory() as d:
            out = os.path.join(d, "c.json")
            t0 = time.monotonic()
            rc = subprocess.run([RB, "compare", "--url", "http://127.0.0.1:%d/RPC2,"
                                 "http://127.0.0.1:%d/RPC2" % (pa, pb), "--server-pid",
                                 "%d,%d" % (a.pid, b.pid), "--output", out] + LOAD,
                                stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL,
                                timeout=900).returncode
            took = time.monotonic() - t0
            doc = json.load(open(out)) if os.path.exists(out) else {}
            gates = {g["gate"]: (g["verdict"], g.get("ratio")) for g in doc.get("gates", [])}
            return rc, doc.get("rounds"), took, gates
    finally:
        for p in (a, b):
            p.kill()
            p.wait()


def series(name, b_args, want):
    hits, times = 0, []
    for i in range(N):
        rc, rounds, took, gates = one(b_args)
        hits += rc == want
        times.append(took)
        print("%s %2d: exit %d, %s rounds, %.0f s, %s" % (name, i + 1, rc, rounds, took, gates),
              flush=True)
    print("%s: exit %d in %d of %d; %.0f s each on average (%.0f..%.0f)"
          % (name, want, hits, N, sum(times) / N, min(times), max(times)), flush=True)


if __name__ == "__main__":
    series("A/A", FAST, 0)
    series("2x ", SLOW, 3)
