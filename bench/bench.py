#!/usr/bin/python3
"""bench.py: rpcbench's own speed, side by side with wrk, wrk2 and hey.

Runs the eight parts of `make bench` against one `rpcbench serve` on
loopback and writes bench/RESULTS.md: one markdown table per part, medians
over repetitions, each figure next to its peer measured in the same run,
interleaved (rep 1 of every tool, then rep 2, ...) so that a fuzzer loading
the machine hurts every column alike.

Pinning: on 2+ CPUs the server runs on CPU 1 and every client on CPU 0
(wrk with one thread, hey with GOMAXPROCS from its affinity = 1, rpcbench
is single-threaded), so each tool gets the same single core.

Client CPU comes from wait4()'s rusage of the client process (user+sys,
microsecond-accurate, whole process lifetime) and peak RSS from its
ru_maxrss (the kernel's VmHWM).

usage: bench.py [--quick] [--out FILE]   (env BUILD=build/rel)
"""
import argparse
import json
import os
import shutil
import statistics
import subprocess
import sys
import tempfile
import threading
import time

import benchlib as L
from bench_fleet import part_fleet
from bench_profile import part_profile

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
# $BUILD/rpcbench, not ./rpcbench: a concurrent `make SAN=1` replaces the
# latter with a sanitizer build mid-run; the flavor's own copy stays.
RPCBENCH = os.path.join(ROOT, os.environ.get("BUILD", "build/rel"), "rpcbench")
LUA = os.path.join(ROOT, "bench", "post.lua")
PROTOS = ("xmlrpc", "jsonrpc")


class Plan:
    """Durations and repetitions: the full plan fits `make bench` in ~4 min."""

    def __init__(self, quick):
        q = quick
        self.reps = 2 if q else 3
        self.conns = 16          # part 1 -c for every tool
        self.tput_s = 1 if q else 2
        self.tput_reps = 2 if q else 5  # server-bound and noisy: ratios need repeats
        self.pace_rates = (1000, 5000, 20000)
        self.pace_conns = 10     # divides every rate: hey -q is per worker
        self.pace_s = 1 if q else 2
        self.pace_reps = 2 if q else 4  # more than elsewhere: steal spoils some runs
        self.check_rates = {"xmlrpc": 8, "jsonrpc": 30}  # server and full decode < 70%
        self.check_s = 1 if q else 2
        self.codec_ms = 20 if q else 50
        self.codec_vms = "1,150" if q else "1,150,1000"
        self.mem_rate = 1000
        self.mem_conns = 10
        self.mem_short_s = 3 if q else 10
        self.mem_long_s = 6 if q else 60
        self.srvcpu_rate = 5     # part 6: VDSM's typical polling, one core's few percent
        self.srvcpu_s = 2 if q else 5
        self.srvcpu_warmup_s = 1
        # part 7: the open loop against wrk2 (issue 29's table)
        self.ol_cells = ((5000, 50), (20000, 100), (40000, 200))
        self.ol_s = 3 if q else 10
        self.ol_reps = 1 if q else 3
        # part 8: --metrics-listen scraped every 100 ms during a 5k/s run
        self.scrape_rate = 5000
        self.scrape_s = 3 if q else 10
        self.scrape_reps = 2 if q else 3
        # part 9: --requests-log during a 5k/s run
        self.reqlog_rate = 5000
        self.reqlog_s = 3 if q else 10
        self.reqlog_reps = 2 if q else 5  # the figures are close: more runs
        # part 10: a templated --workload against the same calls fixed
        self.tmpl_rate = 2000
        self.tmpl_s = 3 if q else 10
        self.tmpl_reps = 2 if q else 4
        # part 11: serve --hosts and run --targets, the engine's polling per host
        self.fleet_hosts = 200 if q else 1000
        self.fleet_s = 20 if q else 60
        # part P: the server's CPU per call with and without --profile
        self.prof_rate = 10
        self.prof_s = 2 if q else 10
        self.prof_reps = 2 if q else 8
        self.prof_alt_s = 20 if q else 120
        self.prof_spin_s = 14 if q else 60


# --------------------------------------------------------------- parts ---

def part_throughput(plan, srv, bodies, out):
    """1. Closed loop: max requests/s and client CPU-us per request."""
    tools = [t for t in ("rpcbench", "wrk", "hey") if L.have(t)]
    rows = {}   # (proto, tool) -> list of dicts
    cmds = {}
    for rep in range(plan.tput_reps):
        for proto in PROTOS:
            order = tools[rep % len(tools):] + tools[:rep % len(tools)]
            for tool in order:
                argv, parse = L.closed_loop_cmd(tool, srv, proto, bodies[proto], plan.conns,
                                                plan.tput_s, RPCBENCH, LUA)
                r = L.measure(argv, srv, parse)
                rows.setdefault((proto, tool), []).append(r)
                cmds[(proto, tool)] = argv
    out.append("## 1. Client throughput, closed loop (ping)\n")
    out.append(f"Every tool: {plan.conns} keep-alive connections, {plan.tput_s} s, one request "
               "in flight per connection, same body and Content-Type, against the same "
               f"`rpcbench serve`. Medians of {plan.tput_reps} interleaved runs; \"vs wrk\" "
               "and \"vs hey\" are the medians of the ratios within each repetition (runs "
               "seconds apart), which cancels the machine's drift better than a ratio of "
               "medians. "
               "CPU-us/req is the client's user+sys over its whole life divided by the "
               "requests it completed. Server CPU tells who saturated first: near 100% "
               "means the server was the bottleneck and the client's spare capacity shows "
               "only in CPU-us/req; req/s per client core = 1e6 / CPU-us/req is what the "
               "client would do with a whole core to itself.\n")
    hdr = ["proto", "tool", "req/s", "vs wrk", "vs hey", "client CPU-us/req", "vs wrk",
           "req/s per client core", "client CPU %", "server CPU %", "errors"]
    table, paired = [], {}
    for proto in PROTOS:
        med = {t: L.medians(rows.get((proto, t), [])) for t in tools}
        pr = {(t, peer, k): _paired(rows, proto, t, peer, k) for t in tools
              for peer in ("wrk", "hey") for k in ("rps", "cpu_us_req")}
        paired[proto] = pr.get(("rpcbench", "wrk", "rps"))
        for t in tools:
            m = med[t]
            table.append([proto, t, L.f0(m.get("rps")),
                          L.f2(pr[(t, "wrk", "rps")]), L.f2(pr[(t, "hey", "rps")]),
                          L.f1(m.get("cpu_us_req")),
                          L.f2(pr[(t, "wrk", "cpu_us_req")]),
                          L.f0(1e6 / m["cpu_us_req"] if m.get("cpu_us_req") else None),
                          L.f0(m.get("client_pct")), L.f0(m.get("server_pct")),
                          L.f0(m.get("errors"))])
    out.append(L.md_table(hdr, table))
    out.append(L.commands(cmds))
    return {p: r for p, r in paired.items() if r is not None}


def _paired(rows, proto, tool, peer, key):
    """Median over repetitions of tool's figure / peer's in the same one."""
    a, b = rows.get((proto, tool), []), rows.get((proto, peer), [])
    ratios = [x[key] / y[key] for x, y in zip(a, b) if x.get(key) and y.get(key)]
    return statistics.median(ratios) if ratios else None


def part_pacing(plan, srv, bodies, out):
    """2. Open loop: send lag and achieved rate at fixed targets, sleeping
    and polling, next to the floor bench_timer measures on the same core."""
    proto = "xmlrpc"
    timer = os.path.join(ROOT, os.environ.get("BUILD", "build/rel"), "bench", "bench_timer")
    tools = ["rpcbench", "rpcbench-poll", "floor"] + (["hey"] if L.have("hey") else [])

    def command(rate, tool):
        if tool == "floor":
            return [timer, str(rate), str(plan.pace_s)], L.parse_timer
        return L.paced_cmd(tool, srv, proto, bodies[proto], plan.pace_conns, rate, plan.pace_s,
                           RPCBENCH)
    rows, cmds = L.interleaved(plan.pace_reps, plan.pace_rates, tools, command, srv)
    out.append("## 2. Pacing precision, open loop (XML-RPC ping)\n")
    out.append(f"{plan.pace_conns} connections, {plan.pace_s} s per run, {plan.pace_reps} runs "
               "per rate and pacer, interleaved. Send lag = actual - intended send time "
               "(rpcbench's `send_lag_ms`, 1 us resolution); pacer lag = the send lag of the "
               "requests that found a free connection (`pacing_lag_ms`): the pacer's own "
               "precision. `sleep` is the default pacer (an absolute timerfd, no spin; sends "
               "due within --pacer-window, 50 us, share a wake); `busy-poll` is `--busy-poll` (never sleeps; costs a core).\n\n"
               "This machine is a VM, and its hypervisor now and then runs something else on "
               "the client's vCPU: /proc/stat's steal column, read per run on the client's CPU. "
               "A run that lost even one tick (10 ms) to steal has its p99 send lag in "
               "milliseconds (at 5k/s, 10 ms late is 50 requests late), whatever the client "
               "does; and a vCPU that halts between sends is the one the hypervisor is slow to "
               "give back. So the p99 figures are given twice: the median over the runs the "
               "hypervisor left alone (steal < 1 tick), which is rpcbench's precision, and the "
               "median over all runs, which is this machine's. Queued % = requests that found "
               "every connection busy (their lag is the server's doing).\n")
    hdr = ["target/s", "pacer", "runs, of them without steal", "achieved/target", "lag p50 us",
           "lag p99 us, no steal", "pacer lag p99 us, no steal", "lag max us, no steal",
           "lag p99 us, all runs", "steal ms/run, median (max)", "queued %", "client CPU %"]
    table, lag5k = [], {}
    for rate in plan.pace_rates:
        for tool, name in (("rpcbench", "sleep"), ("rpcbench-poll", "busy-poll")):
            runs = rows.get((rate, tool), [])
            clean = [r for r in runs if r.get("steal_ms", 0) == 0]
            m, mc = L.medians(runs), L.medians(clean)
            steals = [r.get("steal_ms", 0) for r in runs]
            if rate == 5000:
                lag5k[name] = {"clean_p99": mc.get("pacer_p99_us"), "clean_runs": len(clean),
                               "runs": len(runs), "all_p99": m.get("pacer_p99_us")}
            table.append([rate, name, f"{len(runs)}, {len(clean)}",
                          L.f3(m.get("rps", 0) / rate if m else None),
                          L.f0(m.get("lag_p50_us")), L.f0(mc.get("lag_p99_us")),
                          L.f0(mc.get("pacer_p99_us")), L.f0(mc.get("lag_max_us")),
                          L.f0(m.get("lag_p99_us")), _steal_cell(steals),
                          L.f1(m.get("queued_pct")), L.f0(m.get("client_pct"))])
    out.append(L.md_table(hdr, table))
    out.append("The floor is `bench_timer`: the default pacer's absolute-timerfd sleeps with no "
               "I/O at all (and no early wake), on the same core, interleaved: what the kernel's "
               "timers and the hypervisor impose on any sleeping client. hey has no intended "
               "schedule: only its achieved rate compares "
               f"(`-q` is per worker: q = rate / {plan.pace_conns}).\n")
    hdr = ["target/s", "floor p50 us", "floor p99 us, no steal", "floor p99 us, all runs",
           "floor steal ms/run, median (max)", "hey achieved/target", "hey client CPU %"]
    table = []
    for rate in plan.pace_rates:
        floor = rows.get((rate, "floor"), [])
        fl, flc = L.medians(floor), L.medians([r for r in floor if r.get("steal_ms", 0) == 0])
        h = L.medians(rows.get((rate, "hey"), []))
        if rate == 5000:
            lag5k["floor_p99"] = flc.get("lag_p99_us", fl.get("lag_p99_us"))
        table.append([rate, L.f0(fl.get("lag_p50_us")), L.f0(flc.get("lag_p99_us")),
                      L.f0(fl.get("lag_p99_us")),
                      _steal_cell([r.get("steal_ms", 0) for r in floor]),
                      L.f3(h.get("rps", 0) / rate if h else None), L.f0(h.get("client_pct"))])
    out.append(L.md_table(hdr, table))
    out.append(L.commands(cmds))
    return lag5k


QUIET_STEAL = 0.001  # part 7's quiet runs: under 0.1 % of the run stolen


def quiet_bound(rate, conns, rb, fl):
    """Part 7's lag bound over the runs the hypervisor left alone."""
    def quiet(runs):
        return [r for r in runs if r.get("steal_ms", 0) < QUIET_STEAL * r.get("wall_s", 0) * 1e3]
    qr, qf = quiet(rb), quiet(fl)
    pp99, fp99 = L.medians(qr).get("pacer_p99_us"), L.medians(qf).get("lag_p99_us")
    bound = max(1.5 * fp99, fp99 + 50) if fp99 is not None else None
    within = "-" if bound is None or pp99 is None else ("yes" if pp99 <= bound else "no")
    return [f"{rate:,}, {conns}", f"{len(qr)} of {len(rb)}, {len(qf)} of {len(fl)}", L.f0(pp99),
            L.f0(fp99), L.f0(bound), within]


def part_open_loop(plan, srv, bodies, out):
    """7. Open loop at fixed rates: client CPU per request, latency p99 and
    pacer-lag p99 for rpcbench, the bare timer floor, and wrk2 when WRK2
    names its binary (it is not packaged): JSON-RPC ping, interleaved."""
    proto = "jsonrpc"
    timer = os.path.join(ROOT, os.environ.get("BUILD", "build/rel"), "bench", "bench_timer")
    wrk2 = os.environ.get("WRK2")
    before = os.environ.get("BENCH_BEFORE")  # another rpcbench binary, side by side
    # rpcbench-1ms: --pacer-window 1ms, wrk2's own pacing step (its timers
    # are in ms), beyond the precision bound: what the wake-ups cost.
    # rpcbench-auto: --pacer-window auto against the default's fixed 50 us.
    windows = {"rpcbench-1ms": "1ms", "rpcbench-auto": "auto"}
    tools = ["rpcbench", "floor", "rpcbench-auto", "rpcbench-1ms"] + \
        (["wrk2"] if wrk2 else []) + (["before"] if before else [])
    conns_of = dict(plan.ol_cells)

    def command(rate, tool):
        if tool == "floor":
            return [timer, str(rate), str(plan.ol_s)], L.parse_timer
        if tool == "wrk2":
            return L.wrk2_cmd(wrk2, srv, proto, bodies[proto], conns_of[rate], rate, plan.ol_s,
                              LUA)
        extra = ("--pacer-window", windows[tool]) if tool in windows else ()
        return L.rpcbench_cmd(before if tool == "before" else RPCBENCH, srv, proto, "ping", rate,
                              conns_of[rate], plan.ol_s, extra=extra)
    rows, cmds = L.interleaved(plan.ol_reps, list(conns_of), tools, command, srv)
    out.append("## 7. Open loop against wrk2 (JSON-RPC ping)\n")
    out.append(f"{plan.ol_s} s per run, {plan.ol_reps} runs per cell, interleaved, client on "
               "CPU 0 and server on CPU 1. Client CPU-us/req is user+sys over the client's "
               "whole life per answered request; the floor's is per timer wake-up (one wake, "
               "no I/O). Latency p99 is from the intended send time for both tools (wrk2's "
               "corrected histogram, rpcbench's latency). Pacer-lag p99 is rpcbench's "
               "`pacing_lag_ms`; the floor's is `bench_timer`'s wake-up lag at the same rate; "
               "the bound is the larger of 1.5x the floor's p99 and its p99 + 50 us. "
               + ("wrk2: `$WRK2` (bench/README.md says how it was built)." if wrk2 else
                  "wrk2 was not run: give `WRK2=/path/to/wrk2/wrk` (bench/README.md says how "
                  "to build it).") + "\n")
    hdr = ["rate/s, conns", "rpcbench CPU-us/req", "wrk2 CPU-us/req", "ratio",
           "floor CPU-us/wake", "rpcbench p99 ms", "wrk2 p99 ms", "rpcbench pacer p99 us",
           "floor p99 us", "bound us", "within", "rpcbench achieved/target",
           "wrk2 achieved/target", "runs with steal"]
    table, summary, quiet_rows = [], {}, []
    for rate, conns in plan.ol_cells:
        rb, fl, w2 = (rows.get((rate, t), []) for t in ("rpcbench", "floor", "wrk2"))
        for r in fl:
            if r.get("requests"):
                r["cpu_us_req"] = r["cpu_s"] * 1e6 / r["requests"]
        m, f, w = L.medians(rb), L.medians(fl), L.medians(w2)
        ratios = [a["cpu_us_req"] / b["cpu_us_req"] for a, b in zip(rb, w2)
                  if a.get("cpu_us_req") and b.get("cpu_us_req")]
        ratio = statistics.median(ratios) if ratios else None
        fp99 = f.get("lag_p99_us")
        bound = max(1.5 * fp99, fp99 + 50) if fp99 is not None else None
        pp99 = m.get("pacer_p99_us")
        steal = sum(1 for r in rb + fl + w2 if r.get("steal_ms", 0) > 0)
        quiet_rows.append(quiet_bound(rate, conns, rb, fl))
        summary[rate] = {"ratio": ratio, "pacer": pp99, "bound": bound,
                         "p99": m.get("lat_p99_ms"), "wrk2_p99": w.get("lat_p99_ms")}
        table.append([f"{rate:,}, {conns}", L.f1(m.get("cpu_us_req")), L.f1(w.get("cpu_us_req")),
                      L.f2(ratio), L.f1(f.get("cpu_us_req")), L.f3(m.get("lat_p99_ms")),
                      L.f3(w.get("lat_p99_ms")), L.f0(pp99), L.f0(fp99), L.f0(bound),
                      "-" if bound is None or pp99 is None else
                      ("yes" if pp99 <= bound else "no"),
                      L.f3(m["rps"] / rate if m.get("rps") else None),
                      L.f3(w["rps"] / rate if w.get("rps") else None), steal])
    out.append(L.md_table(hdr, table))
    out.append("The pacer-lag bound again over the quiet runs only: those that lost under "
               f"{QUIET_STEAL * 100:g} % of the client's CPU to the hypervisor (a steal of "
               "10-20 ms stalls a hundred sends at 5k/s, which is the p99 of a 10 s run).\n")
    out.append(L.md_table(["rate/s, conns", "quiet runs: rpcbench, floor", "rpcbench pacer p99 us",
                           "floor p99 us", "bound us", "within"], quiet_rows))
    out.append("At wrk2's own pacing step, `--pacer-window 1ms` (beyond the precision bound: "
               "sends wait up to 1 ms for their wake, and that wait is in the latency, as in "
               "wrk2's):\n")
    hdr = ["rate/s, conns", "rpcbench 1ms CPU-us/req", "wrk2 CPU-us/req", "ratio",
           "rpcbench 1ms p99 ms", "wrk2 p99 ms", "rpcbench 1ms pacer p99 us"]
    rows_1ms = []
    for rate, conns in plan.ol_cells:
        r1, w2 = rows.get((rate, "rpcbench-1ms"), []), rows.get((rate, "wrk2"), [])
        m1, w = L.medians(r1), L.medians(w2)
        rs = [a["cpu_us_req"] / b["cpu_us_req"] for a, b in zip(r1, w2)
              if a.get("cpu_us_req") and b.get("cpu_us_req")]
        rows_1ms.append([f"{rate:,}, {conns}", L.f1(m1.get("cpu_us_req")),
                         L.f1(w.get("cpu_us_req")), L.f2(statistics.median(rs) if rs else None),
                         L.f3(m1.get("lat_p99_ms")), L.f3(w.get("lat_p99_ms")),
                         L.f0(m1.get("pacer_p99_us"))])
    out.append(L.md_table(hdr, rows_1ms))
    out.append("What each pacer costs, in the same runs: the default window (a fixed 50 us) "
               "against `--pacer-window auto`" + (", and the binary before" if before else "")
               + ". Wakes per request are the pacer's timer wakes in the measured window.\n")
    hdr = ["rate/s, conns"] + [f"{t} {what}" for t in (["before"] if before else []) +
                               ["rpcbench", "rpcbench-auto"]
                               for what in ("CPU-us/req", "pacer p99 us", "wakes/req")] + \
        ["auto window mean us"]
    rows_w = []
    for rate, conns in plan.ol_cells:
        row = [f"{rate:,}, {conns}"]
        for t in (["before"] if before else []) + ["rpcbench", "rpcbench-auto"]:
            m = L.medians(rows.get((rate, t), []))
            row += [L.f1(m.get("cpu_us_req")), L.f0(m.get("pacer_p99_us")), L.f2(m.get("wakes_req"))]
        row.append(L.f0(L.medians(rows.get((rate, "rpcbench-auto"), [])).get("window_mean_us")))
        rows_w.append(row)
    out.append(L.md_table(hdr, rows_w))
    if before:
        out.append("Before and after, in the same runs: `$BENCH_BEFORE` (before) against "
                   f"`{os.path.relpath(RPCBENCH, ROOT)}` (after).\n")
        hdr = ["rate/s, conns", "CPU-us/req before", "after", "after/before", "p99 ms before",
               "after", "pacer p99 us before", "after"]
        rows_ba = []
        for rate, conns in plan.ol_cells:
            b, a = (L.medians(rows.get((rate, t), [])) for t in ("before", "rpcbench"))
            rb, ra = rows.get((rate, "before"), []), rows.get((rate, "rpcbench"), [])
            rs = [x["cpu_us_req"] / y["cpu_us_req"] for x, y in zip(ra, rb)
                  if x.get("cpu_us_req") and y.get("cpu_us_req")]
            rows_ba.append([f"{rate:,}, {conns}", L.f1(b.get("cpu_us_req")),
                            L.f1(a.get("cpu_us_req")), L.f2(statistics.median(rs) if rs else None),
                            L.f3(b.get("lat_p99_ms")), L.f3(a.get("lat_p99_ms")),
                            L.f0(b.get("pacer_p99_us")), L.f0(a.get("pacer_p99_us"))])
        out.append(L.md_table(hdr, rows_ba))
    out.append(L.commands(cmds))
    return summary


def _steal_cell(steals):
    return f"{L.f0(statistics.median(steals))} ({L.f0(max(steals))})" if steals else "-"


def part_check_cost(plan, srv, codec, out):
    """3. Client CPU per getAllVmStats response, per --validate mode."""
    modes = ("none", "cheap", "full")
    rows, cmds = {}, {}
    for rep in range(plan.reps):
        for proto in PROTOS:
            rate = plan.check_rates[proto]
            # Baseline: the same run with ping at the same rate: its fixed
            # cost (start, sampler, JSON output) and the pacer's per-request
            # cost (its early wake spins up to 1 % of a core at low rates),
            # subtracted below, so what is left is the big response's.
            argv, parse = L.rpcbench_cmd(RPCBENCH, srv, proto, "ping", str(rate), 4,
                                         plan.check_s, "cheap")
            rows.setdefault((proto, "base"), []).append(L.measure(argv, srv, parse))
            for mode in modes:
                argv, parse = L.rpcbench_cmd(RPCBENCH, srv, proto, "getAllVmStats", str(rate),
                                             4, plan.check_s, mode)
                rows.setdefault((proto, mode), []).append(L.measure(argv, srv, parse))
                cmds[(proto, mode)] = argv
    out.append("## 3. Response checking cost (getAllVmStats, 150 VMs)\n")
    out.append(f"### 3a. In a run: client CPU per response\n\nrpcbench at a rate the server "
               f"sustains ({', '.join(f'{p} {r}/s' for p, r in plan.check_rates.items())}), "
               f"{plan.check_s} s, 4 connections, medians of {plan.reps}. CPU-us/resp = "
               "(client CPU of the run - client CPU of a baseline run that sends ping at "
               "the same rate) / responses: what a 150-VM response costs the client beyond a "
               "ping's: receive, HTTP framing and the check. Responses/s per client core = "
               "1e6 / CPU-us/resp. A rate the client cannot keep up with shows as fewer "
               "responses.\n")
    hdr = ["proto", "validate", "responses", "MB/resp", "client CPU-us/resp", "vs none",
           "responses/s per client core", "server CPU %"]
    table, summary = [], {}
    for proto in PROTOS:
        base = L.medians(rows[(proto, "base")]).get("cpu_s", 0)
        per = {}
        for mode in modes:
            samples = [dict(r, marg=(r["cpu_s"] - base) * 1e6 / r["ok"])
                       for r in rows[(proto, mode)] if r.get("ok")]
            per[mode] = L.medians(samples)
        for mode in modes:
            m = per[mode]
            table.append([proto, mode, L.f0(m.get("ok")),
                          L.f2(m.get("rx_bytes", 0) / m["ok"] / 1e6 if m.get("ok") else None),
                          L.f0(m.get("marg")), L.ratio(m.get("marg"), per["none"].get("marg")),
                          L.f0(1e6 / m["marg"] if m.get("marg", 0) > 0 else None),
                          L.f0(m.get("server_pct"))])
            if proto == "xmlrpc" and mode == "cheap" and m.get("marg", 0) > 0:
                summary["in_run"] = 1e6 / m["marg"]
    out.append(L.md_table(hdr, table))
    out.append(L.commands(cmds))
    out.append("### 3b. Plain loops: check and decode per 150-VM response\n\n"
               "From part 4's runs (same binary, CPU 0). Goal: cheap check > 1,000 XML-RPC "
               "responses/s per core. `status last` moves VDSM's status member after the "
               "list (as a Python 2 dict may order it), so the cheap check must scan.\n")
    hdr = ["proto", "operation", "us/response", "responses/s per core", "vs full decode"]
    table = []
    for proto in PROTOS:
        full = codec.get(("getAllVmStats", 150, proto, "decode_response"))
        for op, name in (("check_response", "cheap check"),
                         ("check_status_last", "cheap check, status last"),
                         ("decode_response", "full decode")):
            us = codec.get(("getAllVmStats", 150, proto, op))
            if us is None:
                continue
            if proto == "xmlrpc":
                summary[op] = 1e6 / us
            table.append([proto, name, L.f2(us), L.f0(1e6 / us), L.ratio(full, us)])
    out.append(L.md_table(hdr, table))
    return summary


def part_codec(plan, out):
    """4. Encoders, plain loops: us per call and MB/s."""
    exe = os.path.join(ROOT, os.environ.get("BUILD", "build/rel"), "bench", "bench_codec")
    argv = L.pin(L.CLIENT_CPU, [exe, str(plan.codec_ms), str(plan.reps), plan.codec_vms])
    res = subprocess.run(argv, capture_output=True, text=True, timeout=240)
    samples = {}
    for line in res.stdout.splitlines()[1:]:
        rep, verb, vms, enc, op, nbytes, us = line.split("\t")
        samples.setdefault((verb, int(vms), enc, op), []).append((int(nbytes), float(us)))
    codec = {k: statistics.median(u for _, u in v) for k, v in samples.items()}
    size = {k: v[0][0] for k, v in samples.items()}
    out.append("## 4. Encoders, plain loops\n")
    out.append(f"`{L.portable(' '.join(argv))}` (exit {res.returncode}): every operation warmed up once, "
               f"then looped for {plan.codec_ms} ms; the grid repeated {plan.reps} times, "
               "interleaved; medians. Documents are the simulator's own answers (vmsim, "
               "seed 1). Server side: parse_call, render_result; client side: render_request "
               "(once per run: each send only stamps the id), check_response (cheap), "
               "decode_response (full). MB/s over the document the operation reads or "
               "writes.\n")
    hdr = ["verb", "VMs", "side", "operation", "xmlrpc bytes", "xmlrpc us", "xmlrpc MB/s",
           "jsonrpc bytes", "jsonrpc us", "jsonrpc MB/s", "xml/json time"]
    side = {"render_request": "client", "check_response": "client", "decode_response": "client",
            "check_status_last": "client", "parse_call": "server", "render_result": "server"}
    table = []
    cases = sorted({(v, n) for v, n, _, _ in codec}, key=lambda c: (c[1], c[0] != "ping", c[0]))
    for verb, vms in cases:
        for op in ("parse_call", "render_result", "render_request", "check_response",
                   "check_status_last", "decode_response"):
            cells = []
            for enc in PROTOS:
                k = (verb, vms, enc, op)
                us = codec.get(k)
                cells += [size.get(k, "-"), L.f2(us), L.f1(size[k] / us if us else None)]
            if cells[1] == "-" and cells[4] == "-":
                continue
            table.append([verb, vms, side[op], op] + cells +
                         [L.ratio(codec.get((verb, vms, "xmlrpc", op)),
                                  codec.get((verb, vms, "jsonrpc", op)))])
    out.append(L.md_table(hdr, table))
    if res.returncode:
        out.append(f"bench_codec failed: {res.stderr.strip()[:300]}\n")
    return codec


def part_memory(plan, srv, bodies, out):
    """5. Peak RSS for a short and a long run at 1k/s: all four at once."""
    proto = "xmlrpc"
    runs = []
    for tool in ("rpcbench", "hey"):
        if not L.have(tool):
            continue
        for secs in (plan.mem_short_s, plan.mem_long_s):
            argv, parse = L.paced_cmd(tool, srv, proto, bodies[proto], plan.mem_conns,
                                      plan.mem_rate, secs, RPCBENCH)
            runs.append((tool, secs, argv, parse))
    results = [None] * len(runs)

    def one(i):
        tool, secs, argv, parse = runs[i]
        results[i] = L.measure(argv, srv, parse)

    threads = [threading.Thread(target=one, args=(i,)) for i in range(len(runs))]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    out.append("## 5. Memory: peak RSS at 1k requests/s (XML-RPC ping)\n")
    out.append(f"{plan.mem_short_s} s and {plan.mem_long_s} s runs, {plan.mem_conns} "
               "connections, one repetition; all runs at the same time, clients on CPU 0, "
               "server on CPU 1 (the server handles the sum, far below its capacity). Peak "
               "RSS is the client's ru_maxrss (= VmHWM).\n")
    hdr = ["tool", "duration s", "achieved/s", "peak RSS KiB", "long/short", "vs hey"]
    rss = {(runs[i][0], runs[i][1]): results[i] for i in range(len(runs))}
    table = []
    for tool, secs, _, _ in runs:
        r = rss[(tool, secs)]
        table.append([tool, secs, L.f0(r.get("rps")), r.get("maxrss_kb"),
                      L.ratio(r.get("maxrss_kb"), rss[(tool, plan.mem_short_s)].get("maxrss_kb")),
                      L.ratio(r.get("maxrss_kb"), rss.get(("hey", secs), {}).get("maxrss_kb"))])
    out.append(L.md_table(hdr, table))
    out.append(L.commands({(t, s): a for t, s, a, _ in runs}))
    return {s: rss[("rpcbench", s)].get("maxrss_kb") for s in (plan.mem_short_s, plan.mem_long_s)}


def part_server_cpu(plan, srv, out):
    """6. Server CPU-ms per call of `rpcbench serve` (150 VMs), by verb and
    wire: the figure that compares encodings, read by the run itself from
    the kernel's nanosecond counts (schedstat)."""
    verbs = ("ping", "list", "fullList", "getAllVmStats")
    wires = (("xmlrpc", "http", srv.url("xmlrpc")), ("jsonrpc", "http", srv.url("jsonrpc")),
             ("jsonrpc", "stomp", f"stomp://127.0.0.1:{srv.port}"))
    rows, cmds = {}, {}
    for rep in range(plan.reps):
        for verb in verbs:
            for proto, wire, url in wires:
                path = os.path.join(L.TMP, f"cpu-{time.monotonic_ns()}.json")
                argv = [RPCBENCH, "run", "--url", url, "-p", proto, "--verb", verb,
                        "--rate", str(plan.srvcpu_rate), "-d", f"{plan.srvcpu_s}s",
                        "--warmup", f"{plan.srvcpu_warmup_s}s", "--server-pid", str(srv.pid),
                        "--quiet", "--output", path]

                def parse(_stdout, path=path):
                    with open(path) as f:
                        d = json.load(f)
                    os.unlink(path)
                    c = d["server_cpu"]
                    return {"ok": d["requests"]["ok"], "ms": c.get("cpu_ms_per_call"),
                            "source": c.get("source"),
                            "kb": d["bytes"]["received"] / max(d["requests"]["ok"], 1) / 1e3}
                rows.setdefault((verb, proto, wire), []).append(L.measure(argv, srv, parse))
                cmds[(verb, proto, wire)] = argv
    out.append("## 6. Server CPU per call, by verb and wire (`rpcbench serve`, 150 VMs)\n")
    out.append(f"rpcbench run at {plan.srvcpu_rate}/s for {plan.srvcpu_s} s after a "
               f"{plan.srvcpu_warmup_s} s warmup, the server pinned apart; CPU-ms/call is the "
               f"run's own figure (schedstat, ns), median of {plan.reps}. `fullList` is VDSM's "
               "full VM definitions (XML-RPC `list(True, [])`, JSON-RPC `Host.getVMFullList`).\n")
    hdr = ["verb", "encoding", "wire", "server CPU-ms/call", "kB/response", "vs xmlrpc"]
    table, summary = [], {}
    for verb in verbs:
        base = L.medians(rows[(verb, "xmlrpc", "http")]).get("ms")
        for proto, wire, _ in wires:
            m = L.medians(rows[(verb, proto, wire)])
            table.append([verb, proto, wire, L.f3(m.get("ms")), L.f1(m.get("kb")),
                          L.ratio(m.get("ms"), base)])
            if verb == "getAllVmStats":
                summary[f"{proto}-{wire}"] = m.get("ms")
    out.append(L.md_table(hdr, table))
    out.append(L.commands(cmds))
    return summary


class Scraper:
    """GET /metrics every period_s on 127.0.0.1:port from a thread, as a
    Prometheus scraping fast would, until stopped; counts the answers."""

    def __init__(self, port, period_s=0.1):
        self.port, self.period_s, self.ok = port, period_s, 0
        self.done = threading.Event()
        self.thread = threading.Thread(target=self.loop, daemon=True)

    def loop(self):
        import urllib.request
        while not self.done.wait(self.period_s):
            try:
                with urllib.request.urlopen(f"http://127.0.0.1:{self.port}/metrics",
                                            timeout=1) as r:
                    r.read()
                    self.ok += 1
            except OSError:
                pass  # not listening yet, or over

    def __enter__(self):
        self.thread.start()
        return self

    def __exit__(self, *exc):
        self.done.set()
        self.thread.join()


def _interleaved(reps, rate, secs, srv, bodies, name, variant):
    """Parts 8 and 9: reps runs of XML-RPC ping at rate over 50 connections
    for secs, plain and the variant called name, in turns whose order
    alternates; variant(argv, parse) measures one variant run and returns
    (its figures, the argv it ran). Returns (figures by tool, last argv by
    tool)."""
    rows, cmds = {}, {}
    for rep in range(reps):
        for tool in (("plain", name) if rep % 2 == 0 else (name, "plain")):
            argv, parse = L.paced_cmd("rpcbench", srv, "xmlrpc", bodies["xmlrpc"], 50,
                                      rate, secs, RPCBENCH)
            if tool == "plain":
                r = L.measure(argv, srv, parse)
            else:
                r, argv = variant(argv, parse)
            rows.setdefault(tool, []).append(r)
            cmds[tool] = argv
    return rows, cmds


def part_scrape(plan, srv, bodies, out):
    """8. --metrics-listen scraped every 100 ms during a 5k/s run, against
    the same run unscraped, interleaved: what the scrapes cost the pacing
    and the client."""
    def scraped(argv, parse):
        port = L.free_port()
        argv = argv + ["--metrics-listen", f"127.0.0.1:{port}"]
        with Scraper(port) as sc:
            r = L.measure(argv, srv, parse)
        r["scrapes"] = sc.ok
        return r, argv

    rows, cmds = _interleaved(plan.scrape_reps, plan.scrape_rate, plan.scrape_s, srv, bodies,
                              "scraped", scraped)
    out.append("## 8. Live metrics: scraped every 100 ms during a 5k/s run\n")
    out.append(f"XML-RPC ping at {plan.scrape_rate}/s, 50 connections, {plan.scrape_s} s, "
               f"{plan.scrape_reps} runs each, interleaved: plain, and with `--metrics-listen` "
               "while a thread of this script GETs /metrics every 100 ms (ten times Prometheus' "
               "usual fastest). Medians.\n")
    hdr = ["run", "scrapes answered", "achieved/target", "pacer lag p99 us", "lag p99 us",
           "latency p99 ms", "client CPU us/request", "steal ms/run"]
    return _plain_vs(rows, ("plain", "scraped"), plan.scrape_rate, hdr, cmds, out,
                     lambda tool, m: [L.f0(m.get("scrapes")) if tool == "scraped" else "-"])


def _plain_vs(rows, tools, rate, hdr, cmds, out, first_cells):
    """Parts 8 and 9: a row of medians per tool (first_cells(tool, m): its
    own columns, then the pacing ones), the table and commands appended to
    out. Returns each tool's pacer lag p99 and client CPU, for the summary."""
    table, summary = [], {}
    for tool in tools:
        m = L.medians(rows[tool])
        table.append([tool] + first_cells(tool, m) +
                     [L.f3(m.get("rps", 0) / rate if m else None),
                      L.f0(m.get("pacer_p99_us")), L.f0(m.get("lag_p99_us")),
                      L.f2(m.get("lat_p99_ms")), L.f1(m.get("cpu_us_req")),
                      L.f0(m.get("steal_ms"))])
        summary[tool] = {"pacer_p99_us": m.get("pacer_p99_us"), "cpu_us_req": m.get("cpu_us_req")}
    out.append(L.md_table(hdr, table))
    out.append(L.commands(cmds))
    return summary


def _logged_run(argv, srv, parse, log):
    """One run with --requests-log log: its figures (with the rows written
    and the file's size) and the argv it ran."""
    argv = argv + ["--requests-log", log]
    r = L.measure(argv, srv, parse)
    with open(log, "rb") as f:
        r["rows"] = sum(1 for _ in f) - 1  # the header
    r["log_mb"] = os.path.getsize(log) / 1e6
    os.unlink(log)
    return r, argv


def part_reqlog(plan, srv, bodies, out):
    """9. --requests-log during a 5k/s run, against the same run without
    it, interleaved: what writing one row per request costs the pacing and
    the client."""
    log = os.path.join(L.TMP, "req.csv")
    rows, cmds = _interleaved(plan.reqlog_reps, plan.reqlog_rate, plan.reqlog_s, srv, bodies,
                              "logged", lambda argv, parse: _logged_run(argv, srv, parse, log))
    out.append("## 9. Request log at 5k/s\n")
    out.append(f"XML-RPC ping at {plan.reqlog_rate}/s, 50 connections, {plan.reqlog_s} s, "
               f"{plan.reqlog_reps} runs each, interleaved: plain, and with `--requests-log` "
               "(plain CSV, a ring of 16,384 records drained by a writer thread at SCHED_IDLE). Medians; "
               "rows/s is the rows written over the run's length (a row dropped for a full "
               "ring would show as fewer).\n")
    hdr = ["run", "rows/s", "log MB", "achieved/target", "pacer lag p99 us", "lag p99 us",
           "latency p99 ms", "client CPU us/request", "steal ms/run"]
    return _plain_vs(rows, ("plain", "logged"), plan.reqlog_rate, hdr, cmds, out,
                     lambda tool, m: [L.f0(m.get("rows", 0) / plan.reqlog_s), L.f1(m.get("log_mb"))]
                     if tool == "logged" else ["-", "-"])


FIXED_WL = '{"name": "p", "method": "ping", "params": ["vm-0", 7, "00000000-0000-4000-8000-000000000000", "gid-a1"]}\n'
TMPL_WL = '{"name": "p", "method": "ping", "params": ["vm-${seq}", "${rand:1:9}", "${uuid}", "${pick:picks.txt}"]}\n'


def part_templates(plan, srv, bodies, out):
    """10. The client CPU per request of a templated workload (four
    templates a request, stamped per send) against the same call with
    fixed params, side by side in one run of this script, interleaved."""
    files = {}
    for tool, text in (("fixed", FIXED_WL), ("templated", TMPL_WL)):
        files[tool] = os.path.join(L.TMP, tool + ".jsonl")
        with open(files[tool], "w") as f:
            f.write(text)
    with open(os.path.join(L.TMP, "picks.txt"), "w") as f:
        f.write("gid-a1\ngid-b2\ngid-c3\n")
    rows, cmds = {}, {}
    for rep in range(plan.tmpl_reps):
        for tool in (("fixed", "templated") if rep % 2 == 0 else ("templated", "fixed")):
            argv, parse = L.paced_cmd("rpcbench", srv, "xmlrpc", bodies["xmlrpc"], 50,
                                      plan.tmpl_rate, plan.tmpl_s, RPCBENCH)
            i = argv.index("--verb")
            argv[i:i + 2] = ["--workload", files[tool]]
            rows.setdefault(tool, []).append(L.measure(argv, srv, parse))
            cmds[tool] = argv
    out.append("## 10. Templated workload: client CPU per request\n")
    out.append(f"XML-RPC `ping` with four params at {plan.tmpl_rate}/s, 50 connections, "
               f"{plan.tmpl_s} s, {plan.tmpl_reps} runs each, interleaved: `--workload` with "
               "fixed params, and the same call with `${seq}`, `${rand}`, `${uuid}` and "
               "`${pick}` stamped per request. Medians; the target is a ratio <= 1.2.\n")
    hdr = ["run", "achieved/target", "pacer lag p99 us", "lag p99 us", "latency p99 ms",
           "client CPU us/request", "steal ms/run"]
    summary = _plain_vs(rows, ("fixed", "templated"), plan.tmpl_rate, hdr, cmds, out,
                        lambda tool, m: [])
    a, b = summary["fixed"]["cpu_us_req"], summary["templated"]["cpu_us_req"]
    if a and b:
        out.append(f"templated / fixed client CPU per request: {b / a:.2f}\n")
    return summary


# ---------------------------------------------------------------- main ---

def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--quick", action="store_true", help="short runs, to try the script")
    ap.add_argument("--out", default=os.path.join(ROOT, "bench", "RESULTS.md"))
    ap.add_argument("--parts", default="123456789TPF")
    args = ap.parse_args()
    plan = Plan(args.quick)
    t0 = time.time()
    tmp = tempfile.mkdtemp(prefix="rpcbench-bench-")
    L.TMP = tmp
    out = [L.header(RPCBENCH, plan, args.quick)]
    srv = L.Server(RPCBENCH, vms=150)
    summary = {}
    try:
        bodies = {p: L.capture_request(RPCBENCH, p, "ping", tmp) for p in PROTOS}
        out.append(L.bodies_section(bodies))
        codec = {}
        if "1" in args.parts:
            L.log("part 1: closed-loop throughput")
            summary["tput"] = part_throughput(plan, srv, bodies, out)
        if "2" in args.parts:
            L.log("part 2: pacing")
            summary["lag5k"] = part_pacing(plan, srv, bodies, out)
        if "4" in args.parts or "3" in args.parts:
            L.log("part 4: encoders (plain loops)")
            part4 = []
            codec = part_codec(plan, part4)
        if "3" in args.parts:
            L.log("part 3: response checking cost")
            summary["cheap"] = part_check_cost(plan, srv, codec, out)
        if "4" in args.parts:
            out.extend(part4)
        if "5" in args.parts:
            L.log("part 5: memory")
            summary["rss"] = part_memory(plan, srv, bodies, out)
        if "6" in args.parts:
            L.log("part 6: server CPU per call")
            summary["srvcpu"] = part_server_cpu(plan, srv, out)
        if "7" in args.parts:
            L.log("part 7: open loop against wrk2")
            summary["openloop"] = part_open_loop(plan, srv, bodies, out)
        if "8" in args.parts:
            L.log("part 8: live metrics scraped during a 5k/s run")
            summary["scrape"] = part_scrape(plan, srv, bodies, out)
        if "9" in args.parts:
            L.log("part 9: request log during a 5k/s run")
            summary["reqlog"] = part_reqlog(plan, srv, bodies, out)
        if "T" in args.parts:
            L.log("part 10: templated workload against fixed")
            summary["tmpl"] = part_templates(plan, srv, bodies, out)
        if "P" in args.parts:
            L.log("part P: what --profile costs the server")
            spin = os.path.join(ROOT, os.environ.get("BUILD", "build/rel"), "bench", "bench_spin")
            summary["profile"] = part_profile(plan, RPCBENCH, spin, srv, out)
        if "F" in args.parts:
            L.log("part 11: a fleet of hosts")
            summary["fleet"] = part_fleet(plan, RPCBENCH, out)
    finally:
        srv.stop()
        shutil.rmtree(tmp, ignore_errors=True)
    out.append(L.footer(summary, time.time() - t0))
    kept = L.kept_observations(args.out)
    with open(args.out, "w") as f:
        f.write("\n".join(out) + kept)
    L.log(f"wrote {args.out} in {time.time() - t0:.0f} s")
    print(L.footer(summary, time.time() - t0))
    return 0


if __name__ == "__main__":
    sys.exit(main())
