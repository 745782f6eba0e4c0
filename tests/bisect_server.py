"""A tiny XML-RPC server: ping answers after DELAY seconds."""
import socketserver
import sys
import time
from xmlrpc.server import SimpleXMLRPCRequestHandler, SimpleXMLRPCServer

DELAY = 0.010


class Handler(SimpleXMLRPCRequestHandler):
    protocol_version = "HTTP/1.1"

    def log_message(self, *args):
        pass


class Server(socketserver.ThreadingMixIn, SimpleXMLRPCServer):
    daemon_threads = True


def ping():
    time.sleep(DELAY)
    return True


srv = Server(("127.0.0.1", 0), requestHandler=Handler, logRequests=False)
srv.register_function(ping)
print("listening on 127.0.0.1:%d" % srv.server_address[1], flush=True)
srv.serve_forever()
