"""A stdlib XML-RPC server whose CPU cost is known, for tests/it_cpu.py:
`ping` burns CALL_MS of its thread's CPU time per call, and a background
thread burns IDLE_PCT % of a core whatever the load (IDLE_PCT/100 * 20 ms of
CPU time in every 20 ms), as a server with timers and periodic jobs does.
Both count CPU time (time.thread_time), not wall time, so a busy machine
slows them down without changing what they cost.

Usage: cpuserver.py CALL_MS IDLE_PCT [LIFETIME_S [SPIN_S]]. Prints "listening
on 127.0.0.1:PORT" once it accepts (rpctest.Listening), and exits by itself
after LIFETIME_S (default 60) so that nothing outlives a test. SPIN_S: a
thread spins flat out for the first SPIN_S seconds (default 0), as VDSM's
protocol detector does on a socket a client left half-closed: a server busy
with something else, not idle."""
import os
import sys
import threading
import time
from xmlrpc.server import SimpleXMLRPCRequestHandler, SimpleXMLRPCServer

PERIOD = 0.020


def burn(cpu_s):
    """Spins until this thread has used cpu_s more seconds of CPU."""
    end = time.thread_time() + cpu_s
    while time.thread_time() < end:
        pass


def burn_wall(seconds):
    """Spins for seconds of wall time (as much CPU as it gets)."""
    end = time.monotonic() + seconds
    while time.monotonic() < end:
        pass


def background(pct):
    """pct % of a core: a burst of CPU time in every PERIOD of wall time."""
    nxt = time.monotonic()
    while True:
        burn(PERIOD * pct / 100)
        nxt += PERIOD
        now = time.monotonic()
        if nxt < now:  # starved: start a new period, owe nothing
            nxt = now
        time.sleep(nxt - now)


class Quiet(SimpleXMLRPCRequestHandler):
    def log_message(self, *args):
        pass


def main():
    call_ms, idle_pct = float(sys.argv[1]), float(sys.argv[2])
    lifetime = float(sys.argv[3]) if len(sys.argv) > 3 else 60
    spin = float(sys.argv[4]) if len(sys.argv) > 4 else 0
    sys.setswitchinterval(0.001)  # the burner and the calls share the GIL finely
    srv = SimpleXMLRPCServer(("127.0.0.1", 0), requestHandler=Quiet, logRequests=False)

    def ping():
        burn(call_ms / 1000)
        return {"status": {"code": 0, "message": "Done"}}

    srv.register_function(ping, "ping")
    if idle_pct > 0:
        threading.Thread(target=background, args=(idle_pct,), daemon=True).start()
    if spin > 0:
        threading.Thread(target=lambda: burn_wall(spin), daemon=True).start()
    threading.Timer(lifetime, lambda: os._exit(0)).start()
    print("listening on 127.0.0.1:%d" % srv.server_address[1], flush=True)
    srv.serve_forever()


if __name__ == "__main__":
    main()
