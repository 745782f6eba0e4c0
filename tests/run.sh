#!/bin/sh
# Runs every test: the cmocka unit binaries, then the integration tests
# (tests/it_*.sh and tests/it_*.py, real sockets on loopback against the real
# ./rpcbench). Prints one closing line "check: N passed, N failed".
set -u
cd "$(dirname "$0")/.."
BUILD=${BUILD:-build/rel}
# Debian's python3, where python3-stomp lives (a pyenv shim may shadow it).
PY=/usr/bin/python3
[ -x "$PY" ] || PY=python3
export PY RPCBENCH="$PWD/rpcbench"
export ASAN_OPTIONS=${ASAN_OPTIONS:-detect_leaks=1:abort_on_error=1}
export UBSAN_OPTIONS=${UBSAN_OPTIONS:-print_stacktrace=1:halt_on_error=1}
pass=0
fail=0
failed=""
log=$(mktemp -d)

one() { # name, command...
    name=$1; shift
    start=$(date +%s)
    if "$@" >"$log/$name.out" 2>&1; then
        pass=$((pass + 1)); echo "  PASS  $name ($(( $(date +%s) - start ))s)"
    else
        fail=$((fail + 1)); failed="$failed $name"
        echo "  FAIL  $name"; sed 's/^/      | /' "$log/$name.out" | tail -40
    fi
}

for t in "$BUILD"/tests/test_*; do
    [ -x "$t" ] && one "$(basename "$t")" "$t"
done
for t in tests/it_*.sh; do
    [ -f "$t" ] && one "$(basename "$t")" sh "$t"
done
for t in tests/it_*.py; do
    [ -f "$t" ] && one "$(basename "$t")" "$PY" "$t"
done
rm -rf "$log"
[ -n "$failed" ] && echo "failed:$failed"
echo "check: $pass passed, $fail failed"
[ "$fail" = 0 ]
