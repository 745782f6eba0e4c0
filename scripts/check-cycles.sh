#!/bin/sh
# check-cycles: no file of the program calls a file that calls it back,
# directly or through others (docs/development.md). Read from the built
# objects: A calls B when A's object needs a function that B's defines
# (a call, or a function's address put in a table). Reading B's data (a
# table of rows, a table of encodings) is not a call.
#
# Usage: scripts/check-cycles.sh BUILD_DIR [ROOT]   (e.g. build/rel)
# Reads the object BUILD_DIR/P.o of every source P.c under ROOT (default:
# the repository) in src/*/ and encoders/, main.c included: objects left
# from sources since moved or removed are not read.
# Prints one line per call that closes a cycle, "a.c -> b.c (symbol), and
# b.c reaches a.c back", and exits 1 if there is any; 0 and one summary
# line otherwise.
set -eu
build=${1:?usage: $0 BUILD_DIR [ROOT]}
root=${2:-$(cd "$(dirname "$0")/.." && pwd)}
me=check-cycles
# shellcheck source=scripts/objects.sh
. "$(dirname "$0")/objects.sh"

# "D file symbol" for every global definition, "U file symbol" for every
# undefined reference; the file as its source path (src/client/engine.c).
symbols() {
    # shellcheck disable=SC2086 # $objs: one path a word
    nm -A -P $objs | awk -v b="$build/" '
        { f = $1; sub(/:$/, "", f); sub("^" b, "", f); sub(/\.o$/, ".c", f) }
        $3 ~ /^[TW]$/ { print "D", f, $2 }
        $3 == "U"            { print "U", f, $2 }'
}

if out=$(symbols | awk '
    $1 == "D" { def[$3] = $2; files[$2] = 1; next }
    { use[NR] = $2 " " $3 }
    END {
        # the edges a -> b, one symbol each to name it
        for (i in use) {
            split(use[i], p, " ")
            b = def[p[2]]
            if (b == "" || b == p[1]) continue
            if (!((p[1], b) in via)) {
                via[p[1], b] = p[2]
                out[p[1]] = out[p[1]] " " b
            }
        }
        # reach[s, x]: x is reachable from s (breadth first from each s)
        for (s in files) {
            head = 0; tail = 0
            n = split(out[s], q, " ")
            for (k = 1; k <= n; k++) if (!((s, q[k]) in reach)) { reach[s, q[k]] = 1; queue[tail++] = q[k] }
            while (head < tail) {
                x = queue[head++]
                n = split(out[x], q, " ")
                for (k = 1; k <= n; k++) if (!((s, q[k]) in reach)) { reach[s, q[k]] = 1; queue[tail++] = q[k] }
            }
        }
        bad = 0
        for (e in via) {
            split(e, ab, SUBSEP)
            if ((ab[2], ab[1]) in reach) {
                printf "%s -> %s (%s), and %s reaches %s back\n", ab[1], ab[2], via[e], ab[2], ab[1]
                bad++
            }
        }
        nfiles = 0
        for (s in files) nfiles++
        if (bad) exit 1
        printf "check-cycles: %d files, no call cycles\n", nfiles
    }'); then
    echo "$out"
else
    echo "$out" | sort
    exit 1
fi
