"""pcapwire: what the loopback wire carried, read from a tcpdump capture by
a parser of its own (the judge must not share rpcbench's code).

- Capture(port): tcpdump on lo for one TCP port, started and stopped (the
  capture file is complete once stop() returns);
- http_exchanges(path, port): every HTTP request the client wrote and every
  answer the server wrote, per connection, with the kernel's capture
  stamps (CLOCK_REALTIME, seconds): when a request's first byte went out,
  when an answer's last byte came, and whether the client was still there
  to read it (no FIN or RST from it before)."""
import os
import struct
import subprocess
import time

from rpctest import kill_group, spawn


class Capture:
    """tcpdump -i lo on one port into a pcap file, packet-buffered."""

    def __init__(self, port, path):
        self.path = path
        self.p = spawn(["tcpdump", "-i", "lo", "--immediate-mode", "-U", "-n", "-s", "0", "-w", path,
                        "tcp port %d" % port], stdout=subprocess.DEVNULL,
                       stderr=subprocess.PIPE)
        # tcpdump says "listening on lo" once its filter is in place
        deadline = time.monotonic() + 20
        line = b""
        while time.monotonic() < deadline and b"listening on" not in line:
            line = self.p.stderr.readline()
            if not line and self.p.poll() is not None:
                raise RuntimeError("tcpdump did not start")
        if b"listening on" not in line:
            kill_group(self.p)
            raise RuntimeError("tcpdump did not say it was listening")

    def stop(self):
        """Ends the capture: SIGINT flushes the file; bounded."""
        time.sleep(0.3)  # the last packets through the filter
        self.p.send_signal(2)
        try:
            self.p.wait(10)
        except subprocess.TimeoutExpired:
            pass
        kill_group(self.p)


def packets(path):
    """(stamp_s, src_port, dst_port, flags, seq, payload) of each IPv4 TCP
    packet of a pcap file (Ethernet or Linux cooked link layer)."""
    with open(path, "rb") as f:
        data = f.read()
    magic = struct.unpack("<I", data[:4])[0]
    endian, nano = {0xA1B2C3D4: ("<", False), 0xA1B23C4D: ("<", True),
                    0xD4C3B2A1: (">", False), 0x4D3CB2A1: (">", True)}[magic]
    link = struct.unpack(endian + "I", data[20:24])[0]
    at = 24
    while at + 16 <= len(data):
        sec, frac, incl, _ = struct.unpack(endian + "IIII", data[at:at + 16])
        at += 16
        frame = data[at:at + incl]
        at += incl
        stamp = sec + frac / (1e9 if nano else 1e6)
        off = 14 if link == 1 else 16 if link == 113 else 0
        if len(frame) < off + 20 or frame[off] >> 4 != 4:
            continue
        ihl = (frame[off] & 15) * 4
        total = struct.unpack(">H", frame[off + 2:off + 4])[0]
        if frame[off + 9] != 6:
            continue
        tcp = off + ihl
        sport, dport, seq = struct.unpack(">HHI", frame[tcp:tcp + 8])
        doff = (frame[tcp + 12] >> 4) * 4
        flags = frame[tcp + 13]
        payload = frame[tcp + doff:off + total]
        yield stamp, sport, dport, flags, seq, payload


FIN, RST = 1, 4


class Stream:
    """One direction of one connection: bytes in order, each byte's stamp
    known through the packet that carried it (retransmissions dropped)."""

    def __init__(self):
        self.next_seq = None
        self.buf = bytearray()
        self.marks = []  # (offset where a packet's bytes start, stamp)
        self.closed_at = None

    def add(self, stamp, flags, seq, payload):
        if payload:
            if self.next_seq is None:
                self.next_seq = seq
            if seq == self.next_seq:
                self.marks.append((len(self.buf), stamp))
                self.buf += payload
                self.next_seq = (seq + len(payload)) & 0xFFFFFFFF
        if flags & (FIN | RST) and self.closed_at is None:
            self.closed_at = stamp

    def stamp_of(self, offset):
        """The stamp of the packet that carried byte offset."""
        best = None
        for start, stamp in self.marks:
            if start > offset:
                break
            best = stamp
        return best


def _messages(buf, first):
    """(start, end) of each HTTP message in buf (head + Content-Length body)."""
    out, at = [], 0
    while True:
        i = buf.find(first, at)
        if i < 0:
            return out
        head_end = buf.find(b"\r\n\r\n", i)
        if head_end < 0:
            return out
        head = bytes(buf[i:head_end]).lower()
        length = 0
        for line in head.split(b"\r\n"):
            if line.startswith(b"content-length:"):
                length = int(line.split(b":", 1)[1])
        end = head_end + 4 + length
        if end > len(buf):
            return out
        out.append((i, end))
        at = end


def http_exchanges(path, port):
    """Per client connection (by its port): {"requests": [(first_byte_s,
    size)], "answers": [(last_byte_s, size, read)]}, answers in order,
    read: the client had not closed or reset before the answer was whole."""
    up, down = {}, {}
    for stamp, sport, dport, flags, seq, payload in packets(path):
        if dport == port:
            up.setdefault(sport, Stream()).add(stamp, flags, seq, payload)
        elif sport == port:
            down.setdefault(dport, Stream()).add(stamp, flags, seq, payload)
    conns = {}
    for cport, s in up.items():
        reqs = [(s.stamp_of(a), b - a) for a, b in _messages(s.buf, b"POST ")]
        d = down.get(cport, Stream())
        answers = []
        for a, b in _messages(d.buf, b"HTTP/1."):
            t = d.stamp_of(b - 1)
            answers.append((t, b - a, s.closed_at is None or t < s.closed_at))
        conns[cport] = {"requests": reqs, "answers": answers}
    return conns


def grid_counts(stamps, start_s, interval_s, n):
    """How many stamps fall in each of the n intervals of the grid from
    start_s (interval k: [start + k i, start + (k+1) i)); those after the
    last go to the last, as the run's drain does."""
    out = [0] * n
    for t in stamps:
        k = int((t - start_s) // interval_s)
        if 0 <= k:
            out[min(k, n - 1)] += 1
    return out


def near_edge(stamps, start_s, interval_s, k, slack_s):
    """How many stamps lie within slack_s of interval k's edges: where a
    clock's reading may put them on either side."""
    lo, hi = start_s + k * interval_s, start_s + (k + 1) * interval_s
    return sum(1 for t in stamps if abs(t - lo) <= slack_s or abs(t - hi) <= slack_s)


if __name__ == "__main__":  # a capture's summary, by hand
    import sys
    for c, x in http_exchanges(sys.argv[1], int(sys.argv[2])).items():
        print(c, len(x["requests"]), len(x["answers"]), os.path.basename(sys.argv[1]))
