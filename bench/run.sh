#!/bin/sh
# bench/run.sh: what `make bench` runs once $BUILD/rpcbench and
# $BUILD/bench/* are built (it uses $BUILD/rpcbench, which a concurrent
# `make SAN=1` cannot swap out the way it swaps ./rpcbench). Writes bench/RESULTS.md (see bench/README.md).
#   BENCH_QUICK=1    short runs, to try the script (~1 min; not for comparison)
#   BENCH_PARTS=135  only some parts (1 throughput, 2 pacing, 3 checking,
#                    4 encoders, 5 memory, 6 server CPU per call, 7 open loop,
#                    8 live metrics scraped during a 5k/s run,
#                    9 --requests-log during a 5k/s run, T templated workload,
#                    P the server's CPU per call with and without --profile,
#                    F serve --hosts 1000 and run --targets)
#   WRK2=PATH        wrk2's binary, for part 7 (not packaged: bench/README.md)
#   BENCH_BEFORE=PATH  another rpcbench (an older build), beside this one in part 7
#   BENCH_OUT=FILE   write elsewhere than bench/RESULTS.md
set -eu
cd "$(dirname "$0")/.."
: "${BUILD:=build/rel}"
export BUILD
[ -x "$BUILD/rpcbench" ] || { echo "bench: $BUILD/rpcbench is not built (make bench)" >&2; exit 1; }
[ -x "$BUILD/bench/bench_codec" ] || { echo "bench: $BUILD/bench/bench_codec is not built" >&2; exit 1; }
case "$BUILD" in
*san*) echo "bench: warning: $BUILD is a sanitizer build; figures are not representative" >&2 ;;
esac
for t in wrk hey taskset; do
    command -v "$t" >/dev/null 2>&1 || echo "bench: warning: $t not found; its columns stay empty" >&2
done
set -- --parts "${BENCH_PARTS:-123456789TPF}" --out "${BENCH_OUT:-bench/RESULTS.md}"
[ -n "${BENCH_QUICK:-}" ] && set -- "$@" --quick
exec /usr/bin/python3 bench/bench.py "$@"
