"""rpcbench run over VDSM's real transports against `rpcbench serve`:
JSON-RPC over STOMP (plain and TLS), XML-RPC and JSON-RPC over HTTPS, with
client certificates (mutual TLS, as VDSM requires)."""
import tempfile

from rpctest import Server, check, main, make_certs, rpcbench, run_json

CERTS = None


def tls_args(client=True):
    a = ["--cacert", CERTS["ca"]]
    if client:
        a += ["--cert", CERTS["client_cert"], "--key", CERTS["client_key"]]
    return a


def server_tls():
    return ("--tls-cert", CERTS["server_cert"], "--tls-key", CERTS["server_key"],
            "--tls-ca", CERTS["ca"])


def accounted(r, want_ok):
    q = r["requests"]
    check(q["offered"] == q["sent"] + q["unsent"], "counts do not add up: %r" % q)
    check(q["sent"] == q["ok"] + q["errors"] + q["unfinished"], "counts do not add up: %r" % q)
    check(q["ok"] == q["offered"] == want_ok and q["errors"] == 0,
          "ok %d of %d offered, errors %r" % (q["ok"], q["offered"], r["errors"]))


def test_stomp_plain_many_in_flight():
    # One connection, a server delay of 50 ms and 200 requests/s: about ten
    # requests are in flight at once on the one STOMP connection.
    with Server("--vms", "5", "--delay", "50ms") as s:
        _, r, _ = run_json("--url", "stomp://127.0.0.1:%d" % s.port, "-p", "jsonrpc",
                           "--verb", "ping", "-R", "200", "-d", "2s", "-c", "1")
        accounted(r, 400)
        check(r["requests"]["queued"] == 0, "STOMP requests waited: %r" % r["requests"])
        p50 = r["latency_ms"]["p50"]
        check(50 <= p50 < 100, "p50 %.1fms with a 50ms delay" % p50)
        check(r["transport"]["stomp_errors"] == 0, "ERROR frames")


def test_stomp_getallvmstats_counts_vms():
    with Server("--vms", "30") as s:
        _, r, _ = run_json("--url", "stomp://127.0.0.1:%d" % s.port, "-p", "jsonrpc",
                           "-R", "10", "-d", "1s", "--validate", "full")
        accounted(r, 10)


def test_stomp_needs_jsonrpc():
    """-p xmlrpc with stomp:// is a usage error (exit 2, before any connection);
    without -p, stomp:// takes jsonrpc, its only encoding."""
    with Server("--vms", "1") as s:
        code, _, err = rpcbench("run", "--url", "stomp://127.0.0.1:%d" % s.port, "-p", "xmlrpc",
                                "-d", "1s", timeout=20)
        check(code == 2 and "JSON-RPC" in err and "--proto" in err, "exit %d %r" % (code, err))
        _, r, _ = run_json("--url", "stomp://127.0.0.1:%d" % s.port, "--verb", "ping",
                           "-R", "10", "-d", "1s")
        check(r["target"]["proto"] == "jsonrpc" and r["requests"]["ok"] > 0,
              "stomp:// default: %r %r" % (r["target"], r["requests"]))


def test_stomps_mutual_tls():
    with Server("--vms", "5", *server_tls()) as s:
        _, r, _ = run_json("--url", "stomps://127.0.0.1:%d" % s.port, "-p", "jsonrpc",
                           "--verb", "ping", "-R", "50", "-d", "1s", *tls_args())
        accounted(r, 50)
        t = r["transport"]
        check(t["tls_handshakes"] >= 4 and t["tls_failures"] == 0, "handshakes %r" % t)


def test_https_both_encodings_mutual_tls():
    with Server("--vms", "5", *server_tls()) as s:
        for proto, path in (("xmlrpc", "/RPC2"), ("jsonrpc", "/jsonrpc")):
            _, r, out = run_json("--url", "https://127.0.0.1:%d%s" % (s.port, path), "-p", proto,
                                 "--verb", "getAllVmStats", "-R", "20", "-d", "1s", *tls_args())
            accounted(r, 20)
            check(r["transport"]["handshake_ms"]["max"] > 0, "handshake time not reported")
            check("TLS verified" in out, "report does not say TLS verified:\n" + out)


def test_client_without_certificate_refused():
    # With TLS 1.3 the server checks the client's certificate after the
    # client thinks the handshake is done: either the run cannot start (exit
    # 1) or every request fails (exit 3); none may succeed.
    with Server("--vms", "1", *server_tls()) as s:
        code, out, err = rpcbench("run", "--url", "https://127.0.0.1:%d/RPC2" % s.port,
                                  "--verb", "ping", "-R", "10", "-d", "1s", "--timeout", "2s",
                                  "--quiet", *tls_args(client=False), timeout=30)
        check((code == 1 and err.startswith("rpcbench run: ")) or
              (code == 3 and "ok 0 " in out and "errors 10" in out),  # 3: none succeeded
              "a client without a certificate got through: exit %d\n%s%s" % (code, out, err))


def test_wrong_ca_refused_and_insecure_said_loudly():
    with Server("--vms", "1", *server_tls()) as s:
        url = "https://127.0.0.1:%d/RPC2" % s.port
        code, _, err = rpcbench("run", "--url", url, "--verb", "ping", "-R", "10", "-d", "1s",
                                "--cacert", CERTS["other_ca"], "--cert", CERTS["client_cert"],
                                "--key", CERTS["client_key"], timeout=30)
        check(code == 1 and "certificate verify failed" in err, "exit %d %r" % (code, err))
        code, out, _ = rpcbench("run", "--url", url, "--verb", "ping", "-R", "10", "-d", "1s",
                                "--insecure", "--cert", CERTS["client_cert"], "--key",
                                CERTS["client_key"], "--quiet", timeout=30)
        check(code == 0 and "INSECURE" in out and "--insecure" in out,
              "insecure run not said loudly:\n" + out)


if __name__ == "__main__":
    with tempfile.TemporaryDirectory() as d:
        CERTS = make_certs(d)
        main([test_stomp_plain_many_in_flight, test_stomp_getallvmstats_counts_vms,
              test_stomp_needs_jsonrpc, test_stomps_mutual_tls,
              test_https_both_encodings_mutual_tls, test_client_without_certificate_refused,
              test_wrong_ca_refused_and_insecure_said_loudly])
