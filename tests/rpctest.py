"""Shared helpers for the integration tests: start `rpcbench serve` on an
ephemeral loopback port, run rpcbench with a hard timeout, read results."""
import json
import os
import signal
import subprocess
import sys
import tempfile

RPCBENCH = os.environ.get("RPCBENCH", os.path.join(os.path.dirname(__file__), "..", "rpcbench"))


class Server:
    """`rpcbench serve` on 127.0.0.1:0; use as a context manager."""

    def __init__(self, *args):
        self.args = list(args)
        self.proc = None
        self.port = None

    def __enter__(self):
        self.proc = subprocess.Popen([RPCBENCH, "serve", "--listen", "127.0.0.1:0"] + self.args,
                                     stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, text=True)
        line = self.proc.stdout.readline()
        if not line.startswith("listening on "):
            self.proc.kill()
            raise AssertionError("serve did not start: %r" % line)
        self.port = int(line.rsplit(":", 1)[1])
        return self

    def url(self, path):
        return "http://127.0.0.1:%d%s" % (self.port, path)

    def kill(self):
        if self.proc and self.proc.poll() is None:
            self.proc.kill()
            self.proc.wait(5)

    def __exit__(self, *exc):
        if self.proc.poll() is None:
            self.proc.send_signal(signal.SIGTERM)
            try:
                self.proc.wait(5)
            except subprocess.TimeoutExpired:
                self.kill()


def rpcbench(*args, timeout=60):
    """Runs rpcbench; returns (exit code, stdout, stderr)."""
    p = subprocess.run([RPCBENCH] + [str(a) for a in args], capture_output=True, text=True,
                       timeout=timeout)
    return p.returncode, p.stdout, p.stderr


def run_json(*args, timeout=60):
    """Runs `rpcbench run ... --output tmp.json --quiet`; returns (code, result, stdout)."""
    with tempfile.TemporaryDirectory() as d:
        out = os.path.join(d, "r.json")
        code, stdout, stderr = rpcbench("run", *args, "--output", out, "--quiet", timeout=timeout)
        if code != 0:
            raise AssertionError("run exited %d: %s" % (code, stderr.strip()))
        with open(out) as f:
            return code, json.load(f), stdout


def make_certs(d):
    """A CA, a server certificate for 127.0.0.1 (IP SAN) and a client
    certificate, both signed by the CA, made with the openssl CLI in d.
    Returns a dict of paths: ca, server_cert, server_key, client_cert,
    client_key, other_ca (a CA that signed nothing here)."""
    def ssl(*args):
        subprocess.run(["openssl"] + list(args), check=True, capture_output=True, timeout=60)
    p = {k: os.path.join(d, k + ".pem") for k in
         ("ca", "ca_key", "server_cert", "server_key", "client_cert", "client_key",
          "other_ca", "other_ca_key")}
    for ca, key, cn in (("ca", "ca_key", "rpcbench test CA"),
                        ("other_ca", "other_ca_key", "another CA")):
        ssl("req", "-x509", "-newkey", "rsa:2048", "-nodes", "-days", "2", "-subj", "/CN=" + cn,
            "-keyout", p[key], "-out", p[ca])
    ext = os.path.join(d, "san.ext")
    with open(ext, "w") as f:
        f.write("subjectAltName=IP:127.0.0.1,DNS:localhost\n")
    for who in ("server", "client"):
        csr = os.path.join(d, who + ".csr")
        ssl("req", "-newkey", "rsa:2048", "-nodes", "-subj", "/CN=" + who,
            "-keyout", p[who + "_key"], "-out", csr)
        ssl("x509", "-req", "-in", csr, "-CA", p["ca"], "-CAkey", p["ca_key"],
            "-CAcreateserial", "-days", "2", "-extfile", ext, "-out", p[who + "_cert"])
    return p


def check(cond, what):
    if not cond:
        raise AssertionError(what)


def main(tests):
    """Runs each test function; prints PASS/FAIL; exits 1 on any failure."""
    failed = 0
    for t in tests:
        try:
            t()
            print("ok   %s" % t.__name__)
        except Exception as e:  # noqa: BLE001 - report every failure
            failed += 1
            print("FAIL %s: %s" % (t.__name__, e))
    print("%d passed, %d failed" % (len(tests) - failed, failed))
    sys.exit(1 if failed else 0)
