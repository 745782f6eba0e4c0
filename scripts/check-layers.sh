#!/bin/sh
# check-layers: every #include "..." of ours names its layer ("base/buf.h")
# and goes only where the layer rules allow (docs/development.md):
#
#   cli ──> drive ──> dist ──> client ──> model ──> stats, proc ──> base
#    │                 │  ├──> workload ──> encoders ──> base
#    │                 │  └──> net ──────────────────> base
#    ├──> report ──> judge ──> model
#    ├──> server ──> net, encoders, base   (never client or model)
#    ├──> agent ──> proc, net, base        (never client or model)
#    └──> profile ──> judge, model, base   (never client: the engine
#                     reports its window through run_hooks, see issue 27)
#
# drive runs what a command asks for: one measured run among many
# (round), the profiler around it, the live metrics endpoint, compare's
# pre-flight and profile diff; it never sees the command line (cli's
# struct options), only configurations and plans.
#
# stats holds the histograms and their files; proc reads /proc (a process
# tree's CPU, the sampler) and the agent's wire of those samples; encoders
# the codecs and their scanners; workload what a run sends (workload
# files, templates, --expect checks), built on the codecs.
#
# dist (distributed runs) holds every MPI call of the program.
#
# Inside client, the connections (conn*.[ch], answer_check.c) read their
# own context (struct conn_ctx) and never the engine's state: they may not
# include client/engine_int.h, so a wire can be tested without an engine.
#
# Usage: scripts/check-layers.sh [ROOT]  (default: the repository)
# Prints one line per offending include, FILE:LINE: why, and exits 1 if
# there is any; 0 and one summary line otherwise.
set -eu
root=${1:-$(cd "$(dirname "$0")/.." && pwd)}
cd "$root"

# The layers each layer may include (itself included).
allowed() {
    case $1 in
    base) echo "base" ;;
    net) echo "net base" ;;
    stats) echo "stats base" ;;
    proc) echo "proc base" ;;
    encoders) echo "encoders base" ;;
    workload) echo "workload encoders base" ;;
    model) echo "model stats proc base" ;;
    judge) echo "judge model stats base" ;;
    report) echo "report judge model stats base" ;;
    client) echo "client net workload encoders stats proc model base" ;;
    server) echo "server net encoders base" ;;
    agent) echo "agent proc net base" ;;
    profile) echo "profile judge model base" ;;
    dist) echo "dist client model net base" ;;
    drive) echo "drive dist client profile report judge model stats proc net base" ;;
    cli) echo "cli drive dist client server agent profile report judge model stats proc net workload encoders base" ;;
    *) return 1 ;;
    esac
}

# The files of client that see only a connection's context.
narrow() {
    case $1 in
    src/client/conn*.[ch] | src/client/answer_check.c) return 0 ;;
    *) return 1 ;;
    esac
}

bad=0
files=0
for f in src/*/*.[ch] encoders/*.[ch]; do
    [ -e "$f" ] || continue
    files=$((files + 1))
    dir=${f%/*}
    layer=${dir##*/}
    if ! may=$(allowed "$layer"); then
        echo "$f: '$layer' is not a layer (base net stats proc encoders workload model judge report client dist server agent profile drive cli)"
        bad=$((bad + 1))
        continue
    fi
    # "N:target" for every quoted include
    for hit in $(grep -n '^[[:space:]]*#[[:space:]]*include[[:space:]]*"' "$f" |
                 sed 's/^\([0-9]*\):[^"]*"\([^"]*\)".*/\1:\2/'); do
        line=${hit%%:*}
        inc=${hit#*:}
        case $inc in
        */*) to=${inc%%/*} ;;
        *) echo "$f:$line: #include \"$inc\" does not name its layer (write \"$layer/$inc\")"
           bad=$((bad + 1)); continue ;;
        esac
        case " $may " in
        *" $to "*) ;;
        *) echo "$f:$line: #include \"$inc\": $layer may not include $to (it may include: $may)"
           bad=$((bad + 1)) ;;
        esac
        if narrow "$f" && [ "$inc" = client/engine_int.h ]; then
            echo "$f:$line: #include \"$inc\": a connection reads its conn_ctx, never the engine's state"
            bad=$((bad + 1))
        fi
    done
done
if [ "$bad" -gt 0 ]; then
    echo "check-layers: $bad include(s) break the layer rules" >&2
    exit 1
fi
echo "check-layers: $files files keep the layer rules"
