"""Server CPU from /proc, seen through `rpcbench run`: a burner of about
half a core, found by pid and by name, read by rpcbench as the kernel's own
count says it ran (the test reads /proc/PID/schedstat itself, so a busy
machine that starves the burner does not fail the test); the machine's
busy and steal shares; the simulator's own CPU; the saturation warning
exactly when an interval reached the threshold. The server named as users
name it, and refused when it is not there or not one; a figure never
measured is n/a, not a number; the mean after SIGINT; CPU per call net of a
known idle background (tests/cpuserver.py)."""
import csv
import io
import json
import os
import shutil
import signal
import subprocess
import sys
import tempfile
import time

from faultserver import XML_PING
from rpctest import (Listening, Peer, Server, check, http_peer, http_response, main, rpcbench,
                     run_json)

CPUSERVER = os.path.join(os.path.dirname(os.path.abspath(__file__)), "cpuserver.py")

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


def cpu_ns(pid):
    """The kernel's count of the process's time on CPU (ns): the sum of its
    threads' schedstat, or its ticks where schedstat is missing."""
    total, tasks = 0, "/proc/%d/task" % pid
    try:
        for tid in os.listdir(tasks):
            with open(os.path.join(tasks, tid, "schedstat")) as f:
                total += int(f.read().split()[0])
        return total
    except OSError:
        with open("/proc/%d/stat" % pid) as f:
            fields = f.read().rsplit(")", 1)[1].split()
        return (int(fields[11]) + int(fields[12])) * 1e9 / os.sysconf("SC_CLK_TCK")


def measured_alongside(pid, args):
    """Runs rpcbench (args) and returns its result and the share of one core
    the process pid had meanwhile, by the test's own reading."""
    c0, t0 = cpu_ns(pid), time.monotonic()
    _, r, _ = run_json(*args)
    c1, t1 = cpu_ns(pid), time.monotonic()
    return r, (c1 - c0) / 1e9 / (t1 - t0) * 100


def agrees(r, own, what):
    """rpcbench's mean for the burner within 10 points of the test's own
    reading (same process, nearly the same window; the burner aims at 50 %,
    less on a loaded machine)."""
    got = r["server_cpu"]["mean_pct"]
    check(own > 5, "%s: the burner hardly ran (%.1f%%): machine overloaded" % (what, own))
    check(abs(got - own) <= 10, "%s: rpcbench read %.1f%%, the kernel says %.1f%%"
          % (what, got, own))


def test_burner_by_pid():
    b = burner()
    try:
        with Server("--vms", "1") as s:
            r, own = measured_alongside(b.pid, ("--url", s.url("/RPC2"), "--verb", "ping", "-R",
                                                "10", "-d", "3s", "--server-pid", str(b.pid)))
        agrees(r, own, "by pid")
        check(r["server_cpu"]["pids"] == [b.pid], "pids %r" % r["server_cpu"]["pids"])
        check(all("server_cpu_pct" in i for i in r["intervals"]), "no CPU in intervals")
        sysm = r["system"]
        check(0 <= sysm["busy_pct"] <= 100, "machine busy %r" % sysm)
        # steal is a share of all cores' time, outside busy (0 on bare metal)
        check("steal_pct" in sysm and 0 <= sysm["steal_pct"] <= 100, "machine steal %r" % sysm)
        check(sysm.get("cores") == os.cpu_count(), "cores %r, the OS says %d" % (sysm, os.cpu_count()))
    finally:
        b.kill()
        b.wait()


def test_burner_by_name():
    with tempfile.TemporaryDirectory() as d:
        b = burner(d)
        try:
            with Server("--vms", "1") as s:
                r, own = measured_alongside(b.pid, ("--url", s.url("/RPC2"), "--verb", "ping",
                                                    "-R", "10", "-d", "3s", "--server-name",
                                                    "rpcburn"))
            agrees(r, own, "by name")
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
    # Each call burns 150 VMs x 200 us = 30 ms of CPU: 50/s needs 150 % of a
    # core. The threshold is 30 %, which the server reaches unless the
    # machine starves it; either way the warning must come exactly when an
    # interval's CPU reached the threshold.
    with Server("--vms", "150", "--work-us-per-vm", "200") as s:
        _, r, _ = run_json("--url", s.url("/RPC2"), "-R", "50", "-d", "2s", "--timeout", "2s",
                           "--server-pid", str(s.proc.pid), "--cpu-saturation", "30")
    peak = max(i["server_cpu_pct"] for i in r["intervals"])
    warned = [w for w in r["warnings"] if "saturated" in w]
    check(bool(warned) == (peak >= 30), "peak %.1f%%, warnings %r" % (peak, r["warnings"]))
    check(peak >= 30 or r["system"]["busy_pct"] > 90,
          "the server never reached 30%% (peak %.1f%%) on a machine not busy (%r)"
          % (peak, r["system"]))


def cpuserver(call_ms, idle_pct, script=CPUSERVER):
    """tests/cpuserver.py (or a copy of it at script) in its own process."""
    return Listening([sys.executable, script, str(call_ms), str(idle_pct), "60"], "cpuserver")


def absent_pid():
    """A pid no process has."""
    pid = 999999
    while os.path.exists("/proc/%d" % pid):
        pid -= 1
    return pid


def xml_peer(on_request=None):
    """A Peer answering every XML-RPC request with a ping result, calling
    on_request() first; rec["requests"] counts them."""
    def answer(body):
        if on_request:
            on_request()
        return http_response(XML_PING, "text/xml")
    return http_peer(answer)


def test_server_pid_absent_is_usage_error():
    peer = xml_peer()
    try:
        pid = absent_pid()
        code, out, err = rpcbench("run", "--url", "http://127.0.0.1:%d/RPC2" % peer.port,
                                  "--verb", "ping", "-d", "1s", "--server-pid", str(pid),
                                  timeout=30)
        check(code == 2, "exit %d: %r" % (code, err))
        check(err.count("\n") == 1 and str(pid) in err and "--server-pid" in err, repr(err))
        check(out == "", "printed a report: %r" % out[:200])
        time.sleep(0.2)
        check(not peer.conns, "%d connections for a usage error" % len(peer.conns))
    finally:
        peer.close()


def test_server_name_matching_nothing_is_usage_error():
    code, _, err = rpcbench("run", "-d", "1s", "--server-name", "srv_%d_none.py" % os.getpid(),
                            timeout=30)
    check(code == 2 and err.count("\n") == 1 and "--server-name" in err, "%d %r" % (code, err))


def test_server_name_is_the_script():
    """`python3 /tmp/.../srv_xyz.py` is found as srv_xyz.py, alone (the
    harness, a python3 too, is rpcbench's ancestor: never the server); a
    named server at 2/s gets the idle baseline by default."""
    with tempfile.TemporaryDirectory() as d:
        name = "srv_%d.py" % os.getpid()
        script = os.path.join(d, name)
        shutil.copy(CPUSERVER, script)
        with cpuserver(1, 0, script) as srv:
            _, r, _ = run_json("--url", srv.url("/RPC2"), "--verb", "ping", "-c", "1", "-R", "2",
                               "-d", "1s", "--server-name", name)
    cpu = r["server_cpu"]
    check(cpu["pids"] == [srv.proc.pid], "pids %r, the server is %d" % (cpu["pids"], srv.proc.pid))
    check(cpu["mean_pct"] is not None and cpu["cpu_ms_per_call"] > 0, "not measured: %r" % cpu)
    check(cpu["idle"] is not None and cpu["idle"]["duration_s"] >= 2.9,
          "no default idle baseline at 2/s: %r" % cpu["idle"])


def test_server_name_two_trees_is_usage_error():
    with tempfile.TemporaryDirectory() as d:
        name = "srv_%d_twin.py" % os.getpid()
        script = os.path.join(d, name)
        shutil.copy(CPUSERVER, script)
        with cpuserver(1, 0, script) as a, cpuserver(1, 0, script) as b:
            code, out, err = rpcbench("run", "--url", a.url("/RPC2"), "--verb", "ping", "-d", "1s",
                                      "--server-name", name, timeout=30)
    check(code == 2 and err.count("\n") == 1 and out == "", "%d %r %r" % (code, err, out[:200]))
    check(str(a.proc.pid) in err and str(b.proc.pid) in err and "--server-pid" in err,
          "does not list both (%d, %d): %r" % (a.proc.pid, b.proc.pid, err))


def test_unmeasured_server_is_na_and_fails():
    """The watched process exits when the first request arrives, before any
    full interval: every CPU figure is n/a (null, empty), and the condition
    on it fails saying why. (On main: `CPU mean -1.0%` and a pass.)"""
    helper = subprocess.Popen(["sleep", "60"])
    peer = xml_peer(lambda: helper.poll() is None and (helper.kill(), helper.wait()))
    try:
        with tempfile.TemporaryDirectory() as d:
            out = os.path.join(d, "r.json")
            code, text, err = rpcbench("run", "--url", "http://127.0.0.1:%d/RPC2" % peer.port,
                                       "--verb", "ping", "-R", "5", "-d", "1500ms", "--quiet",
                                       "--server-pid", str(helper.pid), "--output", out,
                                       "--threshold", "cpu_ms_per_call<1", timeout=30)
            code_csv, csv_text, _ = rpcbench("report", out, "--format", "csv-summary")
            with open(out) as f:
                r = json.load(f)
    finally:
        peer.close()
        if helper.poll() is None:
            helper.kill()
            helper.wait()
    check(code == 3, "exit %d: a condition on an unmeasured figure passed? %r" % (code, err))
    cpu = r["server_cpu"]
    for k in ("mean_pct", "p50_pct", "max_pct", "cpu_ms", "cpu_ms_per_call"):
        check(cpu[k] is None, "server_cpu.%s = %r, not null" % (k, cpu[k]))
    line = [ln for ln in text.splitlines() if ln.startswith("server ")]
    check(line and "CPU n/a" in line[0] and "-1" not in line[0], "server line %r" % line)
    th = [ln for ln in text.splitlines() if ln.startswith("threshold cpu_ms_per_call")]
    check(th and "n/a (not measured" in th[0] and "FAIL" in th[0], "threshold line %r" % th)
    row = next(csv.DictReader(io.StringIO(csv_text)))
    check(code_csv == 0 and row["server_cpu_mean_pct"] == "" and
          row["server_cpu_ms_per_call"] == "", "CSV %r" % row)


def test_cpu_mean_after_sigint_is_weighted():
    """SIGINT shortly after an interval closed leaves a short last interval;
    the mean weighs it by its length: mean = cpu_ms / duration. Each call
    burns 20 ms, so a short interval holding a call reads far above the
    others (or, without one, far below)."""
    with cpuserver(20, 0) as srv:
        p = subprocess.Popen([os.environ.get("RPCBENCH", "./rpcbench"), "run", "--url",
                              srv.url("/RPC2"), "--verb", "ping", "-c", "1", "-R", "2", "-d",
                              "30s", "--server-pid", str(srv.proc.pid), "--idle-baseline", "0",
                              "--format", "json"],
                             stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
                             start_new_session=True)
        try:
            end = time.monotonic() + 20
            line = ""
            while time.monotonic() < end and "s/30.0s]" not in line:  # the first interval
                line = p.stderr.readline()
                if not line:
                    break
            time.sleep(0.15)
            p.send_signal(signal.SIGINT)
            out, _ = p.communicate(timeout=20)
        finally:
            if p.poll() is None:
                os.killpg(p.pid, signal.SIGKILL)
                p.wait()
    r = json.loads(out)
    cpu = r["server_cpu"]
    check(r["interrupted"] and r["duration_s"] < 5, "not interrupted early: %r" % r["duration_s"])
    want = cpu["cpu_ms"] / (r["duration_s"] * 1000) * 100
    check(abs(cpu["mean_pct"] - want) <= 0.1 + 0.03 * want,
          "CPU mean %.2f%%, cpu_ms/duration %.2f%% (samples %r)"
          % (cpu["mean_pct"], want, cpu["samples"]))


def test_cpu_per_call_net_of_idle():
    """A server that burns 10 % of a core idle and 5 ms per call, at 5/s
    with a 2 s idle baseline: raw CPU per call holds the background (about
    20 ms of it per call), net of idle is near the 5 ms (plus Python's own
    cost of a call; generous bounds, the machine is loaded), and the
    warning says idle is most of it."""
    with cpuserver(5, 10) as srv:
        _, r, _ = run_json("--url", srv.url("/RPC2"), "--verb", "ping", "-c", "1", "-R", "5",
                           "-d", "4s", "--server-pid", str(srv.proc.pid), "--idle-baseline", "2s")
    cpu = r["server_cpu"]
    idle = cpu["idle"]
    check(idle is not None and idle["intervals"] >= 5 and 1.9 <= idle["duration_s"] <= 4,
          "idle %r" % idle)
    check(idle["mean_pct"] > 3, "the background hardly ran (%.1f%%): machine overloaded"
          % idle["mean_pct"])
    per_call_idle = idle["mean_pct"] * 10 / r["rate"]["achieved"]  # ms of background per call
    raw, net = cpu["cpu_ms_per_call"], cpu["cpu_ms_per_call_net"]
    check(raw >= net + per_call_idle / 2, "raw %.2f does not hold the idle %.2f (net %.2f)"
          % (raw, per_call_idle, net))
    check(2.5 <= net <= 12, "net of idle %.2f CPU-ms/call, the call burns 5" % net)
    check(cpu["cpu_ms_per_call_net_se"] is not None and cpu["cpu_ms_per_call_net_se"] >= 0,
          "no uncertainty: %r" % cpu)
    check(any("idle CPU" in w for w in r["warnings"]), "no idle warning: %r" % r["warnings"])


def test_cpu_per_call_server_killed():
    """A server that burns 20 ms per call is killed 3 s into a 6 s run: the
    calls after fail to connect. CPU per call is the CPU of the window where
    it lived over the calls it answered there, which the kernel's count
    checks: (its CPU until the kill) / (calls answered). On main, the CPU
    was divided by every call sent: about 11 CPU-ms/call."""
    with cpuserver(20, 0) as srv:
        p = subprocess.Popen([os.environ.get("RPCBENCH", "./rpcbench"), "run", "--url",
                              srv.url("/RPC2"), "--verb", "ping", "-c", "1", "-R", "10", "-d",
                              "6s", "--server-pid", str(srv.proc.pid), "--idle-baseline", "0",
                              "--timeout", "1s", "--format", "json"],
                             stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
                             start_new_session=True)
        try:
            c0 = cpu_ns(srv.proc.pid)
            end, line = time.monotonic() + 20, ""
            while time.monotonic() < end and "3.0s/6.0s]" not in line:
                line = p.stderr.readline()
                if not line:
                    break
            c1 = cpu_ns(srv.proc.pid)
            srv.kill()
            out, _ = p.communicate(timeout=30)
        finally:
            if p.poll() is None:
                os.killpg(p.pid, signal.SIGKILL)
                p.wait()
    r = json.loads(out)
    cpu, req = r["server_cpu"], r["requests"]
    check(req["errors"] + req["unsent_given_up"] >= 15 and req["ok"] >= 20,
          "not killed mid-run: %r" % req)
    truth = (c1 - c0) / 1e6 / req["ok"]  # an upper bound: a few answers after c1
    per = cpu["cpu_ms_per_call"]
    check(per is not None and per >= 19.5, "CPU per call %r: each call burns 20 ms" % per)
    check(per <= truth * 1.1, "CPU per call %.2f, the kernel says at most %.2f" % (per, truth))


def test_cpu_per_call_none_answered_is_na():
    """Every request times out: the server answered nothing, so CPU per call
    is n/a (null, "n/a"), never its CPU over the calls sent."""
    helper = subprocess.Popen(["sleep", "60"])
    peer = Peer(lambda c, rec: c.recv(65536) and time.sleep(5))
    try:
        code, text, err = rpcbench("run", "--url", "http://127.0.0.1:%d/RPC2" % peer.port,
                                   "--verb", "ping", "-R", "5", "-d", "2s", "--timeout", "300ms",
                                   "--server-pid", str(helper.pid), "--idle-baseline", "0",
                                   "--format", "json", timeout=30)
    finally:
        peer.close()
        helper.kill()
        helper.wait()
    r = json.loads(text)
    check(code == 3 and r["requests"]["ok"] == 0, "exit %d: %r" % (code, err[-400:]))
    cpu = r["server_cpu"]
    check(cpu["mean_pct"] is not None, "the helper was not measured: %r" % cpu)
    check(cpu["cpu_ms_per_call"] is None and cpu["cpu_ms_per_call_se"] is None,
          "CPU per call %r with nothing answered" % cpu["cpu_ms_per_call"])


def test_busy_baseline_refused():
    """The server spins flat out for its first 2.5 s (as VDSM's protocol
    detector does on a socket left half-closed), which the 2 s idle baseline
    falls in; under load it burns 5 ms per call at 4/s. The baseline is
    above the load's CPU: refused with a warning and never used (idle
    null, no net figure), and no CPU figure is negative. On main it was
    used: net of idle about -200 CPU-ms/call."""
    srv = Listening([sys.executable, CPUSERVER, "5", "0", "60", "2.5"], "cpuserver")
    with srv:
        _, r, _ = run_json("--url", srv.url("/RPC2"), "--verb", "ping", "-c", "1", "-R", "4",
                           "-d", "3s", "--server-pid", str(srv.proc.pid),
                           "--idle-baseline", "2s")
    cpu = r["server_cpu"]
    refused = [w for w in r["warnings"] if "idle baseline refused" in w]
    check(refused and "above its CPU under load" in refused[0], "no refusal: %r" % r["warnings"])
    check(cpu["idle"] is None and cpu["cpu_ms_per_call_net"] is None,
          "the busy baseline was used: idle %r, net %r" % (cpu["idle"], cpu["cpu_ms_per_call_net"]))
    for k in ("mean_pct", "p50_pct", "max_pct", "cpu_ms", "cpu_ms_per_call"):
        check(cpu[k] is None or cpu[k] >= 0, "server_cpu.%s = %r" % (k, cpu[k]))


def test_cpu_per_call_se_on_ramp():
    """A ramp from 5/s to 30/s against a server that burns 5 ms per call:
    CPU % follows the rate, CPU per call does not. Its standard error is
    taken from per-interval per-call figures, so the planned change of rate
    is no noise: under 5 % of the mean (on main, from the spread of CPU %
    over intervals of different rates: about 20 %)."""
    with cpuserver(5, 0) as srv:
        _, r, _ = run_json("--url", srv.url("/RPC2"), "--verb", "ping", "-c", "1", "--stages",
                           "5s:5/s-30/s", "--server-pid", str(srv.proc.pid),
                           "--idle-baseline", "0")
    cpu = r["server_cpu"]
    per, se = cpu["cpu_ms_per_call"], cpu["cpu_ms_per_call_se"]
    check(per is not None and per >= 5, "CPU per call %r: each call burns 5 ms" % per)
    check(se is not None and se < 0.05 * per, "standard error %r of %.2f CPU-ms/call" % (se, per))


if __name__ == "__main__":
    main([test_burner_by_pid, test_burner_by_name, test_simulator_cpu_rises_with_rate,
          test_saturation_warning, test_server_pid_absent_is_usage_error,
          test_server_name_matching_nothing_is_usage_error, test_server_name_is_the_script,
          test_server_name_two_trees_is_usage_error, test_unmeasured_server_is_na_and_fails,
          test_cpu_mean_after_sigint_is_weighted, test_cpu_per_call_net_of_idle,
          test_cpu_per_call_server_killed, test_cpu_per_call_none_answered_is_na,
          test_busy_baseline_refused, test_cpu_per_call_se_on_ramp])
