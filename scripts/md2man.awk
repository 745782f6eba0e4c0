#!/usr/bin/awk -f
# md2man.awk: docs/files.md as the man page rpcbench-files(5), so that the
# page and the doc are one text (make writes build/man/rpcbench-files.5).
# It reads the little Markdown files.md uses: "# title", "## section",
# paragraphs, and tables whose first row names the columns; `code` becomes
# bold, [text](link) its text. Each table row is a tagged paragraph: its
# first cell, then "column: cell" for the others. VERSION: -v version=V.
function inline(s,    out, i, m) {
    gsub(/\\/, "\\e", s)
    gsub(/\\e\|/, "|", s)           # Markdown's escaped pipe in a cell
    gsub(/-/, "\\-", s)
    while (match(s, /\[[^]]*\]\([^)]*\)/)) {   # [text](link): the text
        m = substr(s, RSTART, RLENGTH)
        sub(/\]\(.*$/, "", m)
        s = substr(s, 1, RSTART - 1) substr(m, 2) substr(s, RSTART + RLENGTH)
    }
    out = ""
    while ((i = index(s, "`")) > 0) {
        out = out substr(s, 1, i - 1)
        s = substr(s, i + 1)
        i = index(s, "`")
        if (i == 0) { out = out "`"; break }
        out = out "\\fB" substr(s, 1, i - 1) "\\fR"
        s = substr(s, i + 1)
    }
    s = out s
    if (s ~ /^[.']/) s = "\\&" s
    return s
}
function cells(line, arr,    n) {
    gsub(/\\\|/, "\001", line)       # an escaped pipe is no cell border
    sub(/^\| */, "", line); sub(/ *\|$/, "", line)
    n = split(line, arr, / *\| */)
    for (i = 1; i <= n; i++) gsub(/\001/, "\\|", arr[i])
    return n
}
BEGIN {
    print ".TH RPCBENCH-FILES 5 \"\" \"rpcbench " version "\" \"File Formats\""
    print ".nh\n.ad l"
    print ".SH NAME\nrpcbench-files \\- the files rpcbench reads and writes"
    intable = 0
}
/^# / { next }                       # the title: NAME says it
/^## / { sub(/^## /, ""); print ".SH \"" toupper(inline($0)) "\""; intable = 0; next }
/^\|/ {
    if (!intable) { ncol = cells($0, head); intable = 1; next }
    if ($0 ~ /^\|[-| ]*$/) next
    n = cells($0, c)
    print ".TP\n\\fB" inline(c[1]) "\\fR"
    for (k = 2; k <= n; k++) print (k > 2 ? ".br\n" : "") inline(head[k]) ": " inline(c[k])
    next
}
/^$/ { if (!intable && para) print ".PP"; intable = 0; para = 0; next }
{
    if (!started) { print ".SH DESCRIPTION"; started = 1 }
    print inline($0); para = 1
}
END {
    print ".SH SEE ALSO\n\\fBrpcbench\\fR(1), \\fBrpcbench\\-run\\fR(1), \\fBrpcbench\\-report\\fR(1)."
    print "The manual by topic: docs/ in /usr/share/doc/rpcbench."
}
