"""HdrHistogram's compressed V2 encoding, decoded as its Java and C
libraries define it, for the tests that read rpcbench's .hlog files and
histograms (it_saved_outputs, it_merge, it_mpi)."""
import base64
import struct
import zlib

COMPRESSED_COOKIE = 0x1C849304  # low nibble: word size, masked off
PAYLOAD_COOKIE = 0x1C849303
HEADER_LEN = 40


def varint(b, i):
    """ZigZag LEB128 as HdrHistogram writes it (9th byte holds 8 bits)."""
    v = 0
    for k in range(9):
        byte = b[i + k]
        if k == 8:
            v |= byte << 56
            break
        v |= (byte & 0x7F) << (7 * k)
        if not byte & 0x80:
            break
    return (v >> 1) ^ -(v & 1), i + k + 1


def buckets(b64):
    """{bucket index: count} of a base64 compressed V2 histogram; raises
    ValueError on a wrong cookie."""
    raw = base64.b64decode(b64)
    cookie, length = struct.unpack(">II", raw[:8])
    if cookie & ~0xF0 != COMPRESSED_COOKIE:
        raise ValueError("compressed cookie %x" % cookie)
    payload = zlib.decompress(raw[8:8 + length])
    cookie, plen = struct.unpack(">II", payload[:8])
    if cookie & ~0xF0 != PAYLOAD_COOKIE:
        raise ValueError("payload cookie %x" % cookie)
    i, end, idx, out = HEADER_LEN, HEADER_LEN + plen, 0, {}
    while i < end:
        c, i = varint(payload, i)
        if c < 0:  # a run of -c empty buckets
            idx += -c
        else:
            if c:
                out[idx] = c
            idx += 1
    return out


def total(b64):
    """Total count of a base64 compressed V2 histogram."""
    return sum(buckets(b64).values())
