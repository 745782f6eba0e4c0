#!/bin/sh
# it_hdrlog_java: the Java HdrHistogram library (Debian libhdrhistogram-java,
# 2.1.11) reads the interval log rpcbench writes, and agrees with the C side
# on each interval's start, count and max, on the line layout, on total
# count / p50 / p99 / p99.9 / max of the sum, and on the percentile table
# row for row.
#
# Then a real run against `rpcbench serve`, slow enough to leave requests
# unfinished at its end: the Java reader's count, p99 and max over its
# --hdr-log equal the JSON report's (the same bucket: Java reports a
# bucket's highest value, the report the exact max), censored waits
# included, and a "#[Censored: N" line says how many are lower bounds.
#
# $BUILD/tests/test_hdrlog (BUILD defaults to build/rel) writes the log and
# its expectations when HDRLOG_OUT is set; tests/java/HdrCheck.java is
# compiled here into a temporary directory.
set -u
cd "$(dirname "$0")/.."
BUILD=${BUILD:-build/rel}
RB=${RPCBENCH:-./rpcbench} # tests/run.sh exports it
JAR=/usr/share/java/hdrhistogram.jar

fail() {
    echo "it_hdrlog_java: FAIL: $*" >&2
    exit 1
}

# Debian's JDK first: a java earlier on PATH may be another vendor's.
pick() {
    if [ -x "/usr/bin/$1" ]; then echo "/usr/bin/$1"; else command -v "$1"; fi
}

JAVAC=$(pick javac) ||
    fail "javac not found: install the Debian package default-jdk-headless (it brings javac)"
JAVA=$(pick java) || fail "java not found: install default-jre-headless"
[ -f "$JAR" ] || fail "$JAR not found: install libhdrhistogram-java"
[ -x "$BUILD/tests/test_hdrlog" ] || fail "$BUILD/tests/test_hdrlog is not built (run make test)"
TIMEOUT=""
command -v timeout >/dev/null 2>&1 && TIMEOUT="timeout 120"

tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
trap 'exit 1' INT TERM

$TIMEOUT "$JAVAC" -cp "$JAR" -d "$tmp" tests/java/HdrCheck.java || fail "javac could not compile HdrCheck.java"

HDRLOG_OUT="$tmp/run.hlog" $TIMEOUT "$BUILD/tests/test_hdrlog" >"$tmp/c.out" 2>&1 || {
    cat "$tmp/c.out"
    fail "test_hdrlog failed"
}
[ -s "$tmp/run.hlog" ] && [ -s "$tmp/run.hlog.expect" ] && [ -s "$tmp/run.hlog.pct" ] ||
    fail "test_hdrlog wrote no log and expectations into HDRLOG_OUT=$tmp/run.hlog"

$TIMEOUT "$JAVA" -cp "$JAR:$tmp" HdrCheck "$tmp/run.hlog" "$tmp/java.pct" \
    >"$tmp/java.out" 2>"$tmp/java.err" || {
    cat "$tmp/java.err"
    fail "the Java HdrHistogram reader could not read the log"
}

status=0
same() { # what, expected file, actual file
    if ! diff -u "$2" "$3" >"$tmp/diff"; then
        echo "it_hdrlog_java: $1 differ (- C side, + Java):"
        cat "$tmp/diff"
        status=1
    fi
}

# Counts, starts, maxima and percentiles.
grep -E '^(interval|total)' "$tmp/java.out" >"$tmp/java.numbers"
same "numbers" "$tmp/run.hlog.expect" "$tmp/java.numbers"

# Each data line, up to the payload, as Java's HistogramLogWriter writes it.
grep -v -e '^#' -e '^"' "$tmp/run.hlog" | cut -d, -f1-3 |
    awk '{ print "line " NR ": " $0 }' >"$tmp/c.lines"
grep '^line' "$tmp/java.out" >"$tmp/java.lines"
same "interval lines" "$tmp/c.lines" "$tmp/java.lines"
[ "$(wc -l <"$tmp/c.lines")" -eq 3 ] || { echo "expected 3 intervals"; status=1; }

# The percentile table, all but the mean/stddev line (rpcbench's are exact,
# Java's come from bucket midpoints).
grep -v '^#\[Mean' "$tmp/run.hlog.pct" >"$tmp/c.pct"
grep -v '^#\[Mean' "$tmp/java.pct" >"$tmp/j.pct"
same "percentile tables" "$tmp/c.pct" "$tmp/j.pct"

[ "$status" = 0 ] || fail "Java and C disagree"
echo "it_hdrlog_java: ok: $(grep '^total' "$tmp/java.out"), $(wc -l <"$tmp/c.pct") table lines identical"

# ---- a run with unfinished requests -------------------------------------
# One worker serving 150 ms per call is 6.7/s for 10/s offered on 2
# connections: requests queue, and those unanswered at the end are censored.
"$RB" serve --listen 127.0.0.1:0 --delay 150ms --workers 1 >"$tmp/serve.out" 2>&1 &
spid=$!
trap 'kill "$spid" 2>/dev/null; wait "$spid" 2>/dev/null; rm -rf "$tmp"' EXIT
port=""
for _ in $(seq 50); do
    port=$(sed -n 's/^listening on 127\.0\.0\.1:\([0-9]*\)$/\1/p' "$tmp/serve.out")
    [ -n "$port" ] && break
    sleep 0.1
done
[ -n "$port" ] || fail "rpcbench serve did not say its port: $(cat "$tmp/serve.out")"
$TIMEOUT "$RB" run --url "http://127.0.0.1:$port/RPC2" --rate 10 --duration 2s -c 2 \
    --hdr-log "$tmp/u.hlog" --output "$tmp/u.json" >"$tmp/run.out" 2>&1 || {
    cat "$tmp/run.out"
    fail "rpcbench run against rpcbench serve failed"
}
$TIMEOUT "$JAVA" -cp "$JAR:$tmp" HdrCheck "$tmp/u.hlog" "$tmp/u.pct" >"$tmp/u.java" 2>&1 || {
    cat "$tmp/u.java"
    fail "the Java HdrHistogram reader could not read the run's log"
}
${PY:-python3} - "$tmp/u.json" "$tmp/u.java" "$tmp/u.hlog" <<'PYEOF' || fail "the run's log is not what its report holds"
import json, re, sys
r = json.load(open(sys.argv[1]))
java = dict(kv.split("=") for kv in open(sys.argv[2]).read().split("\n")[-2].split())
log = open(sys.argv[3]).read()
req, lat = r["requests"], r["latency_ms"]
bad = []
if req["censored"] < 1:
    bad.append("the run left nothing unfinished: the test proves nothing (%r)" % req)
if int(java["total"]) != req["ok"] + req["censored"]:
    bad.append("Java counts %s values, the report %d ok + %d censored"
               % (java["total"], req["ok"], req["censored"]))
for key, jkey in (("p99", "p99"), ("max", "max")):
    us, j = round(lat[key] * 1000), int(java[jkey])
    if not us <= j <= us + us // 1000:  # the same bucket, 3 significant digits
        bad.append("%s: Java %d us, the report %d us" % (key, j, us))
marks = [int(n) for n in re.findall(r"^#\[Censored: (\d+) ", log, re.M)]
if sum(marks) != req["censored"]:
    bad.append("the log marks %r lower bounds, the report %d" % (marks, req["censored"]))
for b in bad:
    print("it_hdrlog_java:", b)
if not bad:
    print("it_hdrlog_java: ok: a run with %d censored of %d values: Java's p99 %s us, max %s us"
          % (req["censored"], int(java["total"]), java["p99"], java["max"]))
sys.exit(1 if bad else 0)
PYEOF
