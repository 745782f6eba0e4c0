"""it_compare_crash: a compare whose arm stops answering (issue 41 part 3).
The rounds that finished are kept and written (report, --output, --html,
--junit), the report and the JUnit file say which arm stopped and in which
round, and the exit code judges it: B stopping while A answers is a failed
arm (3; 1 under --bisect), A stopping, or both, could not run (1; 125 under
--bisect). compare calls each arm once before round 1, so an arm that is
down is judged without spending a round of the other.

The peers are written for the purpose: `rpcbench serve` processes killed
(SIGKILL) once compare announces a round in which the victim does not run,
so the kill always lands between its runs whatever the machine's load (2 s
rounds: seconds of margin), and a Python XML-RPC peer that closes its
listening socket before the 20th answer on one connection: the end of a
round of 20 calls, exactly, with no timing at all. Every process is
bounded (rpctest)."""
import json
import os
import re
import socket
import subprocess
import tempfile
import threading
import xml.etree.ElementTree as ET
import xmlrpc.client

from rpctest import (RPCBENCH, Server, check, rpcbench, http_peer, http_response, kill_group, main,
                     spawn)

DONE = http_response(xmlrpc.client.dumps(({"status": {"code": 0, "message": "Done"}},),
                                         methodresponse=True).encode(), "text/xml")
RATE, SECONDS = 20, 1  # the peer's round: RATE * SECONDS calls on one connection
TIMEOUT_S = 120        # any compare here: far beyond its few seconds


def xmlrpc_peer(close_before=None):
    """A Peer answering every call with VDSM's 'Done' (rec["requests"]:
    a connection's calls). With close_before=N it closes its listening
    socket before the N-th answer on one connection: the client has that
    round's last answer only once the port refuses, so its next run is
    refused, deterministically."""
    holder = {}

    def before_answer(rec):
        if rec["requests"] == close_before:
            holder["peer"].close()
    holder["peer"] = http_peer(lambda _body: DONE, before_answer)
    return holder["peer"]


def calls(peer):
    return sum(r.get("requests", 0) for r in peer.conns)


def refusing_port():
    """A socket bound to a loopback port and not listening: connects to
    it are refused, and no other process can take the port meanwhile."""
    s = socket.socket()
    s.bind(("127.0.0.1", 0))
    return s


def compare(args, kill_on=None, victim=None):
    """`rpcbench compare ARGS`; once a line of its stderr matches kill_on
    (a round's announcement, "round 2/3 arm A (..."), victim is killed
    (SIGKILL to its process group, reaped: its port refuses from then on).
    Returns (exit code, stdout, stderr)."""
    p = spawn([RPCBENCH, "compare", *args], stdin=subprocess.DEVNULL, stdout=subprocess.PIPE,
              stderr=subprocess.PIPE, text=True)
    err, out = [], []
    to_kill = [victim] if kill_on and victim else []

    def read_err():
        for line in p.stderr:
            err.append(line)
            if to_kill and re.match(kill_on, line):
                to_kill.pop().kill()

    def read_out():
        out.append(p.stdout.read())
    threads = [threading.Thread(target=f, daemon=True) for f in (read_err, read_out)]
    for t in threads:
        t.start()
    try:
        p.wait(TIMEOUT_S)
    except subprocess.TimeoutExpired:
        kill_group(p)
        raise AssertionError("compare still ran after %d s: killed; stderr: %s"
                             % (TIMEOUT_S, "".join(err)[-1500:]))
    for t in threads:
        t.join(10)
    kill_group(p)
    return p.returncode, "".join(out), "".join(err)


def outputs(d):
    return {k: os.path.join(d, "ab." + k) for k in ("json", "xml", "html")}


def args_for(url_a, url_b, f, *extra, seconds=SECONDS):
    return ["--url", "%s,%s" % (url_a, url_b), "--verb", "ping", "-R", str(RATE), "-d",
            "%ds" % seconds, "--warmup", "0s", "--rounds", "3", "--gate", "p99:+50%",
            "--output", f["json"], "--junit", f["xml"], "--html", f["html"], *extra]


def stop_case(f, arm):
    """The JUnit file's testcase for the arm that stopped: (its status
    element's tag, message)."""
    root = ET.parse(f["xml"]).getroot()
    cases = [tc for tc in root.iter("testcase") if tc.get("name") == "arm %s answers" % arm]
    check(len(cases) == 1, "JUnit: no testcase 'arm %s answers': %s"
          % (arm, open(f["xml"]).read()[:1500]))
    status = [e for e in cases[0] if e.tag in ("failure", "error")]
    check(len(status) == 1, "JUnit: 'arm %s answers' neither failed nor erred" % arm)
    return status[0].tag, status[0].get("message")


def check_kept(f, rounds, arm, round_no, verdict):
    """--output holds the complete rounds (every call of each ok) and names
    the arm that stopped; the page says it too."""
    with open(f["json"]) as j:
        doc = json.load(j)
    check(doc["rounds"] == rounds, "JSON: %r rounds, want %d" % (doc["rounds"], rounds))
    for a in doc["arms"]:
        oks = [r["requests"]["ok"] for r in a["rounds"]]
        check(len(oks) == rounds and all(n > 0 for n in oks),
              "JSON: arm %s's rounds' ok %r, want %d rounds" % (a["arm"], oks, rounds))
    s = doc.get("stopped") or {}
    check((s.get("arm"), s.get("round"), s.get("verdict")) == (arm, round_no, verdict),
          "JSON: stopped %r" % s)
    page = open(f["html"]).read()
    check('id="h-stopped"' in page and "stopped answering in round %d" % round_no in page,
          "the page does not say arm %s stopped in round %d" % (arm, round_no))


def check_b_failed(code, out, err, f, want, round_no, port, kept):
    """B stopped in round round_no (refused on port) while A answered."""
    check(code == want, "exit %d, want %d: %s" % (code, want, err[-800:]))
    said = ("arm B (xmlrpc-B) stopped answering in round %d of 3 while A answered, a failed "
            "arm: cannot connect to 127.0.0.1:%d: Connection refused" % (round_no, port))
    check(re.search(r"^stopped\s+" + re.escape(said) + "$", out, re.M),
          "the report does not say %r:\n%s" % (said, out[:1500]))
    check(re.search(r"^\s+the figures are those of round%s 1%s, complete before it$"
                    % ("s" if kept > 1 else "", " to %d" % kept if kept > 1 else ""), out, re.M),
          "the report does not say which rounds it holds:\n" + out[:1500])
    check("rpcbench compare: reporting %d complete round(s): %s" % (kept, said) in err,
          "stderr does not say it: " + err[-800:])
    tag, msg = stop_case(f, "B")
    check(tag == "failure" and said in msg, "JUnit: %s %r" % (tag, msg))
    check_kept(f, kept, "B", round_no, "failed arm")


def test_b_stops_after_round_1():
    """The issue's case: B answers round 1 of 3, then its port refuses.
    compare keeps round 1 and writes every file from it, says B stopped
    in round 2 (B runs first in round 2: no A round is spent on it) and
    exits 3; under --bisect 1 (bad)."""
    for extra, want in (((), 3), (("--bisect",), 1)):
        with Server("--vms", "2") as a, tempfile.TemporaryDirectory() as d:
            b = xmlrpc_peer(close_before=RATE * SECONDS)
            try:
                f = outputs(d)
                code, out, err = compare(args_for(a.url("/RPC2"), "http://127.0.0.1:%d/RPC2"
                                                  % b.port, f, *extra))
            finally:
                b.close()
            check_b_failed(code, out, err, f, want, 2, b.port, 1)
            check("round 2/3 arm A" not in err, "A ran round 2: " + err[-800:])
            # judged again from the saved comparison: the same verdict, the
            # stopped arm read back (it was lost: exit 0, the gate passed)
            code, out, err = rpcbench("compare", f["json"], "--gate", "p99:+50%", *extra)
            check(code == want, "the saved comparison: exit %d, want %d: %s%s"
                  % (code, want, out[-800:], err[-500:]))
            check(re.search(r"^stopped\s+arm B .*stopped answering in round 2 of", out, re.M),
                  "the saved comparison does not say B stopped:\n" + out[:1500])


def test_b_killed_after_round_2():
    """Two `rpcbench serve`, B killed once A's round 2 starts (B has run
    its round 2, B's next run is round 3's, after A's): rounds 1 and 2
    are kept; A's round 3, unpaired, is not; B stopped in round 3: exit 3."""
    with Server("--vms", "2") as a, Server("--vms", "2") as b, \
            tempfile.TemporaryDirectory() as d:
        f = outputs(d)
        code, out, err = compare(args_for(a.url("/RPC2"), b.url("/RPC2"), f, seconds=2),
                                 kill_on=r"round 2/3 arm A ", victim=b)
        check_b_failed(code, out, err, f, 3, 3, b.port, 2)


def test_a_killed():
    """A killed once B's round 2 starts (3 s before A's): A stopped
    answering in round 2, the comparison could not run: exit 1, 125 under
    --bisect; round 1 is kept and written, the JUnit file has an error
    naming A and round 2."""
    for extra, want in (((), 1), (("--bisect",), 125)):
        with Server("--vms", "2") as a, Server("--vms", "2") as b, \
                tempfile.TemporaryDirectory() as d:
            f = outputs(d)
            code, out, err = compare(args_for(a.url("/RPC2"), b.url("/RPC2"), f, *extra,
                                              seconds=3),
                                     kill_on=r"round 2/3 arm B ", victim=a)
            check(code == want, "exit %d, want %d: %s" % (code, want, err[-800:]))
            said = ("arm A (xmlrpc-A) stopped answering in round 2 of 3, so without its "
                    "baseline the comparison could not run: cannot connect to 127.0.0.1:%d: "
                    "Connection refused" % a.port)
            check(re.search(r"^stopped\s+" + re.escape(said) + "$", out, re.M),
                  "the report does not say %r:\n%s" % (said, out[:1500]))
            tag, msg = stop_case(f, "A")
            check(tag == "error" and said in msg, "JUnit: %s %r" % (tag, msg))
            check_kept(f, 1, "A", 2, "could not run")


def test_b_dead_before_round_1():
    """B refuses from the start: the call before round 1 says so, no round
    runs (A got that one call, no round), exit 3 (1 under --bisect); the
    JUnit file is written with the one testcase saying B failed, and no
    report or other file (nothing was compared)."""
    for extra, want in (((), 3), (("--bisect",), 1)):
        a, dead = xmlrpc_peer(), refusing_port()
        try:
            with tempfile.TemporaryDirectory() as d:
                f = outputs(d)
                port = dead.getsockname()[1]
                code, out, err = compare(args_for("http://127.0.0.1:%d/RPC2" % a.port,
                                                  "http://127.0.0.1:%d/RPC2" % port, f, *extra))
                check(code == want, "exit %d, want %d: %s" % (code, want, err[-800:]))
                said = ("arm B (xmlrpc-B) did not answer its call before round 1 while A "
                        "answered, a failed arm: cannot connect to 127.0.0.1:%d: Connection "
                        "refused" % port)
                # one line (under --bisect after the cost line, which comes first)
                lines = [l for l in err.splitlines() if "--bisect: each commit costs" not in l]
                check(lines == ["rpcbench compare: no round complete, nothing to compare: "
                                + said], "stderr: %r" % err[-800:])
                check(out == "" and not os.path.exists(f["json"]) and
                      not os.path.exists(f["html"]), "a report of no round: %r" % out[:300])
                tag, msg = stop_case(f, "B")
                check(tag == "failure" and said in msg, "JUnit: %s %r" % (tag, msg))
                check(calls(a) == 1, "A got %d calls: a round was spent" % calls(a))
        finally:
            a.close()
            dead.close()


def test_a_dead_before_round_1():
    """A refuses from the start: could not run before round 1, exit 1 (125
    under --bisect), B never called."""
    for extra, want in (((), 1), (("--bisect",), 125)):
        b, dead = xmlrpc_peer(), refusing_port()
        try:
            with tempfile.TemporaryDirectory() as d:
                f = outputs(d)
                port = dead.getsockname()[1]
                code, out, err = compare(args_for("http://127.0.0.1:%d/RPC2" % port,
                                                  "http://127.0.0.1:%d/RPC2" % b.port, f,
                                                  *extra))
                check(code == want, "exit %d, want %d: %s" % (code, want, err[-800:]))
                check("arm A (xmlrpc-A) did not answer its call before round 1, so without its "
                      "baseline the comparison could not run: cannot connect to 127.0.0.1:%d"
                      % port in err, "stderr: %r" % err[-800:])
                tag, _ = stop_case(f, "A")
                check(tag == "error", "JUnit: %s" % tag)
                check(calls(b) == 0, "B got %d calls" % calls(b))
        finally:
            b.close()
            dead.close()


def test_both_stop():
    """One `rpcbench serve` for both arms, killed as B's round 1 starts:
    B stops (in round 1, or in round 2 when its round 1 had connected
    first: 2 s rounds, so the kill lands before A's round 2 either way),
    and A does not answer the call that asks either: could not run, exit 1
    (125 under --bisect), not a failed arm. --timeout 3s, far above the ms
    these calls take, bounds each call to the dead server."""
    for extra, want in ((("--timeout", "3s"), 1), (("--timeout", "3s", "--bisect"), 125)):
        with Server("--vms", "2") as srv, tempfile.TemporaryDirectory() as d:
            f = outputs(d)
            code, _, err = compare(args_for(srv.url("/RPC2"), srv.url("/RPC2"), f, *extra,
                                            seconds=2),
                                   kill_on=r"round 1/3 arm B ", victim=srv)
            check(code == want, "exit %d, want %d: %s" % (code, want, err[-800:]))
            check(re.search(r"arm B \(xmlrpc-B\) stopped answering in round [12] of 3 and A did "
                            r"not answer either, so the comparison could not run: B: cannot "
                            r"connect to [^;]*; A: cannot connect to ", err),
                  "stderr: " + err[-800:])
            tag, _ = stop_case(f, "B")
            check(tag == "error", "JUnit: %s" % tag)


if __name__ == "__main__":
    main([test_b_stops_after_round_1, test_b_killed_after_round_2, test_a_killed,
          test_b_dead_before_round_1, test_a_dead_before_round_1, test_both_stop])
