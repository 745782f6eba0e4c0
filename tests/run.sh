#!/bin/sh
# Runs every test: the cmocka unit binaries, the fuzz harnesses' replay of
# their seeds and past crashes, then the integration tests (tests/it_*.sh
# and tests/it_*.py, real sockets on loopback against the real ./rpcbench).
#
# Programs run RPCTEST_JOBS at a time (default: twice the number of CPUs;
# below): most wait on sockets and timers, not on a CPU. A program that measures timing
# a second program would disturb says so with a line
#     # rpctest: alone: why
# and runs after the others, by itself. A program of which only some tests
# judge timing names them instead,
#     # rpctest: alone test_a test_b: why
# and runs twice: its other tests with the others (it_x.py --except test_a
# test_b), then those by themselves, as the program it_x.py[alone]. "By itself" holds across suites of
# one checkout too (a plain and a sanitizer suite run side by side by
# hand): every program holds build/rpctest.lock, shared, while it runs, and
# one that runs alone holds it exclusively (flock(1)), so it waits for the
# other suite's running programs and they wait for it.
#
# One line per program as it ends: PASS, FAIL or SKIP (everything in it
# skipped). At the end, in a fixed order: each failure's output (failure_of),
# one "skip PROGRAM: TEST: why" line per skipped test (rpctest's "skip NAME:
# why", cmocka's "[  SKIPPED ] NAME"), and the closing line "check: N
# passed, N failed, N skipped": programs passed and failed, tests skipped.
#
# A skip does not fail the run: it is for what no package can give (a
# sanitizer build, a machine too loaded to time), and it is counted and
# named rather than hidden. A missing package is a failure (rpctest's
# need_package). RPCTEST_STRICT=1 makes any skip a failure too.
#
# T=PROGRAM runs one program (test_buckets, it_fleet.py); T=PROGRAM::TEST
# one test function of an it_*.py. A name that matches nothing exits 2.
#
# RPCTEST_ALONE=leave leaves out the programs and tests marked alone, and
# the tests marked
#     # rpctest: timed test_a test_b: why
# which run with the others but judge a verdict on timing with margins
# for neighbours, not for a sanitizer build (2-5x slower), so CI's
# sanitizer pass runs everything else (.ci/run). The summary counts them
# ("N left out"), never as passed.
#
# The programs that run together start longest first (their times in the
# last run of this build, $BUILD/rpctest.times, or the fallbacks at ORDER
# below; unknown ones first), so the two slowest do not end up last on one
# job.
#
# Internal entry points (run by this script itself, through xargs):
#     run.sh --one LOGDIR PROGRAM [TEST]   one program, its result in LOGDIR
#     run.sh --fuzz-replay                 every harness over its inputs
set -u
cd "$(dirname "$0")/.."
BUILD=${BUILD:-build/rel}
# Debian's python3, where python3-stomp lives (a pyenv shim may shadow it).
PY=/usr/bin/python3
[ -x "$PY" ] || PY=python3
# The flavor's own binary, not ./rpcbench (a copy of whichever was built
# last): two suites may run at once.
export BUILD PY RPCBENCH="$PWD/$BUILD/rpcbench"
LOCK=build/rpctest.lock
mkdir -p build
export ASAN_OPTIONS=${ASAN_OPTIONS:-detect_leaks=1:abort_on_error=1}
export UBSAN_OPTIONS=${UBSAN_OPTIONS:-print_stacktrace=1:halt_on_error=1}
STRICT=${RPCTEST_STRICT:-0}
# Each test program is bounded: past it, timeout sends SIGTERM to its group
# (rpctest.py then kills the process groups the test started) and SIGKILL 5 s
# later, and the program fails as timed out instead of hanging the run.
BOUND=${RPCTEST_FILE_TIMEOUT:-900}

# ---- one program --------------------------------------------------------------

skips_in() { # output file: one "NAME[: why]" per skipped test
    sed -n -e 's/^skip \([A-Za-z0-9_]*\): \(.*\)$/\1: \2/p' \
        -e 's/^\[  SKIPPED \] \([A-Za-z0-9_]*\)$/\1/p' "$1" | sort -u
}

passes_in() { # output file: how many tests passed, when it says (else empty)
    sed -n -e 's/^\([0-9]*\) passed, [0-9]* failed, [0-9]* skipped$/\1/p' \
        -e 's/^\[  PASSED  \] \([0-9]*\) test(s)\.$/\1/p' "$1" | tail -1
}

command_of() { # program name[, one test of it]: how to run it (words without spaces)
    case $1 in
    fuzz_replay) echo sh tests/run.sh --fuzz-replay ;;
    test_*) echo "$BUILD/tests/$1" ;;
    *.sh) echo sh "tests/$1" ;;
    *.py) echo "$PY" "tests/$1" ;;
    # T=PROG::TEST names its one test (args_of): not every alone test too
    *.py\[alone\]) echo "$PY" "tests/${1%\[alone\]}" $([ -z "${2:-}" ] && alone_tests "${1%\[alone\]}") ;;
    esac
}

alone_tests() { # file name: the tests its "# rpctest: alone test_...: why" names
    marked_tests alone "$1"
}

marked_tests() { # mark (alone, timed), file name: the tests the file marks so
    case $2 in
    it_*.py) sed -n "s/^# rpctest: $1 \(test_[^:]*\): .*/\1/p" "tests/$2" | head -1 ;;
    esac
}

left_tests() { # file name: the tests RPCTEST_ALONE=leave leaves out of its run with the others
    [ "${RPCTEST_ALONE:-}" = leave ] && marked_tests timed "$1"
}

# The arguments of program $1 beyond its command, given test function $2
# (or none): that one test; else all but its alone tests, for a program
# that has some (run apart as PROGRAM[alone]).
args_of() {
    if [ -n "$2" ]; then
        echo "$2"
        return
    fi
    case $1 in
    *\[alone\]) ;;
    *) some=$(echo $(alone_tests "$1") $(left_tests "$1")); [ -n "$some" ] && echo --except $some ;;
    esac
}

# Runs program $2 (with test function $3, if given) and leaves in $1:
# NAME.out (its output), NAME.res (pass, fail or skip) and NAME.skips.
run_one() {
    log=$1 name=$2
    shift 2 # $1: a test function, or none
    how=-s
    alone "$name" && how=-x
    # the time counts from holding the lock: a program waiting for one
    # that runs alone is not slow
    # shellcheck disable=SC2046 # split on purpose: no word has a space
    flock "$how" "$LOCK" sh -c 'date +%s >"$0"; exec "$@"' "$log/$name.start" \
        timeout -k 5 "$BOUND" $(command_of "$name" "${1:-}") $(args_of "$name" "${1:-}") \
        >"$log/$name.out" 2>&1
    rc=$?
    start=$(cat "$log/$name.start" 2>/dev/null || date +%s)
    if [ "$rc" = 124 ] || [ "$rc" = 137 ]; then
        echo "timed out: killed after ${BOUND}s (RPCTEST_FILE_TIMEOUT)" >>"$log/$name.out"
    fi
    took=$(( $(date +%s) - start ))
    skips_in "$log/$name.out" >"$log/$name.skips"
    n=$(grep -c . "$log/$name.skips")
    if [ "$rc" != 0 ]; then
        res=fail; line="FAIL  $name (${took}s)"
    elif [ "$n" -gt 0 ] && [ "$STRICT" = 1 ]; then
        res=fail; line="FAIL  $name (RPCTEST_STRICT=1 and $n skipped)"
    elif [ "$n" -gt 0 ] && [ "$(passes_in "$log/$name.out")" = 0 ]; then
        res=skip; line="SKIP  $name (${took}s)"
    else
        res=pass; line="PASS  $name (${took}s)"
    fi
    echo "$res" >"$log/$name.res"
    echo "$took" >"$log/$name.took"
    echo "  $line"
}

# Every harness built by `make test` ($BUILD/fuzz-replay/fuzz_*) over its
# checked-in seeds and regressions, each input once.
fuzz_replay() {
    bad=0
    for b in "$BUILD"/fuzz-replay/fuzz_*; do
        [ -x "$b" ] || continue
        t=$(basename "$b")
        set --
        for d in tests/fuzz/corpus/"$t" tests/fuzz/regressions/"$t"; do
            [ -d "$d" ] && set -- "$@" "$d"/*
        done
        "$b" "$@" || { echo "FAIL $t: an input above crashed it or could not be read"; bad=1; }
    done
    return $bad
}

# ---- the list, in parallel then alone -------------------------------------------

programs() { # every program, one name per line, in the summary's order
    for t in "$BUILD"/tests/test_*; do [ -x "$t" ] && basename "$t"; done
    ls "$BUILD"/fuzz-replay/fuzz_* >/dev/null 2>&1 && echo fuzz_replay
    for t in tests/it_*.sh tests/it_*.py; do
        [ -f "$t" ] || continue
        basename "$t"
        [ -n "$(alone_tests "${t#tests/}")" ] && echo "${t#tests/}[alone]"
    done
}

alone() { # program name: true when it runs by itself (its file asks to)
    case $1 in
    *\[alone\]) true ;;
    it_*) grep -q '^# rpctest: alone: ' "tests/$1" ;;
    *) false ;;
    esac
}

failure_of() { # output file: all of it when short; else each failing
    # test's FAIL line and traceback (30 lines at most each), then the last
    # 10 lines, so the reason survives however long the output is
    if [ "$(wc -l < "$1")" -le 50 ]; then cat "$1"; return; fi
    awk '/^FAIL /{keep=30} /^(ok|skip) /{keep=0} keep>0{print; keep--}' "$1"
    echo "..."
    tail -10 "$1"
}

longest_first() { # program names on stdin: by their last time, longest first
    awk -v times="$ORDER" 'BEGIN { while ((getline l < times) > 0) { split(l, f, " "); t[f[1]] = f[2] } }
         { print ($0 in t ? t[$0] : 100000), $0 }' | sort -k1,1nr -k2 | cut -d' ' -f2
}

keep_times() { # log dir, program names: each one's seconds into $TIMES
    [ -d "${TIMES%/*}" ] || return 0
    for name in "$@"; do
        [ -f "$1/$name.took" ] && echo "$name $(cat "$1/$name.took")"
    done >"$TIMES.new" 2>/dev/null && mv "$TIMES.new" "$TIMES"
}

summary() { # log dir, program names: failures, skips, the closing line
    log=$1; shift
    pass=0 fail=0 skipped=0
    for name in "$@"; do
        res=$(cat "$log/$name.res" 2>/dev/null || echo fail)
        case $res in
        pass) pass=$((pass + 1)) ;;
        fail) fail=$((fail + 1))
              echo "  FAIL  $name"; failure_of "$log/$name.out" | sed 's/^/      | /' ;;
        esac
    done
    for name in "$@"; do
        while IFS= read -r t; do
            [ -n "$t" ] && echo "  skip $name: $t" && skipped=$((skipped + 1))
        done <"$log/$name.skips"
    done
    out=""
    [ -n "$left_out" ] && out=", $(echo $left_out | wc -w) left out (alone or timed, RPCTEST_ALONE=leave:$left_out)"
    echo "check: $pass passed, $fail failed, $skipped skipped$out"
    [ "$fail" = 0 ]
}

case ${1:-} in
--one) shift; run_one "$@"; exit 0 ;;
--fuzz-replay) fuzz_replay; exit ;;
esac

CPUS=$(nproc 2>/dev/null || echo 2)
# Twice the CPUs: the programs wait on sockets and timers (a suite keeps 2
# cores about a third busy; at 5 jobs on 2 cores a gate's verdict and a
# perf profile failed for the neighbours' load; the sanitizer pass leaves
# the timed tests out). bench/RESULTS.md, "CI time".
jobs=$((2 * CPUS))
JOBS=${RPCTEST_JOBS:-$jobs}
TIMES=$BUILD/rpctest.times
# The times the order takes: this build's last run; else the plain
# build's (a first sanitizer pass); else the checked-in ones of a CI run
# (a fresh clone), tests/rpctest.times.
ORDER=$TIMES
[ -f "$ORDER" ] || ORDER=build/rel/rpctest.times
[ -f "$ORDER" ] || ORDER=tests/rpctest.times
left_out=""
all=$(programs)
fn=""
if [ -n "${T:-}" ]; then
    prog=${T%%::*}
    [ "$prog" != "$T" ] && fn=${T#*::}
    if ! printf '%s\n' "$all" | grep -qxF "$prog"; then
        echo "run.sh: no test program $prog (T=$T); programs: $(echo $all)" >&2
        exit 2
    fi
    case $prog in
    *.py) ;;
    *) [ -n "$fn" ] && { echo "run.sh: T=$T: only an it_*.py runs one test function" >&2; exit 2; } ;;
    esac
    # the program's both parts; one test function: the part that holds it
    all=$(printf '%s\n' "$all" | grep -xF -e "$prog" -e "$prog[alone]")
    if [ -n "$fn" ] && [ -n "$(alone_tests "$prog")" ]; then
        case " $(alone_tests "$prog") " in
        *" $fn "*) all="$prog[alone]" ;;
        *) all=$prog ;;
        esac
    fi
fi
together="" by_itself=""
for name in $all; do
    if ! alone "$name"; then
        together="$together $name"
        [ -z "${T:-}" ] && for t in $(left_tests "$name"); do left_out="$left_out $name::$t"; done
    elif [ "${RPCTEST_ALONE:-}" = leave ] && [ -z "${T:-}" ]; then
        left_out="$left_out $name"
    else
        by_itself="$by_itself $name"
    fi
done
all=$(echo $together $by_itself)
log=$(mktemp -d)
trap 'rm -rf "$log"' EXIT
trap 'exit 130' INT TERM
# shellcheck disable=SC2086 # names have no spaces
printf '%s\n' $together | grep . | longest_first |
    xargs -r -P "$JOBS" -I@ sh tests/run.sh --one "$log" @ $fn
for name in $by_itself; do
    sh tests/run.sh --one "$log" "$name" $fn
done
# shellcheck disable=SC2086
[ -z "${T:-}" ] && keep_times "$log" $all
# shellcheck disable=SC2086
summary "$log" $all
