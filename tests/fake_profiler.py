"""A stand-in profiler for --profiler's tests (it_profile.py): given PID,
SECONDS and OUT as rpcbench's {pid}, {seconds} and {out} make them, it
waits SECONDS (at most 30) as a sampling profiler would, then writes folded
stacks to OUT whose frames say what it was given, so the test can check the
placeholders: "main;pid_PID;secs_SECONDS;fake_hot 30" and a cold stack."""
import sys
import time

pid, seconds, out = sys.argv[1], int(sys.argv[2]), sys.argv[3]
time.sleep(min(seconds, 30))
with open(out, "w") as f:
    f.write("main;pid_%s;secs_%d;fake_hot 30\n" % (pid, seconds))
    f.write("main;pid_%s;secs_%d;fake_cold 10\n" % (pid, seconds))
    f.write("a line that is no stack\n")
