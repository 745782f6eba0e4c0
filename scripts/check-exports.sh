#!/bin/sh
# check-exports: every function a file of the program exports is called
# from another file of the program, or is a test hook declared in a
# *_testing.h header (as HdrHistogram_c keeps its test-only internals).
# A function only its own file calls is made static; one only the tests
# call goes to the module's *_testing.h (issue 40, part 3).
#
# Usage: scripts/check-exports.sh BUILD_DIR [ROOT]   (e.g. build/rel)
# Reads the objects BUILD_DIR/P.o of the sources P.c in src/*/ and
# encoders/ (as scripts/check-cycles.sh does). main is the program's entry.
# Prints one line per offending function, "file.c: name: why", and exits 1
# if there is any; 0 and one summary line otherwise.
set -eu
build=${1:?usage: $0 BUILD_DIR [ROOT]}
root=${2:-$(cd "$(dirname "$0")/.." && pwd)}
me=check-exports
# shellcheck source=scripts/objects.sh
. "$(dirname "$0")/objects.sh"

# The names the test headers declare: "name(" in any *_testing.h.
hooks=$(cat "$root"/src/*/*_testing.h "$root"/encoders/*_testing.h 2>/dev/null |
    grep -o '[A-Za-z_][A-Za-z0-9_]*(' | tr -d '(' | sort -u || true)

# shellcheck disable=SC2086 # $objs: one path a word
if out=$(nm -A -P $objs | awk -v b="$build/" -v hooks="$hooks" '
    BEGIN { n = split(hooks, h, "\n"); for (i = 1; i <= n; i++) hook[h[i]] = 1 }
    { f = $1; sub(/:$/, "", f); sub("^" b, "", f); sub(/\.o$/, ".c", f) }
    $3 == "T" { def[$2] = f; next }
    $3 == "U" { users[$2] = users[$2] " " f }
    END {
        bad = 0
        for (s in def) {
            if (s == "main")
                continue
            other = 0
            m = split(users[s], u, " ")
            for (i = 1; i <= m; i++)
                if (u[i] != def[s])
                    other = 1
            if (other && hook[s]) {
                print def[s] ": " s ": declared in a *_testing.h, yet the program calls it"
                bad++
            } else if (!other && !hook[s]) {
                print def[s] ": " s ": no other file of the program calls it (static, or a test hook in *_testing.h)"
                bad++
            }
        }
        exit bad > 0
    }'); then
    out=""
fi
# A call in code this build left out (dist_run.c's MPI half without MPI=1)
# is still a call: such a name, named in another source, passes.
left=$(echo "$out" | while IFS= read -r line; do
    [ -n "$line" ] || continue
    file=${line%%:*}
    name=${line#*: }
    name=${name%%:*}
    case $line in *"yet the program calls it"*) echo "$line"; continue ;; esac
    others=$(grep -lw -- "$name" "$root"/src/*/*.c "$root"/encoders/*.c 2>/dev/null | grep -v "/$file\$" || true)
    [ -n "$others" ] || echo "$line"
done)
if [ -n "$left" ]; then
    echo "$left" | sort
    exit 1
fi
echo "check-exports: every exported function of $(echo "$objs" | wc -w) objects is called from another file"

