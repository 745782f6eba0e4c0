"""it_sent_counted: every request the server gets is one the report counts
(issue 24: a server that counted its calls got 21 from `run -R 10 -d 2s`,
which reported `sent 20`, and 31 with `--warmup 1s`). Against a server
written with Python's standard library that counts the calls it receives:

- `run -R 10 -d 2s`: received == requests.sent (written to the wire),
  all 20 offered, no send at the window's edge uncounted;
- with `--warmup 1s`: received == requests.sent + warmup.sent, and the
  warmup's own line (text) and field (JSON) say what it sent and got back;
- the same through `report` of the saved file."""
import json
import os
import socketserver
import tempfile
import threading
from xmlrpc.server import SimpleXMLRPCRequestHandler, SimpleXMLRPCServer

from rpctest import RPCBENCH, bounded, check, main, rpcbench


class Handler(SimpleXMLRPCRequestHandler):
    protocol_version = "HTTP/1.1"

    def log_message(self, *args):
        pass


class Counting(socketserver.ThreadingMixIn, SimpleXMLRPCServer):
    """An XML-RPC server whose `add` counts every call it receives."""
    daemon_threads = True

    def __init__(self):
        super().__init__(("127.0.0.1", 0), requestHandler=Handler, logRequests=False)
        self.calls, self.lock = 0, threading.Lock()
        self.register_function(self.add, "add")
        threading.Thread(target=self.serve_forever, daemon=True).start()

    def add(self):
        with self.lock:
            self.calls += 1
        return True

    def url(self):
        return "http://127.0.0.1:%d/RPC2" % self.server_address[1]


def counted_run(*extra):
    """One run against a fresh counting server: (calls received, result, text)."""
    srv = Counting()
    try:
        with tempfile.TemporaryDirectory() as d:
            out = os.path.join(d, "r.json")
            code, text, err = rpcbench("run", "--url", srv.url(), "--method", "add", "-R", "10",
                                       "-d", "2s", "-c", "2", "--output", out, *extra,
                                       timeout=120)
            check(code == 0, "run exited %d: %s" % (code, err))
            again = bounded([RPCBENCH, "report", out], 60)
            check(again.returncode == 0 and again.stdout == text,
                  "report of the saved file differs:\n%s\n---\n%s" % (text, again.stdout))
            with open(out) as f:
                r = json.load(f)
        with srv.lock:
            return srv.calls, r, text
    finally:
        srv.shutdown()
        srv.server_close()


def test_no_uncounted_send():
    got, r, text = counted_run()
    req = r["requests"]
    check(req["offered"] == req["sent"] == req["ok"] == 20 and req["unsent"] == 0,
          "requests %r" % req)
    check(got == req["sent"], "the server got %d calls, the report says sent %d"
          % (got, req["sent"]))
    check(r["warmup"] == {"sent": 0, "ok": 0, "errors": 0, "unsent": 0}, "warmup %r" % r["warmup"])
    check("\nwarmup " not in text, "a warmup line without a warmup:\n" + text)


def test_warmup_sends_reported():
    got, r, text = counted_run("--warmup", "1s")
    req, warm = r["requests"], r["warmup"]
    check(req["offered"] == req["sent"] == req["ok"] == 20 and req["unsent"] == 0,
          "requests %r" % req)
    check(warm["sent"] == 10 and warm["ok"] == 10 and warm["errors"] == 0 and
          warm["unsent"] == 0, "warmup %r" % warm)
    check(got == req["sent"] + warm["sent"], "the server got %d calls, the report says sent "
          "%d + warmup %d" % (got, req["sent"], warm["sent"]))
    check("\nwarmup      sent 10  unsent 0  ok 10  errors 0" in text, "no warmup line:\n" + text)


if __name__ == "__main__":
    os.chdir(os.path.dirname(os.path.abspath(__file__)))
    main([test_no_uncounted_send, test_warmup_sends_reported])
