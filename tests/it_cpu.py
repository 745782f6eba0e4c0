"""Server CPU from /proc, seen through `rpcbench run`: a burner of a known
share of one core, found by pid and by name (with the machine's busy and
steal shares); the simulator's own CPU."""
import os
import shutil
import subprocess
import sys
import tempfile

from rpctest import Server, check, main, run_json

# Busy 10 ms, then sleep to the next 20 ms boundary: ~50 % of one core, for
# at most 20 s.
BURNER = r"""
import time
end = time.monotonic() + 20
t = time.monotonic()
while t < end:
    while time.monotonic() < t + 0.010:
        pass
    t += 0.020
    time.sleep(max(0, t - time.monotonic()))
"""


def burner(name_dir=None):
    exe = sys.executable
    if name_dir:  # a copy of python under another name, for --server-name
        exe = os.path.join(name_dir, "rpcburn")
        shutil.copy(sys.executable, exe)
    return subprocess.Popen([exe, "-c", BURNER])


def in_band(pct, what):
    check(40 <= pct <= 60, "%s: burner at %.1f%%, want 50 +/- 10" % (what, pct))


def test_burner_by_pid():
    b = burner()
    try:
        with Server("--vms", "1") as s:
            _, r, _ = run_json("--url", s.url("/RPC2"), "--verb", "ping", "-R", "10", "-d", "3s",
                               "--server-pid", str(b.pid))
        in_band(r["server_cpu"]["p50_pct"], "by pid")
        check(r["server_cpu"]["pids"] == [b.pid], "pids %r" % r["server_cpu"]["pids"])
        check(all("server_cpu_pct" in i for i in r["intervals"]), "no CPU in intervals")
        sysm = r["system"]
        check(0 <= sysm["busy_pct"] <= 100, "machine busy %r" % sysm)
        # steal is a share of all cores' time, outside busy (0 on bare metal)
        check("steal_pct" in sysm and 0 <= sysm["steal_pct"] <= 100, "machine steal %r" % sysm)
    finally:
        b.kill()
        b.wait()


def test_burner_by_name():
    with tempfile.TemporaryDirectory() as d:
        b = burner(d)
        try:
            with Server("--vms", "1") as s:
                _, r, _ = run_json("--url", s.url("/RPC2"), "--verb", "ping", "-R", "10",
                                   "-d", "3s", "--server-name", "rpcburn")
            in_band(r["server_cpu"]["p50_pct"], "by name")
            check(b.pid in r["server_cpu"]["pids"], "by name did not find %d" % b.pid)
        finally:
            b.kill()
            b.wait()


def test_simulator_cpu_rises_with_rate():
    cpu = []
    # 30 VMs in JSON-RPC: a few ms per call, far from saturation at 40/s
    # even in a sanitizer build.
    for rate in ("5", "40"):
        _, r, _ = run_json("-p", "jsonrpc", "-R", rate, "-d", "2s", "--vms", "30")
        cpu.append(r["server_cpu"]["mean_pct"])
        check(r["server_cpu"]["cpu_ms_per_call"] > 0, "no CPU-ms per call")
    check(cpu[1] > cpu[0] * 2, "CPU at 40/s (%.1f%%) not well above 5/s (%.1f%%)" % tuple(cpu[::-1]))


def test_saturation_warning():
    # Each call burns 150 VMs x 200 us = 30 ms of CPU: 50/s needs 150 % of a core.
    with Server("--vms", "150", "--work-us-per-vm", "200") as s:
        _, r, _ = run_json("--url", s.url("/RPC2"), "-R", "50", "-d", "2s", "--timeout", "2s",
                           "--server-pid", str(s.proc.pid))
    check(any("saturated" in w for w in r["warnings"]), "no saturation warning: %r" % r["warnings"])


if __name__ == "__main__":
    main([test_burner_by_pid, test_burner_by_name, test_simulator_cpu_rises_with_rate,
          test_saturation_warning])
