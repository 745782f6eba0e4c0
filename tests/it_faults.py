"""Fault injection: `rpcbench run` against tests/faultserver.py, a server
that misbehaves in one way per mode, over loopback.

For every fault, rpcbench must exit 0, end within duration + timeout + 1 s
(+ slack for process start), write its JSON result, count every request
exactly once (sent == ok + errors + unfinished, errors == sum of kinds) and
put the failures under the kind that names the fault. Prints the table
fault -> what rpcbench reported."""
import json
import os
import subprocess
import sys
import tempfile
import time

from rpctest import RPCBENCH, Listening, check, main

HERE = os.path.dirname(os.path.abspath(__file__))
PY = os.environ.get("PY", sys.executable)
RATE, DURATION_S, TIMEOUT_S = 20, 2.0, 1.0
# duration + timeout + 1 s, plus 0.5 s for starting the process and
# connecting (the engine's startup wait is bounded by the timeout too, but
# a healthy loopback connect takes microseconds).
BUDGET_S = DURATION_S + TIMEOUT_S + 1.5

TABLE = []


def fault_server(mode, *args):
    """tests/faultserver.py in mode, as a context manager (rpctest.Listening)."""
    return Listening([PY, os.path.join(HERE, "faultserver.py"), "--mode", mode, *args],
                     "faultserver --mode " + mode)


def run_fault(mode, proto="jsonrpc", extra=(), server_args=(), timeout_s=TIMEOUT_S):
    """Runs rpcbench against a faultserver in mode with --timeout timeout_s;
    returns (result, the error kinds that occurred). It must end within
    BUDGET_S, whatever timeout_s."""
    path = "/jsonrpc" if proto == "jsonrpc" else "/RPC2"
    with fault_server(mode, *server_args) as fs, tempfile.TemporaryDirectory() as d:
        out = os.path.join(d, "r.json")
        args = [RPCBENCH, "run", "--url", "http://127.0.0.1:%d%s" % (fs.port, path),
                "-p", proto, "--verb", "ping", "-R", str(RATE), "-d", "%gs" % DURATION_S,
                "--timeout", "%gs" % timeout_s, "--output", out, "--quiet"] + list(extra)
        t0 = time.monotonic()
        p = subprocess.run(args, capture_output=True, text=True, timeout=60)
        took = time.monotonic() - t0
        check(os.path.exists(out), "%s: no JSON result written (exit %d, stderr %r)"
              % (mode, p.returncode, p.stderr[-500:]))
        with open(out) as f:
            r = json.load(f)
    q, errs = r["requests"], r["errors"]
    want = 3 if q["offered"] and not q["ok"] else 0  # 3: no request succeeded
    check(p.returncode == want, "%s: exit %d (want %d), stderr %r"
          % (mode, p.returncode, want, p.stderr[-500:]))
    given_up = q.get("unsent_given_up_as") if q["unsent_given_up"] else None
    for k, n in errs.items():  # each kind that occurred quotes its first error
        check(bool(r["error_samples"].get(k)) == (n > 0 or k == given_up),
              "%s: %d %s errors, sample %r" % (mode, n, k, r["error_samples"].get(k)))
    check(q["sent"] == q["ok"] + q["errors"] + q["unfinished"],
          "%s: sent != ok + errors + unfinished: %r" % (mode, q))
    check(q["offered"] == q["sent"] + q["unsent"], "%s: offered != sent + unsent: %r" % (mode, q))
    check(q["errors"] == sum(errs.values()), "%s: error kinds do not add up: %r" % (mode, errs))
    check(q["offered"] == RATE * DURATION_S, "%s: offered %d, want %d (every scheduled request "
          "counted)" % (mode, q["offered"], RATE * DURATION_S))
    check(took <= BUDGET_S, "%s: took %.2fs, budget %.2fs" % (mode, took, BUDGET_S))
    kinds = {k: v for k, v in errs.items() if v}
    TABLE.append((mode + ("" if proto == "jsonrpc" else " (xmlrpc)"), q, kinds, took))
    return r, kinds


def only(kinds, allowed, mode, at_least=1):
    """Every error is of an allowed kind, and there are some."""
    check(sum(kinds.values()) >= at_least, "%s: want errors, got none" % mode)
    bad = {k: v for k, v in kinds.items() if k not in allowed}
    check(not bad, "%s: errors of kinds %r, want only %r" % (mode, bad, allowed))


def test_control_ok():
    r, kinds = run_fault("ok")
    check(r["requests"]["ok"] == RATE * DURATION_S and not kinds, "ok: %r %r" % (r["requests"], kinds))


def test_close_mid_response():
    _, kinds = run_fault("close")
    only(kinds, {"closed"}, "close")


def test_reset():
    """A server that resets every connection and never answered once is no
    HTTP server of ours: after a few tries the run ends with exit 1 and one
    line that says so (no storm of reconnects until the end)."""
    with fault_server("reset") as fs:
        t0 = time.monotonic()
        p = subprocess.run([RPCBENCH, "run", "--url", "http://127.0.0.1:%d/RPC2" % fs.port,
                            "-p", "xmlrpc", "--verb", "ping", "-R", str(RATE),
                            "-d", "%gs" % DURATION_S, "--timeout", "%gs" % TIMEOUT_S, "--quiet"],
                           capture_output=True, text=True, timeout=60)
        took = time.monotonic() - t0
    check(p.returncode == 1 and p.stderr.count("\n") == 1 and p.stdout == "",
          "reset: exit %d, stderr %r" % (p.returncode, p.stderr))
    check("reset the connection without answering" in p.stderr, "reset: %r" % p.stderr)
    check(took <= BUDGET_S, "reset: took %.2fs, budget %.2fs" % (took, BUDGET_S))


def test_garbage():
    _, kinds = run_fault("garbage")
    only(kinds, {"decode"}, "garbage")


def test_truncated_body():
    r, kinds = run_fault("truncated")
    only(kinds, {"closed", "timeout"}, "truncated")
    check(r["requests"]["ok"] == 0, "truncated: some answers taken as ok")


def test_stall():
    r, kinds = run_fault("stall")
    only(kinds, {"timeout"}, "stall")
    check(r["requests"]["ok"] == 0, "stall: some answers taken as ok")


def test_big_body_capped():
    r, kinds = run_fault("big", extra=("--max-response", "1MiB"))
    only(kinds, {"decode"}, "big")
    check(r["requests"]["ok"] == 0, "big: a 100 MiB answer taken as ok")


def test_trickle():
    r, kinds = run_fault("trickle", proto="xmlrpc")
    only(kinds, {"timeout"}, "trickle")
    check(r["requests"]["ok"] == 0, "trickle: some answers taken as ok")


def test_wrong_id():
    r, kinds = run_fault("wrongid")
    only(kinds, {"decode"}, "wrongid")
    check(r["requests"]["ok"] == 0, "wrongid: an answer to another request taken as ok")


def test_big_answer_bad_end():
    """The cheap check keeps only the head and the last bytes of a long
    answer: a broken closing tag must still fail it, a whole one pass."""
    r, kinds = run_fault("bigxml", proto="xmlrpc")
    check(r["requests"]["ok"] == RATE * DURATION_S and not kinds, "bigxml: %r %r" % (r["requests"], kinds))
    check(r["bytes"]["received"] > 1000000 * RATE * DURATION_S, "bigxml: answers not big: %r" % r["bytes"])
    r, kinds = run_fault("badend", proto="xmlrpc")
    only(kinds, {"decode"}, "badend")
    check(r["requests"]["ok"] == 0, "badend: an answer with a broken end taken as ok")


def test_empty_body():
    for proto in ("jsonrpc", "xmlrpc"):
        _, kinds = run_fault("empty", proto=proto)
        only(kinds, {"decode"}, "empty " + proto)


def test_bad_i8_full_decode():
    """Found by fuzzing: xmlrpc-c 1.33 crashes on <i8>1x</i8>; with
    --validate full such an answer must be a decode error, not a crash."""
    r, kinds = run_fault("badi8", proto="xmlrpc", extra=("--validate", "full"))
    only(kinds, {"decode"}, "badi8")


def test_stop_listening():
    r, kinds = run_fault("stop", server_args=("--stop-after", "1.0"))
    check(r["requests"]["ok"] > 0, "stop: nothing answered before the stop")
    # Requests due while every connection waits to reconnect are given up
    # now, unsent, as `connect`; they must not sit in the backlog until the
    # end and come out unfinished (at most one connection may be
    # mid-connect then).
    q = r["requests"]
    check(q["unfinished"] + q["unsent"] - q["unsent_given_up"] <= 2,
          "stop: %r: requests left waiting after the server went away" % q)
    check(q["unsent_given_up"] > 0 and q["unsent_given_up_as"] == "connect", "stop: %r" % q)
    bad = {k: v for k, v in kinds.items() if k != "closed"}
    check(not bad, "stop: errors of sent requests other than closed: %r" % bad)


def test_gone_before_the_window():
    """The server takes the connection and is gone before the first request:
    the run does not wait out --timeout for it to come back before its
    window (it waited the whole of it, 8 s here, and the budget is the
    1 s one's), and the requests find no connection: given up unsent, as
    connect."""
    r, kinds = run_fault("gone", timeout_s=8)
    q = r["requests"]
    # the first request may go out on the connection before its close is
    # read (then it fails as closed); every other one finds no connection
    check(q["sent"] <= 1 and q["unsent_given_up"] >= q["offered"] - 1
          and q["unsent_given_up_as"] == "connect", "gone: %r" % q)
    check(set(kinds) <= {"closed"}, "gone: errors of sent requests: %r" % kinds)


def print_table():
    print("fault                 sent unsent   ok errors unfin  seconds  kinds")
    for mode, q, kinds, took in TABLE:
        print("%-20s %5d %6d %4d %6d %5d  %7.2f  %s" % (mode, q["sent"], q["unsent"], q["ok"],
                                                      q["errors"], q["unfinished"], took,
                                                  ", ".join("%s=%d" % kv for kv in sorted(kinds.items())) or "-"))


if __name__ == "__main__":
    import atexit
    atexit.register(print_table)
    main([test_control_ok, test_close_mid_response, test_reset, test_garbage, test_truncated_body,
          test_stall, test_big_body_capped, test_trickle, test_wrong_id, test_big_answer_bad_end,
          test_empty_body, test_bad_i8_full_decode, test_stop_listening,
          test_gone_before_the_window])
