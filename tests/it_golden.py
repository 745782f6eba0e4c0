#!/usr/bin/python3
"""it_golden: every text, CSV, JSON and JUnit output of saved results stays
byte for byte what it was (issue 25: outputs do not drift while the
report code is reorganised; a change on purpose updates the expected
files with GOLDEN_UPDATE=1 and says so in its commit).

tests/golden/in/ holds saved files made by real runs (run, compare, a grid
sweep, a capacity search); tests/golden/out/ what `report` and `compare`
render from them. The version line and the JSON's "rpcbench" field name
the build that rendered them, and a saved file's path names the checkout,
so they are compared without them."""
import json
import os
import re
import sys
import tempfile

sys.path.insert(0, os.path.dirname(__file__))
from rpctest import check, main, rpcbench  # noqa: E402

HERE = os.path.join(os.path.dirname(os.path.abspath(__file__)), "golden")
IN = os.path.join(HERE, "in")
OUT = os.path.join(HERE, "out")
UPDATE = os.environ.get("GOLDEN_UPDATE") == "1"


def cases():
    """(name, argv) of every rendering compared; a path "@X" is in/X."""
    c = []
    for fmt in ("text", "json", "csv", "csv-summary", "csv-buckets"):
        c.append(("run.%s" % fmt, ["report", "@run.json", "--format", fmt]))
    c.append(("run-merged.text", ["report", "@run.json", "@run.json"]))
    c.append(("run-threshold.text", ["report", "@run.json", "--threshold", "p99<5s,errors>0"]))
    for fmt in ("text", "json"):
        c.append(("cmp.%s" % fmt, ["compare", "@cmp.json", "--format", fmt]))
        c.append(("cmp-runs.%s" % fmt, ["compare", "@run.json", "@run.json", "--format", fmt]))
    for s in ("sweep", "cap"):
        for fmt in ("text", "csv"):
            c.append(("%s.%s" % (s, fmt), ["report", "@%s.json" % s, "--format", fmt]))
    return c


def normalise(text):
    """The build's version out (the first line's, and the JSON field's), and
    where the checkout is (a saved file's path as given)."""
    text = re.sub(r"^rpcbench \S+", "rpcbench VERSION", text, count=1)
    text = text.replace(IN + os.sep, "IN/")
    return re.sub(r'"rpcbench": "[^"]*"', '"rpcbench": "VERSION"', text)


def render(argv, junit=None):
    args = [os.path.join(IN, a[1:]) if a.startswith("@") else a for a in argv]
    if junit:
        args += ["--junit", junit]
    code, out, err = rpcbench(*args, timeout=60)
    return code, normalise(out), err


def same(name, got):
    path = os.path.join(OUT, name)
    if UPDATE:
        os.makedirs(OUT, exist_ok=True)
        with open(path, "w") as f:
            f.write(got)
        return
    with open(path) as f:
        want = f.read()
    if got != want:
        a, b = want.splitlines(), got.splitlines()
        k = next((i for i in range(min(len(a), len(b))) if a[i] != b[i]), min(len(a), len(b)))
        check(False, "%s differs from tests/golden/out/%s at line %d:\n  was: %r\n  now: %r"
              % (name, name, k + 1, a[k] if k < len(a) else None, b[k] if k < len(b) else None))


def test_renderings():
    for name, argv in cases():
        code, out, err = render(argv)
        want_code = 3 if name == "run-threshold.text" else 0  # errors>0 fails
        check(code == want_code, "%s: exit %d, want %d: %s" % (name, code, want_code, err[-500:]))
        if name.endswith(".json"):
            json.loads(out)  # a strict reader takes it
        same(name, out)


def test_junit():
    with tempfile.TemporaryDirectory() as d:
        path = os.path.join(d, "j.xml")
        code, _, err = render(["report", "@run.json", "--threshold", "p99<5s,errors>0"], junit=path)
        check(code == 3, "junit: exit %d: %s" % (code, err[-500:]))
        with open(path) as f:
            same("run.junit.xml", normalise(f.read()))


def censored_copy(d):
    """run.json with 20 more requests unfinished (10 of each verb), their
    waits censored from 1 ms on: every latency figure from there up is only
    a lower bound, marked in every table."""
    with open(os.path.join(IN, "run.json")) as f:
        r = json.load(f)
    r["requests"]["censored"] = 20
    r["requests"]["censored_min_us"] = 1000
    r["requests"]["unfinished"] += 20
    r["requests"]["sent"] += 20
    for v in r["verbs"].values():  # 10 of them each verb's
        v["censored"], v["censored_min_us"] = 10, 1000
        v["unfinished"] = v.get("unfinished", 0) + 10
        v["requests"] = v.get("requests", 0) + 10
    path = os.path.join(d, "censored.json")
    with open(path, "w") as f:
        json.dump(r, f)
    return path


def html_caption_after(page, head):
    """The unescaped <caption> of the table whose first head is head."""
    import html
    for m in re.finditer(r"<caption>(.*?)</caption>\s*<thead><tr><th[^>]*>([^<]*)<", page, re.S):
        if html.unescape(m.group(2)) == head:
            return html.unescape(m.group(1))
    return None


def test_bucket_table_one_document():
    """The VDSM bucket table is built once: the page's caption is the text's
    average/min/max line, lower-bound marks included (the page once showed
    censored figures without them)."""
    with tempfile.TemporaryDirectory() as d:
        for src in (os.path.join(IN, "run.json"), censored_copy(d)):
            page = os.path.join(d, "p.html")
            code, out, err = rpcbench("report", src, "--html", page, timeout=60)
            check(code == 0, "%s: exit %d: %s" % (src, code, err[-500:]))
            line = next(l for l in out.splitlines() if l.startswith("average="))
            with open(page) as f:
                cap = html_caption_after(f.read(), "response time")
            check(cap == line, "%s: page %r, text %r" % (os.path.basename(src), cap, line))
            if "censored" in src:
                check(line.count("\u2265") == 2, "censored: marks %r" % line)
                same("run-censored.text", normalise(out).replace(src, "IN/censored.json"))


if __name__ == "__main__":
    main([test_renderings, test_junit, test_bucket_table_one_document])
