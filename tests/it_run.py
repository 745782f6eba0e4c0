"""rpcbench run against the real `rpcbench serve` over loopback."""
import os
import subprocess
import tempfile
import threading
import time
import xmlrpc.client

from rpctest import Server, check, main, rpcbench, run_json, RPCBENCH


def accounted(r):
    q = r["requests"]
    check(q["offered"] == q["sent"] + q["unsent"], "offered != sent + unsent: %r" % q)
    check(q["sent"] == q["ok"] + q["errors"] + q["unfinished"],
          "sent != ok + errors + unfinished: %r" % q)
    check(q["errors"] == sum(r["errors"].values()), "error kinds do not add up: %r" % r["errors"])


def test_every_verb_both_encodings():
    with Server("--vms", "20") as s:
        vm = xmlrpc.client.ServerProxy(s.url("/RPC2")).list()["vmList"][0]["vmId"]
        for proto, path in (("xmlrpc", "/RPC2"), ("jsonrpc", "/jsonrpc")):
            for verb in ("ping", "list", "getAllVmStats", "getVmStats"):
                # 20 VMs cost the server a few ms per stats call: 20/s is far
                # below what it serves, even on a busy machine.
                vm_id = ["--vm-id", vm] if verb == "getVmStats" else []  # else a usage error
                _, r, _ = run_json("--url", s.url(path), "-p", proto, "--verb", verb, *vm_id,
                                   "-R", "20", "-d", "1s")
                accounted(r)
                q = r["requests"]
                check(q["errors"] == 0, "%s %s errors: %r" % (proto, verb, r["errors"]))
                check(q["offered"] == q["sent"] == 20, "%s %s offered %d, sent %d, want 20"
                      % (proto, verb, q["offered"], q["sent"]))
                check(q["ok"] == 20, "%s %s ok %d" % (proto, verb, q["ok"]))


def test_full_list_every_transport():
    """--verb fullList: list(True, []) over XML-RPC, Host.getVMFullList over
    JSON-RPC (HTTP and STOMP), each answer decoded (--validate full), and
    big enough to be full definitions rather than short status (~90 B/VM)."""
    with Server("--vms", "20") as s:
        for proto, url, min_per_vm in (("xmlrpc", s.url("/RPC2"), 10000),
                                       ("jsonrpc", s.url("/jsonrpc"), 4000),
                                       ("jsonrpc", "stomp://127.0.0.1:%d" % s.port, 4000)):
            _, r, _ = run_json("--url", url, "-p", proto, "--verb", "fullList", "-R", "10",
                               "-d", "1s", "--validate", "full")
            accounted(r)
            q = r["requests"]
            check(q["offered"] == q["sent"] == q["ok"] == 10 and q["errors"] == 0,
                  "%s fullList: %r %r" % (url, q, r["errors"]))
            check(r["verbs"]["fullList"]["ok"] == 10, "%s: verbs %r" % (url, r["verbs"]))
            per_vm = r["bytes"]["received"] / q["ok"] / 20
            check(per_vm >= min_per_vm, "%s: %.0f B per VM, want full definitions" % (url, per_vm))


def test_rate_held_and_counts_add_up():
    with Server("--vms", "10") as s:
        _, r, _ = run_json("--url", s.url("/jsonrpc"), "-p", "jsonrpc", "--verb", "ping",
                           "-R", "200", "-d", "3s", "--warmup", "500ms")
        accounted(r)
        q = r["requests"]
        check(q["offered"] == 600, "offered %d, want 600" % q["offered"])
        ach = r["rate"]["achieved"]  # what was written, over the window
        check(abs(ach - 200) <= 2, "achieved rate %.2f not within 1%% of 200" % ach)
        check(len(r["intervals"]) == 3, "intervals: %d" % len(r["intervals"]))
        for k, total in (("due", "offered"), ("sent", "sent"), ("unsent", "unsent"),
                         ("ok", "ok"), ("errors", "errors")):
            got = sum(i[k] for i in r["intervals"])
            check(got == q[total], "intervals' %s add up to %d, %s %d" % (k, got, total, q[total]))


def test_busy_poll():
    """--busy-poll holds the rate and counts as the sleeping pacer does,
    says so in the report and the JSON, and stops polling when the
    window ends (the client's CPU over the run stays below 100 %)."""
    with Server("--vms", "1") as s:
        _, r, out = run_json("--url", s.url("/RPC2"), "--verb", "ping", "-R", "500", "-d", "2s",
                             "--busy-poll", "--format", "text")
        accounted(r)
        check(r["requests"]["offered"] == r["requests"]["ok"] == 1000,
              "busy-poll: %r" % r["requests"])
        check(r["config"]["busy_poll"] is True, "config.busy_poll: %r" % r["config"].get("busy_poll"))
        check("busy-poll pacer" in out, "report does not say busy-poll:\n" + out[:400])
        check(not any("client-bound: client CPU" in w for w in r["warnings"]),
              "a polling pacer's CPU taken for a client-bound run: %r" % r["warnings"])
        _, r, _ = run_json("--url", s.url("/RPC2"), "--verb", "ping", "-R", "500", "-d", "1s")
        check(r["config"]["busy_poll"] is False, "busy_poll without the option")
        # Pinned to one CPU (taskset), polling would starve a local server: said.
        p = subprocess.run(["taskset", "-c", "0", RPCBENCH, "run", "--url", s.url("/RPC2"),
                            "--verb", "ping", "-R", "100", "-d", "500ms", "--busy-poll",
                            "--quiet"], capture_output=True, text=True, timeout=30)
        check(p.returncode == 0 and "--busy-poll on a single CPU" in p.stdout,
              "no single-CPU warning: rc %d\n%s" % (p.returncode, p.stdout[-600:]))


def test_verb_mix_weights():
    with Server("--vms", "5") as s:
        _, r, _ = run_json("--url", s.url("/RPC2"), "--verb", "list:4,getAllVmStats:1",
                           "-R", "50", "-d", "2s")
        v = r["verbs"]
        check(v["list"]["requests"] == 80 and v["getAllVmStats"]["requests"] == 20,
              "mix 4:1 of 100 gave %r" % {k: x["requests"] for k, x in v.items()})


def test_delay_shows_in_percentiles():
    with Server("--vms", "1", "--delay", "20ms") as s:
        _, r, _ = run_json("--url", s.url("/RPC2"), "--verb", "ping", "-R", "20", "-d", "2s")
        p50 = r["latency_ms"]["p50"]
        check(20 <= p50 < 60, "p50 %.2fms with a 20ms server delay" % p50)
        check(r["requests"]["errors"] == 0, "errors with delay")


def test_text_report_shape():
    with Server("--vms", "3") as s:
        code, out, _ = rpcbench("run", "--url", s.url("/RPC2"), "--verb", "ping", "-R", "20",
                                "-d", "1s", "--quiet", "--buckets", "1,2,5,1000", timeout=30)
        check(code == 0, "exit %d" % code)
        check("response time: percentage" in out, "no bucket table:\n" + out)
        check("<1000ms: 100.0" in out, "cumulative bucket at 1000ms not 100%:\n" + out)
        check(out.count("\n<") == 4, "want exactly 4 bucket rows:\n" + out)
        check("average=" in out and "p99.9" in out, "no average/percentiles")


def test_nothing_listening_exits_1():
    code, out, err = rpcbench("run", "--url", "http://127.0.0.1:9/RPC2", "-d", "1s", timeout=20)
    check(code == 1, "exit %d, want 1" % code)
    check("cannot connect" in err and err.count("\n") == 1, "want one clear line, got %r" % err)


def test_bad_options_exit_2():
    for args in (["-R", "fast"], ["-d", "-1s"], ["--proto", "soap"], ["--verb", "getVmStats"]):
        code, _, err = rpcbench("run", *args, timeout=10)
        check(code == 2 and err.startswith("rpcbench run: "), "%r: exit %d %r" % (args, code, err))


def test_server_killed_mid_run():
    with Server("--vms", "5") as s:
        killer = threading.Timer(1.0, s.kill)
        killer.start()
        t = time.time()
        _, r, _ = run_json("--url", s.url("/RPC2"), "--verb", "ping", "-R", "50", "-d", "3s",
                           "--timeout", "1s")
        killer.join()
        check(time.time() - t < 3 + 1 + 2, "run took too long after the kill")
        accounted(r)
        q = r["requests"]
        check(q["offered"] == 150, "offered %d" % q["offered"])
        check(q["ok"] > 20, "no answers before the kill")
        # after the kill: the written ones closed, the ones due while no
        # connection could be made given up unsent (never connect errors)
        check(r["errors"]["closed"] + q["unsent_given_up"] > 50 and r["errors"]["connect"] == 0,
              "requests after the kill not counted: %r %r" % (q, r["errors"]))


def test_embedded_simulator_default():
    _, r, _ = run_json("-p", "jsonrpc", "-R", "10", "-d", "2s", "--vms", "20")
    accounted(r)
    check(r["requests"]["ok"] == 20, "ok %d" % r["requests"]["ok"])
    check(r["target"]["embedded"] is True, "not embedded")
    check(len(r["server_cpu"]["pids"]) == 1, "embedded server pid not watched")
    check(r["server_cpu"]["mean_pct"] >= 0, "no server CPU")


def test_small_honesty():
    """What the user asked for, as they wrote it: a rate of 1/15s is not
    "0.07/s"; warmup progress at 5/s reads 5/s (a send due at the tick is
    the next interval's); one server thread is "1 thread"."""
    with tempfile.TemporaryDirectory() as d:
        html = os.path.join(d, "r.html")
        code, out, err = rpcbench("run", "-R", "1/15s", "-d", "1s", "--verb", "ping", "--vms",
                                  "2", "--quiet", "--html", html, timeout=60)
        check(code == 0 and "rate        1/15s target" in out, "%d %s %s" % (code, out, err))
        page = open(html).read()
        check("1/15s" in page and "0.07/s" not in page, "HTML rate")
        check(" 1 threads" not in page and " 1 threads" not in out, "plural of 1 thread")
    code, out, err = rpcbench("run", "-R", "5", "-d", "1s", "--warmup", "2s", "--verb", "ping",
                              "--vms", "2", timeout=60)
    warm = [l for l in err.splitlines() if l.startswith("[warmup")]
    check(code == 0 and len(warm) == 2, "warmup lines: %r" % err)
    check(all(" rate     5.0/s " in l for l in warm), "warmup rate at 5/s: %r" % warm)


def test_sigint_still_reports():
    with Server("--vms", "2") as s:
        p = subprocess.Popen([RPCBENCH, "run", "--url", s.url("/RPC2"), "--verb", "ping",
                              "-R", "20", "-d", "30s", "--quiet"],
                             stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
        time.sleep(1.5)
        p.send_signal(2)
        out, _ = p.communicate(timeout=10)
        check(p.returncode == 130, "exit %d after SIGINT (want 130)" % p.returncode)
        check("INTERRUPTED" in out and "response time: percentage" in out, "no report:\n" + out)


if __name__ == "__main__":
    os.chdir(os.path.dirname(os.path.abspath(__file__)))
    main([test_every_verb_both_encodings, test_full_list_every_transport, test_rate_held_and_counts_add_up, test_busy_poll,
          test_verb_mix_weights,
          test_delay_shows_in_percentiles, test_text_report_shape, test_nothing_listening_exits_1,
          test_bad_options_exit_2, test_server_killed_mid_run, test_embedded_simulator_default,
          test_sigint_still_reports, test_small_honesty])
