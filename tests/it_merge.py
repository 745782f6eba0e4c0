"""it_merge: runs started separately merge by absolute time (issue 17 item 8).

Two real `rpcbench run`s against one `rpcbench serve`, started about a
second apart, save their results (--output) and HdrHistogram interval logs
(--hdr-log). Then:
- each result records its absolute start (start_unix, start_time), inside
  the run's wall-clock span, and its log's StartTime/BaseTime is the same;
- `report a.json b.json --output m.json` lines the timelines up by absolute
  time: every interval lands in the slot its absolute end rounds to, the
  first only from the earlier run, the overlapped ones summed, the merged
  start is the earlier one and sent totals add up;
- an old result without start time still loads and merges (at the same t),
  with a warning naming it;
- `report a.hlog b.hlog --hdr-log m.hlog` merges the logs by absolute
  interval start; the Java HdrHistogram reader (tests/java/HdrCheck.java)
  reads the merged log with the summed total count, and each of its
  intervals holds exactly the counts of the input intervals in its slot;
- a log whose histograms another writer compressed (zlib level 9, other
  bytes than rpcbench's level 1) merges exactly as rpcbench's own;
- bad or truncated logs fail with one line naming the file and line;
- runs that never overlapped (a saved run, and its copy dated 9 minutes
  later) merge as consecutive, and say so: durations and server CPU add,
  the rate is not summed, CPU per call is not halved; a mix of overlapping
  and separate runs is refused with one line (exit 2); overlapping runs
  merge to the span of their windows, whatever order the files are given.
Every subprocess has a timeout."""
import base64
import calendar
import json
import os
import shutil
import struct
import subprocess
import sys
import tempfile
import time
import zlib

sys.path.insert(0, os.path.dirname(__file__))
from rpctest import RPCBENCH, Server, check, main, rpcbench  # noqa: E402
from hdrcodec import total as hist_total  # noqa: E402

JAR = "/usr/share/java/hdrhistogram.jar"
RUN = ["-d", "3s", "--interval", "1s", "-R", "20", "--verb", "list", "--quiet"]
PAIR = {}


def pick(tool):
    """Debian's JDK tool first (another vendor's may come first on PATH)."""
    path = "/usr/bin/" + tool
    return path if os.access(path, os.X_OK) else shutil.which(tool)


def run_pair(d):
    """Runs a, then b about 1.2 s later, against one server; returns the two
    results (dicts) and the wall clock around each run. Done once."""
    if PAIR:
        return PAIR["a"], PAIR["b"]
    with Server() as srv:
        url = srv.url("/RPC2")
        procs, spans = {}, {}
        for name in ("a", "b"):
            spans[name] = time.time()
            procs[name] = subprocess.Popen(
                [RPCBENCH, "run", "--url", url] + RUN +
                ["--output", os.path.join(d, name + ".json"),
                 "--hdr-log", os.path.join(d, name + ".hlog")],
                stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True)
            if name == "a":
                time.sleep(1.2)
        for name, p in procs.items():
            _, err = p.communicate(timeout=60)
            check(p.returncode == 0, "run %s exited %d: %s" % (name, p.returncode, err))
            spans[name] = (spans[name], time.time())
    for name in ("a", "b"):
        with open(os.path.join(d, name + ".json")) as f:
            PAIR[name] = json.load(f)
        PAIR[name]["_span"] = spans[name]
    return PAIR["a"], PAIR["b"]




def read_log(path):
    """(StartTime, BaseTime, [(absolute start, length, count)]) of a log."""
    start = base = None
    rows = []
    for line in open(path).read().splitlines():
        if line.startswith("#[StartTime: "):
            start = float(line.split()[1])
        elif line.startswith("#[BaseTime: "):
            base = float(line.split()[1])
        elif line and line[0] not in '#"':
            s, length, _, payload = line.split(",")
            rows.append((base + float(s), float(length), hist_total(payload)))
    return start, base, rows


def test_start_recorded(d):
    a, b = run_pair(d)
    for name, r in (("a", a), ("b", b)):
        lo, hi = r["_span"]
        check(lo < r["start_unix"] < hi, "%s: start_unix %r outside the run's span %r"
              % (name, r["start_unix"], r["_span"]))
        iso = r["start_time"]
        check(iso.endswith("Z") and len(iso) == 27, "%s: start_time %r" % (name, iso))
        whole = calendar.timegm(time.strptime(iso[:19], "%Y-%m-%dT%H:%M:%S"))
        check(abs(whole + float(iso[19:-1]) - r["start_unix"]) < 1e-6,
              "%s: start_time %r is not start_unix %r" % (name, iso, r["start_unix"]))
        start, base, rows = read_log(os.path.join(d, name + ".hlog"))
        check(start == base and abs(start - r["start_unix"]) < 0.0011,
              "%s.hlog: StartTime %r BaseTime %r, result %r" % (name, start, base, r["start_unix"]))
        check(sum(c for _, _, c in rows) == r["requests"]["ok"], "%s.hlog: counts" % name)
    # 1.2 s apart give slots 1-3 and 2-4; a loaded machine may move them a
    # little, never below the half interval that keeps b out of slot 1
    check(0.6 < b["start_unix"] - a["start_unix"] < 2.4, "starts %r apart, wanted about 1.2 s"
          % (b["start_unix"] - a["start_unix"]))
    rc, out, err = rpcbench("report", os.path.join(d, "a.json"), timeout=30)
    check(rc == 0 and ("started     %s (" % a["start_time"]) in out,
          "report shows no start line: %s %s" % (out[:600], err))


def slots(results, t0):
    """{slot: [sent, ok]} of the results' intervals placed by absolute end."""
    got = {}
    for r in results:
        for iv in r["intervals"]:
            k = round(r["start_unix"] + iv["t"] - t0)
            s = got.setdefault(k, [0, 0])
            s[0] += iv["sent"]
            s[1] += iv["ok"]
    return got


def test_saved_merge_aligned(d):
    a, b = run_pair(d)
    m_path = os.path.join(d, "m.json")
    rc, out, err = rpcbench("report", os.path.join(d, "a.json"), os.path.join(d, "b.json"),
                            "--output", m_path, timeout=30)
    check(rc == 0, "report exited %d: %s" % (rc, err))
    m = json.load(open(m_path))
    t0 = a["start_unix"]
    check(m["start_unix"] == t0, "merged start %r, wanted the earlier %r" % (m["start_unix"], t0))
    want = slots([a, b], t0)
    got = {round(iv["t"]): [iv["sent"], iv["ok"]] for iv in m["intervals"]}
    check(all(iv["t"] == round(iv["t"]) for iv in m["intervals"]), "merged t off the grid")
    check(got == want, "merged timeline %r, wanted %r" % (got, want))
    first = a["intervals"][0]
    check(got[1] == [first["sent"], first["ok"]], "first interval not a's alone: %r" % got[1])
    overlap = [k for k in want if k in slots([a], t0) and k in slots([b], t0)]
    check(len(overlap) >= 1 and len(want) > len(a["intervals"]), "overlap %r of %r"
          % (overlap, want))
    check(m["requests"]["sent"] == a["requests"]["sent"] + b["requests"]["sent"], "sent total")
    check(sum(v[0] for v in got.values()) == m["requests"]["sent"], "intervals sum to sent")


def test_old_json_merges(d):
    a, b = run_pair(d)
    old = dict(a)
    for k in ("start_unix", "start_time", "_span"):
        old.pop(k)
    old_path = os.path.join(d, "old.json")
    json.dump(old, open(old_path, "w"))
    rc, out, err = rpcbench("report", old_path, os.path.join(d, "b.json"), "--format", "json",
                            timeout=30)
    check(rc == 0, "report exited %d: %s" % (rc, err))
    m = json.loads(out)
    check(any("no start time in %s" % old_path in w for w in m["warnings"]),
          "no warning: %r" % m["warnings"])
    want = {}
    for r in (a, b):  # as before: at the same t since each start
        for iv in r["intervals"]:
            want[iv["t"]] = want.get(iv["t"], 0) + iv["sent"]
    got = {iv["t"]: iv["sent"] for iv in m["intervals"]}
    check(got == want, "timeline %r, wanted %r" % (got, want))
    check(m["start_unix"] == b["start_unix"], "merged start: the only one known")
    rc, out, err = rpcbench("report", old_path, timeout=30)
    check(rc == 0 and "started " not in out, "old file alone: rc %d, %s" % (rc, err))


def java_read(d, path):
    """HdrCheck's output for the log at path (HdrCheck compiled once)."""
    javac, java = pick("javac"), pick("java")
    check(javac and java, "javac/java not found: install default-jdk-headless")
    check(os.path.exists(JAR), JAR + " not found: install libhdrhistogram-java")
    classes = os.path.join(d, "classes")
    if not os.path.isdir(classes):
        os.mkdir(classes)
        here = os.path.dirname(os.path.abspath(__file__))
        subprocess.run([javac, "-cp", JAR, "-d", classes, os.path.join(here, "java", "HdrCheck.java")],
                       check=True, timeout=120)
    p = subprocess.run([java, "-cp", JAR + ":" + classes, "HdrCheck", path, path + ".pct"],
                       capture_output=True, text=True, timeout=120)
    check(p.returncode == 0, "the Java reader failed on %s: %s" % (path, p.stderr))
    return p.stdout


def test_hlog_merge_java(d):
    a, b = run_pair(d)
    merged = os.path.join(d, "m.hlog")
    rc, out, err = rpcbench("report", os.path.join(d, "a.hlog"), os.path.join(d, "b.hlog"),
                            "--hdr-log", merged, timeout=30)
    check(rc == 0, "report exited %d: %s" % (rc, err))
    total = a["requests"]["ok"] + b["requests"]["ok"]
    check("total count %d" % total in out, "summary %r, wanted total %d" % (out, total))
    _, _, ra = read_log(os.path.join(d, "a.hlog"))
    _, _, rb = read_log(os.path.join(d, "b.hlog"))
    t0 = min(s for s, _, _ in ra + rb)
    want = {}
    for s, _, c in ra + rb:
        k = round(s - t0)
        want[k] = want.get(k, 0) + c
    start, base, rm = read_log(merged)
    check(start == base and abs(start - t0) < 0.0011, "merged StartTime %r, first %r" % (start, t0))
    got = {round(s - start): c for s, _, c in rm}
    check(got == want, "merged slots %r, wanted %r" % (got, want))
    check(len(rb) and round(rb[0][0] - t0) >= 1, "b's first interval in a's first slot")
    java = java_read(d, merged)
    lines = java.splitlines()
    tot = [l for l in lines if l.startswith("total=")]
    check(tot and tot[0].split()[0] == "total=%d" % total,
          "Java read %r, wanted total=%d" % (tot, total))
    ivs = [l.split() for l in lines if l.startswith("interval ")]
    jgot = {round(float(f[2][6:]) - start): int(f[3][6:]) for f in ivs}
    check(jgot == want, "Java's intervals %r, wanted %r" % (jgot, want))


def recompress(src, dst):
    """src's log with every histogram's zlib stream compressed anew at
    level 9: other bytes than rpcbench's level 1, as another
    HdrHistogram writer may make them."""
    out = []
    for line in open(src).read().splitlines():
        if line and line[0] not in '#"':
            head, payload = line.rsplit(",", 1)
            raw = base64.b64decode(payload)
            cookie, length = struct.unpack(">II", raw[:8])
            z = zlib.compress(zlib.decompress(raw[8:8 + length]), 9)
            check((z[2] >> 1) & 3 != 0, "zlib stored the histogram")
            line = head + "," + base64.b64encode(struct.pack(">II", cookie, len(z)) + z).decode()
        out.append(line)
    open(dst, "w").write("\n".join(out) + "\n")


def test_hlog_compressed(d):
    """Logs whose histograms another writer compressed merge the same."""
    a, b = run_pair(d)
    bz = os.path.join(d, "bz.hlog")
    recompress(os.path.join(d, "b.hlog"), bz)
    outs = []
    for inputs in (["a.hlog", "b.hlog"], ["a.hlog", "bz.hlog"]):
        merged = os.path.join(d, "mz.hlog")
        rc, out, err = rpcbench("report", *[os.path.join(d, f) for f in inputs],
                                "--hdr-log", merged, timeout=30)
        check(rc == 0, "report %r exited %d: %s" % (inputs, rc, err))
        outs.append((out.splitlines()[0], read_log(merged)))
    check(outs[0] == outs[1], "compressed input merged differently: %r" % (outs,))
    total = a["requests"]["ok"] + b["requests"]["ok"]
    check("total count %d" % total in outs[1][0], "summary %r" % outs[1][0])


def test_hlog_bad(d):
    run_pair(d)
    good = open(os.path.join(d, "a.hlog")).read().splitlines()
    data = [i for i, l in enumerate(good) if l and l[0] not in '#"']
    cut = list(good)
    cut[data[1]] = cut[data[1]][:len(cut[data[1]]) // 2 + 3]  # truncated mid-histogram
    trunc = os.path.join(d, "trunc.hlog")
    open(trunc, "w").write("\n".join(cut) + "\n")
    junk = os.path.join(d, "junk.hlog")
    open(junk, "w").write("#[StartTime: 1 (seconds since epoch)]\nnot,an,interval\n")
    out_path = os.path.join(d, "x.hlog")
    for path, line in ((trunc, data[1] + 1), (junk, 2)):
        rc, out, err = rpcbench("report", os.path.join(d, "b.hlog"), path, "--hdr-log", out_path,
                                timeout=30)
        want = "rpcbench report: %s:%d: " % (path, line)
        check(rc == 1 and err.startswith(want) and err.count("\n") == 1,
              "%s: rc %d, stderr %r, wanted %r..." % (path, rc, err, want))
        check(not os.path.exists(out_path), "a half-merged log was left")
    for args in ([os.path.join(d, "a.hlog"), os.path.join(d, "a.json")],
                 [os.path.join(d, "a.hlog"), "--output", os.path.join(d, "o.json")],
                 [os.path.join(d, "a.json"), "--hdr-log", out_path]):
        rc, out, err = rpcbench("report", *args, timeout=30)
        check(rc == 2 and err.startswith("rpcbench report: ") and err.count("\n") == 1,
              "%r: rc %d, stderr %r" % (args, rc, err))


def shifted(d, src, name, by):
    """A copy of the saved result src dated `by` seconds later; its path."""
    r = json.load(open(src))
    r["start_unix"] += by
    r.pop("start_time", None)
    path = os.path.join(d, name)
    json.dump(r, open(path, "w"))
    return path


def one_run(d):
    """A 2 s run against the built-in simulator (its CPU sampled); its path."""
    path = os.path.join(d, "solo.json")
    if not os.path.exists(path):
        rc, _, err = rpcbench("run", "--verb", "ping", "-R", "20", "-d", "2s", "--vms", "2",
                              "--quiet", "--output", path, timeout=60)
        check(rc == 0, "run exited %d: %s" % (rc, err))
    return path


def test_runs_apart_merge_consecutive(d):
    a_path = one_run(d)
    a = json.load(open(a_path))
    later = shifted(d, a_path, "later.json", 540)
    m_path = os.path.join(d, "apart.json")
    rc, out, err = rpcbench("report", later, a_path, "--output", m_path, timeout=30)
    check(rc == 0, "report exited %d: %s" % (rc, err))
    m = json.load(open(m_path))
    check(any("as consecutive runs" in w for w in m["warnings"]), "not said: %r" % m["warnings"])
    check("as consecutive runs" in out, "the text does not say how it merged:\n" + out)
    for k in ("offered", "sent", "unsent", "ok"):
        check(m["requests"][k] == 2 * a["requests"][k], "%s: %r of %r" % (k, m["requests"],
                                                                    a["requests"]))
    check(abs(m["duration_s"] - 2 * a["duration_s"]) < 1e-6,
          "duration %r, wanted both windows %r" % (m["duration_s"], 2 * a["duration_s"]))
    check(abs(m["rate"]["achieved"] - a["rate"]["achieved"]) < 0.01,
          "achieved %r: summed, not %r" % (m["rate"]["achieved"], a["rate"]["achieved"]))
    cpu, cpu_a = m["server_cpu"]["cpu_ms_per_call"], a["server_cpu"]["cpu_ms_per_call"]
    check(cpu_a > 0 and abs(cpu - cpu_a) < 1e-3 * cpu_a + 1e-6,
          "CPU per call %r, one run's %r" % (cpu, cpu_a))
    check(m["start_unix"] == a["start_unix"], "merged start %r" % m["start_unix"])
    # the second run's intervals sit at their own time, 540 s on
    ts = [iv["t"] for iv in m["intervals"]]
    check(ts == sorted(ts) and ts[-1] > 540, "timeline %r" % ts)


def test_mixed_timing_refused(d):
    a_path = one_run(d)
    near, far = shifted(d, a_path, "near.json", 0.5), shifted(d, a_path, "far.json", 540)
    rc, out, err = rpcbench("report", a_path, near, far, timeout=30)
    check(rc == 2 and out == "" and err.count("\n") == 1 and "far.json" in err and
          "merge those first" in err, "rc %d, stdout %r, stderr %r" % (rc, out, err))


def test_overlapping_span_any_order(d):
    a_path = one_run(d)
    a = json.load(open(a_path))
    b, c = shifted(d, a_path, "b.json", 0.3), shifted(d, a_path, "c.json", 0.6)
    got = []
    for files in ((a_path, b, c), (c, a_path, b), (b, c, a_path)):
        rc, out, err = rpcbench("report", *files, "--format", "json", timeout=30)
        check(rc == 0, "report %r exited %d: %s" % (files, rc, err))
        m = json.loads(out)
        check(any("as concurrent runs" in w for w in m["warnings"]), "%r" % m["warnings"])
        got.append(([(iv["t"], iv["sent"]) for iv in m["intervals"]], m["duration_s"],
                    m["rate"]["achieved"]))
    check(got[0] == got[1] == got[2], "the order of the files changed the merge: %r" % got)
    span = a["duration_s"] + 0.6
    check(abs(got[0][1] - span) < 1e-6, "duration %r, the span is %r" % (got[0][1], span))
    check(abs(got[0][2] - 3 * a["requests"]["sent"] / span) < 0.01, "achieved %r over %r s"
          % (got[0][2], span))


if __name__ == "__main__":
    tmp = tempfile.mkdtemp(prefix="rpcbench-it-merge-")
    try:
        main([test_start_recorded, test_saved_merge_aligned, test_old_json_merges,
              test_hlog_merge_java, test_hlog_compressed, test_hlog_bad,
              test_runs_apart_merge_consecutive, test_mixed_timing_refused,
              test_overlapping_span_any_order], tmp)
    finally:
        shutil.rmtree(tmp, ignore_errors=True)
