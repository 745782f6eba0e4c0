#!/bin/sh
# Runs the libFuzzer targets built by `make fuzz` (build/fuzz/fuzz_*):
#  1. replays every checked-in seed (corpus/<target>/) and every past crash
#     (regressions/<target>/*) once: a regression that crashes again fails;
#  2. fuzzes each target FUZZ_SECONDS seconds on a scratch copy of its seeds
#     (build/fuzz/corpus/<target>/, so the checked-in corpus stays small);
#     a crash is left in build/fuzz/crashes/<target>/. To keep it as a
#     regression: copy it to tests/fuzz/regressions/<target>/<what-it-is>.
# A target passes when both steps do. Reproduce one input by hand with
#   build/fuzz/<target> FILE
# FUZZ_JOBS=N runs N targets at a time (default 1). Prints one closing line
# "fuzz: N passed, N failed".
set -u
cd "$(dirname "$0")/../.."
FUZZ_DIR=${FUZZ_DIR:-build/fuzz}
FUZZ_SECONDS=${FUZZ_SECONDS:-15}
FUZZ_JOBS=${FUZZ_JOBS:-1}
export ASAN_OPTIONS=${ASAN_OPTIONS:-detect_leaks=1:abort_on_error=1}
export UBSAN_OPTIONS=${UBSAN_OPTIONS:-print_stacktrace=1:halt_on_error=1}
# Only while fuzzing: skip inputs that hit bugs already reported (see
# tests/fuzz/fuzz_known.h); the replay below runs without it.
# Inputs beyond this add time, not coverage: every parser sees its
# interesting structure in the first few KiB.
MAX_LEN=${FUZZ_MAX_LEN:-32768}
pass=0
fail=0
failed=""

targets=""
for b in "$FUZZ_DIR"/fuzz_*; do
    [ -x "$b" ] && [ -f "$b" ] && targets="$targets $(basename "$b")"
done
if [ -z "$targets" ]; then
    echo "fuzz: no targets in $FUZZ_DIR (run make fuzz)" >&2
    exit 1
fi

replay() { # target: seeds and regressions, each input once
    t=$1
    set --
    for d in tests/fuzz/corpus/"$t" tests/fuzz/regressions/"$t"; do
        [ -d "$d" ] && set -- "$@" "$d"/*
    done
    [ $# = 0 ] && return 0
    "$FUZZ_DIR/$t" -runs=0 "$@" >"$FUZZ_DIR/log/$t.replay" 2>&1
}

fuzz_one() { # target: N seconds from the seeds; stats line into the log
    t=$1
    work=$FUZZ_DIR/corpus/$t
    crashes=$FUZZ_DIR/crashes/$t
    mkdir -p "$work" "$crashes"
    [ -d tests/fuzz/corpus/"$t" ] && cp -n tests/fuzz/corpus/"$t"/* "$work"/ 2>/dev/null
    dict=""
    [ -f tests/fuzz/"$t".dict ] && dict="-dict=tests/fuzz/$t.dict"
    RPCBENCH_FUZZ_SKIP_KNOWN=1 "$FUZZ_DIR/$t" -max_total_time="$FUZZ_SECONDS" -max_len="$MAX_LEN" -timeout=10 \
        -rss_limit_mb=2048 -print_final_stats=1 -artifact_prefix="$crashes/" $dict \
        "$work" >"$FUZZ_DIR/log/$t.fuzz" 2>&1
}

report() { # target, status, what
    case "$replay_failed" in
    *" $1 "*)
        fail=$((fail + 1)); failed="$failed $1"
        echo "  FAIL  $1: fuzzed $FUZZ_SECONDS s (status $2), but a regression input crashes"
        return ;;
    esac
    if [ "$2" = 0 ]; then
        pass=$((pass + 1))
        runs=$(sed -n 's/^stat::number_of_executed_units: *//p' "$FUZZ_DIR/log/$1.fuzz" 2>/dev/null)
        echo "  PASS  $1 (${runs:-0} runs in ${FUZZ_SECONDS}s)"
    else
        fail=$((fail + 1)); failed="$failed $1"
        echo "  FAIL  $1: $3"
        tail -40 "$FUZZ_DIR/log/$1.$4" | sed 's/^/      | /'
    fi
}

mkdir -p "$FUZZ_DIR/log"
replay_failed=""
for t in $targets; do
    if ! replay "$t"; then
        replay_failed="$replay_failed $t "
        echo "  FAIL  $t: a seed or regression input crashes (replay)"
        grep -E "^Running:|SUMMARY|runtime error" "$FUZZ_DIR/log/$t.replay" | tail -4 | sed 's/^/      | /'
    fi
done

# Fuzz FUZZ_JOBS targets at a time; each writes its own log and status.
set -- $targets
while [ $# -gt 0 ]; do
    batch=""
    i=0
    while [ $# -gt 0 ] && [ $i -lt "$FUZZ_JOBS" ]; do
        ( fuzz_one "$1"; echo $? >"$FUZZ_DIR/log/$1.rc" ) &
        batch="$batch $1"; i=$((i + 1)); shift
    done
    wait
    for t in $batch; do
        rc=$(cat "$FUZZ_DIR/log/$t.rc")
        report "$t" "$rc" "crash or leak found (input in $FUZZ_DIR/crashes/$t/)" fuzz
    done
done

[ -n "$failed" ] && echo "failed:$failed"
echo "fuzz: $pass passed, $fail failed"
[ "$fail" = 0 ]
