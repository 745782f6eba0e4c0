"""A Python XML-RPC server with planted CPU costs, for the Python
sampler's test (tests/it_profile_python.py): run by Debian's
/usr/bin/python3 (CPython 3.11), stdlib xmlrpc.server on 127.0.0.1:0,
it prints "listening on 127.0.0.1:PORT". Each call of work() runs
planted_3ms (3 ms of this thread's CPU) then planted_1ms (1 ms): busy
loops on time.thread_time(), so the cost is CPU, whatever the machine's
load. On /jsonrpc it serves JSON-RPC 2.0: work() there is followed by
planted_json_encode (1 ms), a cost the XML-RPC calls never have. With
--threads each connection is served by a thread of its own
(socketserver.ThreadingMixIn), which ends with it."""
import json
import sys
import time
from socketserver import ThreadingMixIn
from xmlrpc.server import SimpleXMLRPCRequestHandler, SimpleXMLRPCServer


# Each planted function burns in its own frame (time.thread_time is C, no
# Python frame), so its cost is its self time as well as its total.
def planted_3ms():
    end = time.thread_time() + 0.003
    while time.thread_time() < end:
        pass


def planted_1ms():
    end = time.thread_time() + 0.001
    while time.thread_time() < end:
        pass


def planted_json_encode():
    end = time.thread_time() + 0.001
    while time.thread_time() < end:
        pass


def work(*args):
    planted_3ms()
    planted_1ms()
    return 1


class Handler(SimpleXMLRPCRequestHandler):
    """XML-RPC on /RPC2; JSON-RPC 2.0 on /jsonrpc, where each call also
    runs planted_json_encode (a cost only that encoding has)."""
    rpc_paths = ("/RPC2",)

    def do_POST(self):
        if self.path != "/jsonrpc":
            return super().do_POST()
        req = json.loads(self.rfile.read(int(self.headers["Content-Length"])))
        result = work()
        planted_json_encode()
        body = json.dumps({"jsonrpc": "2.0", "id": req.get("id"), "result": result}).encode()
        self.send_response(200)
        self.send_header("Content-Type", "application/json")
        self.send_header("Content-Length", str(len(body)))
        self.end_headers()
        self.wfile.write(body)
        return None

    def log_message(self, *args):
        pass


class ThreadingServer(ThreadingMixIn, SimpleXMLRPCServer):
    daemon_threads = True


def main():
    cls = ThreadingServer if "--threads" in sys.argv else SimpleXMLRPCServer
    srv = cls(("127.0.0.1", 0), requestHandler=Handler, logRequests=False)
    srv.register_function(work, "work")
    print("listening on 127.0.0.1:%d" % srv.server_address[1], flush=True)
    srv.serve_forever()


if __name__ == "__main__":
    main()
