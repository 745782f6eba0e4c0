"""bench_fleet.py: part 11 of `make bench`, the 1,000-host fleet (issue 26,
section 4): one `rpcbench serve --hosts N` and one `rpcbench run --targets`
driving every host with the engine's pattern (getAllVmStats every 15 s and
list every 3 s per host, JSON-RPC over HTTP, one connection per host), for
a bounded time. Reports both processes' peak RSS and CPU, per host, and the
run's achieved/target, p99 and errors."""
import json
import os
import signal
import subprocess
import time

import benchlib as L

ENGINE_WL = ('{"name": "stats", "method": "Host.getAllVmStats", "params": [], "every": "15s"}\n'
             '{"name": "list", "method": "Host.getVMList", "params": [], "every": "3s"}\n')


def _vm_hwm_kb(pid):
    """The peak RSS (VmHWM) of a live pid in KiB, or None."""
    try:
        with open(f"/proc/{pid}/status") as f:
            for line in f:
                if line.startswith("VmHWM:"):
                    return int(line.split()[1])
    except OSError:
        pass
    return None


class FleetServer:
    """`rpcbench serve --hosts n` pinned as the bench's server, its targets
    file written once every host listens (at most 60 s)."""

    def __init__(self, rpcbench, hosts, path):
        self.argv = L.pin(L.SERVER_CPU, [rpcbench, "serve", "--hosts", str(hosts), "--listen",
                                         "127.0.0.1:0", "--targets-out", path])
        self.p = subprocess.Popen(self.argv, stdout=subprocess.DEVNULL,
                                  stderr=subprocess.DEVNULL, start_new_session=True)
        self.pid = self.p.pid
        deadline = time.monotonic() + 60
        while time.monotonic() < deadline and self.p.poll() is None:
            if os.path.exists(path) and sum(1 for _ in open(path)) == hosts:
                return
            time.sleep(0.2)
        self.stop()
        raise RuntimeError(f"rpcbench serve --hosts {hosts} did not write its targets")

    def cpu_s(self):
        return L.proc_cpu_s(self.pid)

    def stop(self):
        if self.p.poll() is None:
            os.killpg(self.pid, signal.SIGTERM)
            try:
                self.p.wait(10)
            except subprocess.TimeoutExpired:
                os.killpg(self.pid, signal.SIGKILL)
                self.p.wait()


def _parse_result(path):
    def parse(_text):
        with open(path) as f:
            d = json.load(f)
        rate, req = d["rate"], d["requests"]
        return {"requests": req["sent"], "ok": req["ok"], "errors": req["errors"],
                "unfinished": req["unfinished"], "target": rate["target"],
                "achieved": rate["achieved"], "p99_ms": d["latency_ms"]["p99"],
                "p50_ms": d["latency_ms"]["p50"]}
    return parse


def _fleet_run(rpcbench, hosts, secs, targets, wl, res):
    """One fleet run against a fresh server: (the client's figures, the
    server's peak RSS KiB, its CPU s, the serve and run argv). The last
    run's targets and result are removed first: the server is ready when
    its own file is complete, and the figures must be this run's."""
    for path in (targets, res):
        if os.path.exists(path):
            os.unlink(path)
    srv = FleetServer(rpcbench, hosts, targets)
    try:
        argv = [rpcbench, "run", "--targets", targets, "--workload", wl, "-p", "jsonrpc",
                "-c", "1", "-d", f"{secs}s", "--output", res]
        r = L.measure(argv, srv, _parse_result(res), timeout_s=secs + 120)
        srv_rss = _vm_hwm_kb(srv.pid)
        srv_cpu = (r.get("server_pct") or 0) / 100 * r["wall_s"]
    finally:
        srv.stop()
    return r, srv_rss, srv_cpu, srv.argv, argv


def _row(side, rss, cpu, wall_s, hosts):
    pct = cpu / wall_s * 100 if cpu is not None else None
    return [side, L.f0(rss / 1024 if rss else None), L.f0(rss / hosts if rss else None),
            L.f1(pct), L.f1(pct * 1e4 / hosts if pct is not None else None)]


def part_fleet(plan, rpcbench, out, base=None):
    """11. The 1,000-host fleet: memory and CPU per host on both sides.
    base (RPCBENCH_BASE: another build's binary, by hand) runs the same
    fleet's client from that build too, for its memory beside this one's."""
    base = base if base is not None else os.environ.get("RPCBENCH_BASE")
    hosts, secs = plan.fleet_hosts, plan.fleet_s
    targets = os.path.join(L.TMP, "hosts.txt")
    wl = os.path.join(L.TMP, "engine.jsonl")
    res = os.path.join(L.TMP, "fleet.json")
    with open(wl, "w") as f:
        f.write(ENGINE_WL)
    r, srv_rss, srv_cpu, srv_argv, argv = _fleet_run(rpcbench, hosts, secs, targets, wl, res)
    out.append("## 11. A fleet of hosts: memory and CPU per host\n")
    out.append(f"`serve --hosts {hosts}` (150 VMs each) and `run --targets` on its {hosts} URLs, "
               f"each host polled for getAllVmStats every 15 s and list every 3 s (JSON-RPC over "
               f"HTTP, one connection per host), {secs} s; one run. CPU is over the client's "
               "whole life (setup and drain included); per host it is CPU seconds per second of "
               "that life, divided by the hosts. Server CPU on CPU 1, client on CPU 0.\n")
    hdr = ["side", "peak RSS MiB", "KiB per host", "CPU % of a core", "CPU us/s per host"]
    rows = [_row("client", r.get("maxrss_kb"), r.get("cpu_s"), r["wall_s"], hosts),
            _row("server", srv_rss, srv_cpu, r["wall_s"], hosts)]
    if base:
        b = _fleet_run(base, hosts, secs, targets, wl, res)[0]
        ver = subprocess.run([base, "--version"], capture_output=True, text=True).stdout.split()
        rows.append(_row(f"client of {ver[1] if len(ver) > 1 else base} (RPCBENCH_BASE)",
                         b.get("maxrss_kb"), b.get("cpu_s"), b["wall_s"], hosts))
    out.append(L.md_table(hdr, rows))
    ach = r.get("achieved") / r["target"] if r.get("target") else None
    out.append(f"requests {r.get('requests')}, ok {r.get('ok')}, errors {r.get('errors')}, "
               f"unfinished {r.get('unfinished')}; achieved/target {L.f3(ach)} "
               f"({L.f1(r.get('achieved'))}/s of {L.f1(r.get('target'))}/s); latency p50 "
               f"{L.f1(r.get('p50_ms'))} ms, p99 {L.f1(r.get('p99_ms'))} ms\n")
    out.append(L.commands({"serve": srv_argv, "run": L.pin(L.CLIENT_CPU, argv)}))
    return {"hosts": hosts, "achieved_ratio": ach, "p99_ms": r.get("p99_ms"),
            "client_kb_host": r.get("maxrss_kb", 0) / hosts, "errors": r.get("errors")}
