#!/bin/sh
# check-func-length: no function of the program is over 60 lines (the house
# rule: a function fits on a screen). Counts the lines between a function's
# opening brace and its closing one, each alone at the start of a line, as
# every definition of ours is written.
#
# Usage: scripts/check-func-length.sh [ROOT]  (default: the repository)
# Prints "file:line: N lines" per function over the limit and exits 1 if
# there is any; 0 and one summary line otherwise.
set -eu
root=${1:-$(cd "$(dirname "$0")/.." && pwd)}
cd "$root"
files=""
for f in src/*/*.c encoders/*.c; do
    [ -e "$f" ] && files="$files $f"
done
# shellcheck disable=SC2086 # $files: one path a word
if out=$(awk 'FNR == 1 { s = 0 }
    /^\{/ { s = FNR }
    /^\}/ { if (s && FNR - s - 1 > 60) { print FILENAME ":" s ": " FNR - s - 1 " lines"; bad++ } s = 0 }
    END { exit bad > 0 }' $files); then
    echo "check-func-length: no function over 60 lines"
else
    echo "$out"
    exit 1
fi
