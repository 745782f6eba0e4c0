"""it_auth: headers and auth (issue 26, part 2) as independent peers
receive them. Python's own xmlrpc.server gets --header lines and HTTP basic
auth (--user) exactly as given and refuses a run without credentials,
which counts as the error kind `auth` with a hint; a standard-library
JSON-RPC server gets --bearer's token; a STOMP peer gets CONNECT's login
and passcode (--stomp-login). No secret appears in any output: the text,
stderr, the saved JSON, the CSV summary or the page."""
import base64
import http.server
import json
import os
import shutil
import socket
import tempfile
import threading
import xmlrpc.server

from rpctest import JsonRpcHandler, Recorder, check, main, rpcbench

USER, PASS, TOKEN = "alice", "pw-Zq81x", "tok-9Hh2kQ"
SECRETS = (PASS, TOKEN, "cHctWnE4MXg", base64.b64encode(f"{USER}:{PASS}".encode()).decode())


class AuthXmlHandler(xmlrpc.server.SimpleXMLRPCRequestHandler):
    rpc_paths = ("/RPC2",)

    def parse_request(self):
        if not super().parse_request():
            return False
        self.server.seen.append(dict(self.headers))
        want = "Basic " + base64.b64encode(f"{USER}:{PASS}".encode()).decode()
        if self.headers.get("Authorization") != want:
            self.send_error(401, "Unauthorized")
            return False
        return True

    def log_message(self, *a):
        pass


def xml_server():
    s = xmlrpc.server.SimpleXMLRPCServer(("127.0.0.1", 0), requestHandler=AuthXmlHandler,
                                         logRequests=False)
    s.register_function(lambda: {"status": {"code": 0, "message": "Done"}}, "ping")
    return Recorder(s)


class JsonHandler(JsonRpcHandler):
    def answer(self, req):
        self.server.seen.append(dict(self.headers))
        ok = self.headers.get("Authorization") == "Bearer " + TOKEN
        return (200, True) if ok else (403, None)


def json_server():
    return Recorder(http.server.ThreadingHTTPServer(("127.0.0.1", 0), JsonHandler))


def outputs(*args, code=0):
    """Runs rpcbench run with every output on; returns (stdout+stderr, all
    the files' text, saved JSON)."""
    d = tempfile.mkdtemp(prefix="rpcbench-auth.")
    try:
        files = [os.path.join(d, n) for n in ("r.json", "r.html")]
        rc, out, err = rpcbench("run", *args, "--output", files[0], "--html", files[1],
                                timeout=60)
        check(rc == code, "rc %d (wanted %d): %s" % (rc, code, err[-400:]))
        texts = out + err + "".join(open(f).read() for f in files)
        rc2, csv, err2 = rpcbench("report", files[0], "--format", "csv-summary")
        check(rc2 in (0, 3), "report: %s" % err2)
        texts += csv
        return texts, json.load(open(files[0]))
    finally:
        shutil.rmtree(d)


def no_secret(texts):
    for s in SECRETS:
        check(s not in texts, "a secret is in the outputs: %r" % s)


def test_basic_auth_and_headers_as_sent():
    with xml_server() as srv:
        texts, r = outputs("-u", "http://127.0.0.1:%d/RPC2" % srv.port, "--method", "ping",
                           "-R", "20", "-d", "1s", "-H", "X-Trace: 7", "-H",
                           "X-Api-Key: " + TOKEN, "--user", "%s:%s" % (USER, PASS), "--quiet")
        check(r["requests"]["ok"] == r["requests"]["sent"] > 0, "ok %r" % r["requests"])
        check(len(srv.server.seen) == r["requests"]["sent"] + r["warmup"]["sent"],
              "the server got %d requests, the run sent %d" % (len(srv.server.seen),
                                                              r["requests"]["sent"]))
        h = srv.server.seen[0]
        check(h.get("X-Trace") == "7" and h.get("X-Api-Key") == TOKEN, "headers %r" % h)
        check(r["transport"]["auth"] == "--user alice:***", r["transport"])
        check(r["transport"]["headers"] == "X-Trace: 7; X-Api-Key: ***", r["transport"])
        check("--user alice:***" in texts, "the report says how it authenticated")
        no_secret(texts)


def test_missing_credentials_are_the_auth_kind():
    with xml_server() as srv:
        texts, r = outputs("-u", "http://127.0.0.1:%d/RPC2" % srv.port, "--method", "ping",
                           "-R", "20", "-d", "1s", "--quiet", code=3)
        check(r["errors"]["auth"] == r["requests"]["sent"] > 0 and r["errors"]["http"] == 0,
              "errors %r" % r["errors"])
        check("401" in r["error_samples"]["auth"] and "--user" in r["error_samples"]["auth"],
              "the hint: %r" % r["error_samples"]["auth"])


def test_bearer_over_jsonrpc():
    with json_server() as srv:
        texts, r = outputs("-u", "http://127.0.0.1:%d/jsonrpc" % srv.port, "-p", "jsonrpc",
                           "--method", "ping", "-R", "20", "-d", "1s", "--bearer", TOKEN,
                           "--quiet")
        check(r["requests"]["ok"] == r["requests"]["sent"] > 0, "ok %r" % r["requests"])
        check(srv.server.seen[0].get("Authorization") == "Bearer " + TOKEN, srv.server.seen[0])
        check(r["transport"]["auth"] == "--bearer ***", r["transport"])
        no_secret(texts)
        texts, r = outputs("-u", "http://127.0.0.1:%d/jsonrpc" % srv.port, "-p", "jsonrpc",
                           "--method", "ping", "-R", "20", "-d", "1s", "--bearer", "wrong",
                           "--quiet", code=3)
        check(r["errors"]["auth"] > 0 and "403" in r["error_samples"]["auth"] and
              "refused" in r["error_samples"]["auth"], "403: %r" % r["error_samples"])


def test_secret_from_a_job_file():
    """The README's advice against ps: the token in a job file arrives as
    given, and no output (job_options included) holds it."""
    with json_server() as srv, tempfile.TemporaryDirectory() as d:
        job = os.path.join(d, "auth.ini")
        with open(job, "w") as f:
            f.write("bearer = %s\n" % TOKEN)
        os.chmod(job, 0o600)
        texts, r = outputs("--config", job, "-u", "http://127.0.0.1:%d/jsonrpc" % srv.port,
                           "-p", "jsonrpc", "--method", "ping", "-R", "20", "-d", "1s", "--quiet")
        check(r["requests"]["ok"] == r["requests"]["sent"] > 0, "ok %r" % r["requests"])
        check(srv.server.seen[0].get("Authorization") == "Bearer " + TOKEN, srv.server.seen[0])
        check(r["config"]["job_options"] == "--bearer ***", r["config"])
        no_secret(texts)


def stomp_peer(frames, done):
    """A listener that keeps each CONNECT frame it gets and answers ERROR,
    until done is set."""
    ls = socket.socket()
    ls.bind(("127.0.0.1", 0))
    ls.listen(8)
    ls.settimeout(0.5)

    def serve():
        while not done.is_set():
            try:
                c, _ = ls.accept()
            except OSError:
                continue
            c.settimeout(2)
            data = b""
            try:
                while b"\0" not in data:
                    chunk = c.recv(4096)
                    if not chunk:
                        break
                    data += chunk
                frames.append(data.split(b"\0")[0].decode())
                c.sendall(b"ERROR\nmessage:go away\n\n\0")
            except OSError:
                pass
            c.close()
        ls.close()
    threading.Thread(target=serve, daemon=True).start()
    return ls.getsockname()[1]


def test_stomp_login_in_connect():
    frames, done = [], threading.Event()
    port = stomp_peer(frames, done)
    try:
        rc, out, err = rpcbench("run", "-u", "stomp://127.0.0.1:%d" % port, "-p", "jsonrpc",
                                "--verb", "ping", "-R", "5", "-d", "1s", "-c", "1",
                                "--timeout", "1s", "--stomp-login", "%s:%s" % (USER, PASS))
    finally:
        done.set()
    check(frames, "no CONNECT frame arrived (rc %d: %s)" % (rc, err[-300:]))
    head = frames[0].split("\n")
    check(head[0] == "CONNECT" and "login:" + USER in head and "passcode:" + PASS in head,
          "CONNECT: %r" % head)
    check(rc == 1 and "refused the login" in err, "a refused login: rc %d %r" % (rc, err))
    no_secret(out + err)


def test_usage_errors_name_no_secret():
    for args, says in ((["--header", "Host: x"], "Host is rpcbench's"),
                       (["--user", PASS], "USER:PASS"),
                       (["--user", "a:" + PASS, "--bearer", TOKEN], "one of --user"),
                       (["--stomp-login", "a:" + PASS], "stomp://"),
                       (["-u", "stomp://127.0.0.1:1", "-p", "jsonrpc", "--bearer", TOKEN],
                        "HTTP's")):
        rc, out, err = rpcbench("run", *args, "-d", "1s")
        check(rc == 2 and says in err, "%r: rc %d %r" % (args, rc, err))
        no_secret(out + err)


if __name__ == "__main__":
    main([test_basic_auth_and_headers_as_sent, test_missing_credentials_are_the_auth_kind,
          test_bearer_over_jsonrpc, test_secret_from_a_job_file, test_stomp_login_in_connect,
          test_usage_errors_name_no_secret])
