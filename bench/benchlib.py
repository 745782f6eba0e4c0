"""benchlib: the plumbing of bench.py: the server, the three clients'
command lines and output parsers, one measured run, and markdown."""
import json
import os
import re
import select
import shlex
import shutil
import signal
import socket
import statistics
import subprocess
import sys
import threading
import time

NCPU = os.cpu_count() or 1
PIN = NCPU >= 2 and shutil.which("taskset") is not None
CLIENT_CPU = "0" if PIN else None
SERVER_CPU = "1" if PIN else None
TMP = "/tmp"


def log(msg):
    print(f"bench: {msg}", file=sys.stderr, flush=True)


def have(tool):
    return tool == "rpcbench" or shutil.which(tool) is not None


def pin(cpu, argv):
    return ["taskset", "-c", cpu] + argv if cpu is not None else argv


def proc_cpu_s(pid):
    """utime+stime of pid (all threads) in seconds, or None."""
    try:
        with open(f"/proc/{pid}/stat") as f:
            fields = f.read().rsplit(")", 1)[1].split()
        return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")
    except (OSError, IndexError, ValueError):
        return None


class Server:
    """One `rpcbench serve` on an ephemeral loopback port, pinned."""

    def __init__(self, rpcbench, vms):
        argv = pin(SERVER_CPU, [rpcbench, "serve", "--listen", "127.0.0.1:0", "--vms", str(vms)])
        self.argv = argv
        self.p = subprocess.Popen(argv, stdout=subprocess.PIPE, stderr=subprocess.DEVNULL)
        self.port = None
        deadline = time.time() + 10
        line = b""
        while time.time() < deadline and self.port is None:
            r, _, _ = select.select([self.p.stdout], [], [], 0.5)
            if r:
                line = self.p.stdout.readline()
                if not line:
                    break
                m = re.search(rb"listening on ([\d.]+):(\d+)", line)
                if m:
                    self.port = int(m.group(2))
        if self.port is None:
            self.stop()
            raise RuntimeError(f"rpcbench serve did not start: {line!r}")
        self.pid = self.p.pid  # taskset execs: same pid

    def url(self, proto):
        return f"http://127.0.0.1:{self.port}{PATHS[proto]}"

    def cpu_s(self):
        return proc_cpu_s(self.pid)

    def stop(self):
        if self.p.poll() is None:
            self.p.send_signal(signal.SIGTERM)
            try:
                self.p.wait(5)
            except subprocess.TimeoutExpired:
                self.p.kill()
                self.p.wait()


PATHS = {"xmlrpc": "/RPC2", "jsonrpc": "/jsonrpc"}


def capture_request(rpcbench, proto, verb, tmp):
    """The exact request rpcbench sends for verb, read off the wire: a
    listening socket takes one request from a short rpcbench run, then the
    run is stopped. Returns {head, body, ctype, file}."""
    ls = socket.socket()
    ls.bind(("127.0.0.1", 0))
    ls.listen(4)
    ls.settimeout(10)
    port = ls.getsockname()[1]
    p = subprocess.Popen([rpcbench, "run", "-u", f"http://127.0.0.1:{port}{PATHS[proto]}",
                          "-p", proto, "--verb", verb, "--rate", "1", "-c", "1", "-d", "3s",
                          "--timeout", "2s", "--quiet"],
                         stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    data = b""
    deadline = time.time() + 10
    try:  # rpcbench may probe the port first: take connections until a request
        while b"\r\n\r\n" not in data and time.time() < deadline:
            conn, _ = ls.accept()
            data = _read_request(conn)
            conn.close()
    finally:
        p.terminate()
        p.wait()
        ls.close()
    if b"\r\n\r\n" not in data:
        raise RuntimeError(f"no {proto} request captured from rpcbench run")
    head, body = data.split(b"\r\n\r\n", 1)
    ctype = re.search(rb"(?i)\r\ncontent-type:\s*([^\r]+)", head).group(1).decode()
    path = os.path.join(tmp, f"{proto}-{verb}.body")
    with open(path, "wb") as f:
        f.write(body)
    return {"head": head.decode(), "body": body.decode(), "ctype": ctype, "file": path}


def _read_request(conn):
    """One HTTP request (head + Content-Length body), or what came."""
    conn.settimeout(5)
    data = b""
    while True:
        head_end = data.find(b"\r\n\r\n")
        if head_end >= 0:
            m = re.search(rb"(?i)\r\ncontent-length:\s*(\d+)", data[:head_end])
            if m and len(data) >= head_end + 4 + int(m.group(1)):
                return data
        try:
            chunk = conn.recv(65536)
        except OSError:
            return data
        if not chunk:
            return data
        data += chunk


# ------------------------------------------------------------ clients ---

def rpcbench_cmd(rpcbench, srv, proto, verb, rate, conns, secs, validate="cheap", extra=()):
    out = os.path.join(TMP, f"run-{time.monotonic_ns()}.json")
    argv = [rpcbench, "run", "-u", srv.url(proto), "-p", proto, "--verb", verb,
            "--rate", str(rate), "-c", str(conns), "-d", f"{secs}s",
            "--validate", validate, *extra, "--quiet", "--output", out]

    def parse(_stdout):
        with open(out) as f:
            d = json.load(f)
        os.unlink(out)
        lag = d["send_lag_ms"]
        dur = d["duration_s"] or 1e-9
        return {"requests": d["requests"]["ok"], "ok": d["requests"]["ok"],
                "errors": d["requests"]["errors"] + d["requests"]["unfinished"],
                "rps": d["requests"]["ok"] / dur, "rx_bytes": d["bytes"]["received"],
                "lag_p50_us": lag["p50"] * 1e3, "lag_p99_us": lag["p99"] * 1e3,
                "lag_max_us": lag["max"] * 1e3,
                "pacer_p99_us": d["pacing_lag_ms"]["p99"] * 1e3,
                "lat_p99_ms": d["latency_ms"]["p99"],
                "queued_pct": 100 * d["requests"]["queued"] / max(d["requests"]["sent"], 1),
                # files from before the pacer counted its wakes have none
                "wakes_req": d.get("pacer", {}).get("wakes_per_request"),
                "window_mean_us": d.get("pacer", {}).get("window_us", {}).get("mean")}
    return argv, parse


def wrk_cmd(srv, proto, body, conns, secs, lua):
    argv = ["wrk", "-t1", "-c", str(conns), "-d", f"{secs}s", "-s", lua, srv.url(proto),
            "--", body["file"], body["ctype"]]

    def parse(stdout):
        m = re.search(r"wrk-summary requests=(\d+) duration_us=(\d+) errors=(\d+) non2xx=(\d+)",
                      stdout)
        n, us, err, non2xx = (int(x) for x in m.groups())
        return {"requests": n - non2xx, "errors": err + non2xx, "rps": (n - non2xx) / (us / 1e6)}
    return argv, parse


def wrk2_cmd(exe, srv, proto, body, conns, rate, secs, lua):
    """wrk2 (giltene/wrk2) at a fixed rate, one thread: its -L histogram is
    corrected for coordinated omission (from the intended send time)."""
    argv = [exe, "-t1", "-c", str(conns), "-d", f"{secs}s", "-R", str(rate), "-s", lua,
            srv.url(proto), "--", body["file"], body["ctype"]]

    def parse(stdout):
        r = wrk_cmd(srv, proto, body, conns, secs, lua)[1](stdout)
        m = re.search(r"wrk-summary .* p99_us=([\d.]+)", stdout)
        r["lat_p99_ms"] = float(m.group(1)) / 1e3
        return r
    return argv, parse


def hey_cmd(srv, proto, body, conns, secs, rate=None):
    argv = ["hey", "-m", "POST", "-D", body["file"], "-T", body["ctype"], "-c", str(conns),
            "-z", f"{secs}s"]
    if rate:
        argv += ["-q", f"{rate / conns:g}"]
    argv.append(srv.url(proto))

    def parse(stdout):
        ok = sum(int(n) for code, n in re.findall(r"\[(\d{3})\]\s+(\d+) responses", stdout)
                 if code.startswith("2"))
        bad = sum(int(n) for code, n in re.findall(r"\[(\d{3})\]\s+(\d+) responses", stdout)
                  if not code.startswith("2"))
        tail = stdout.split("Error distribution:", 1)[1] if "Error distribution:" in stdout else ""
        errs = sum(int(n) for n in re.findall(r"^\s+\[(\d+)\]", tail, re.M))
        total = re.search(r"Total:\s+([\d.]+) secs", stdout)
        secs_run = float(total.group(1)) if total else secs
        return {"requests": ok, "errors": bad + errs, "rps": ok / secs_run}
    return argv, parse


def parse_timer(stdout):
    n, p50, p99, mx = stdout.split()[:4]
    return {"requests": int(n), "lag_p50_us": float(p50), "lag_p99_us": float(p99),
            "lag_max_us": float(mx)}


def closed_loop_cmd(tool, srv, proto, body, conns, secs, rpcbench, lua):
    if tool == "rpcbench":
        return rpcbench_cmd(rpcbench, srv, proto, "ping", "max", conns, secs)
    if tool == "wrk":
        return wrk_cmd(srv, proto, body, conns, secs, lua)
    return hey_cmd(srv, proto, body, conns, secs)


def paced_cmd(tool, srv, proto, body, conns, rate, secs, rpcbench):
    """tool: rpcbench, rpcbench-poll (--busy-poll) or hey."""
    if tool.startswith("rpcbench"):
        extra = ("--busy-poll",) if tool == "rpcbench-poll" else ()
        return rpcbench_cmd(rpcbench, srv, proto, "ping", rate, conns, secs, extra=extra)
    return hey_cmd(srv, proto, body, conns, secs, rate)


def free_port():
    """A loopback port nothing listens on now (bound, then let go)."""
    import socket
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def steal_ms():
    """Per CPU, the milliseconds the hypervisor has run something else while
    this VM's vCPU wanted to run (/proc/stat's 8th column, USER_HZ ticks)."""
    hz = os.sysconf("SC_CLK_TCK")
    out = {}
    with open("/proc/stat") as f:
        for line in f:
            v = line.split()
            if v and v[0].startswith("cpu") and v[0] != "cpu" and len(v) > 8:
                out[int(v[0][3:])] = int(v[8]) * 1000 / hz
    return out


def measure(argv, srv, parse, timeout_s=120):
    """Runs one client pinned to CLIENT_CPU; returns the parser's figures
    plus cpu_s, cpu_us_req, client_pct, maxrss_kb, server_pct, wall_s and
    steal_ms (stolen from the client's CPU during the run)."""
    argv = pin(CLIENT_CPU, argv)
    out_path = os.path.join(TMP, f"out-{time.monotonic_ns()}.txt")
    st0 = steal_ms()
    s0, t0 = srv.cpu_s(), time.monotonic()
    with open(out_path, "w+") as out:
        p = subprocess.Popen(argv, stdout=out, stderr=subprocess.STDOUT)
        killer = threading.Timer(timeout_s, p.kill)
        killer.start()
        _, status, ru = os.wait4(p.pid, 0)
        killer.cancel()
        p.returncode = os.waitstatus_to_exitcode(status)
        wall = time.monotonic() - t0
        s1 = srv.cpu_s()
        out.seek(0)
        text = out.read()
    os.unlink(out_path)
    st1 = steal_ms()
    cpu = ru.ru_utime + ru.ru_stime
    # Unpinned, the client may run on any CPU: what was stolen from all.
    cpus = [int(CLIENT_CPU)] if CLIENT_CPU is not None else list(st1)
    r = {"cpu_s": cpu, "wall_s": wall, "maxrss_kb": ru.ru_maxrss, "client_pct": cpu / wall * 100,
         "steal_ms": sum(st1.get(c, 0) - st0.get(c, 0) for c in cpus),
         "server_pct": (s1 - s0) / wall * 100 if s0 is not None and s1 is not None else None,
         "exit": p.returncode}
    try:
        r.update(parse(text))
    except (AttributeError, KeyError, ValueError, OSError) as e:
        log(f"cannot parse the output of {' '.join(argv)} (exit {p.returncode}): {e}: "
            f"{text[-300:]!r}")
        return r
    if r.get("requests"):
        r["cpu_us_req"] = cpu * 1e6 / r["requests"]
    return r


def interleaved(reps, keys, tools, command, srv):
    """Runs every tool for every key, reps times, interleaved: repetition r
    runs all keys, each with the tools rotated by r, so drift hurts every
    tool alike. command(key, tool) gives (argv, parse). Returns rows
    {(key, tool): [figures...]} and the last command of each."""
    rows, cmds = {}, {}
    for rep in range(reps):
        for key in keys:
            for tool in tools[rep % len(tools):] + tools[:rep % len(tools)]:
                argv, parse = command(key, tool)
                rows.setdefault((key, tool), []).append(measure(argv, srv, parse))
                cmds[(key, tool)] = argv
    return rows, cmds


# ----------------------------------------------------------- markdown ---

def medians(rows):
    keys = {k for r in rows for k, v in r.items() if isinstance(v, (int, float))}
    return {k: statistics.median(r[k] for r in rows if isinstance(r.get(k), (int, float)))
            for k in keys}


def _fmt(x, nd):
    return "-" if x is None else f"{x:,.{nd}f}"


def f0(x):
    return _fmt(x, 0)


def f1(x):
    return _fmt(x, 1)


def f2(x):
    return _fmt(x, 2)


def f3(x):
    return _fmt(x, 3)


def ratio(a, b):
    return "-" if not a or not b else f"{a / b:.2f}"


OBSERVATIONS = "## Observations by hand"


def kept_observations(path):
    """The hand-written closing section of the RESULTS.md being replaced
    (from OBSERVATIONS on), so figures noted while writing the code survive
    `make bench`; "" when there is none."""
    try:
        with open(path) as f:
            text = f.read()
    except OSError:
        return ""
    at = text.find("\n" + OBSERVATIONS)
    return "" if at < 0 else text[at:]


def md_table(hdr, rows):
    lines = ["| " + " | ".join(hdr) + " |", "|" + "---|" * len(hdr)]
    lines += ["| " + " | ".join(str(c) for c in row) + " |" for row in rows]
    return "\n".join(lines) + "\n"


REPO = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))


def portable(text):
    """text with this machine's paths taken out: the repository's relative,
    the run's temporary directory as $TMP, and the binaries given by the
    environment as the variable that named them ($WRK2, $BENCH_BEFORE), so
    RESULTS.md says nothing of where it ran."""
    for var in ("WRK2", "BENCH_BEFORE"):
        if os.environ.get(var):
            text = text.replace(os.environ[var], "$" + var)
    return text.replace(TMP, "$TMP").replace(REPO + os.sep, "")


def commands(cmds):
    lines = ["Commands (last repetition; clients prefixed with "
             f"`{' '.join(pin(CLIENT_CPU, []))}`):\n", "```"]
    lines += [portable(" ".join(shlex.quote(a) for a in argv)) for argv in cmds.values()]
    return "\n".join(lines + ["```", ""])


def bodies_section(bodies):
    lines = ["## Request bodies\n",
             "Read off the wire from `rpcbench run --verb ping` (the JSON-RPC id is the first "
             "one rpcbench stamps; rpcbench stamps a new id per request, wrk and hey resend "
             "this one). wrk (`bench/post.lua`) and hey send the same body and Content-Type.\n"]
    for proto, b in bodies.items():
        lines += [f"{proto}:", "```", b["head"].replace("\r\n", "\n"), "", b["body"], "```", ""]
    return "\n".join(lines)


def _cpu_model():
    try:
        with open("/proc/cpuinfo") as f:
            for line in f:
                if line.startswith("model name"):
                    return line.split(":", 1)[1].strip()
    except OSError:
        pass
    return "unknown"


def _version(argv):
    try:
        r = subprocess.run(argv, capture_output=True, text=True, timeout=10)
        return (r.stdout + r.stderr).strip().splitlines()[0]
    except (OSError, IndexError, subprocess.TimeoutExpired):
        return "not installed"


def _sanitized(exe):
    try:
        with open(exe, "rb") as f:
            return b"__asan_init" in f.read()
    except OSError:
        return False


def header(rpcbench, plan, quick):
    rev = _version(["git", "-C", os.path.dirname(rpcbench), "rev-parse", "--short", "HEAD"])
    pinning = (f"server on CPU {SERVER_CPU}, every client on CPU {CLIENT_CPU} (taskset)"
               if PIN else "none (one CPU or no taskset)")
    return "\n".join([
        "# rpcbench benchmarks" + (" (QUICK: short runs, not for comparison)" if quick else ""),
        "",
        "Generated by `make bench` (bench/run.sh, bench/bench.py); do not edit by hand, except the\n"
        "closing \"Observations by hand\" section, which `make bench` keeps.",
        "",
        "| | |", "|---|---|",
        f"| date (UTC) | {time.strftime('%Y-%m-%d %H:%M', time.gmtime())} |",
        f"| commit | {rev} (working tree as built) |",
        f"| machine | nproc {NCPU}, {_cpu_model()}, kernel {os.uname().release} |",
        f"| load at start | {os.getloadavg()[0]:.2f} (1 min) |",
        f"| pinning | {pinning} |",
        f"| rpcbench | {_version([rpcbench, '--version'])}, `{os.path.relpath(rpcbench, REPO)}`"
        f"{' (SANITIZER BUILD: not representative)' if _sanitized(rpcbench) else ''} |",
        f"| wrk | {_version(['dpkg-query', '-W', '-f=${Version}', 'wrk'])} (one thread) |",
        f"| hey | {_version(['dpkg-query', '-W', '-f=${Version}', 'hey'])} |",
        f"| repetitions | {plan.reps}, interleaved; every figure is a median |",
        "",
        "Ratios compare tools measured in the same run, so they hold on a loaded machine; "
        "absolute figures do not.",
        ""])


def footer(summary, took_s):
    lines = ["## Summary\n"]
    for proto, r in (summary.get("tput") or {}).items():
        lines.append(f"- closed-loop throughput rpcbench/wrk, {proto} ping: {r:.2f}")
    lag = summary.get("lag5k") or {}
    for name in ("sleep", "busy-poll"):
        pl = lag.get(name)
        if not pl or not pl.get("runs"):
            continue
        clean = (f"{pl['clean_p99']:.0f} us in the {pl['clean_runs']} of {pl['runs']} runs "
                 "without hypervisor steal" if pl.get("clean_p99") is not None else
                 f"no run of {pl['runs']} was free of hypervisor steal")
        lines.append(f"- pacer-lag p99 at 5k/s, {name} pacer: {clean}; "
                     f"{_fmt(pl.get('all_p99'), 0)} us over all runs")
    if lag.get("floor_p99") is not None:
        lines.append(f"- timer floor p99 at 5k/s on the same core: {lag['floor_p99']:.0f} us")
    cheap = summary.get("cheap") or {}
    if cheap.get("in_run"):
        lines.append(f"- cheap check, XML-RPC 150 VMs, in a run (receive + framing + check): "
                     f"{cheap['in_run']:,.0f} responses/s per client core")
    if cheap.get("check_response"):
        lines.append(f"- cheap check alone, XML-RPC 150 VMs: {cheap['check_response']:,.0f} "
                     "responses/s per core with status first (as VDSM sends), "
                     f"{_fmt(cheap.get('check_status_last'), 0)} with status last")
    rss = summary.get("rss")
    if rss:
        (s, a), (l, b) = sorted(rss.items())
        lines.append(f"- rpcbench peak RSS {s} s: {a} KiB, {l} s: {b} KiB (ratio "
                     f"{ratio(b, a)})")
    cpu = summary.get("srvcpu") or {}
    if cpu.get("xmlrpc-http"):
        lines.append("- serve's CPU-ms per getAllVmStats (150 VMs): " + ", ".join(
            f"{k} {_fmt(v, 2)}" for k, v in cpu.items()) +
            f" (xmlrpc/jsonrpc-http {ratio(cpu.get('xmlrpc-http'), cpu.get('jsonrpc-http'))})")
    for key, tool, what in (("scrape", "scraped", "5k/s scraped every 100 ms vs not"),
                            ("reqlog", "logged", "5k/s with --requests-log vs without")):
        sc = summary.get(key) or {}
        if sc.get("plain") and sc.get(tool):
            lines.append(f"- {what}: pacer-lag p99 "
                         f"{_fmt(sc[tool].get('pacer_p99_us'), 0)} vs "
                         f"{_fmt(sc['plain'].get('pacer_p99_us'), 0)} us, client CPU "
                         f"{_fmt(sc[tool].get('cpu_us_req'), 1)} vs "
                         f"{_fmt(sc['plain'].get('cpu_us_req'), 1)} us/request")
    prof = summary.get("profile") or {}
    if prof:
        lines.append("- --profile (perf, fp, the default 99 Hz), what sampling adds to the CPU "
                     "of the work it samples: " + ", ".join(
                         f"{k} {v:+.1f} %" for k, v in prof.items()) + " (target < 5 %)")
    fl = summary.get("fleet")
    if fl:
        lines.append(f"- {fl['hosts']}-host fleet (getAllVmStats/15 s + list/3 s a host): "
                     f"achieved/target {_fmt(fl['achieved_ratio'], 3)}, p99 "
                     f"{_fmt(fl['p99_ms'], 1)} ms, errors {fl['errors']}, client "
                     f"{_fmt(fl['client_kb_host'], 0)} KiB per host")
    lines.append(f"\nTook {took_s:.0f} s; load at end {os.getloadavg()[0]:.2f} (1 min).\n")
    return "\n".join(lines)

