"""it_usage: every option is checked before the first request. For each
subcommand, a table of bad values: exit 2, one stderr line naming the
option, and nothing sent (the target is a raw listening socket that must
see no connection; runs are asked for 10 minutes, so one that started
would hit the subprocess timeout instead). Then the error texts of
issue 13 item 8: https to a plain server, unreadable and non-JSON saved
files, a bad verb, all in the user's terms and with the documented code."""
import os
import re
import resource
import socket
import subprocess
import tempfile

from rpctest import RPCBENCH, Server, check, main, rpcbench

LONG = ("-d", "10m", "--quiet")


def listener():
    s = socket.socket()
    s.bind(("127.0.0.1", 0))
    s.listen(16)
    s.setblocking(False)
    return s


def accepted(s):
    """Connections that reached the listener so far (accepted and closed)."""
    n = 0
    while True:
        try:
            c, _ = s.accept()
        except BlockingIOError:
            return n
        c.close()
        n += 1


def refused(cmd, args, option, tmp, sock=None):
    rc, out, err = rpcbench(cmd, *args, timeout=15)
    lines = err.strip().splitlines()
    what = "%s %s: rc %d, stderr %r" % (cmd, " ".join(args), rc, err)
    check(rc == 2, what)
    check(len(lines) == 1 and lines[0].startswith("rpcbench %s: " % cmd), what)
    check(option in lines[0], "%s does not name %s" % (what, option))
    check(out == "", "%s printed %r" % (what, out[:200]))
    if sock is not None:
        check(accepted(sock) == 0, "%s connected to the target" % what)
    check(not os.path.exists(os.path.join(tmp, "out.json")), "%s wrote its output" % what)


def test_run_checks_every_option_first():
    with tempfile.TemporaryDirectory() as tmp:
        sock = listener()
        url = "http://127.0.0.1:%d" % sock.getsockname()[1]
        out = os.path.join(tmp, "out.json")
        table = [
            (["--buckets", "5:1:1"], "--buckets"),
            (["--buckets", "1:1000:1"], "--buckets"),          # beyond 64 edges
            (["--percentiles", "150"], "--percentiles"),
            (["--percentiles", "99,50"], "--percentiles"),
            (["-p", "xmlrpc,jsonrpc"], "--proto"),
            (["--label", "a,b"], "--label"),
            (["--url", url + "," + url], "--url"),
            (["--url", "ftp://127.0.0.1:1"], "--url"),
            (["--verb", "bogus"], "--verb"),
            (["--verb", "list:0"], "--verb"),
            (["--rounds", "3"], "--rounds"),
            (["-d", "1x"], "--duration"),
            (["--warmup", "-1s"], "--warmup"),
            (["-R", "0"], "--rate"),
            (["-c", "0"], "--connections"),
            (["--format", "xml"], "--format"),
            (["--validate", "some"], "--validate"),
            (["--arrival", "random"], "--arrival"),
            (["--seed", "x"], "--seed"),
            (["--max-response", "lots"], "--max-response"),
            (["--output", os.path.join(tmp, "no", "such", "dir.json")], "--output"),
            (["--plot", os.path.join(tmp, "no", "x.svg")], "--plot"),
            (["--plot-keep"], "--plot-keep"),
            (["--hdr-log", tmp], "--hdr-log"),
            (["--cacert", os.path.join(tmp, "none.pem")], "--cacert"),
            (["--key", os.path.join(tmp, "none.key")], "--key"),
            (["--method", "X", "--params", "{bad"], "--params"),
            (["--server-pid", "x"], "--server-pid"),
            (["--bogus-option"], "--bogus-option"),
            # conflicts are usage errors, never "the last one wins"
            (["--method", "a:3,b:1"], "--method"),             # a mix sent as one name
            (["--method", "x", "--verb", "list"], "--verb"),
            (["--verb", "list", "--method", "x"], "--method"),
            (["--vm-id", "abc"], "--vm-id"),                   # the default verb takes none
            (["--verb", "list", "--vm-id", "abc"], "--vm-id"),
            (["--method", "x", "--vm-id", "abc"], "--vm-id"),
            (["--rate", "5", "-R", "10"], "--rate"),           # one value, given twice
            (["--cpu-saturation", "often"], "--cpu-saturation"),
        ]
        for args, option in table:
            refused("run", ["--url", url, "--output", out] + args + list(LONG), option, tmp, sock)
        # phrased as every other usage error: "--option: what it takes"
        rc, _, err = rpcbench("run", "--url", url, "-d", "0", timeout=15)
        check(rc == 2 and err.strip() == "rpcbench run: --duration: must be more than 0 (e.g. 30s)",
              "-d 0: %d %r" % (rc, err))
        rc, _, err = rpcbench("run", "--url", url, "--rate", "5", "--rate", "5", "--cpu-saturation",
                              "off", "--verb", "list", "-d", "bad", timeout=15)
        check(rc == 2 and "--duration" in err, "the same value twice is no conflict: %r" % err)
        stomp = "stomp://127.0.0.1:%d" % sock.getsockname()[1]
        refused("run", ["--url", stomp, "-p", "xmlrpc", *LONG], "--proto", tmp, sock)
        refused("run", ["--url", stomp, "-R", "max", *LONG], "--rate", tmp, sock)
        sock.close()


def test_compare_report_serve_check_first():
    with tempfile.TemporaryDirectory() as tmp:
        sock = listener()
        url = "http://127.0.0.1:%d" % sock.getsockname()[1]
        for args, option in ((["--rounds", "0"], "--rounds"),
                             (["--proto", "xmlrpc,jsonrpc,xmlrpc"], "--proto"),
                             (["--format", "csv"], "--format"),
                             (["--server-pid", "1,x"], "--server-pid"),
                             (["--percentiles", "101"], "--percentiles"),
                             (["--verb", "nope"], "--verb"),
                             (["--buckets", "0:0:0"], "--buckets")):
            refused("compare", ["--url", url] + args + list(LONG), option, tmp, sock)
        refused("compare", [os.path.join(tmp, "a.json"), os.path.join(tmp, "b.json")],
                "a.json", tmp)
        sock.close()
        missing = os.path.join(tmp, "none.json")
        some = os.path.join(tmp, "some.json")
        open(some, "w").write("{}")
        for args, option in ((["--format", "xml", missing], "--format"),
                             (["--percentiles", "150", missing], "--percentiles"),
                             (["--buckets", "5:1:1", missing], "--buckets"),
                             ([missing], "none.json"),
                             (["--plot-keep", some], "--plot-keep"),
                             (["--output", tmp, some], "--output"),
                             (["--rounds", "2", missing], "--rounds")):
            refused("report", args, option, tmp)
        for args, option in ((["--vms", "-1"], "--vms"), (["--listen", "nohost"], "--listen"),
                             (["--delay", "soon"], "--delay"),
                             (["--tls-cert", missing], "--tls-cert"),
                             (["--idle-timeout", "0"], "--idle-timeout"),
                             (["--bogus"], "--bogus")):
            refused("serve", args, option, tmp)


def test_connections_beyond_the_fd_limit():
    """--connections that no raise of the soft limit can give: a usage error
    naming the option, before any connection."""
    sock = listener()
    url = "http://127.0.0.1:%d" % sock.getsockname()[1]
    limit = lambda: resource.setrlimit(resource.RLIMIT_NOFILE, (100, 100))  # noqa: E731
    p = subprocess.run([RPCBENCH, "run", "--url", url, "-c", "1000", *LONG], preexec_fn=limit,
                       capture_output=True, text=True, timeout=15)
    check(p.returncode == 2 and p.stderr.startswith("rpcbench run: --connections: 1000 needs "),
          "rc %d %r" % (p.returncode, p.stderr))
    check(accepted(sock) == 0, "connected")
    sock.close()


def test_https_to_plain_server_fails_fast():
    """The server answers a ClientHello with plain HTTP: no 10 s wait for a
    handshake that cannot succeed, and a message in the user's terms."""
    with Server("--vms", "1") as s:
        for scheme, hint in (("https", "use http://"), ("stomps", "use stomp://")):
            rc, out, err = rpcbench("run", "--url", "%s://127.0.0.1:%d" % (scheme, s.port),
                                    "-p", "jsonrpc", *LONG, timeout=8)
            check(rc == 1, "%s: rc %d %r" % (scheme, rc, err))
            check(err == "rpcbench run: the server at %s://127.0.0.1:%d answered plain HTTP, "
                  "not TLS: %s\n" % (scheme, s.port, hint), "%s: %r" % (scheme, err))
            check("SSL routines" not in err and out == "", "%s: %r" % (scheme, err))


def test_saved_file_errors_in_plain_words():
    with tempfile.TemporaryDirectory() as tmp:
        bad = os.path.join(tmp, "bad.json")
        open(bad, "w").write("{not json")
        rc, _, err = rpcbench("report", bad, timeout=10)
        check(rc == 1 and err.count("\n") == 1, "non-JSON: rc %d %r" % (rc, err))
        check(re.fullmatch(r"rpcbench report: \S+bad\.json: not JSON: [^()]*\(want a result "
                           r"saved by --output\)\n", err), "non-JSON text %r" % err)
        check("json_tokener" not in err and err.count("(") == err.count(")"), err)
        rc, _, err = rpcbench("report", os.path.join(tmp, "none.json"), timeout=10)
        check(rc == 2 and err.endswith("none.json: cannot read: No such file or directory\n"),
              "missing: rc %d %r" % (rc, err))
        check("json_object_from_file" not in err, err)


def usage_error(cmd, args, sock=None):
    """Runs a command that must be refused: exit 2, one stderr line, nothing
    on stdout, no connection to sock. @return that line without
    "rpcbench CMD: "."""
    rc, out, err = rpcbench(cmd, *args, timeout=15)
    what = "%s %s: rc %d, stderr %r" % (cmd, " ".join(args), rc, err)
    prefix = "rpcbench %s: " % cmd
    check(rc == 2 and out == "", what)
    check(err.count("\n") == 1 and err.startswith(prefix), what)
    if sock is not None:
        check(accepted(sock) == 0, "%s connected to the target" % what)
    return err[len(prefix):-1]


def test_shared_option_same_message_everywhere():
    """One option, one check: the same bad value of an option that several
    subcommands take is refused by each (exit 2, nothing sent) with the
    same message, word for word, naming the option. Each command is
    otherwise valid (a run would start; report has a file to read), so the
    option is what refuses it."""
    with tempfile.TemporaryDirectory() as tmp:
        sock = listener()
        url = "http://127.0.0.1:%d" % sock.getsockname()[1]
        some = os.path.join(tmp, "some.json")
        open(some, "w").write("{}")
        base = {"run": ["--url", url, *LONG], "compare": ["--url", url, *LONG],
                "report": [some], "serve": ["--listen", "127.0.0.1:0"]}
        measured = ("run", "compare")
        rendered = ("run", "compare", "report")
        shared = [
            (["--percentiles", "150"], rendered),
            (["--percentiles", "99,50"], rendered),
            (["--percentiles", "50,x"], rendered),
            (["--buckets", "5:1:1"], rendered),
            (["--buckets", "1:1000:1"], rendered),
            (["--format", "xml"], rendered),
            (["--plot-keep"], rendered),
            (["--output", tmp], rendered),
            (["--plot", os.path.join(tmp, "no", "x.svg")], rendered),
            (["--duration", "1x"], measured),
            (["--timeout", "0s"], measured),
            (["--interval", "1ms"], measured),
            (["--vms", "-1"], ("serve",) + measured),
            (["--vms", "x"], ("serve",) + measured),
            (["--bogus-option"], ("serve",) + rendered),
        ]
        for args, cmds in shared:
            texts = {c: usage_error(c, args + base[c], sock if c in measured else None)
                     for c in cmds}
            check(len(set(texts.values())) == 1, "%s: %r" % (" ".join(args), texts))
            check(args[0] in texts[cmds[0]], "%s: %r" % (" ".join(args), texts))
        # the case the issue found: run refuses what report refuses, alike
        want = "--percentiles: 150 is not in 0..100 (e.g. 50,90,99,99.9)"
        for cmd, args in (("run", ["--url", url, *LONG]), ("report", [some])):
            got = usage_error(cmd, ["--percentiles", "150", *args], sock)
            check(got == want, "%s: %r" % (cmd, got))
        sock.close()

def test_version_same_everywhere():
    """--version: one line, the same from rpcbench and every subcommand,
    saying whether MPI is built in."""
    outs = set()
    for cmd in ([], ["serve"], ["run"], ["compare"], ["report"]):
        rc, out, err = rpcbench(*cmd, "--version", timeout=10)
        check(rc == 0 and err == "" and
              re.fullmatch(r"rpcbench \S+ \((with|without) MPI[^)]*\)\n", out),
              "%s --version: rc %d %r %r" % (cmd, rc, out, err))
        outs.add(out)
    check(len(outs) == 1, "versions differ: %r" % outs)


if __name__ == "__main__":
    main([test_run_checks_every_option_first, test_compare_report_serve_check_first,
          test_connections_beyond_the_fd_limit, test_https_to_plain_server_fails_fast, test_saved_file_errors_in_plain_words,
          test_shared_option_same_message_everywhere, test_version_same_everywhere])
