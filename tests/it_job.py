"""it_job: --config FILE, a job file in the option table's grammar. A run
made from a job file is the run made from the same options on the command
line (the same saved configuration); the command line wins over the file;
compare and sweep take one too; the saved result records how the run was
asked for (secrets as ***) and the report says it; a bad file is a usage
error naming the file and the line, before anything is sent."""
import json
import os
import socket
import tempfile

from rpctest import check, main, rpcbench

JOB = """# a soak, as an engineer keeps it
[run]
rate = 20/s
duration = 0.5s
verb = list:3,ping:1
connections = 2
seed = 7
header = X-Trace: 7
user = alice:pw-J0b
threshold = p99<5s
quiet
"""
SAME = ["--rate", "20/s", "--duration", "0.5s", "--verb", "list:3,ping:1", "--connections", "2",
        "--seed", "7", "--header", "X-Trace: 7", "--user", "alice:pw-J0b",
        "--threshold", "p99<5s", "--quiet"]


def saved(d, name, *args):
    out = os.path.join(d, name)
    rc, stdout, err = rpcbench("run", *args, "--vms", "3", "--output", out, timeout=60)
    check(rc == 0, "rc %d: %s" % (rc, err))
    with open(out) as f:
        return json.load(f), stdout


def test_job_file_equals_command_line():
    with tempfile.TemporaryDirectory() as d:
        job = os.path.join(d, "soak.ini")
        with open(job, "w") as f:
            f.write(JOB)
        a, text = saved(d, "a.json", "--config", job)
        b, _ = saved(d, "b.json", *SAME)
        ca, cb = dict(a["config"]), dict(b["config"])
        for c in (ca, cb):
            c.pop("options", None), c.pop("job_file", None), c.pop("job_options", None)
        check(ca == cb, "job file %r\ncommand line %r" % (ca, cb))
        check(a["transport"]["auth"] == b["transport"]["auth"] == "--user alice:***",
              a["transport"])
        check(a["config"]["job_file"] == job and "--rate 20/s" in a["config"]["job_options"],
              a["config"])
        check("pw-J0b" not in json.dumps(a) + text, "a secret in the outputs")
        check("from %s: --rate 20/s" % job in text, "the report says how: %r" % text[:400])


def test_command_line_wins():
    with tempfile.TemporaryDirectory() as d:
        job = os.path.join(d, "j.ini")
        with open(job, "w") as f:
            f.write("rate = 20/s\nduration = 0.5s\nverb = ping\nheader = X-A: 1\n")
        r, _ = saved(d, "r.json", "--config", job, "--rate", "10", "-H", "X-B: 2", "--quiet")
        check(r["config"]["rate"] == 10 and r["config"]["duration_s"] == 0.5,
              "rate %r" % r["config"])
        check(r["transport"]["headers"] == "X-B: 2", "the command line's list only: %r"
              % r["transport"]["headers"])


def test_compare_and_sweep_take_it():
    with tempfile.TemporaryDirectory() as d:
        job = os.path.join(d, "j.ini")
        with open(job, "w") as f:
            f.write("duration = 0.3s\nrate = 10\nverb = ping\nvms = 3\nquiet = true\n")
        rc, out, err = rpcbench("compare", "--config", job, "--rounds", "2", "--format", "json",
                                timeout=60)
        check(rc == 0 and json.loads(out)["rounds"], "compare: rc %d %s" % (rc, err))
        rc, out, err = rpcbench("sweep", "--config", job, "-R", "5,10", timeout=60)
        check(rc == 0 and "2 cells" in out, "sweep: rc %d %s %s" % (rc, out, err))


def test_bad_files_send_nothing():
    ls = socket.socket()
    ls.bind(("127.0.0.1", 0))
    ls.listen(4)
    url = "http://127.0.0.1:%d/RPC2" % ls.getsockname()[1]
    with tempfile.TemporaryDirectory() as d:
        cases = (("rate = 5\nratee = 3\n", ":2: 'ratee' is no option of run"),
                 ("quiet = maybe\n", ":1: --quiet is a flag"),
                 ("rate\n", ":1: --rate needs '= value'"),
                 ("rate = fast\n", ":1: --rate: rate \"fast\""),
                 ("rounds = 3\n", ":1: --rounds: only for compare"),
                 ("user = nopass\n", ":1: --user: want USER:PASS"))
        for i, (text, says) in enumerate(cases):
            job = os.path.join(d, "bad%d.ini" % i)
            with open(job, "w") as f:
                f.write(text)
            rc, out, err = rpcbench("run", "-u", url, "--config", job, "-d", "1s")
            check(rc == 2 and job + says in err, "%r: rc %d %r" % (text, rc, err))
        rc, out, err = rpcbench("run", "-u", url, "--config", os.path.join(d, "none.ini"))
        check(rc == 2 and "--config" in err and "No such file" in err, err)
    ls.settimeout(0.2)
    try:
        ls.accept()
        check(False, "a bad job file still connected")
    except socket.timeout:
        pass
    ls.close()


if __name__ == "__main__":
    main([test_job_file_equals_command_line, test_command_line_wins, test_compare_and_sweep_take_it,
          test_bad_files_send_nothing])
