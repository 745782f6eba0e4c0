"""it_expect: --expect, checks on the answers' decoded results. Against
Python's own xmlrpc.server and a standard-library JSON-RPC server that
answer {"n": k % 3, "tag": "x"} to their k-th call and count the answers
with n = 0, `--expect 'n!=0'` fails exactly those answers (the error kind
`check`, its sample quoting the value found), with the same check and the
same tree in both encodings; the simulator's getAllVmStats passes a length
check in both (XML-RPC's statsList, JSON-RPC's bare list); the report
shows what the checks cost; `==` is `=`; bad checks, and checks that
could only fail ("len(.)=5O"), are usage errors saying where they broke,
before the first request."""
import http.server
import json
import os
import tempfile
import threading
import xmlrpc.server

from rpctest import JsonRpcHandler, check, main, rpcbench


class Counter:
    def __init__(self):
        self.k = self.zeros = 0
        self.lock = threading.Lock()

    def answer(self):
        with self.lock:
            n = self.k % 3
            self.k += 1
            self.zeros += n == 0
            return {"n": n, "tag": "x"}


def xml_server(counter):
    s = xmlrpc.server.SimpleXMLRPCServer(("127.0.0.1", 0), logRequests=False)
    s.register_function(counter.answer, "next")
    return s


class JsonHandler(JsonRpcHandler):
    def answer(self, req):
        return 200, self.server.counter.answer()


def json_server(counter):
    s = http.server.ThreadingHTTPServer(("127.0.0.1", 0), JsonHandler)
    s.counter = counter
    return s


def run(*args, code=0):
    with tempfile.TemporaryDirectory() as d:
        out = os.path.join(d, "r.json")
        rc, stdout, err = rpcbench("run", *args, "--output", out, "--quiet", timeout=60)
        check(rc == code, "rc %d (wanted %d): %s" % (rc, code, err[-400:]))
        with open(out) as f:
            return json.load(f), stdout


def exact_failures(make, url, proto):
    counter = Counter()
    srv = make(counter)
    t = threading.Thread(target=srv.serve_forever, daemon=True)
    t.start()
    try:
        r, text = run("-u", url % srv.server_address[1], "-p", proto, "--method", "next",
                      "-R", "30", "-d", "1s", "-c", "2", "--expect", "n!=0",
                      "--expect", "tag=x", code=0)
    finally:
        srv.shutdown()
        srv.server_close()
    req = r["requests"]
    answered = req["ok"] + req["errors"]
    check(counter.k == answered > 0 and req["sent"] == answered + req["unfinished"],
          "server answered %d, the run counted %r" % (counter.k, req))
    check(r["errors"]["check"] == counter.zeros and req["ok"] == counter.k - counter.zeros,
          "%s: %d answers had n=0, the run failed %d" % (proto, counter.zeros,
                                                          r["errors"]["check"]))
    check(r["error_samples"]["check"] == "--expect 'n!=0' broke: got 0", r["error_samples"])
    check(r["checks"]["checked"] == counter.k and r["checks"]["failed"] == counter.zeros and
          r["checks"]["cpu_us_per_answer"] > 0, "checks %r" % r["checks"])
    check("full decode + checks" in text and "checked by 2 --expect" in text, text[-800:])


def test_exact_failures_xmlrpc():
    exact_failures(xml_server, "http://127.0.0.1:%d/RPC2", "xmlrpc")


def test_exact_failures_jsonrpc():
    exact_failures(json_server, "http://127.0.0.1:%d/jsonrpc", "jsonrpc")


def test_simulator_lengths_both_encodings():
    for proto, path in (("xmlrpc", "len(statsList)=12"), ("jsonrpc", "len(.)=12")):
        r, _ = run("-p", proto, "--verb", "getAllVmStats", "--vms", "12", "-R", "10", "-d",
                   "0.5s", "--expect", path, "--expect", "status.code=0" if proto == "xmlrpc"
                   else "[0].vmId exists")
        check(r["requests"]["ok"] == r["requests"]["sent"] > 0 and r["errors"]["check"] == 0,
              "%s: %r" % (proto, r["errors"]))
        check(r["config"]["validate"] == "full", "--expect sets the full decode")


def test_double_equals_is_equality():
    counter = Counter()
    srv = json_server(counter)
    threading.Thread(target=srv.serve_forever, daemon=True).start()
    try:
        url = "http://127.0.0.1:%d/" % srv.server_address[1]
        r, _ = run("-u", url, "-p", "jsonrpc", "--method", "next", "-R", "40", "-d", "1s",
                   "--expect", "tag==x", "--expect", "len(.)==2")
    finally:
        srv.shutdown()
        srv.server_close()
    check(r["requests"]["ok"] == r["requests"]["sent"] == counter.k > 0 and
          r["errors"]["check"] == 0, "'==' held on %r: %r" % (r["requests"], r["errors"]))


def test_usage_errors():
    for args, says in ((["--expect", "n="], "no value after '='"),
                       (["--expect", ".===5"], "value '=5' after '=='"),
                       (["--expect", "len(.)=5O"], "len(...) compares with a number, not '5O'"),
                       (["--expect", "a..b=1"], "breaks at '..b'"),
                       (["--expect", "len(x) exists"], "want PATH OP VALUE"),
                       (["--validate", "cheap", "--expect", "n=1"], "--validate full"),
                       (["--expect", "n=1", "--validate", "none"], "--validate full")):
        # no server at this port: a check that parsed would fail to connect, not exit 2
        rc, out, err = rpcbench("run", "-u", "http://127.0.0.1:9/", *args, "-d", "1s")
        check(rc == 2 and says in err and len(err.strip().splitlines()) == 1,
              "%r: rc %d %r" % (args, rc, err))


if __name__ == "__main__":
    main([test_exact_failures_xmlrpc, test_exact_failures_jsonrpc,
          test_simulator_lengths_both_encodings, test_double_equals_is_equality,
          test_usage_errors])
