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


def part_fleet(plan, rpcbench, out):
    """11. The 1,000-host fleet: memory and CPU per host on both sides."""
    hosts, secs = plan.fleet_hosts, plan.fleet_s
    targets = os.path.join(L.TMP, "hosts.txt")
    wl = os.path.join(L.TMP, "engine.jsonl")
    res = os.path.join(L.TMP, "fleet.json")
    with open(wl, "w") as f:
        f.write(ENGINE_WL)
    srv = FleetServer(rpcbench, hosts, targets)
    try:
        argv = [rpcbench, "run", "--targets", targets, "--workload", wl, "-p", "jsonrpc",
                "-c", "1", "-d", f"{secs}s", "--output", res]
        r = L.measure(argv, srv, _parse_result(res), timeout_s=secs + 120)
        srv_rss = _vm_hwm_kb(srv.pid)
        srv_cpu = (r.get("server_pct") or 0) / 100 * r["wall_s"]
    finally:
        srv.stop()
    out.append("## 11. A fleet of hosts: memory and CPU per host\n")
    out.append(f"`serve --hosts {hosts}` (150 VMs each) and `run --targets` on its {hosts} URLs, "
               f"each host polled for getAllVmStats every 15 s and list every 3 s (JSON-RPC over "
               f"HTTP, one connection per host), {secs} s; one run. CPU is over the client's "
               "whole life (setup and drain included); per host it is CPU seconds per second of "
               "that life, divided by the hosts. Server CPU on CPU 1, client on CPU 0.\n")
    hdr = ["side", "peak RSS MiB", "KiB per host", "CPU % of a core", "CPU us/s per host"]
    rows = []
    for side, rss, cpu in (("client", r.get("maxrss_kb"), r.get("cpu_s")),
                           ("server", srv_rss, srv_cpu)):
        pct = cpu / r["wall_s"] * 100 if cpu is not None else None
        rows.append([side, L.f0(rss / 1024 if rss else None), L.f0(rss / hosts if rss else None),
                     L.f1(pct), L.f1(pct * 1e4 / hosts if pct is not None else None)])
    out.append(L.md_table(hdr, rows))
    ach = r.get("achieved") / r["target"] if r.get("target") else None
    out.append(f"requests {r.get('requests')}, ok {r.get('ok')}, errors {r.get('errors')}, "
               f"unfinished {r.get('unfinished')}; achieved/target {L.f3(ach)} "
               f"({L.f1(r.get('achieved'))}/s of {L.f1(r.get('target'))}/s); latency p50 "
               f"{L.f1(r.get('p50_ms'))} ms, p99 {L.f1(r.get('p99_ms'))} ms\n")
    out.append(L.commands({"serve": srv.argv, "run": L.pin(L.CLIENT_CPU, argv)}))
    return {"hosts": hosts, "achieved_ratio": ach, "p99_ms": r.get("p99_ms"),
            "client_kb_host": r.get("maxrss_kb", 0) / hosts, "errors": r.get("errors")}
