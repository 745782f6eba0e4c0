#!/bin/sh
# The .deb on a fresh Debian 12: debootstraps bookworm's base system into
# a scratch folder, installs build/deb/rpcbench_*.deb there with apt-get,
# and checks, inside that chroot, that
#   - `rpcbench run -R 5 -d 2s` works from the PATH (embedded simulator);
#   - `rpcbench --version` says the package's version;
#   - `man rpcbench`, `man rpcbench-run` and `man 5 rpcbench-files` show their pages;
#   - bash completion offers --verb's values.
# man-db and bash-completion are Priority: standard (a Debian 12 install
# with "standard system utilities" has them; debootstrap's base does not),
# so they are installed before the last two checks, and said so.
# Needs root, debootstrap and the archive (deb.debian.org, or MIRROR).
# Usage: scripts/deb-fresh-check.sh [DEB]    (make deb first)
set -eu
cd "$(dirname "$0")/.."
deb=${1:-$(ls build/deb/rpcbench_*_*.deb 2>/dev/null | grep -v dbgsym | head -1)}
[ -f "$deb" ] || { echo "deb-fresh-check: no .deb (run make deb first)" >&2; exit 2; }
mirror=${MIRROR:-http://deb.debian.org/debian}
root=$(mktemp -d /tmp/rpcbench-fresh.XXXXXX)
cleanup() {
    umount "$root/proc" 2>/dev/null || true
    rm -rf "$root"
}
trap cleanup EXIT INT TERM
step() { echo "deb-fresh-check: $*"; }

step "debootstrap bookworm (base system) into $root"
timeout 900 debootstrap bookworm "$root" "$mirror" > "$root.log" 2>&1 ||
    { tail -20 "$root.log"; exit 1; }
mount -t proc proc "$root/proc"
cp "$deb" "$root/tmp/"
in_root() { timeout 600 chroot "$root" /usr/bin/env -i PATH=/usr/sbin:/usr/bin:/sbin:/bin HOME=/root "$@"; }

step "apt-get install ./$(basename "$deb")"
in_root apt-get update -qq
in_root sh -c "DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends \
    /tmp/$(basename "$deb") > /tmp/install.log 2>&1" || { tail -20 "$root/tmp/install.log"; exit 1; }

step "rpcbench from the PATH"
in_root sh -c 'command -v rpcbench && rpcbench --version'
in_root sh -c 'cd /tmp && rpcbench run -R 5 -d 2s --warmup 0s' > "$root/tmp/run.txt"
grep -q 'sent' "$root/tmp/run.txt" || { cat "$root/tmp/run.txt"; exit 1; }
sent=$(awk '/^requests/{print; exit}' "$root/tmp/run.txt")
step "run: $sent"

step "install man-db and bash-completion (standard priority)"
in_root sh -c 'DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends \
    man-db bash-completion > /tmp/install2.log 2>&1'
in_root sh -c 'MANPAGER=cat COLUMNS=80 man rpcbench' > "$root/tmp/man.txt"
grep -q 'load generator for XML-RPC and JSON-RPC' "$root/tmp/man.txt" ||
    { head -20 "$root/tmp/man.txt"; echo "deb-fresh-check: man rpcbench: no page" >&2; exit 1; }
step "man rpcbench: $(wc -l < "$root/tmp/man.txt") lines"
# a page per command, and the files' page in section 5
in_root sh -c 'MANPAGER=cat COLUMNS=80 man rpcbench-run' > "$root/tmp/man-run.txt"
grep -q 'rate and time (--help rate)' "$root/tmp/man-run.txt" ||
    { head -20 "$root/tmp/man-run.txt"; echo "deb-fresh-check: man rpcbench-run: no groups" >&2; exit 1; }
in_root sh -c 'MANPAGER=cat COLUMNS=80 man 5 rpcbench-files' > "$root/tmp/man-files.txt"
grep -q 'workload file' "$root/tmp/man-files.txt" ||
    { head -20 "$root/tmp/man-files.txt"; echo "deb-fresh-check: man 5 rpcbench-files: no page" >&2; exit 1; }
step "man rpcbench-run: $(wc -l < "$root/tmp/man-run.txt") lines, man 5 rpcbench-files: $(wc -l < "$root/tmp/man-files.txt") lines"

words=$(in_root bash -c '. /usr/share/bash-completion/bash_completion
    _completion_loader rpcbench
    COMP_WORDS=(rpcbench run --verb ""); COMP_CWORD=3; _rpcbench
    echo "${COMPREPLY[*]}"')
case "$words" in
*getAllVmStats*) step "completion of 'rpcbench run --verb ': $words" ;;
*) echo "deb-fresh-check: completion offered '$words' for --verb" >&2; exit 1 ;;
esac
step "ok"
