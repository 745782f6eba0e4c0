"""Shared helpers for the integration tests (tests/it_*.py), one copy each:

- Listening / Server: a test server in its own process (`rpcbench serve`,
  tests/faultserver.py) on an ephemeral loopback port, stopped on the way out;
- spawn(), bounded(): every process a test starts is its own process group,
  killed whole (with whatever it started: mpirun's ranks, run's simulator)
  on a timeout, on SIGTERM (tests/run.sh's bound per file) and on exit;
- rpcbench(), run_json(): rpcbench with a hard timeout, its JSON result read;
- make_certs(): a CA and certificates made with the openssl CLI;
- Peer, read_http_request(), http_response(), jsonrpc_result(): the servers
  written by hand that rpcbench run talks to (it_client_wire.py's peers,
  faultserver.py); STOMP framing by hand is in stomptest.py;
- check(), skip(), need_package(), main(): checks that survive `python -O`,
  a skip that is reported as one (only for what no package can give: a
  sanitizer build, a loaded machine), a missing package as a failure, and
  the runner printing ok / skip / FAIL per test."""
import atexit
import http.client
import http.server
import json
import os
import re
import select
import signal
import socket
import subprocess
import sys
import tempfile
import threading
import time
import traceback
import xmlrpc.client

RPCBENCH = os.environ.get("RPCBENCH", os.path.join(os.path.dirname(__file__), "..", "rpcbench"))

# ---- processes: each its own group, killed whole --------------------------

_groups = set()  # process group ids (their leaders' pids) this test started


def spawn(argv, **kw):
    """subprocess.Popen(argv, **kw) as the leader of a new process group,
    remembered until kill_group(): a timeout, SIGTERM or the test's exit
    kills the group, so nothing it started (mpirun's ranks, a simulator)
    outlives the test."""
    p = subprocess.Popen([str(a) for a in argv], start_new_session=True, **kw)
    _groups.add(p.pid)
    return p


def kill_group(p):
    """SIGKILL to p's whole process group (what is left of it), then reaps p."""
    try:
        os.killpg(p.pid, signal.SIGKILL)
    except (ProcessLookupError, PermissionError):
        pass
    _groups.discard(p.pid)
    try:
        p.wait(10)
    except subprocess.TimeoutExpired:
        pass


def bounded(argv, timeout, env=None, cwd=None, input=None):
    """Runs argv (its own process group) with text output captured; on
    timeout kills the group and raises AssertionError saying so. What the
    group left running after argv ended is killed too. Returns a
    subprocess.CompletedProcess."""
    p = spawn(argv, stdin=subprocess.PIPE if input is not None else subprocess.DEVNULL,
              stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, env=env, cwd=cwd)
    try:
        out, err = p.communicate(input, timeout=timeout)
    except subprocess.TimeoutExpired:
        kill_group(p)
        out, err = p.communicate()
        raise AssertionError("%s still ran after %g s: its process group was killed; "
                             "stderr: %s" % (" ".join(map(str, argv[:4])), timeout,
                                             (err or "")[-1500:]))
    kill_group(p)
    return subprocess.CompletedProcess(p.args, p.returncode, out, err)


def _kill_all_groups(*_):
    for pgid in list(_groups):
        try:
            os.killpg(pgid, signal.SIGKILL)
        except (ProcessLookupError, PermissionError):
            pass
    _groups.clear()


def _terminated(signum, _frame):
    """SIGTERM (tests/run.sh's bound on a test file): kill what we started."""
    _kill_all_groups()
    print("killed by signal %d: every process group this test started was killed" % signum,
          flush=True)
    os._exit(128 + signum)


atexit.register(_kill_all_groups)


class Listening:
    """A test server in another process that prints "listening on ADDR" on
    stdout once it accepts (`rpcbench serve`, tests/faultserver.py), with its
    stderr kept; use as a context manager. host is the bare address ("::1"),
    addr what the line said ("[::1]:PORT")."""

    def __init__(self, argv, what):
        self.argv, self.what = list(argv), what
        self.proc = self.errlog = None
        self.addr, self.host, self.port = None, None, None

    def __enter__(self):
        self.errlog = tempfile.TemporaryFile(mode="w+")
        self.proc = spawn(self.argv, stdout=subprocess.PIPE, stderr=self.errlog, text=True)
        ready, _, _ = select.select([self.proc.stdout], [], [], 10)
        line = self.proc.stdout.readline() if ready else ""
        if not line.startswith("listening on "):
            self.kill()
            raise AssertionError("%s did not start: %r %r" % (self.what, line, self.stderr()))
        self.addr = line.split()[-1]
        host, _, port = self.addr.rpartition(":")
        self.host, self.port = host.strip("[]"), int(port)
        return self

    def url(self, path):
        return "http://%s%s" % (self.addr, path)

    def stderr(self):
        self.errlog.seek(0)
        return self.errlog.read()

    def alive(self, what):
        check(self.proc.poll() is None, "%s died (%s) with status %r"
              % (self.what, what, self.proc.returncode))

    def rss_kb(self):
        with open("/proc/%d/status" % self.proc.pid) as f:
            for line in f:
                if line.startswith("VmRSS:"):
                    return int(line.split()[1])
        raise AssertionError("no VmRSS")

    def stop(self):
        """SIGTERM; returns (exit code, stderr)."""
        if self.proc.poll() is None:
            self.proc.send_signal(signal.SIGTERM)
            try:
                self.proc.wait(5)
            except subprocess.TimeoutExpired:
                pass
        self.kill()
        return self.proc.returncode, self.stderr()

    def kill(self):
        """SIGKILL to its process group (itself and anything it started)."""
        if self.proc:
            kill_group(self.proc)

    def __exit__(self, *exc):
        self.stop()
        self.proc.stdout.close()
        self.errlog.close()


class Server(Listening):
    """`rpcbench serve` on an ephemeral port of `listen` (loopback IPv4 unless
    told), with serve's options in args; its stderr keeps the closing line
    with the counters."""

    def __init__(self, *args, listen="127.0.0.1:0"):
        super().__init__([RPCBENCH, "serve", "--listen", listen] + list(args), "serve")
        self.args = list(args)

    def xml(self, path="/RPC2"):
        """An xmlrpc.client proxy for path."""
        return xmlrpc.client.ServerProxy(self.url(path))

    def http(self, timeout=10.0):
        """A new http.client connection (keep-alive until closed)."""
        return http.client.HTTPConnection(self.host, self.port, timeout=timeout)

    def sock(self, timeout=10.0):
        """A new raw TCP connection."""
        return socket.create_connection((self.host, self.port), timeout=timeout)


def rpcbench(*args, timeout=60):
    """Runs rpcbench; returns (exit code, stdout, stderr)."""
    p = bounded([RPCBENCH] + list(args), timeout)
    return p.returncode, p.stdout, p.stderr


def run_json(*args, timeout=60, code=0):
    """Runs `rpcbench run ... --output tmp.json --quiet`, expecting exit status
    `code` (3: no request succeeded); returns (code, result, stdout)."""
    want = code
    with tempfile.TemporaryDirectory() as d:
        out = os.path.join(d, "r.json")
        code, stdout, stderr = rpcbench("run", *args, "--output", out, "--quiet", timeout=timeout)
        if code != want:
            raise AssertionError("run exited %d: %s" % (code, stderr.strip()))
        with open(out) as f:
            return code, json.load(f), stdout


def openssl(*args, cwd):
    subprocess.run(["openssl", *args], cwd=cwd, check=True, timeout=60,
                   stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)


def make_certs(d):
    """Files in d, made with the openssl CLI: ca.pem/.key (a CA), server.pem/.key
    (for 127.0.0.1, signed by the CA), client.pem/.key (signed by the CA) and
    rogue.pem/.key (self-signed, trusted by nobody). Returns their paths."""
    openssl("req", "-x509", "-newkey", "rsa:2048", "-nodes", "-days", "2", "-subj", "/CN=test CA",
            "-keyout", "ca.key", "-out", "ca.pem", "-addext", "basicConstraints=critical,CA:TRUE",
            "-addext", "keyUsage=critical,keyCertSign,cRLSign", cwd=d)
    for name, ext in (("server", "subjectAltName=IP:127.0.0.1\nextendedKeyUsage=serverAuth\n"),
                      ("client", "extendedKeyUsage=clientAuth\n")):
        with open(os.path.join(d, name + ".ext"), "w") as f:
            f.write(ext)
        openssl("req", "-newkey", "rsa:2048", "-nodes", "-subj", "/CN=" + name,
                "-keyout", name + ".key", "-out", name + ".csr", cwd=d)
        openssl("x509", "-req", "-in", name + ".csr", "-CA", "ca.pem", "-CAkey", "ca.key",
                "-CAcreateserial", "-days", "2", "-extfile", name + ".ext",
                "-out", name + ".pem", cwd=d)
    openssl("req", "-x509", "-newkey", "rsa:2048", "-nodes", "-days", "2", "-subj", "/CN=rogue",
            "-keyout", "rogue.key", "-out", "rogue.pem", cwd=d)
    j = lambda f: os.path.join(d, f)  # noqa: E731
    return {"ca": j("ca.pem"), "server_cert": j("server.pem"), "server_key": j("server.key"),
            "client_cert": j("client.pem"), "client_key": j("client.key"),
            "other_ca": j("rogue.pem")}


# ---- hand-written peers: servers rpcbench talks to, written here ----------

class Peer:
    """A raw TCP server in this process on 127.0.0.1:0. handle(sock, rec)
    runs for each accepted connection in its own (daemon) thread; rec, a
    fresh record() (a dict), is kept in self.conns in accept order for the
    test to read, and gets "done" once handle returned and the socket is
    closed. An OSError in handle ends that connection quietly (the client
    going away is what many tests are about). timeout: each connection's
    socket timeout (None: blocking)."""

    def __init__(self, handle, record=dict, timeout=None):
        self.handle, self.record, self.timeout = handle, record, timeout
        self.sock = socket.socket()
        self.sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
        self.sock.bind(("127.0.0.1", 0))
        self.sock.listen(128)
        self.port = self.sock.getsockname()[1]
        self.conns, self.live = [], set()
        self.lock = threading.Lock()
        threading.Thread(target=self._accept, daemon=True).start()

    def _accept(self):
        while True:
            try:
                c, _ = self.sock.accept()
            except OSError:  # close() shut the listening socket
                return
            c.settimeout(self.timeout)
            rec = self.record()
            with self.lock:
                self.conns.append(rec)
                self.live.add(c)
            threading.Thread(target=self._serve, args=(c, rec), daemon=True).start()

    def _serve(self, c, rec):
        try:
            self.handle(c, rec)
        except OSError:
            pass
        finally:
            with self.lock:
                self.live.discard(c)
            c.close()
            rec["done"] = True

    def close(self):
        """Stops accepting and closes the listening socket (the port is gone)."""
        try:
            self.sock.shutdown(socket.SHUT_RDWR)  # wakes the blocked accept()
        except OSError:
            pass
        self.sock.close()

    def drop_all(self):
        """Shuts down every live connection (their handlers then end)."""
        with self.lock:
            live = list(self.live)
        for c in live:
            try:
                c.shutdown(socket.SHUT_RDWR)
            except OSError:
                pass

    def wait_done(self, timeout=5, conns=0):
        """Waits until every connection accepted so far is done, and at
        least `conns` were accepted (a proxy may not have connected yet)."""
        end = time.monotonic() + timeout
        while time.monotonic() < end and not (len(self.conns) >= conns and
                                              all(r.get("done") for r in self.conns)):
            time.sleep(0.02)


def read_http_request(recv, pending=b"", max_head=64 * 1024):
    """One HTTP request framed by Content-Length (none: no body), reading
    more with recv() (returns bytes, b"" at EOF) after pending. Returns
    (head, body, rest) with rest the bytes past this request, or None at EOF
    or when the head passes max_head."""
    buf = pending
    while b"\r\n\r\n" not in buf:
        if len(buf) > max_head:
            return None
        chunk = recv()
        if not chunk:
            return None
        buf += chunk
    head, _, rest = buf.partition(b"\r\n\r\n")
    m = re.search(rb"(?im)^content-length:\s*(\d+)", head)
    need = int(m.group(1)) if m else 0
    while len(rest) < need:
        chunk = recv()
        if not chunk:
            return None
        rest += chunk
    return head, rest[:need], rest[need:]


def http_response(body, ctype, length=None):
    """A 200 response carrying body; length (default len(body)) is what
    Content-Length says, so a test can lie."""
    n = len(body) if length is None else length
    return (b"HTTP/1.1 200 OK\r\nContent-Type: %s\r\nContent-Length: %d\r\n\r\n"
            % (ctype.encode(), n)) + body


def http_peer(answer, before_answer=None):
    """A Peer serving keep-alive HTTP: every request (read_http_request's
    framing) gets answer(body), bytes; rec["requests"] counts them, and
    before_answer(rec), when given, runs before each answer is sent."""
    def handle(c, rec):
        pending = b""
        while True:
            got = read_http_request(lambda: c.recv(65536), pending)
            if got is None:
                return
            _, body, pending = got
            rec["requests"] = rec.get("requests", 0) + 1
            if before_answer:
                before_answer(rec)
            c.sendall(answer(body))
    return Peer(handle)


class JsonRpcHandler(http.server.BaseHTTPRequestHandler):
    """A standard-library JSON-RPC 2.0 server's handler, keep-alive: a
    subclass's answer(req) gives (HTTP status, result) for the request
    object req; a status other than 200 is sent with a short plain body."""
    protocol_version = "HTTP/1.1"

    def setup(self):
        super().setup()  # head and body are two writes: no Nagle wait between
        self.connection.setsockopt(socket.IPPROTO_TCP, socket.TCP_NODELAY, 1)

    def answer(self, req):
        raise NotImplementedError

    def do_POST(self):
        req = json.loads(self.rfile.read(int(self.headers["Content-Length"])))
        status, result = self.answer(req)
        body = b"refused"
        self.send_response(status)
        if status == 200:
            body = json.dumps({"jsonrpc": "2.0", "id": req["id"], "result": result}).encode()
            self.send_header("Content-Type", "application/json")
        self.send_header("Content-Length", str(len(body)))
        self.end_headers()
        self.wfile.write(body)

    def log_message(self, *a):
        pass


class Recorder:
    """A standard-library server on an ephemeral loopback port, served in a
    thread; its handlers append what they got to server.seen (under
    server.lock when they run in threads of their own)."""

    def __init__(self, server):
        self.server = server
        self.server.seen = []
        self.server.lock = threading.Lock()
        self.thread = threading.Thread(target=server.serve_forever, daemon=True)

    def __enter__(self):
        self.thread.start()
        return self

    def __exit__(self, *exc):
        self.server.shutdown()
        self.server.server_close()

    @property
    def seen(self):
        with self.server.lock:
            return list(self.server.seen)

    @property
    def port(self):
        return self.server.server_address[1]


def svg_charts(path):
    """--plot's file: well-formed XML (xml.etree raises otherwise), one SVG
    whose panels are <g id="CHART ID">; {chart id: [series names, in
    order]} from each panel's paths (data-series)."""
    import xml.etree.ElementTree as ET
    ns = "{http://www.w3.org/2000/svg}"
    root = ET.parse(path).getroot()
    check(root.tag == ns + "svg", "%s: the root is %s, not an svg" % (path, root.tag))
    return {g.get("id"): [p.get("data-series") for p in g.iter(ns + "path")
                          if p.get("data-series") is not None]
            for g in root.iter(ns + "g") if g.get("id")}


def threshold_verdicts(out):
    """{expr: (line, "pass" | "FAIL")} from the text report's threshold lines."""
    got = {}
    for line in out.splitlines():
        m = re.match(r"threshold (\S+): (.*): (pass|FAIL)$", line)
        if m:
            got[m.group(1)] = (m.group(2), m.group(3))
    return got


def jsonrpc_result(rid, result=True):
    """A JSON-RPC 2.0 success answer to request id rid, as bytes."""
    return json.dumps({"jsonrpc": "2.0", "id": rid, "result": result}).encode()


# ---- checks and the test runner ----------------------------------------------

class Skip(Exception):
    """Raised by skip(): the test could not run here (not a pass)."""


def skip(why):
    """Ends the calling test as skipped, saying why; main() counts it apart."""
    raise Skip(why)


def need_package(present, what, package):
    """Fails the calling test unless present: `what` (a program, a build)
    comes from a package that scripts/deps.sh check installs, so its absence
    is a missing install step, not a reason to skip (issue 40: a fresh
    machine runs every test)."""
    if not present:
        raise AssertionError("%s is missing: scripts/deps.sh check installs %s"
                             % (what, package))


def fmt_ratio(x):
    """A ratio B/A as every report writes it (compare_stats_fmt_ratio):
    fixed notation, 3 decimals below 10, then 3 significant digits."""
    return "%.*f" % (3 if x < 9.9995 else 1 if x < 99.995 else 0, x)


def check(cond, what):
    """assert that survives `python -O`: raises AssertionError(what) unless cond."""
    if not cond:
        raise AssertionError(what)


def run_one(t, args):
    """Runs test t(*args) and prints its line, with the seconds it took
    (to find the slow tests of a slow program); returns "ok", "skip" or "FAIL"."""
    start = time.monotonic()
    try:
        t(*args)
    except Skip as e:
        print("skip %s: %s" % (t.__name__, e))
        return "skip"
    except Exception:  # noqa: BLE001 - report every failure
        print("FAIL %s (%.1fs)" % (t.__name__, time.monotonic() - start))
        traceback.print_exc(file=sys.stdout)  # in order with the lines around it
        return "FAIL"
    print("ok   %s (%.1fs)" % (t.__name__, time.monotonic() - start))
    return "ok"


def _chosen(tests, names):
    """The tests named in names (all when none; all but those after a first
    "--except"), in the list's order; a name that is not a test here ends
    the program with exit 2, so that `make check T=it_x.py::test_typo`
    cannot pass by running nothing."""
    if not names:
        return tests
    but = names[0] == "--except"
    names = names[1:] if but else names
    known = {t.__name__: t for t in tests}
    unknown = [n for n in names if n not in known]
    if unknown:
        print("FAIL no such test in %s: %s" % (os.path.basename(sys.argv[0]), ", ".join(unknown)))
        sys.exit(2)
    return [t for t in tests if (t.__name__ in names) != but]


def main(tests, *args):
    """Runs each test function (with args), or only those named on the
    command line (`it_x.py test_a test_b`), or all but those
    (`it_x.py --except test_a test_b`: tests/run.sh runs a program's tests
    marked alone apart from the others); prints ok/skip/FAIL per test, the
    traceback of each failure and a closing "N passed, N failed, N skipped".
    Exits 1 on any failure, 2 for a name that is no test here. A skip
    (skip()) is no failure, unless RPCTEST_STRICT=1 is set in the
    environment (for a machine where every test must run). A test_ function
    of the calling script left out of the list fails too: it would never run."""
    signal.signal(signal.SIGTERM, _terminated)
    caller = sys.modules["__main__"]
    forgotten = sorted(n for n, f in vars(caller).items()
                       if n.startswith("test_") and callable(f) and f not in tests)
    if forgotten:
        print("FAIL defined but not in main()'s list: %s" % ", ".join(forgotten))
    got = [run_one(t, args) for t in _chosen(tests, sys.argv[1:])]
    passed, failed, skipped = got.count("ok"), got.count("FAIL") + len(forgotten), got.count("skip")
    print("%d passed, %d failed, %d skipped" % (passed, failed, skipped), flush=True)
    strict = os.environ.get("RPCTEST_STRICT") == "1"
    sys.exit(1 if failed or (strict and skipped) else 0)
