"""Peers for tests/it_compare_fair.py (issue 41), standard library only,
each a JSON-RPC 2.0 server over keep-alive HTTP in its own process, which
prints "listening on 127.0.0.1:PORT" once it accepts (rpctest.Listening):

  verdictpeers.py good              answers every call at once
  verdictpeers.py failing [N M]     HTTP 500 on every Nth call (5), a truncated
                                    JSON answer on every Mth (7; 0 never; the
                                    35th of the defaults: a 500)
  verdictpeers.py burst FROM N      HTTP 500 on calls FROM .. FROM+N-1 only (a
                                    burst of failures, as a second of overload
                                    gives, in one round of one arm)
  verdictpeers.py drifting MS0 G    each call takes MS0 ms x G ** (seconds
                                    since the server started): a server
                                    whose cost grows steadily, by the same
                                    factor each second, so that every pair
                                    of runs the same time apart has the
                                    same ratio (compare judges log ratios)

The counts are per server (all connections), so the failing peer fails
1/5 + 1/7 - 1/35 = 31.4 % of the calls, whatever the connections."""
import http.server
import json
import socket
import sys
import threading
import time


class Handler(http.server.BaseHTTPRequestHandler):
    protocol_version = "HTTP/1.1"
    mode, ms0, growth, t0 = "good", 0.0, 1.0, 0.0
    every500, every_cut = 5, 7
    burst_from, burst_n = 0, 0
    lock, calls = threading.Lock(), 0

    def setup(self):
        super().setup()  # head and body in two writes: no Nagle wait between
        self.connection.setsockopt(socket.IPPROTO_TCP, socket.TCP_NODELAY, 1)

    def reply(self, status, body):
        self.send_response(status)
        self.send_header("Content-Type", "application/json")
        self.send_header("Content-Length", str(len(body)))
        self.end_headers()
        self.wfile.write(body)

    def do_POST(self):
        req = json.loads(self.rfile.read(int(self.headers["Content-Length"])))
        with Handler.lock:
            Handler.calls += 1
            n = Handler.calls
        if self.mode == "drifting":
            time.sleep(self.ms0 * self.growth ** (time.monotonic() - self.t0) / 1000)
        body = json.dumps({"jsonrpc": "2.0", "id": req.get("id"), "result": True}).encode()
        if self.mode == "burst" and self.burst_from <= n < self.burst_from + self.burst_n:
            return self.reply(500, b'{"error": "internal"}')
        if self.mode == "failing" and self.every500 and n % self.every500 == 0:
            return self.reply(500, b'{"error": "internal"}')
        if self.mode == "failing" and self.every_cut and n % self.every_cut == 0:
            return self.reply(200, body[:len(body) // 2])  # a whole HTTP answer, half a JSON
        self.reply(200, body)

    def log_message(self, *a):
        pass


def main():
    Handler.mode = sys.argv[1]
    if Handler.mode == "failing" and len(sys.argv) > 3:
        Handler.every500, Handler.every_cut = int(sys.argv[2]), int(sys.argv[3])
    if Handler.mode == "burst":
        Handler.burst_from, Handler.burst_n = int(sys.argv[2]), int(sys.argv[3])
    if Handler.mode == "drifting":
        Handler.ms0, Handler.growth = float(sys.argv[2]), float(sys.argv[3])
    srv = http.server.ThreadingHTTPServer(("127.0.0.1", 0), Handler)
    srv.daemon_threads = True
    Handler.t0 = time.monotonic()
    print("listening on 127.0.0.1:%d" % srv.server_address[1], flush=True)
    srv.serve_forever()


if __name__ == "__main__":
    main()
