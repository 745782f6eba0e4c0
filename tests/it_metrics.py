"""it_metrics: --metrics-listen. While a run goes, GET /metrics answers
with the run's live figures in Prometheus' text format, or OpenMetrics when
the scraper asks for it; the endpoint refuses what it does not serve and
bounds what it reads. A real Prometheus (Debian's prometheus), started here
on loopback with a 1 s scrape interval, scrapes a run: its HTTP API's
rpcbench_requests_total equals the run's offered and rpcbench_sent_total
its sent (written to the wire), and the latency histogram's
count equals its ok (--metrics-linger holds the end for that last scrape),
and every query of the Grafana dashboard in contrib/ answers with data.
compare labels each run with its arm and round."""
import contextlib
import json
import os
import shutil
import socket
import subprocess
import tempfile
import time
import urllib.parse
import urllib.request

from rpctest import RPCBENCH, check, kill_group, main, need_package, spawn

OM = "application/openmetrics-text; version=1.0.0"


def free_port():
    s = socket.socket()
    s.bind(("127.0.0.1", 0))
    port = s.getsockname()[1]
    s.close()
    return port


def get(port, path="/metrics", accept=None, timeout=5):
    req = urllib.request.Request("http://127.0.0.1:%d%s" % (port, path))
    if accept:
        req.add_header("Accept", accept)
    try:
        with urllib.request.urlopen(req, timeout=timeout) as r:
            return r.status, r.headers.get("Content-Type"), r.read().decode()
    except urllib.error.HTTPError as e:
        return e.code, e.headers.get("Content-Type"), e.read().decode()


def start_run(port, *args):
    """rpcbench run in the background, its JSON result to a file."""
    d = tempfile.mkdtemp(prefix="rpcbench-metrics.")
    out = os.path.join(d, "r.json")
    p = spawn([RPCBENCH, "run", "--metrics-listen", "127.0.0.1:%d" % port, "--output", out,
               "--quiet"] + list(args), stdout=subprocess.DEVNULL)
    return p, out, d


@contextlib.contextmanager
def running(port, *args):
    """A run with --metrics-listen on port (start_run), yielded while it
    goes; it must then end by itself with 0. Killed and cleaned up either
    way."""
    p, out, d = start_run(port, *args)
    try:
        yield p
        p.wait(20)
        check(p.returncode == 0, "rc %r" % p.returncode)
    finally:
        kill_group(p)
        shutil.rmtree(d)


def wait_metrics(port, p, deadline_s=10):
    """The first answer that has the run's figures (before the run begins,
    the endpoint serves an empty page)."""
    until = time.time() + deadline_s
    while time.time() < until:
        check(p.poll() is None, "rpcbench ended before serving metrics: %r" % p.returncode)
        try:
            got = get(port, timeout=1)
            if "rpcbench_requests" in got[2]:
                return got
        except OSError:
            pass
        time.sleep(0.05)
    raise AssertionError("no /metrics with the run's figures within %d s" % deadline_s)


def samples(text, name):
    """{labels text: value} of the samples named name."""
    got = {}
    for line in text.splitlines():
        if line.startswith(name + "{"):
            labels, value = line[len(name) + 1:].rsplit("} ", 1)
            got[labels] = float(value)
    return got


def test_live_figures_in_both_formats():
    port = free_port()
    with running(port, "--verb", "list:3,ping:1", "-R", "40", "-d", "3s", "--warmup", "1s",
                 "--metrics-linger", "3s") as p:
        status, ctype, text = wait_metrics(port, p)
        check(status == 200 and ctype.startswith("text/plain; version=0.0.4"), ctype)
        check("# TYPE rpcbench_requests_total counter" in text, text[:300])
        check("# EOF" not in text, "0.0.4 has no EOF")
        time.sleep(2.2)
        status, ctype, om = get(port, accept=OM + ",text/plain;q=0.5")
        check(status == 200 and ctype.startswith("application/openmetrics-text"), ctype)
        check(om.endswith("# EOF\n") and "# TYPE rpcbench_requests counter" in om
              and "# TYPE rpcbench_sent counter" in om, om[-200:])
        calls = samples(om, "rpcbench_requests_total")
        check(any('call="list"' in k for k in calls) and any('call="ping"' in k for k in calls),
              "calls: %r" % calls)
        sent = samples(om, "rpcbench_sent_total")  # written, of those offered
        check(set(sent) == set(calls) and all(sent[k] <= calls[k] for k in calls),
              "sent %r of offered %r" % (sent, calls))
        check(samples(om, "rpcbench_warmup") and
              list(samples(om, "rpcbench_warmup").values())[0] == 0, "warmup over at 3 s")
        buckets = samples(om, "rpcbench_latency_seconds_bucket")
        values = list(buckets.values())
        check(values == sorted(values), "buckets not cumulative: %r" % values)
        count = list(samples(om, "rpcbench_latency_seconds_count").values())[0]
        check([v for k, v in buckets.items() if 'le="+Inf"' in k] == [count], "+Inf != count")
        check(get(port, "/other")[0] == 404, "other path")


def test_endpoint_bounds_what_it_reads():
    port = free_port()
    with running(port, "-R", "20", "-d", "4s", "--verb", "ping") as p:
        wait_metrics(port, p)
        s = socket.create_connection(("127.0.0.1", port), timeout=5)
        s.sendall(b"POST /metrics HTTP/1.1\r\nHost: x\r\n\r\n")
        check(s.recv(100).startswith(b"HTTP/1.1 405"), "POST")
        s.close()
        s = socket.create_connection(("127.0.0.1", port), timeout=5)
        try:
            s.sendall(b"GET /metrics HTTP/1.1\r\nX: " + b"a" * 20000 + b"\r\n\r\n")
        except OSError:
            pass  # it may close before taking it all
        check(s.recv(100).startswith(b"HTTP/1.1 400"), "an oversized head")
        s.close()
        t0 = time.time()
        slow = socket.create_connection(("127.0.0.1", port), timeout=5)
        slow.sendall(b"GET /met")  # and never more
        status, _, _ = get(port, timeout=5)  # served once the slow one is dropped
        check(status == 200 and time.time() - t0 < 4.5, "a stalled scraper held it")
        slow.close()


def test_bad_address_refused_before_sending():
    """A bare port binds loopback; a word that is no address is refused."""
    port = free_port()
    p = spawn([RPCBENCH, "run", "--metrics-listen", str(port), "-d", "2s", "--quiet"],
              stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True)
    try:
        status, _, _ = wait_metrics(port, p)
        check(status == 200, "--metrics-listen PORT: %r" % status)
        p.wait(20)
    finally:
        kill_group(p)
    p = spawn([RPCBENCH, "run", "--metrics-listen", "nowhere", "-d", "1s"],
              stdout=-1, stderr=-1, text=True)
    _, err = p.communicate(timeout=20)
    check(p.returncode == 1 and "--metrics-listen" in err and "HOST:PORT" in err,
          "rc %r: %r" % (p.returncode, err))


def prometheus_query(port, q):
    url = "http://127.0.0.1:%d/api/v1/query?query=%s" % (port, urllib.parse.quote(q))
    with urllib.request.urlopen(url, timeout=5) as r:
        doc = json.load(r)
    check(doc["status"] == "success", "query %s: %r" % (q, doc))
    return doc["data"]["result"]


def settled(port, q, want, within_s=5):
    """The query's one value once it equals want, or the last seen after
    within_s (None: no value)."""
    until, value = time.time() + within_s, None
    while time.time() < until:
        got = prometheus_query(port, q)
        value = float(got[0]["value"][1]) if got else None
        if value == want:
            break
        time.sleep(0.25)
    return value


def dashboard_queries_answer(port, at):
    """Every query of contrib/grafana's dashboard, with Grafana's variables
    given, answers with data from the run at time at: its metric names and
    labels are those rpcbench serves."""
    path = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "contrib", "grafana",
                        "rpcbench-dashboard.json")
    dash = json.load(open(path))
    exprs = [t["expr"] for p in dash["panels"] for t in p["targets"]]
    check(len(exprs) >= 6, "dashboard queries: %r" % exprs)
    for e in exprs:
        # Grafana's $__rate_interval is at least 4 scrape intervals
        q = e.replace("$__rate_interval", "15s").replace("$run", ".*")
        url = "http://127.0.0.1:%d/api/v1/query?query=%s&time=%.3f" % (
            port, urllib.parse.quote(q), at)
        with urllib.request.urlopen(url, timeout=5) as r:
            doc = json.load(r)
        check(doc["status"] == "success" and doc["data"]["result"],
              "dashboard query answers nothing: %s -> %r" % (q, doc))


def start_prometheus(target_port):
    exe = shutil.which("prometheus")
    need_package(exe, "prometheus", "prometheus")
    d = tempfile.mkdtemp(prefix="rpcbench-prom.")
    conf = os.path.join(d, "prometheus.yml")
    with open(conf, "w") as f:
        f.write("global:\n  scrape_interval: 1s\n  scrape_timeout: 900ms\n"
                "scrape_configs:\n  - job_name: rpcbench\n    static_configs:\n"
                "      - targets: ['127.0.0.1:%d']\n" % target_port)
    web = free_port()
    p = spawn([exe, "--config.file", conf, "--storage.tsdb.path", os.path.join(d, "data"),
               "--web.listen-address", "127.0.0.1:%d" % web], stdout=-3, stderr=-3)
    # Ready, and the target known: Prometheus' discovery hands static
    # targets to the scrape loop only every 5 s, and a run started before
    # that would be scraped at its end only.
    until = time.time() + 30
    while time.time() < until:
        check(p.poll() is None, "prometheus exited %r" % p.returncode)
        try:
            url = "http://127.0.0.1:%d/api/v1/targets" % web
            with urllib.request.urlopen(url, timeout=1) as r:
                if json.load(r)["data"]["activeTargets"]:
                    return p, web, d
        except (OSError, ValueError, KeyError):
            pass
        time.sleep(0.2)
    kill_group(p)
    raise AssertionError("prometheus not ready with its target in 30 s")


def test_real_prometheus_sees_the_run():
    port = free_port()
    prom, web, pd = start_prometheus(port)
    p, out, d = None, None, None
    try:
        p, out, d = start_run(port, "--verb", "ping", "-R", "50", "-d", "4s", "--warmup", "1s",
                              "--metrics-linger", "5s")
        p.wait(40)
        check(p.returncode == 0, "run rc %r" % p.returncode)
        r = json.load(open(out))
        q = r["requests"]
        offered, sent, ok = q["offered"], q["sent"], q["ok"]
        check(offered == sent + q["unsent"] and sent == ok + q["errors"] + q["unfinished"],
              "run %r" % q)
        # the last scrape was answered before rpcbench ended; Prometheus
        # stores it a moment later
        got = settled(web, "sum(max_over_time(rpcbench_requests_total[1m]))", offered)
        check(got == offered, "Prometheus rpcbench_requests_total %r, run offered %d"
              % (got, offered))
        got = settled(web, "sum(max_over_time(rpcbench_sent_total[1m]))", sent)
        check(got == sent, "Prometheus rpcbench_sent_total %r, run sent %d" % (got, sent))
        got = settled(web, "max_over_time(rpcbench_latency_seconds_count[1m])", ok)
        check(got == ok, "Prometheus histogram count %r, run ok %d" % (got, ok))
        got = prometheus_query(web, "max_over_time(rpcbench_server_cpu_percent[1m])")
        check(got and 0 < float(got[0]["value"][1]) <= 400, "server CPU %r" % got)
        got = prometheus_query(web, "rpcbench_requests_total[1m]")
        check(got and got[0]["values"], "no samples: %r" % got)
        check(len(got) == 1, "one series per call for the whole run: %r" % got)
        dashboard_queries_answer(web, max(float(v[0]) for v in got[0]["values"]))
    finally:
        if p:
            kill_group(p)
            shutil.rmtree(d)
        kill_group(prom)
        shutil.rmtree(pd)


def test_compare_labels_arm_and_round():
    port = free_port()
    p = spawn([RPCBENCH, "compare", "--metrics-listen", "127.0.0.1:%d" % port, "--verb", "ping",
               "-R", "20", "-d", "2s", "--rounds", "2", "--quiet", "--format", "json",
               "--metrics-linger", "0"], stdout=-3, stderr=-3)
    seen = set()
    try:
        until = time.time() + 40
        while p.poll() is None and time.time() < until:
            try:
                _, _, text = get(port, timeout=1)
                for k in samples(text, "rpcbench_requests_total"):
                    arm = k.split('arm="')[1][0] if 'arm="' in k else "?"
                    rnd = k.split('round="')[1].split('"')[0] if 'round="' in k else "?"
                    seen.add((arm, rnd))
            except OSError:
                pass
            time.sleep(0.3)
        check({("A", "1"), ("B", "1"), ("A", "2"), ("B", "2")} <= seen, "seen %r" % seen)
    finally:
        kill_group(p)


if __name__ == "__main__":
    main([test_live_figures_in_both_formats, test_endpoint_bounds_what_it_reads,
          test_bad_address_refused_before_sending, test_real_prometheus_sees_the_run,
          test_compare_labels_arm_and_round])
