"""it_docs: the manual (README.md and docs/*.md) matches the binary. Every
option a subcommand's --help names is in that subcommand's section of docs/
(`## `rpcbench CMD``), and every option a section names is in the --help of
its subcommand (compare and sweep take run's options, so their sections add
only their own). --help and --version are documented once for all, and every
subcommand answers them with exit 0. The option table itself (`rpcbench
help-options`, one TSV line per row) is checked against the docs' option
tables (short flag, default, range, allowed values, sweep's lists); a flag
the manual names that no command takes fails, unless it is another
program's (FOREIGN) or a command's still being written (EXPECTED_LATER).
Every link and anchor of README.md and docs/*.md resolves (a link to a page
in EXPECTED_LATER_PAGES is checked once that page exists), the README stays
within 300 lines, its first run and A/B run as written against its own
Python server, and the man pages made from the table (`rpcbench help-man
CMD`) are read with man(1): every row is there, by group, with its help."""
import os
import re
import shlex
import shutil
import socket
import subprocess
import tempfile
import time

from rpctest import check, kill_group, main, need_package, rpcbench, spawn

ROOT = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..")
OPTION = re.compile(r"(?<![\w-])--[a-z][a-z0-9-]*[a-z0-9]")
COMMON = {"--help", "--version"}
KNOWN = ("serve", "run", "compare", "report", "sweep", "agent")


def binary_commands():
    """The commands the binary has (`rpcbench help-man-list`: the option
    table's, each with a man page): a command added there (record) is
    held to the same checks with no change here."""
    rc, out, err = rpcbench("help-man-list", timeout=10)
    check(rc == 0 and set(KNOWN) <= set(out.split()), "help-man-list: %d %r %r" % (rc, out, err))
    return tuple(out.split())


COMMANDS = binary_commands()


def help_options(cmd):
    """The options cmd's `--help all` names (each one it takes, and those
    their help names), but for its values' lines (indented past the help
    column: a value's help may name an option of another command)."""
    rc, out, err = rpcbench(cmd, "--help", "all", timeout=10)
    check(rc == 0 and out, "%s --help: rc %d %r" % (cmd, rc, err))
    out = "\n".join(line for line in out.splitlines() if not line.startswith(" " * 26))
    return set(OPTION.findall(out)) - COMMON


def help_heads(out):
    """The options a --help text has an entry for."""
    return set(re.findall(r"^  (?:-\w, |    )(--[a-z0-9-]+)", out, re.M))


# Flags of other programs that the manual quotes, and the program.
FOREIGN = {"--call-graph": "perf record", "--enable-recovery": "mpirun",
           "--hostfile": "mpirun", "--oversubscribe": "mpirun", "--port": "a server of yours",
           "--trace-children": "valgrind", "--error-exitcode": "valgrind",
           "--leak-check": "valgrind"}
# Options and pages that helpers are adding beside this one (run --replay,
# rpcbench record): named by the manual before they reach main. Once they
# exist they are checked as any other; drop them from here then.
EXPECTED_LATER = {"--replay"}
EXPECTED_LATER_PAGES = {"docs/record.md", "docs/replay.md"}


def manual_files():
    """README.md and docs/*.md, as paths relative to ROOT."""
    docs = sorted(f for f in os.listdir(os.path.join(ROOT, "docs")) if f.endswith(".md"))
    return ["README.md"] + ["docs/" + f for f in docs]


def manual_text():
    return "\n".join(open(os.path.join(ROOT, f)).read() for f in manual_files())


def readme_sections():
    """{command: text of its '## `rpcbench command`' section in docs/}."""
    sections = {}
    for f in manual_files()[1:]:
        parts = re.split(r"^(## .*)$", open(os.path.join(ROOT, f)).read(), flags=re.M)
        for head, body in zip(parts[1::2], parts[2::2]):
            m = re.match(r"## `rpcbench (\w+)`", head)
            if m:
                sections[m.group(1)] = body
    check(set(COMMANDS) <= set(sections), "docs sections: %r" % sorted(sections))
    return sections


def readme_options(sections, cmd):
    return set(OPTION.findall(sections[cmd])) - COMMON


def test_every_help_option_in_readme_and_back():
    sections = readme_sections()
    for cmd in ("serve", "run", "report", "agent"):
        helped, documented = help_options(cmd), readme_options(sections, cmd)
        check(helped - documented == set(), "%s: in --help, not in docs: %s"
              % (cmd, sorted(helped - documented)))
        check(documented - helped == set(), "%s: in docs, not in --help: %s"
              % (cmd, sorted(documented - helped)))
    helped = help_options("compare")
    documented = readme_options(sections, "compare") | readme_options(sections, "run")
    check(helped - documented == set(), "compare: in --help, not in docs: %s"
          % sorted(helped - documented))
    own = readme_options(sections, "compare")
    check(own - helped == set(), "compare: in docs, not in --help: %s" % sorted(own - helped))
    check("--rounds" in own and "--rounds" not in help_options("run"), "--rounds is compare's")
    helped, run_helped = help_options("sweep"), help_options("run")
    documented = readme_options(sections, "sweep") | readme_options(sections, "run")
    check(helped - documented == set(), "sweep: in --help, not in docs: %s"
          % sorted(helped - documented))
    own = readme_options(sections, "sweep")
    check(own - helped - run_helped == set(), "sweep: in docs, not in --help: %s"
          % sorted(own - helped - run_helped))


def test_version_and_help_on_every_subcommand():
    for cmd in COMMANDS:
        for flag in ("--version", "-V"):
            rc, out, err = rpcbench(cmd, flag, timeout=10)
            check(rc == 0 and re.match(r"rpcbench \d+\.\d+\.\d+(\+g[0-9a-f]+(-dirty)?|-\d+-g[0-9a-f]+(-dirty)?)?"
                                          r" \((with|without) MPI[^)]*\)\n$", out),
                  "%s %s: rc %d %r %r" % (cmd, flag, rc, out, err))
        rc, out, _ = rpcbench(cmd, "-h", timeout=10)
        check(rc == 0 and "exit status: 0 ok, 1 " in out and "2 bad usage" in out,
              "%s -h documents the exit codes: %r" % (cmd, out[-200:]))
    check("| exit status | meaning |" in exit_doc(), "docs/measurement.md exit-code table")


def exit_doc():
    return open(os.path.join(ROOT, "docs", "measurement.md")).read()


def exit_rows():
    """{code: meaning} of docs/measurement.md's exit-status table."""
    table = exit_doc().split("| exit status | meaning |", 1)[1].split("\n\n", 1)[0]
    return {int(m.group(1)): m.group(2) for m in re.finditer(r"^\| (\d+) \| (.*) \|$", table, re.M)}


def test_exit_codes_in_help_and_readme_agree():
    """Every code a --help names is in the docs table, and the verdict
    code 3 of --threshold is named by both for run and report."""
    rows = exit_rows()
    check(set(rows) >= {0, 1, 2, 3, 130}, "docs exit table: %r" % sorted(rows))
    for cmd in COMMANDS:
        rc, out, _ = rpcbench(cmd, "--help", timeout=10)
        tail = out[out.index("exit status:"):]
        codes = {int(c) for c in re.findall(r"(?:^|[ ,:;])(\d+) [a-z-]", tail, re.M)}
        check(codes <= set(rows), "%s --help codes %r, docs %r" % (cmd, codes, sorted(rows)))
        if cmd in ("run", "report"):
            check("3 a --threshold condition failed" in tail, "%s --help: %r" % (cmd, tail))
            check("`%s`" % cmd in rows[3] and "`--threshold` condition failed" in rows[3],
                  "docs row 3 names %s's threshold verdict: %r" % (cmd, rows[3]))


def option_rows():
    """The option table as [{name, short, type, default, range, commands,
    lists, help, help_run, help_compare, ...}] (a command's own help)."""
    rc, out, err = rpcbench("help-options", timeout=10)
    check(rc == 0 and out.startswith("name\tshort\ttype\t"), "help-options: %d %r" % (rc, err))
    lines = out.splitlines()
    keys = lines[0].split("\t")
    rows = [dict(zip(keys, line.split("\t"))) for line in lines[1:]]
    check(len(rows) > 40 and all(len(r) == len(keys) for r in rows), "help-options rows")
    return [r for r in rows if r["type"] not in ("help", "version")]


def table_rows(section, name):
    """The text of the docs table rows (in section) whose option cell names --name."""
    found = []
    for line in section.splitlines():
        cells = line.split(" | ")
        if line.startswith("| `") and re.search(r"(?<![\w-])--%s(?![\w-])" % re.escape(name),
                                                cells[0]):
            found.append(line)
    return found


def plain(text):
    return text.replace("`", "").replace("\\|", "|").lower()


def test_readme_tables_match_option_table():
    """Each row of the table is a row of its command's docs table (run's
    rows in run's section, compare's own in compare's, sweep's own and
    sweep's lists in sweep's), with its short flag, its default, its range
    or every allowed value."""
    sections = readme_sections()
    for row in option_rows():
        cmds = row["commands"].split(",")
        home = "run" if "run" in cmds else cmds[0]
        lines = table_rows(sections[home], row["name"])
        check(lines, "docs %s: no table row for --%s" % (home, row["name"]))
        text = plain(" ".join(lines))
        head = " ".join(line.split(" | ")[0] for line in lines)
        if row["short"]:
            check("`%s, --%s" % (row["short"], row["name"]) in head,
                  "docs: --%s without %s: %r" % (row["name"], row["short"], head))
        if row["default"]:
            check("default" in text and plain(row["default"]) in text,
                  "docs: --%s's default %r is not in %r" % (row["name"], row["default"], text))
        if row["type"] == "int":
            check(row["range"] in text, "docs: --%s's range %s is not in %r"
                  % (row["name"], row["range"], text))
        for value in row["range"].split("|") if row["type"] == "choice" else ():
            check(value in text, "docs: --%s's value %s is not in %r" % (row["name"], value, text))
        if row["lists"]:
            check(table_rows(sections["sweep"], row["name"]),
                  "docs sweep: --%s takes a list there, and has no row" % row["name"])


def man_text(path):
    """What man(1) shows of the roff file at path, at 80 columns, as plain text."""
    env = dict(os.environ, MANWIDTH="80", LC_ALL="C", MANPAGER="cat", PAGER="cat")
    shown = subprocess.run(["man", "-l", path], env=env, capture_output=True, text=True,
                           timeout=30)
    check(shown.returncode == 0, "man -l %s: %d %r" % (path, shown.returncode, shown.stderr))
    return subprocess.run(["col", "-bx"], input=shown.stdout, capture_output=True, text=True,
                          timeout=30).stdout


def check_man(text, where, cmd):
    """rpcbench-CMD(1) as man shows it: within 80 columns, its sections,
    every option cmd takes under its group's title, in the groups' order,
    with its help (cmd's own where it has one), its default and each value's
    line."""
    check(all(len(line) <= 80 for line in text.splitlines()), "%s: wider than 80" % where)
    for section in ("NAME", "SYNOPSIS", "DESCRIPTION", "OPTIONS", "EXAMPLES", "EXIT STATUS",
                    "SEE ALSO"):
        check(re.search(r"^%s$" % section, text, re.M), "%s: no %s" % (where, section))
    flat = " ".join(text.split())
    rows = [r for r in option_rows() if cmd in r["commands"].split(",")]
    titles = {"rate": "rate and time", "connections": "connections and TLS"}
    at = {}
    for r in rows:
        title = "%s (--help %s)" % (titles.get(r["group"], r["group"]), r["group"])
        check(title in flat, "%s: no group %r" % (where, title))
        at.setdefault(r["group"], flat.index(title))
        found = flat.find("--" + r["name"], at[r["group"]])
        check(found > 0, "%s: no --%s after its group's title" % (where, r["name"]))
        own = " ".join((r["help_" + cmd] or r["help"]).split())
        check(own in flat, "%s: --%s's help %r" % (where, r["name"], own))
        if r["default"] and ("Default: %s." % r["default"]) not in flat:
            check(cmd in ("compare", "report") or cmd in r["lists"].split(","),
                  "%s: --%s's default" % (where, r["name"]))
        for v in r["values"].split("|") if r["values"] and cmd not in r["lists"] else ():
            check(re.search(r"^ {8,}%s\b" % re.escape(v), text, re.M),
                  "%s: --%s's value %s" % (where, r["name"], v))
    order = [at[g] for g in GROUPS if g in at]
    check(order == sorted(order), "%s: groups out of order" % where)


def test_man_page_has_every_option():
    """rpcbench-CMD(1) of every command, as man(1) shows it at 80 columns,
    renders every option of `CMD --help all`, grouped (check_man); both as
    the binary writes it (help-man CMD) and as `make` left it
    (build/man/). rpcbench(1) names every command's page."""
    need_package(shutil.which("man"), "man", "man-db")
    rc, out, err = rpcbench("--help", timeout=10)
    listed = dict(re.findall(r"^  (\w+) +(\S.*)$", out, re.M))
    check(set(COMMANDS) <= set(listed), "rpcbench --help lists %s, the table %s"
          % (sorted(listed), sorted(COMMANDS)))
    rc, roff, err = rpcbench("help-man", timeout=10)
    check(rc == 0 and roff.startswith(".TH RPCBENCH 1"), "help-man: %d %r" % (rc, err))
    with tempfile.TemporaryDirectory() as tmp:
        path = os.path.join(tmp, "rpcbench.1")
        open(path, "w").write(roff)
        text = man_text(path)
        for cmd in COMMANDS:
            check("rpcbench-%s(1)" % cmd in text, "rpcbench(1) names no rpcbench-%s" % cmd)
            rc, roff, err = rpcbench("help-man", cmd, timeout=10)
            check(rc == 0 and roff.startswith(".TH RPCBENCH-%s 1" % cmd.upper()),
                  "help-man %s: %d %r" % (cmd, rc, err))
            path = os.path.join(tmp, "rpcbench-%s.1" % cmd)
            open(path, "w").write(roff)
            shown = man_text(path)
            check_man(shown, "help-man " + cmd, cmd)
            name = "rpcbench-%s - %s" % (cmd, listed[cmd])  # main's list says the same
            check(name in " ".join(shown.split()), "rpcbench-%s(1)'s NAME is not %r" % (cmd, name))
            built = os.path.join(ROOT, "build", "man", "rpcbench-%s.1" % cmd)
            if os.path.exists(built):
                check_man(man_text(built), built, cmd)
    rc, _, err = rpcbench("help-man", "nosuch", timeout=10)
    check(rc == 2 and "no command" in err, "help-man nosuch: %d %r" % (rc, err))

GROUPS = ("target", "rate", "workload", "connections", "measurement", "verdicts", "outputs",
          "distribution", "profile")


def test_help_in_groups():
    """run --help fits in 40 lines of 79 columns and names the groups;
    --help GROUP shows that group's options (every row of the table in the
    group it says, and nothing else) with each value's line; --help all
    shows every option the command takes; a word that is no group is exit
    2. Every row but -h and -V has a group."""
    rows = option_rows()
    check(all(r["group"] in GROUPS for r in rows), "rows without a group: %s"
          % [r["name"] for r in rows if r["group"] not in GROUPS])
    rc, out, _ = rpcbench("run", "--help", timeout=10)
    lines = out.splitlines()
    check(rc == 0 and len(lines) <= 40 and max(map(len, lines)) <= 79,
          "run --help: %d lines, widest %d" % (len(lines), max(map(len, lines))))
    check(all(g in out for g in GROUPS), "run --help names the groups: %r" % out[-600:])
    check(len(help_heads(out)) <= 16, "run --help: %d options" % len(help_heads(out)))
    for cmd in COMMANDS:
        takes = [r for r in rows if cmd in r["commands"].split(",")]
        everything = help_options(cmd)
        check({"--" + r["name"] for r in takes} <= everything, "%s --help all lacks %s"
              % (cmd, sorted({"--" + r["name"] for r in takes} - everything)))
        for group in GROUPS:
            rc, out, err = rpcbench(cmd, "--help", group, timeout=10)
            check(rc == 0, "%s --help %s: %d %r" % (cmd, group, rc, err))
            shown = help_heads(out)
            mine = {"--" + r["name"] for r in takes if r["group"] == group}
            check(shown == mine, "%s --help %s: shows %s, the table says %s"
                  % (cmd, group, sorted(shown), sorted(mine)))
            for r in takes:
                if r["group"] == group and r["values"] and cmd not in r["lists"].split(","):
                    for v in r["values"].split("|"):
                        check(re.search(r"^ {20,}%s +\S" % re.escape(v), out, re.M),
                              "%s --help %s: no line for --%s's value %s"
                              % (cmd, group, r["name"], v))
    rc, _, err = rpcbench("run", "--help", "bogus", timeout=10)
    check(rc == 2 and "not a group" in err, "run --help bogus: %d %r" % (rc, err))


LINK = re.compile(r"\[[^\]]*\]\(([^)\s]+)\)")


def slug(heading):
    """GitHub's anchor of a heading: lower case, punctuation dropped, blanks as '-'."""
    return re.sub(r"[^\w\- ]", "", heading.strip().lower()).replace(" ", "-")


def anchors(path):
    """The anchors of a Markdown file's headings (a repeated one gets -1, -2, ...)."""
    found, seen, fence = set(), {}, False
    for line in open(path):
        fence ^= line.startswith("```")
        m = not fence and re.match(r"^#{1,6} (.*)$", line)
        if m:
            s = slug(m.group(1))
            found.add(s if s not in seen else "%s-%d" % (s, seen[s]))
            seen[s] = seen.get(s, 0) + 1
    return found


def test_links_and_anchors():
    """Every relative link of README.md and docs/*.md names a file of the
    tree and, into a Markdown file, one of its headings; the README
    links every page of docs/."""
    broken = []
    for f in manual_files():
        text = re.sub(r"```.*?```", "", open(os.path.join(ROOT, f)).read(), flags=re.S)
        for target in LINK.findall(text):
            if re.match(r"[a-z]+:", target):
                continue
            path, _, anchor = target.partition("#")
            to = os.path.normpath(os.path.join(os.path.dirname(f), path)) if path else f
            full = os.path.join(ROOT, to)
            if not os.path.exists(full):
                if to not in EXPECTED_LATER_PAGES:
                    broken.append("%s: %s: no such file" % (f, target))
            elif anchor and to.endswith(".md") and anchor not in anchors(full):
                broken.append("%s: %s: no such heading" % (f, target))
    check(not broken, "broken links:\n  " + "\n  ".join(broken))
    readme = open(os.path.join(ROOT, "README.md")).read()
    for f in manual_files()[1:]:
        check("(%s" % f in readme, "README links no %s" % f)
    for f in EXPECTED_LATER_PAGES:
        check("(%s)" % f in readme, "README links no %s" % f)


def test_readme_is_short_and_names_real_flags():
    """README.md is at most 300 lines, keeps the two commands, and no page
    of the manual names a flag that no command takes (another program's
    flags are FOREIGN)."""
    readme = open(os.path.join(ROOT, "README.md")).read()
    check(len(readme.splitlines()) <= 300, "README.md: %d lines" % len(readme.splitlines()))
    check("make demo " in readme and "make check " in readme, "README: the two commands")
    known = {"--" + r["name"] for r in option_rows()} | COMMON
    named = set(OPTION.findall(manual_text()))
    unknown = named - known - set(FOREIGN) - EXPECTED_LATER
    check(not unknown, "the manual names flags no command takes: %s" % sorted(unknown))
    stale = (set(FOREIGN) | EXPECTED_LATER) & known
    check(not stale, "FOREIGN/EXPECTED_LATER name rpcbench's own options now: %s" % sorted(stale))


def readme_blocks(lang):
    """The README's fenced blocks of a language, in order."""
    text = open(os.path.join(ROOT, "README.md")).read()
    return re.findall(r"^```%s\n(.*?)^```" % lang, text, re.M | re.S)


def free_port():
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def readme_command(block, ports, pids):
    """The rpcbench command of a README block as argv: one line once its
    continuations are joined, our ports for 8001 and 8002, our pids for $A
    and $B, and 1 s windows."""
    line = next(l for l in block.replace("\\\n", " ").splitlines() if "rpcbench " in l)
    for old, new in (("8001", ports[0]), ("8002", ports[1]), ("$A", pids[0]), ("$B", pids[1])):
        line = line.replace(old, str(new))
    argv = shlex.split(line)
    argv = argv[argv.index("./rpcbench") + 1:]
    argv[argv.index("-d") + 1] = "1s"
    return argv


def serve_readme(d, name, port):
    """The README's Python server as d/name on port, once it listens."""
    path = os.path.join(d, name)
    open(path, "w").write(readme_blocks("python")[0])
    p = spawn(["python3", path, str(port)], cwd=d)
    deadline = time.time() + 10
    while time.time() < deadline:
        try:
            socket.create_connection(("127.0.0.1", port), 1).close()
            return p
        except OSError:
            time.sleep(0.05)
    check(False, "the README's server did not listen on %d" % port)


def test_readme_first_run_and_ab_work():
    """The README's first run and its A/B of two builds, as written (the
    server its Python block, srv.py then a copy srv_new.py, ports free ones,
    windows of 1 s): both exit 0; the run reports the server's CPU per call
    and no error, the compare names what A and B differ in."""
    blocks = [b for b in readme_blocks("sh") if "--method add" in b]
    check(len(blocks) == 2, "README: the first run and the A/B: %d blocks" % len(blocks))
    ports, procs = [free_port(), free_port()], []
    with tempfile.TemporaryDirectory() as d:
        try:
            procs.append(serve_readme(d, "srv.py", ports[0]))
            rc, out, err = rpcbench(*readme_command(blocks[0], ports, [0, 0]), timeout=60)
            check(rc == 0 and re.search(r"^server .* CPU-ms/call", out, re.M)
                  and re.search(r"^requests .* errors 0 ", out, re.M),
                  "README's first run: %d %s %s" % (rc, out[-800:], err[-400:]))
            procs.append(serve_readme(d, "srv_new.py", ports[1]))
            pids = [p.pid for p in procs]
            rc, out, err = rpcbench(*readme_command(blocks[1], ports, pids), timeout=120)
            check(rc == 0 and "A and B differ in: URL" in out and "server CPU-ms/call" in out,
                  "README's A/B: %d %s %s" % (rc, out[-800:], err[-400:]))
        finally:
            for p in procs:
                kill_group(p)

if __name__ == "__main__":
    main([test_every_help_option_in_readme_and_back, test_version_and_help_on_every_subcommand,
          test_exit_codes_in_help_and_readme_agree, test_readme_tables_match_option_table,
          test_man_page_has_every_option, test_links_and_anchors, test_help_in_groups,
          test_readme_is_short_and_names_real_flags, test_readme_first_run_and_ab_work])
