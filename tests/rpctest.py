"""Shared helpers for the integration tests: start `rpcbench serve` on an
ephemeral loopback port, run rpcbench with a hard timeout, read results."""
import json
import os
import select
import signal
import subprocess
import sys
import tempfile
import traceback

RPCBENCH = os.environ.get("RPCBENCH", os.path.join(os.path.dirname(__file__), "..", "rpcbench"))


class Server:
    """`rpcbench serve` on 127.0.0.1:0, its stderr kept (the closing line has
    the counters); use as a context manager."""

    def __init__(self, *args):
        self.args = list(args)
        self.proc = None
        self.host, self.port = "127.0.0.1", None

    def __enter__(self):
        self.errlog = tempfile.TemporaryFile(mode="w+")
        self.proc = subprocess.Popen([RPCBENCH, "serve", "--listen", "127.0.0.1:0"] + self.args,
                                     stdout=subprocess.PIPE, stderr=self.errlog, text=True)
        ready, _, _ = select.select([self.proc.stdout], [], [], 10)
        line = self.proc.stdout.readline() if ready else ""
        if not line.startswith("listening on "):
            self.kill()
            raise AssertionError("serve did not start: %r %r" % (line, self.stderr()))
        self.port = int(line.rsplit(":", 1)[1])
        return self

    def url(self, path):
        return "http://127.0.0.1:%d%s" % (self.port, path)

    def stderr(self):
        self.errlog.seek(0)
        return self.errlog.read()

    def alive(self, what):
        check(self.proc.poll() is None, "serve died (%s) with status %r" % (what, self.proc.returncode))

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
                self.kill()
        return self.proc.returncode, self.stderr()

    def kill(self):
        if self.proc and self.proc.poll() is None:
            self.proc.kill()
            self.proc.wait(5)

    def __exit__(self, *exc):
        self.stop()
        self.proc.stdout.close()
        self.errlog.close()


def rpcbench(*args, timeout=60):
    """Runs rpcbench; returns (exit code, stdout, stderr)."""
    p = subprocess.run([RPCBENCH] + [str(a) for a in args], capture_output=True, text=True,
                       timeout=timeout)
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


def check(cond, what):
    if not cond:
        raise AssertionError(what)


def main(tests, *args):
    """Runs each test function (with args); prints ok/FAIL and the traceback
    of each failure; exits 1 on any failure. A test_ function of the
    calling script left out of the list fails too: it would never run."""
    failed = 0
    caller = sys.modules["__main__"]
    forgotten = sorted(n for n, f in vars(caller).items()
                       if n.startswith("test_") and callable(f) and f not in tests)
    if forgotten:
        print("FAIL defined but not in main()'s list: %s" % ", ".join(forgotten))
        failed += len(forgotten)
    for t in tests:
        try:
            t(*args)
            print("ok   %s" % t.__name__)
        except Exception:  # noqa: BLE001 - report every failure
            failed += 1
            print("FAIL %s" % t.__name__)
            traceback.print_exc()
    print("%d passed, %d failed" % (len(tests) - failed, failed))
    sys.exit(1 if failed else 0)
