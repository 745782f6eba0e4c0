#!/bin/sh
# it_layers: scripts/check-layers.sh passes on the tree, and fails, naming
# the file, the line and the include, on each kind of violation planted in
# a copy: a lower layer reaching up (base -> client, model -> judge, judge
# -> report), the server reaching into the client's result model, anything
# including cli, and an include that does not name its layer. Then scripts/check-cycles.sh passes on the built
# objects ($BUILD, default build/rel), and fails, naming the files and the
# symbol, on a call cycle planted in two objects of a test tree.
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
plant src/stats/hist.c model/run_result.h ": stats may not include model"
plant src/server/vdsm_api.c model/run_result.h ": server may not include model"
plant src/model/sweep.c judge/capacity.h ": model may not include judge"
plant src/judge/condition.c report/report.h ": judge may not include report"
plant src/client/engine.c report/report.h ": client may not include report"
plant src/server/server.c client/engine.h ": server may not include client"
plant encoders/jsonrpc.c net/tls.h ": encoders may not include net"
plant encoders/xmlrpc.c workload/workload.h ": encoders may not include workload"
plant src/proc/sampler.c stats/hist.h ": proc may not include stats"
plant src/stats/hist.c proc/sampler.h ": stats may not include proc"
plant src/server/server.c workload/expect.h ": server may not include workload"
plant src/client/engine.c cli/options.h ": client may not include cli"
plant src/client/measured_run.c dist/dist.h ": client may not include dist"
plant src/dist/dist_run.c cli/options.h ": dist may not include cli"
plant src/drive/round.c cli/options.h ": drive may not include cli"
plant src/client/engine.c drive/round.h ": client may not include drive"
plant src/dist/dist_run.c server/server.h ": dist may not include server"
plant src/net/tls.c buf.h " does not name its layer"
plant src/client/conn_stomp.c client/engine_int.h ": a connection reads its conn_ctx"
plant src/client/answer_check.c client/engine_int.h ": a connection reads its conn_ctx"
# Call cycles, read from objects: the program's, then a planted pair.
BUILD=${BUILD:-build/rel}
out=$(scripts/check-cycles.sh "$BUILD" 2>&1) || fail "call cycles in $BUILD: $out"
echo "$out"
mkdir -p "$tmp/b/src/x" "$tmp/t/src/x"
printf 'int b_back(void);\nint a_calls(void) { return b_back(); }\n' >"$tmp/t/src/x/a.c"
printf 'int a_calls(void);\nint b_back(void) { return 1; }\nint b_calls(void) { return a_calls(); }\n' >"$tmp/t/src/x/b.c"
printf 'int c_alone(void) { return 0; }\n' >"$tmp/t/src/x/c.c"
for f in a b c; do
    cc -c -o "$tmp/b/src/x/$f.o" "$tmp/t/src/x/$f.c" || fail "cc $f.c"
done
if out=$(scripts/check-cycles.sh "$tmp/b" "$tmp/t" 2>&1); then
    fail "a planted cycle a.c <-> b.c passed: $out"
fi
case $out in
*"src/x/a.c -> src/x/b.c (b_back), and src/x/b.c reaches src/x/a.c back"*) ;;
*) fail "the planted cycle is not named: $out" ;;
esac
case $out in
*c.c*) fail "c.c calls nobody, yet is named: $out" ;;
esac
echo "ok   planted cycle: $(echo "$out" | head -1)"
# Exports: each exported function is called from another file, or is a
# test hook in a *_testing.h; then a planted one that only its file calls.
out=$(scripts/check-exports.sh "$BUILD" 2>&1) || fail "exports in $BUILD: $out"
echo "$out"
printf 'int c_alone(void);\nint c_user(void) { return c_alone(); }\n' >"$tmp/t/src/x/d.c"
cc -c -o "$tmp/b/src/x/d.o" "$tmp/t/src/x/d.c" || fail "cc d.c"
printf 'int c_lonely(void) { return 2; }\n' >>"$tmp/t/src/x/c.c"
cc -c -o "$tmp/b/src/x/c.o" "$tmp/t/src/x/c.c" || fail "cc c.c"
if out=$(scripts/check-exports.sh "$tmp/b" "$tmp/t" 2>&1); then
    fail "a planted function only its file calls passed: $out"
fi
case $out in
*"src/x/c.c: c_lonely: no other file of the program calls it"*) ;;
*) fail "the planted lonely function is not named: $out" ;;
esac
case $out in
*c_alone*) fail "c_alone is called from d.c, yet is named: $out" ;;
esac
echo "ok   planted lonely export: $(echo "$out" | head -1)"
# Function length: the tree, then a planted 61-line body.
out=$(scripts/check-func-length.sh 2>&1) || fail "$out"
echo "$out"
{ printf 'int long_one(void)\n{\n'; for i in $(seq 61); do printf '    (void)0;\n'; done; printf '}\n'; } >"$tmp/t/src/x/e.c"
if out=$(scripts/check-func-length.sh "$tmp/t" 2>&1); then
    fail "a planted 61-line function passed: $out"
fi
case $out in
*"src/x/e.c:2: 61 lines"*) echo "ok   planted long function: $out" ;;
*) fail "the planted long function is not named: $out" ;;
esac
echo "it_layers: ok"
