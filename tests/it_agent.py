"""The server's CPU from another host without MPI: `rpcbench agent` on the
server's host, `rpcbench run --server-agent` on the client's, here both on
loopback. A burner of half a core read through the agent as it is read
locally (tests/it_cpu.py's burner), and compare's arms and sweep's cells
each with the server's CPU through it; a wrong token refused before anything
is sent (exit 1, one line), and so is a server pid or name the agent's host
does not have; an agent killed mid-run leaves the server's
figures n/a from then on with a warning, never zeros; TLS with a client
certificate, and a client without one refused; the agent's own refusals
(no token, a head too long, another method, beyond --max-connections) and
its token file's checks; --idle-baseline with an agent refused before the
run (it would sample nothing)."""
import json
import os
import shutil
import socket
import subprocess
import sys
import tempfile
import time

from it_cpu import BURNER, measured_alongside  # the local test's burner and reading
from rpctest import (RPCBENCH, Listening, Peer, Server, check, kill_group, main, make_certs,
                     rpcbench, run_json, spawn)

def burner(name_dir=None):
    """it_cpu.py's burner of half a core, in a process group of its own."""
    exe = sys.executable
    if name_dir:  # a copy of python under another name, for --server-name
        exe = os.path.join(name_dir, "rpcburn")
        shutil.copy(sys.executable, exe)
    return spawn([exe, "-c", BURNER])


def token_file(d, text="s3cret-token\n", mode=0o600):
    path = os.path.join(d, "token")
    with open(path, "w") as f:
        f.write(text)
    os.chmod(path, mode)
    return path


class Agent(Listening):
    """`rpcbench agent` on an ephemeral loopback port, with args."""

    def __init__(self, *args):
        super().__init__([RPCBENCH, "agent", "--listen", "127.0.0.1:0"] + list(args), "agent")

    def __exit__(self, *exc):
        """SIGTERM, then its stderr must hold no sanitizer report (a
        sanitizer build: RPCBENCH=build/san/rpcbench)."""
        _, err = self.stop()
        super().__exit__(*exc)
        if exc[0] is None:
            check("Sanitizer" not in err and "runtime error" not in err, "agent: %s" % err[-2000:])


def remote_run(agent, token, *args, code=0, scheme="http"):
    return run_json("--server-agent", "%s://%s" % (scheme, agent.addr), "--token-file", token,
                    *args, code=code)


def check_remote_burner(r, own, what):
    cpu = r["server_cpu"]
    mean = cpu["mean_pct"]
    check(mean is not None, "%s: no CPU through the agent: %r" % (what, cpu))
    check(own > 5, "%s: the burner hardly ran (%.1f%%): machine overloaded" % (what, own))
    check(abs(mean - own) <= 10, "%s: the agent read %.1f%%, the kernel says %.1f%%"
          % (what, mean, own))
    if own >= 43:  # the burner got its half core: the agent must say so
        check(38 <= mean <= 68, "%s: the burner read %.1f%% through the agent, not 38..68"
              % (what, mean))
    check(cpu["source"].startswith("agent "), "%s: source %r" % (what, cpu["source"]))
    a = cpu.get("agent") or {}
    check(a.get("url", "").startswith("http"), "%s: no agent in %r" % (what, cpu))
    # one clock on loopback: the offset is within its own error bound (+1 ms)
    check(abs(a["clock_offset_us"]) <= a["clock_error_us"] + 1000,
          "%s: clock offset %r" % (what, a))
    pcts = [i.get("server_cpu_pct") for i in r["intervals"]]
    check(all(p is not None and p > 0 for p in pcts), "%s: intervals %r" % (what, pcts))
    print("    %s: the burner read %.1f%% through the agent (the kernel: %.1f%%; intervals %s),"
          " clock offset %.0f us +- %.0f us" % (what, mean, own, ", ".join("%.1f" % p for p in pcts),
                                                a["clock_offset_us"], a["clock_error_us"]))


def test_burner_through_the_agent():
    with tempfile.TemporaryDirectory() as d:
        tok = token_file(d)
        b = burner()
        try:
            with Server("--vms", "1") as s, Agent("--token-file", tok) as ag:
                r, own = measured_alongside(b.pid, (
                    "--server-agent", "http://" + ag.addr, "--token-file", tok, "--url",
                    s.url("/RPC2"), "--verb", "ping", "-R", "10", "-d", "3s", "--interval",
                    "500ms", "--server-pid", str(b.pid)))
                check_remote_burner(r, own, "by pid")
                check(r["server_cpu"]["pids"] == [b.pid], "pids %r" % r["server_cpu"]["pids"])
                check(r["system"]["cores"] == os.cpu_count(), "cores %r" % r["system"])
        finally:
            kill_group(b)


def test_burner_by_name_through_the_agent():
    with tempfile.TemporaryDirectory() as d:
        tok = token_file(d)
        b = burner(d)
        try:
            with Server("--vms", "1") as s, Agent("--token-file", tok) as ag:
                r, own = measured_alongside(b.pid, (
                    "--server-agent", "http://" + ag.addr, "--token-file", tok, "--url",
                    s.url("/RPC2"), "--verb", "ping", "-R", "10", "-d", "3s", "--server-name",
                    "rpcburn"))
                check_remote_burner(r, own, "by name")
                check(r["server_cpu"]["pids"] == [b.pid], "by name: pids %r"
                      % r["server_cpu"]["pids"])
        finally:
            kill_group(b)


def test_compare_and_sweep_through_the_agent():
    """compare's arms and rounds and sweep's cells each open the agent as
    a run does: every one has the server's CPU from it, none n/a."""
    with tempfile.TemporaryDirectory() as d, Server("--vms", "5") as s:
        tok = token_file(d)
        with Agent("--token-file", tok) as ag:
            remote = ("--server-agent", "http://" + ag.addr, "--token-file", tok,
                      "--server-pid", str(s.proc.pid), "--verb", "getAllVmStats", "-R", "40",
                      "-d", "1s", "--quiet")
            out = os.path.join(d, "c.json")
            code, _, err = rpcbench("compare", "-u", s.url("/RPC2") + "," + s.url("/jsonrpc"),
                                    "-p", "xmlrpc,jsonrpc", "--rounds", "2", *remote,
                                    "--output", out, timeout=120)
            check(code in (0, 3), "compare: %d %s" % (code, err[-400:]))
            c = json.load(open(out))
            for arm in c["arms"]:
                cpu = arm["figures"]["server_cpu_pct"]
                check(cpu is not None and cpu > 0, "arm %s: server CPU %r" % (arm["arm"], cpu))
                for rnd in arm["rounds"]:
                    check(rnd["server_cpu"]["source"].startswith("agent "),
                          "arm %s: a round's source %r" % (arm["arm"], rnd["server_cpu"]))
            out = os.path.join(d, "s.json")
            code, _, err = rpcbench("sweep", "-u", s.url("/jsonrpc"), "-p", "jsonrpc",
                                    "--rate", "20,40", *remote[:-5], "--verb", "list", "-d",
                                    "1s", "--quiet", "--output", out, timeout=120)
            check(code == 0, "sweep: %d %s" % (code, err[-400:]))
            cells = json.load(open(out))["cells"]
            check(len(cells) == 2, "cells %r" % len(cells))
            for cell in cells:
                cpu = cell["result"]["server_cpu"]
                check(cpu["mean_pct"] is not None and cpu["mean_pct"] > 0 and
                      cpu["source"].startswith("agent "), "a cell's server CPU: %r" % cpu)


def test_wrong_token_refused_before_sending():
    seen = []
    peer = Peer(lambda c, rec: seen.append(1))
    with tempfile.TemporaryDirectory() as d:
        tok = token_file(d)
        bad = os.path.join(d, "bad")
        with open(bad, "w") as f:
            f.write("not-the-token\n")
        os.chmod(bad, 0o600)
        with Agent("--token-file", tok) as ag:
            code, out, err = rpcbench("run", "--url", "http://127.0.0.1:%d/RPC2" % peer.port,
                                      "--verb", "ping", "-R", "10", "-d", "1s", "--quiet",
                                      "--server-agent", "http://" + ag.addr, "--server-pid",
                                      str(os.getpid()), "--token-file", bad, timeout=30)
    peer.close()
    lines = err.strip().splitlines()
    check(code == 1, "a wrong token: exit %d, not 1: %r" % (code, err))
    check(len(lines) == 1 and "wrong token" in lines[0], "not one clear line: %r" % err)
    check(not seen and not peer.conns, "the run connected to the target before failing")


def test_missing_server_refused_before_sending():
    """A pid or name that is not on the agent's host fails the run before
    it connects to the target, as a local one does, instead of a whole run
    with the server's figures n/a."""
    seen = []
    peer = Peer(lambda c, rec: seen.append(1))
    gone = subprocess.Popen(["true"])
    gone.wait()  # a pid that was, and is no more
    with tempfile.TemporaryDirectory() as d:
        tok = token_file(d)
        with Agent("--token-file", tok) as ag:
            for watch, why in ((["--server-pid", str(gone.pid)], "no process %d" % gone.pid),
                               (["--server-name", "no-such-server"], "no-such-server")):
                code, _, err = rpcbench("run", "--url", "http://127.0.0.1:%d/RPC2" % peer.port,
                                        "--verb", "ping", "-R", "10", "-d", "1s", "--quiet",
                                        "--server-agent", "http://" + ag.addr, "--token-file",
                                        tok, *watch, timeout=30)
                lines = err.strip().splitlines()
                check(code == 1, "%s: exit %d, not 1: %r" % (watch, code, err))
                check(len(lines) == 1 and why in lines[0] and "on its host" in lines[0],
                      "%s: not one clear line: %r" % (watch, err))
    peer.close()
    check(not seen and not peer.conns, "the run connected to the target before failing")


def test_agent_killed_mid_run():
    with tempfile.TemporaryDirectory() as d:
        tok = token_file(d)
        out = os.path.join(d, "r.json")
        b = burner()
        try:
            with Server("--vms", "1") as s, Agent("--token-file", tok) as ag:
                run = spawn([RPCBENCH, "run", "--url", s.url("/RPC2"), "--verb", "ping", "-R",
                             "10", "-d", "4s", "--interval", "500ms", "--quiet", "--output",
                             out, "--server-agent", "http://" + ag.addr, "--token-file", tok,
                             "--server-pid", str(b.pid)], stdout=subprocess.DEVNULL,
                            stderr=subprocess.PIPE, text=True)
                time.sleep(2.0)
                ag.kill()
                try:
                    _, err = run.communicate(timeout=30)
                finally:
                    kill_group(run)
                check(run.returncode == 0, "run exited %r: %s" % (run.returncode, err))
        finally:
            kill_group(b)
        with open(out) as f:
            r = json.load(f)
        code, text, err = rpcbench("report", out, timeout=30)  # the saved file, re-rendered
    check(code == 0 and "sampled by the agent at http://" in text and "samples stopped" in text,
          "report: %d %r" % (code, (err or text)[-600:]))
    check("no sample after t=" in text, "the report's warning: %r" % text[-800:])
    pcts = [i.get("server_cpu_pct") for i in r["intervals"]]
    known = [p is not None for p in pcts]
    check(known[0] and not known[-1], "before and after the kill: %r" % pcts)
    first_na = known.index(False)
    check(not any(known[first_na:]), "a figure after the agent died: %r" % pcts)
    check(all(p is None or p > 0 for p in pcts), "a zero: %r" % pcts)
    rss = [i["server_rss_kb"] for i in r["intervals"]]
    check(all(x != 0 for x in rss), "an RSS of 0: %r" % rss)
    cpu = r["server_cpu"]
    check(cpu["cpu_ms"] is None and cpu["cpu_ms_per_call"] is None, "CPU-ms: %r" % cpu)
    check(any("server agent" in w and "n/a" in w for w in r["warnings"]),
          "no warning: %r" % r["warnings"])
    print("    intervals %s; %s" % (pcts, [w for w in r["warnings"] if "agent" in w]))


def test_tls_with_client_certificate():
    with tempfile.TemporaryDirectory() as d:
        c = make_certs(d)
        tok = token_file(d)
        b = burner()
        try:
            with Server("--vms", "1") as s, Agent("--token-file", tok, "--tls-cert",
                                                  c["server_cert"], "--tls-key", c["server_key"],
                                                  "--tls-ca", c["ca"]) as ag:
                base = ("--url", s.url("/RPC2"), "--verb", "ping", "-R", "10", "-d", "2s",
                        "--interval", "500ms", "--server-pid", str(b.pid), "--cacert", c["ca"])
                _, r, _ = remote_run(ag, tok, *base, "--cert", c["client_cert"], "--key",
                                     c["client_key"], scheme="https")
                check(r["server_cpu"]["source"].startswith("agent "), "over TLS: %r"
                      % r["server_cpu"])
                check(r["server_cpu"]["mean_pct"] is not None, "no CPU over TLS")
                code, _, err = rpcbench("run", "--quiet", "--server-agent", "https://" + ag.addr,
                                        "--token-file", tok, *base, timeout=30)
                check(code == 1 and "server agent" in err, "no client certificate: exit %d %r"
                      % (code, err))
                code, _, err = rpcbench("run", "--quiet", "--server-agent", "http://" + ag.addr,
                                        "--token-file", tok, *base, timeout=30)
                check(code == 1, "plain HTTP to the TLS agent: exit %d %r" % (code, err))
        finally:
            kill_group(b)


def raw(addr, data, timeout=5):
    """Sends data to the agent, returns what it answered until it closed
    (or, kept alive, until a whole clock answer came)."""
    host, _, port = addr.rpartition(":")
    with socket.create_connection((host, int(port)), timeout=timeout) as sk:
        sk.sendall(data)
        got = b""
        while True:
            chunk = sk.recv(4096)
            if not chunk:
                return got
            got += chunk
            if b"\r\n\r\nC " in got and got.endswith(b"\n"):
                return got


def test_agent_refusals():
    with tempfile.TemporaryDirectory() as d:
        tok = token_file(d)
        with Agent("--token-file", tok, "--max-connections", "2") as ag:
            ans = raw(ag.addr, b"GET /v1/clock HTTP/1.1\r\nHost: x\r\n\r\n")
            check(ans.startswith(b"HTTP/1.1 401"), "no token: %r" % ans[:40])
            ans = raw(ag.addr, b"GET /v1/clock HTTP/1.1\r\nAuthorization: Bearer s3cret\r\n\r\n")
            check(ans.startswith(b"HTTP/1.1 401"), "another token: %r" % ans[:40])
            ans = raw(ag.addr, b"POST /v1/clock HTTP/1.1\r\n\r\n")
            check(ans.startswith(b"HTTP/1.1 405"), "POST: %r" % ans[:40])
            ans = raw(ag.addr, b"GET /etc/passwd HTTP/1.1\r\n\r\n")
            check(ans.startswith(b"HTTP/1.1 404"), "another path: %r" % ans[:40])
            ans = raw(ag.addr, b"GET /v1/clock HTTP/1.1\r\nX: " + b"a" * 5000 + b"\r\n\r\n")
            check(ans.startswith(b"HTTP/1.1 431"), "a long head: %r" % ans[:40])
            ans = raw(ag.addr, b"GET /v1/clock HTTP/1.1\r\nAuthorization: Bearer s3cret-token"
                      b"\r\n\r\n")
            check(ans.startswith(b"HTTP/1.1 200") and b"\r\n\r\nC " in ans, "clock: %r" % ans)
            host, _, port = ag.addr.rpartition(":")
            time.sleep(1.0)  # the connections above are over on the agent's side too
            idle = [socket.create_connection((host, int(port)), timeout=5) for _ in range(2)]
            time.sleep(0.3)
            t0 = time.monotonic()
            ans = raw(ag.addr, b"")  # the third: closed at once, without a word
            check(ans == b"" and time.monotonic() - t0 < 2, "beyond --max-connections")
            for sk in idle:
                sk.close()
            ag.alive("after the refusals")


def test_stream_ends_with_the_run():
    """The agent notices at once that a run closed its stream: with one
    connection allowed and a 5 s interval, the next run finds the slot free
    (a stream that waited for its next sample would hold it for 5 s more)."""
    with tempfile.TemporaryDirectory() as d:
        tok = token_file(d)
        with Server("--vms", "1") as s, Agent("--token-file", tok, "--max-connections", "1") as ag:
            for i in range(2):
                t0 = time.monotonic()
                _, r, _ = run_json("--server-agent", "http://" + ag.addr, "--token-file", tok,
                                   "--url", s.url("/RPC2"), "--verb", "ping", "-R", "10", "-d",
                                   "5s", "--interval", "5s", "--server-pid", str(os.getpid()))
                check(r["server_cpu"]["source"].startswith("agent"), "run %d: %r"
                      % (i, r["server_cpu"]))
                check(time.monotonic() - t0 < 20, "run %d took %.1f s" % (i, time.monotonic() - t0))


def test_sigterm_right_after_listening():
    """SIGTERM as soon as the agent says "listening on": exit 0, every
    time (its handlers used to be installed after that line)."""
    with tempfile.TemporaryDirectory() as d:
        tok = token_file(d)
        for i in range(5):
            with Agent("--token-file", tok) as ag:
                code, err = ag.stop()
            check(code == 0, "agent, try %d: exit %r %s" % (i, code, err[-300:]))


def test_token_file_checks():
    with tempfile.TemporaryDirectory() as d:
        empty = token_file(d, "\n")
        code, _, err = rpcbench("agent", "--listen", "127.0.0.1:0", "--token-file", empty,
                                timeout=10)
        check(code == 1 and "empty" in err, "an empty token: %d %r" % (code, err))
        code, _, err = rpcbench("agent", "--listen", "127.0.0.1:0", timeout=10)
        check(code == 2 and "--token-file" in err, "no token file: %d %r" % (code, err))
        code, _, err = rpcbench("run", "--server-agent", "http://127.0.0.1:9", "-d", "1s",
                                timeout=10)
        check(code == 2 and "--token-file" in err, "run without a token: %d %r" % (code, err))
        code, _, err = rpcbench("run", "--server-agent", "http://127.0.0.1:9", "--token-file",
                                empty, "--server-name", "a b", "-d", "1s", timeout=10)
        check(code == 2 and "--server-name" in err, "a name the agent refuses: %d %r"
              % (code, err))
        # the idle baseline samples this host before the agent's stream: refused, not skipped
        code, _, err = rpcbench("run", "--server-agent", "http://127.0.0.1:9", "--token-file",
                                empty, "--idle-baseline", "2s", "-d", "1s", timeout=10)
        check(code == 2 and "--idle-baseline" in err and "\n" not in err.strip(),
              "--idle-baseline with an agent: %d %r" % (code, err))
        loose = token_file(d, "s3cret-token\n", 0o644)
        with Agent("--token-file", loose) as ag:
            check("world-readable" in ag.stderr(), "no warning: %r" % ag.stderr())


if __name__ == "__main__":
    main([test_burner_through_the_agent, test_burner_by_name_through_the_agent,
          test_compare_and_sweep_through_the_agent,
          test_wrong_token_refused_before_sending, test_missing_server_refused_before_sending,
          test_agent_killed_mid_run,
          test_tls_with_client_certificate, test_agent_refusals, test_stream_ends_with_the_run,
          test_token_file_checks, test_sigterm_right_after_listening])
