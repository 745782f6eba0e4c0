# objects.sh: sourced by the scripts that read the built objects
# (check-cycles.sh, check-exports.sh). With $me (the script's name),
# $build and $root set, sets $objs to the object BUILD/P.o of every
# source P.c under ROOT in src/*/ and encoders/ (objects left from
# sources since moved or removed are not read); exits 2 when one is not
# built or there is no source.
objs=""
for src in "$root"/src/*/*.c "$root"/encoders/*.c; do
    [ -e "$src" ] || continue
    o=$build/${src#"$root"/}
    o=${o%.c}.o
    [ -e "$o" ] || { echo "$me: $o is not built (build first)" >&2; exit 2; }
    objs="$objs $o"
done
[ -n "$objs" ] || { echo "$me: no sources under $root" >&2; exit 2; }
