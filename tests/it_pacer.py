# rpctest: alone: it checks when the pacer wakes and reads, to the millisecond
"""The open-loop pacer against the real `rpcbench serve`: answers read on
the pacer's wake (the harvest set) keep their arrival time, so reading them
late changes no latency; sends that share a wake (--pacer-window) are each
timed from their own intended time and never go out early; timeouts and the
switch between reading on the pacer's wake and reading on arrival lose no
request, over HTTP and STOMP."""
import json
import os
import re
import tempfile

from rpctest import Server, check, main, rpcbench, run_json


def accounted(r, what):
    q = r["requests"]
    check(q["offered"] == q["sent"] + q["unsent"], "%s: offered != sent + unsent: %r" % (what, q))
    check(q["sent"] == q["ok"] + q["errors"] + q["unfinished"],
          "%s: sent != ok + errors + unfinished: %r" % (what, q))
    check(q["errors"] == sum(r["errors"].values()), "%s: error kinds: %r" % (what, r["errors"]))


def test_late_reads_keep_the_arrival_time():
    """At 1000/s the next wake is 1 ms away, so answers wait for it unread:
    their latency is still the server's ~0.1 ms (the kernel's receive
    stamp), not the ~1 ms until the wake. p50 is robust to a loaded machine;
    reading on the wake without the stamp makes it ~1 ms."""
    with Server("--vms", "1") as s:
        for url, proto in ((s.url("/jsonrpc"), "jsonrpc"), (s.url("/RPC2"), "xmlrpc"),
                           ("stomp://127.0.0.1:%d" % s.port, "jsonrpc")):
            # 32 connections: only a stall of 32 ms (a loaded machine) queues
            # a request for real, so a queue here is the client's miscount
            _, r, _ = run_json("--url", url, "-p", proto, "--verb", "ping", "-R", "1000",
                               "-c", "32", "-d", "2s", "--pacer-window", "0")
            accounted(r, url)
            q = r["requests"]
            check(q["ok"] == q["sent"] == q["offered"] == 2000, "%s: %r %r" % (url, q, r["errors"]))
            # an answer that came before the next send freed its connection
            # then, however late it was read: that send waited for nothing
            check(q["queued"] < 0.02 * q["offered"], "%s: %d of %d queued behind answers that "
                  "had come" % (url, q["queued"], q["offered"]))
            p50 = r["latency_ms"]["p50"]
            check(p50 < 0.5, "%s: latency p50 %.3f ms: the wait for the pacer's wake is in "
                  "it" % (url, p50))
            check(r["service_ms"]["p50"] <= p50 + 0.001,
                  "%s: service p50 %.3f over latency p50 %.3f" % (url, r["service_ms"]["p50"],
                                                               p50))


def test_window_shares_a_wake_and_never_sends_early():
    """--pacer-window 5ms at 1000/s: the ~6 sends due within 5 ms go out on
    the wake at the last of them, so the first waited ~5 ms: send lag p50
    ~2.5 ms, max ~5 ms, never negative (nothing early), and the report and
    the JSON say the window. Without a window the same run's lag p50 is
    microseconds."""
    with Server("--vms", "1") as s:
        _, r, out = run_json("--url", s.url("/jsonrpc"), "-p", "jsonrpc", "--verb", "ping",
                             "-R", "1000", "-c", "10", "-d", "2s", "--pacer-window", "5ms",
                             "--format", "text")
        accounted(r, "window 5ms")
        check(r["requests"]["ok"] == 2000, "window 5ms: %r" % r["requests"])
        lag = r["send_lag_ms"]
        check(lag["min"] >= 0, "a send went out early: send lag min %r" % lag["min"])
        check(1.5 <= lag["p50"] <= 4.0, "window 5ms: send lag p50 %.3f ms, want ~2.5" % lag["p50"])
        check(4.0 <= lag["max"], "window 5ms: send lag max %.3f ms, want ~5" % lag["max"])
        check(r["config"]["pacer_window_us"] == 5000 and not r["config"]["pacer_window_auto"],
              "config: %r" % r["config"])
        # ~6 sends share each wake: a wake per request would be no window
        check(r["pacer"]["wakes_per_request"] < 0.3, "window 5ms: %r" % r["pacer"])
        check("pacer window 5ms" in out, "the report does not say the window:\n" + out[:600])
        # latency counts from the intended time: the wait in the window is in it
        check(r["latency_ms"]["p50"] >= lag["p50"], "latency p50 %.3f under send lag p50 %.3f"
              % (r["latency_ms"]["p50"], lag["p50"]))
        _, r0, _ = run_json("--url", s.url("/jsonrpc"), "-p", "jsonrpc", "--verb", "ping",
                            "-R", "1000", "-c", "10", "-d", "1s", "--pacer-window", "0")
        check(r0["send_lag_ms"]["p50"] < 1.0, "no window: send lag p50 %.3f ms"
              % r0["send_lag_ms"]["p50"])
        check(r0["config"]["pacer_window_us"] == 0, "config: %r" % r0["config"])
        check(r0["pacer"]["wakes_per_request"] > 0.5, "no window: %r" % r0["pacer"])


def test_auto_window_is_bounded_and_said():
    """--pacer-window auto: half the timer's p99 lateness, 50 us to 1 ms. The JSON and the report say which windows the wakes used and how
    many wakes there were, a saved file renders them again, and nothing
    goes out early."""
    with Server("--vms", "1") as s, tempfile.TemporaryDirectory() as d:
        path = os.path.join(d, "r.json")
        code, out, err = rpcbench("run", "--url", s.url("/jsonrpc"), "-p", "jsonrpc", "--verb",
                                  "ping", "-R", "2000", "-c", "10", "-d", "2s", "--output", path,
                                  "--pacer-window", "auto", timeout=60)
        check(code == 0, "exit %d: %s" % (code, err))
        with open(path) as f:
            r = json.load(f)
        accounted(r, "auto")
        check(r["config"]["pacer_window_auto"] is True, "config: %r" % r["config"])
        p = r["pacer"]
        check(0 < p["wakes"] <= r["requests"]["offered"] * 1.01, "wakes: %r" % p)
        w = p["window_us"]
        check(50 <= w["min"] <= w["mean"] <= w["max"] <= 1000, "auto windows: %r" % w)
        check(r["send_lag_ms"]["min"] >= 0, "a send went out early: %r" % r["send_lag_ms"])
        line = re.search(r"^rate .*(pacer window auto: [^)]*)\)$", out, re.M)
        check(line and "wakes/request" in line.group(1), "report's rate line:\n" + out[:600])
        code, again, err = rpcbench("report", path)
        check(code == 0 and line.group(1) in again,
              "report of the saved file does not say %r: %s" % (line.group(1), again[:600] + err))


def test_timeouts_and_backlog_while_harvesting():
    """Every answer takes 1 s, the timeout is 200 ms, 1000/s on 8
    connections: the connections fill, the backlog waits for completions
    (answers wake the loop then), the timeouts free them. Counts add up,
    every due request is offered (the ones due while every connection was
    down after its timeout are given up unsent, as `timeout`, not errors),
    nothing is ok, and the run ends within its bounds."""
    with Server("--vms", "1", "--delay", "1s") as s:
        for url in (s.url("/jsonrpc"), "stomp://127.0.0.1:%d" % s.port):
            _, r, _ = run_json("--url", url, "-p", "jsonrpc", "--verb", "ping", "-R", "1000",
                               "-c", "8", "-d", "1s", "--timeout", "200ms", code=3, timeout=30)
            accounted(r, url)
            q = r["requests"]
            check(q["offered"] == 1000 and q["ok"] == 0, "%s: %r" % (url, q))
            check(r["errors"]["timeout"] > 0, "%s: no timeout counted: %r" % (url, r["errors"]))
            check(q["unsent_given_up"] == 0 or q["unsent_given_up_as"] == "timeout",
                  "%s: given up as something else than the connections' timeouts: %r" % (url, q))


def test_default_window_is_50us():
    """Without --pacer-window the window is a fixed 50 us (auto went over
    the pacer-lag bound in bench part 7 where 50 us stayed within it)."""
    code, out, err = rpcbench("run", "-d", "1s", "-R", "20", "--format", "json", timeout=60)
    check(code == 0, "exit %d: %s" % (code, err))
    c = json.loads(out)["config"]
    check(c["pacer_window_us"] == 50 and c["pacer_window_auto"] is False, "config: %r" % c)


def test_pacer_window_usage():
    code, out, err = rpcbench("run", "--pacer-window", "20ms", "-d", "1s")
    check(code == 2 and "--pacer-window" in out + err,
          "--pacer-window 20ms: exit %d %r" % (code, out + err))
    code, out, err = rpcbench("run", "--pacer-window", "-1ms", "-d", "1s")
    check(code == 2, "--pacer-window -1ms: exit %d %r" % (code, out + err))
    code, out, err = rpcbench("run", "--pacer-window", "automatic", "-d", "1s")
    check(code == 2 and "--pacer-window" in err and err.count("\n") == 1,
          "--pacer-window automatic: exit %d %r" % (code, out + err))


if __name__ == "__main__":
    main([test_late_reads_keep_the_arrival_time, test_window_shares_a_wake_and_never_sends_early,
          test_auto_window_is_bounded_and_said,
          test_timeouts_and_backlog_while_harvesting, test_default_window_is_50us,
          test_pacer_window_usage])
