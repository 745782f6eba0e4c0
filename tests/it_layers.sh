#!/bin/sh
# it_layers: scripts/check-layers.sh passes on the tree, and fails, naming
# the file, the line and the include, on each kind of violation planted in
# a copy: a lower layer reaching up (base -> client), the server reaching
# into the client's results, anything including cli, and an include that
# does not name its layer.
set -u
cd "$(dirname "$0")/.."
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT INT TERM

fail() {
    echo "it_layers: FAIL: $*" >&2
    exit 1
}

out=$(scripts/check-layers.sh 2>&1) || fail "the tree breaks its own rules: $out"
echo "$out"

# plant FILE INCLUDE EXPECTED: a copy with INCLUDE added to FILE must fail
# with EXPECTED in the output.
plant() {
    rm -rf "$tmp/tree" && mkdir -p "$tmp/tree"
    cp -r src encoders "$tmp/tree/" || fail "copy"
    printf '#include "%s"\n' "$2" >>"$tmp/tree/$1"
    line=$(wc -l <"$tmp/tree/$1")
    if out=$(scripts/check-layers.sh "$tmp/tree" 2>&1); then
        fail "$1 including $2 passed: $out"
    fi
    case $out in
    *"$1:$line: #include \"$2\"$3"*) echo "ok   $1 + $2: $(echo "$out" | head -1)" ;;
    *) fail "$1 + $2: expected '$1:$line: #include \"$2\"$3' in: $out" ;;
    esac
}

plant src/base/buf.c client/engine.h ": base may not include client"
plant src/stats/hist.c results/result.h ": stats may not include results"
plant src/server/vdsm_api.c results/result.h ": server may not include results"
plant src/server/server.c client/engine.h ": server may not include client"
plant encoders/jsonrpc.c net/tls.h ": encoders may not include net"
plant src/client/engine.c cli/options.h ": client may not include cli"
plant src/client/measured_run.c dist/dist.h ": client may not include dist"
plant src/dist/dist_run.c cli/options.h ": dist may not include cli"
plant src/dist/dist_run.c server/server.h ": dist may not include server"
plant src/net/tls.c buf.h " does not name its layer"
echo "it_layers: ok"
