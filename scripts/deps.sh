#!/bin/sh
# Installs the Debian packages rpcbench needs to build, test, demo and bench.
# Usage: scripts/deps.sh [build|mpi|check|bench|fuzz|deb]   (default: check)
# When a package is missing it runs apt-get (as root, or through sudo when
# available); otherwise it stops and prints the exact apt-get line to run.
set -eu

build="gcc make pkg-config libev-dev libjson-c-dev libxmlrpc-core-c3-dev libhttp-parser-dev libssl-dev zlib1g-dev libpython3.11-dev"
# The MPI build (make MPI=1): Open MPI's mpicc, mpi.h and mpirun.
mpi="$build openmpi-bin libopenmpi-dev"
# Test peers: Python's standard xmlrpc, stomp.py, the Java HdrHistogram
# reader, openssl for certificates, chromium to load the
# --html pages headless (tests/it_html.py), clang for fuzzing; Open MPI
# (mpicc, mpirun) for the MPI build (make MPI=1) that tests/it_mpi.py runs
# under mpirun; man-db and groff-base for `man -l` on the generated
# rpcbench.1 (tests/it_docs.py); dpkg-dev, debhelper, fakeroot, lintian and
# bash-completion for the package and install test (tests/it_install.py);
# prometheus, which tests/it_metrics.py starts on loopback to scrape a run;
# linux-perf for --profile (tests/it_profile.py, it_html.py), nodejs for a
# JIT's profile (tests/it_profile_node.py) and git for
# --bisect (tests/it_bisect.py). No test skips for a missing package: it
# fails (tests/rpctest.py need_package), so everything a test runs is here.
check="$build libcmocka-dev python3 python3-stomp openssl tcpdump default-jdk-headless libhdrhistogram-java chromium openmpi-bin libopenmpi-dev man-db groff-base dpkg-dev debhelper fakeroot lintian bash-completion prometheus linux-perf git nodejs"
bench="$check wrk hey"
# libFuzzer: clang, plus its runtime libraries (libclang_rt.fuzzer and the
# sanitizers), which clang only recommends.
fuzz="$build clang libclang-rt-14-dev"
# The Debian package (make deb): dpkg-buildpackage, debhelper, lintian.
deb="$build dpkg-dev debhelper fakeroot lintian"

case "${1:-check}" in
build) want=$build ;;
mpi) want=$mpi ;;
check) want=$check ;;
bench) want=$bench ;;
fuzz) want=$fuzz ;;
deb) want=$deb ;;
*) echo "usage: $0 [build|mpi|check|bench|fuzz|deb]" >&2; exit 2 ;;
esac

missing=""
for p in $want; do
    if ! dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q 'ok installed'; then
        missing="$missing $p"
    fi
done
[ -z "$missing" ] && exit 0

if [ "$(id -u)" = 0 ]; then
    sudo=""
elif command -v sudo >/dev/null 2>&1 && sudo -n true 2>/dev/null; then
    sudo="sudo"
else
    echo "rpcbench: missing packages; run: sudo apt-get update && sudo apt-get install -y$missing" >&2
    exit 1
fi

echo "rpcbench: installing$missing" >&2
export DEBIAN_FRONTEND=noninteractive
# Fresh machines may have empty package lists: update before installing.
$sudo apt-get update -qq
$sudo apt-get install -y -qq --no-install-recommends $missing >/dev/null
