"""it_docs: the README matches the binary. Every option a subcommand's
--help names is in that subcommand's README section, and every option a
section names is in the --help of its subcommand (compare and sweep take
run's options, so their sections add only their own). --help and --version are
documented once for all, and every subcommand answers them with exit 0.
The option table itself (`rpcbench help-options`, one TSV line per row) is
checked against the README's option tables (short flag, default, range,
allowed values, sweep's lists), and the man page made from it
(`rpcbench help-man`) is read with man(1): every row is there with its help."""
import os
import re
import shutil
import subprocess
import tempfile

from rpctest import check, main, need_package, rpcbench

ROOT = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..")
OPTION = re.compile(r"(?<![\w-])--[a-z][a-z0-9-]*[a-z0-9]")
COMMON = {"--help", "--version"}
COMMANDS = ("serve", "run", "compare", "report", "sweep", "agent", "record")
# Where each command's section is: the README, or a page of its own.
DOC_FILES = ("README.md", os.path.join("docs", "record.md"), os.path.join("docs", "replay.md"))


def help_options(cmd):
    rc, out, err = rpcbench(cmd, "--help", timeout=10)
    check(rc == 0 and out, "%s --help: rc %d %r" % (cmd, rc, err))
    return set(OPTION.findall(out)) - COMMON


def readme_sections():
    """{command: text of its '### `rpcbench command`' sections} (README.md's,
    docs/record.md's for record, docs/replay.md's for run's and compare's
    replay options: a command's sections in several files are one)."""
    text = "\n".join(open(os.path.join(ROOT, f)).read() for f in DOC_FILES)
    parts = re.split(r"^(#{2,3} .*)$", text, flags=re.M)
    sections = {}
    for head, body in zip(parts[1::2], parts[2::2]):
        m = re.match(r"### `rpcbench (\w+)`", head)
        if m:
            sections[m.group(1)] = sections.get(m.group(1), "") + body
    check(set(COMMANDS) <= set(sections), "README sections: %r" % sorted(sections))
    return sections


def readme_options(sections, cmd):
    return set(OPTION.findall(sections[cmd])) - COMMON


def test_every_help_option_in_readme_and_back():
    sections = readme_sections()
    for cmd in ("serve", "run", "report", "agent", "record"):
        helped, documented = help_options(cmd), readme_options(sections, cmd)
        check(helped - documented == set(), "%s: in --help, not in README: %s"
              % (cmd, sorted(helped - documented)))
        check(documented - helped == set(), "%s: in README, not in --help: %s"
              % (cmd, sorted(documented - helped)))
    helped = help_options("compare")
    documented = readme_options(sections, "compare") | readme_options(sections, "run")
    check(helped - documented == set(), "compare: in --help, not in README: %s"
          % sorted(helped - documented))
    own = readme_options(sections, "compare")
    check(own - helped == set(), "compare: in README, not in --help: %s" % sorted(own - helped))
    check("--rounds" in own and "--rounds" not in help_options("run"), "--rounds is compare's")
    helped, run_helped = help_options("sweep"), help_options("run")
    documented = readme_options(sections, "sweep") | readme_options(sections, "run")
    check(helped - documented == set(), "sweep: in --help, not in README: %s"
          % sorted(helped - documented))
    own = readme_options(sections, "sweep")
    check(own - helped - run_helped == set(), "sweep: in README, not in --help: %s"
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
    readme = open(os.path.join(ROOT, "README.md")).read()
    check("| exit status | meaning |" in readme, "README exit-code table")


def exit_rows():
    """{code: meaning} of the README's exit-status table."""
    text = open(os.path.join(ROOT, "README.md")).read()
    table = text.split("| exit status | meaning |", 1)[1].split("\n\n", 1)[0]
    return {int(m.group(1)): m.group(2) for m in re.finditer(r"^\| (\d+) \| (.*) \|$", table, re.M)}


def test_exit_codes_in_help_and_readme_agree():
    """Every code a --help names is in the README table, and the verdict
    code 3 of --threshold is named by both for run and report."""
    rows = exit_rows()
    check(set(rows) >= {0, 1, 2, 3, 130}, "README exit table: %r" % sorted(rows))
    for cmd in COMMANDS:
        rc, out, _ = rpcbench(cmd, "--help", timeout=10)
        tail = out[out.index("exit status:"):]
        codes = {int(c) for c in re.findall(r"(?:^|[ ,:;])(\d+) [a-z-]", tail, re.M)}
        check(codes <= set(rows), "%s --help codes %r, README %r" % (cmd, codes, sorted(rows)))
        if cmd in ("run", "report"):
            check("3 a --threshold condition failed" in tail, "%s --help: %r" % (cmd, tail))
            check("`%s`" % cmd in rows[3] and "`--threshold` condition failed" in rows[3],
                  "README row 3 names %s's threshold verdict: %r" % (cmd, rows[3]))


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
    """The text of the README table rows (in section) whose option cell names --name."""
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
    """Each row of the table is a row of its command's README table (run's
    rows in run's section, compare's own in compare's, sweep's own and
    sweep's lists in sweep's), with its short flag, its default, its range
    or every allowed value."""
    sections = readme_sections()
    for row in option_rows():
        cmds = row["commands"].split(",")
        home = "run" if "run" in cmds else cmds[0]
        lines = table_rows(sections[home], row["name"])
        check(lines, "README %s: no table row for --%s" % (home, row["name"]))
        text = plain(" ".join(lines))
        head = " ".join(line.split(" | ")[0] for line in lines)
        if row["short"]:
            check("`%s, --%s" % (row["short"], row["name"]) in head,
                  "README: --%s without %s: %r" % (row["name"], row["short"], head))
        if row["default"]:
            check("default" in text and plain(row["default"]) in text,
                  "README: --%s's default %r is not in %r" % (row["name"], row["default"], text))
        if row["type"] == "int":
            check(row["range"] in text, "README: --%s's range %s is not in %r"
                  % (row["name"], row["range"], text))
        for value in row["range"].split("|") if row["type"] == "choice" else ():
            check(value in text, "README: --%s's value %s is not in %r" % (row["name"], value, text))
        if row["lists"]:
            check(table_rows(sections["sweep"], row["name"]),
                  "README sweep: --%s takes a list there, and has no row" % row["name"])


def man_text(path):
    """What man(1) shows of the roff file at path, at 80 columns, as plain text."""
    env = dict(os.environ, MANWIDTH="80", LC_ALL="C", MANPAGER="cat", PAGER="cat")
    shown = subprocess.run(["man", "-l", path], env=env, capture_output=True, text=True,
                           timeout=30)
    check(shown.returncode == 0, "man -l %s: %d %r" % (path, shown.returncode, shown.stderr))
    return subprocess.run(["col", "-b"], input=shown.stdout, capture_output=True, text=True,
                          timeout=30).stdout


def check_man(text, where):
    check(all(len(line) <= 80 for line in text.splitlines()), "%s: wider than 80" % where)
    flat = " ".join(text.split())
    for row in option_rows():
        check("--" + row["name"] in flat, "%s: no --%s" % (where, row["name"]))
        check(" ".join(row["help"].split()) in flat, "%s: --%s's help %r"
              % (where, row["name"], row["help"]))
        if row["default"]:
            check("Default: %s." % row["default"] in flat, "%s: --%s's default"
                  % (where, row["name"]))
        for cmd in ("run", "compare", "sweep", "report", "serve", "agent", "record"):
            own = " ".join(row["help_" + cmd].split())
            check(not own or "In %s: %s" % (cmd, own) in flat, "%s: --%s's help in %s %r"
                  % (where, row["name"], cmd, own))


def test_man_page_has_every_option():
    """rpcbench(1), as man(1) shows it at 80 columns: every row's option,
    its help (words as written, lines filled) and its default; both as the
    binary writes it (help-man) and as `make` left it (build/rpcbench.1)."""
    need_package(shutil.which("man"), "man", "man-db")
    rc, roff, err = rpcbench("help-man", timeout=10)
    check(rc == 0 and roff.startswith(".TH RPCBENCH 1"), "help-man: %d %r" % (rc, err))
    with tempfile.TemporaryDirectory() as tmp:
        path = os.path.join(tmp, "rpcbench.1")
        open(path, "w").write(roff)
        check_man(man_text(path), "help-man")
    built = os.path.join(ROOT, "build", "rpcbench.1")
    if os.path.exists(built):
        check_man(man_text(built), built)


if __name__ == "__main__":
    main([test_every_help_option_in_readme_and_back, test_version_and_help_on_every_subcommand,
          test_exit_codes_in_help_and_readme_agree, test_readme_tables_match_option_table,
          test_man_page_has_every_option])
