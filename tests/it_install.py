"""it_install: rpcbench installed as a Debian tool. `make install DESTDIR`
puts the binary, the man pages (rpcbench(1), rpcbench-CMD(1) for each
command, rpcbench-files(5)), the bash completion and the manual (README.md,
docs/) under the prefix, and `make uninstall` takes them away again. Each
installed man page reads with man(1) from the prefix's MANPATH; the installed completion, sourced into a real bash,
offers each command's options, --verb's and --proto's values, and the
values after a comma of sweep's lists. `make deb` builds the package with
dpkg-buildpackage: its files are those, its Depends were computed from the
shared libraries, it Recommends linux-perf (--plot needs no gnuplot), its version is
the changelog's and the binary's, and lintian finds no error in it. (The
fresh-machine install of the .deb needs debootstrap and the archive:
scripts/deb-fresh-check.sh, run by hand.)"""
import os
import re
import shutil
import subprocess
import tempfile

from rpctest import bounded, check, main, need_package, skip

ROOT = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..")
SAN = os.environ.get("SAN", "")
KNOWN = ("serve", "run", "compare", "sweep", "report", "agent")
DOCS = ["README.md"] + ["docs/" + f for f in os.listdir(os.path.join(ROOT, "docs"))
                        if f.endswith((".md", ".png"))]


def pages(binary):
    """(section, page) of every man page: rpcbench(1), rpcbench-CMD(1) for
    each command the binary names, rpcbench-files(5)."""
    r = bounded([binary, "help-man-list"], 10)
    check(r.returncode == 0 and set(KNOWN) <= set(r.stdout.split()), "help-man-list: %r"
          % r.stdout)
    return ((("1", "rpcbench"),) + tuple(("1", "rpcbench-" + c) for c in r.stdout.split())
            + (("5", "rpcbench-files"),))


def files(binary):
    """What make install puts under the prefix."""
    return (("bin/rpcbench", "share/bash-completion/completions/rpcbench")
            + tuple("share/man/man%s/%s.%s" % (s, p, s) for s, p in pages(binary))
            + tuple("share/doc/rpcbench/" + f for f in DOCS))


def make(*args, timeout=300):
    r = bounded(["make", "--no-print-directory", "SAN=" + SAN] + list(args), timeout, cwd=ROOT)
    check(r.returncode == 0, "make %s: rc %d\n%s%s" % (" ".join(args), r.returncode,
                                                       r.stdout[-1500:], r.stderr[-1500:]))
    return r.stdout


def complete(completion, *words):
    """What the completion offers for the words typed so far (the last one
    being completed), from a real bash that sourced the file."""
    words = list(words)
    script = ('. "$1"; shift; COMP_WORDS=("$@"); COMP_CWORD=$(($# - 1)); _rpcbench; '
              'printf "%s\\n" "${COMPREPLY[@]}"')
    r = bounded(["bash", "-c", script, "complete", completion] + words, 10)
    check(r.returncode == 0, "bash completion of %r: %s" % (words, r.stderr))
    return set(r.stdout.split())


def test_install_and_uninstall():
    d = tempfile.mkdtemp(prefix="rpcbench-install.")
    try:
        make("install", "DESTDIR=" + d, "PREFIX=/usr")
        want = files(os.path.join(d, "usr/bin/rpcbench"))
        for f in want:
            check(os.path.isfile(os.path.join(d, "usr", f)), "not installed: /usr/" + f)
        binary = os.path.join(d, "usr/bin/rpcbench")
        check(os.access(binary, os.X_OK), "the binary is not executable")
        r = bounded([binary, "--version"], 10)
        check(re.match(r"rpcbench \d+\.\d+\.\d+\S* \((with|without) MPI\)", r.stdout),
              "--version: %r" % r.stdout)
        installed = sorted(os.path.relpath(os.path.join(p, f), d)
                           for p, _, fs in os.walk(d) for f in fs)
        check(installed == sorted("usr/" + f for f in want), "installed: %r" % installed)
        make("uninstall", "DESTDIR=" + d, "PREFIX=/usr")
        left = [os.path.join(p, f) for p, _, fs in os.walk(d) for f in fs]
        check(not left, "left after uninstall: %r" % left)
    finally:
        shutil.rmtree(d)


def man_page(manpath, section, page):
    """What `man SECTION PAGE` shows from manpath, at 80 columns."""
    r = bounded(["man", section, page], 30,
                env=dict(os.environ, MANPATH=manpath, MANPAGER="cat", MANWIDTH="80",
                         LC_ALL="C"))
    check(r.returncode == 0, "man %s %s: %s" % (section, page, r.stderr))
    return r.stdout


def test_man_page_reads():
    """Installed under a prefix, every page reads with man(1) by its name;
    rpcbench-run(1) shows its options by group, rpcbench-files(5) the
    files, and man reports no roff warning."""
    need_package(shutil.which("man"), "man", "man-db")
    d = tempfile.mkdtemp(prefix="rpcbench-man.")
    try:
        make("install", "DESTDIR=" + d, "PREFIX=/usr")
        manpath = os.path.join(d, "usr/share/man")
        for section, page in pages(os.path.join(d, "usr/bin/rpcbench")):
            text = man_page(manpath, section, page)
            check(page.upper() in text and "SEE ALSO" in text, "man %s %s: %r"
                  % (section, page, text[:300]))
            r = bounded(["man", "--warnings", "-l", os.path.join(
                manpath, "man" + section, "%s.%s" % (page, section))], 30,
                env=dict(os.environ, MANPAGER="cat", MANWIDTH="80", LC_ALL="C"))
            check(not r.stderr.strip(), "man --warnings %s: %s" % (page, r.stderr))
        run = man_page(manpath, "1", "rpcbench-run")
        check("rate and time (--help rate)" in run and "--pacer-window" in run,
              "man rpcbench-run: %r" % run[:300])
        top = man_page(manpath, "1", "rpcbench")
        check("load generator for XML-RPC and JSON-RPC" in top and "rpcbench-sweep(1)" in top,
              "man rpcbench: %r" % top[:300])
        files = man_page(manpath, "5", "rpcbench-files")
        check("workload file" in files and "#rpcbench-config" in files,
              "man 5 rpcbench-files: %r" % files[:300])
    finally:
        shutil.rmtree(d)


def test_completion_offers_options_and_values():
    make("build")
    c = os.path.join(ROOT, "build/rpcbench.bash-completion")
    check({"run", "compare", "sweep", "report", "serve", "agent", "record"}
          <= complete(c, "rpcbench", ""),
          "commands")
    verbs = {"ping", "list", "fullList", "getAllVmStats", "getVmStats"}
    check(complete(c, "rpcbench", "run", "--verb", "") == verbs,
          "run --verb: %r" % complete(c, "rpcbench", "run", "--verb", ""))
    check(complete(c, "rpcbench", "run", "--verb", "getA") == {"getAllVmStats"}, "--verb getA")
    check(complete(c, "rpcbench", "compare", "-p", "") == {"xmlrpc", "jsonrpc"}, "-p")
    check(complete(c, "rpcbench", "sweep", "--proto", "xmlrpc,j") == {"xmlrpc,jsonrpc"},
          "sweep's list: %r" % complete(c, "rpcbench", "sweep", "--proto", "xmlrpc,j"))
    check("json" in complete(c, "rpcbench", "report", "--format", ""), "--format's values")
    run_opts = complete(c, "rpcbench", "run", "--")
    check({"--rate", "--duration", "--verb", "--threshold"} <= run_opts and
          "--rounds" not in run_opts, "run's options: %r" % sorted(run_opts))
    check("--rounds" in complete(c, "rpcbench", "compare", "--ro"), "compare --ro")
    check(complete(c, "rpcbench", "serve", "--max-c") == {"--max-connections"}, "serve's own")
    check(complete(c, "rpcbench", "record", "--tls-") == {"--tls-cert", "--tls-key", "--tls-ca"},
          "record's own: %r" % complete(c, "rpcbench", "record", "--tls-"))
    # an option with a free value offers no option names after it
    check(not complete(c, "rpcbench", "run", "--rate", "--"), "after --rate")


def test_verbs_offered_are_accepted():
    """Every --verb value the completion offers is one run takes."""
    c = os.path.join(ROOT, "build/rpcbench.bash-completion")
    if not os.path.exists(c):
        make("build")
    for verb in sorted(complete(c, "rpcbench", "run", "--verb", "")):
        extra = ["--vm-id", "00000000-0000-0000-0000-000000000001"] if verb == "getVmStats" else []
        r = bounded([os.path.join(ROOT, "rpcbench"), "run", "--verb", verb, "-R", "20",
                     "-d", "300ms", "--warmup", "0s", "--quiet"] + extra, 60)
        check(r.returncode in (0, 3) and "unknown" not in r.stderr,
              "run --verb %s: rc %d %s" % (verb, r.returncode, r.stderr[-300:]))


def dpkg_field(deb, field):
    r = bounded(["dpkg-deb", "-f", deb, field], 30)
    return r.stdout.strip()


def test_deb_package():
    if SAN:  # dpkg-buildpackage builds its own optimised binary, not this build's
        skip("a sanitizer build: the package builds the plain binary, as the plain suite's run did")
    for tool in ("dpkg-buildpackage", "dh", "lintian"):
        need_package(shutil.which(tool), tool, "dpkg-dev, debhelper and lintian")
    # a directory of this flavor's: the plain and the sanitizer suite of
    # one checkout may build the package at once
    out = make("deb", "DEB_DIR=build/deb-%s" % ("san" if SAN else "rel"), timeout=600)
    debs = [l for l in out.split() if l.endswith(".deb") and "dbgsym" not in l]
    check(len(debs) == 1, "make deb made: %r" % out[-500:])
    deb = os.path.join(ROOT, debs[0])
    r = bounded(["dpkg-deb", "-c", deb], 30)
    files = {l.split()[-1].lstrip(".") for l in r.stdout.splitlines() if not l.startswith("d")}
    man = tuple("/usr/share/man/man%s/%s.%s.gz" % (s, p, s)
                for s, p in pages(os.path.join(ROOT, "rpcbench")))
    for f in ("/usr/bin/rpcbench", "/usr/share/bash-completion/completions/rpcbench",
              "/usr/share/doc/rpcbench/copyright", "/usr/share/doc/rpcbench/docs/files.md.gz") + man:
        check(f in files, "not in the .deb: %s (it has %r)" % (f, sorted(files)))
    depends = dpkg_field(deb, "Depends")
    for lib in ("libev4", "libjson-c5", "libssl3", "libxmlrpc-core-c3", "libhttp-parser2.9"):
        check(lib in depends, "Depends lacks %s: %r" % (lib, depends))
    check(dpkg_field(deb, "Recommends") == "linux-perf",
          "Recommends: %r" % dpkg_field(deb, "Recommends"))
    version = dpkg_field(deb, "Version")
    changelog = open(os.path.join(ROOT, "debian/changelog")).readline()
    check("(%s)" % version in changelog, "version %s, changelog %r" % (version, changelog))
    r = bounded([os.path.join(ROOT, "rpcbench"), "--version"], 10)
    check(r.stdout.startswith("rpcbench %s" % version), "binary %r, package %s" % (r.stdout, version))
    r = bounded(["lintian", "--fail-on", "error", "--display-level", ">=warning", deb], 300)
    check(r.returncode == 0, "lintian: %s%s" % (r.stdout, r.stderr))


if __name__ == "__main__":
    main([test_install_and_uninstall, test_man_page_reads,
          test_completion_offers_options_and_values, test_verbs_offered_are_accepted,
          test_deb_package])
