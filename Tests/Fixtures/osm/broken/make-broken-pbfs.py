#!/usr/bin/env python3
"""Writes the hand-made broken PBF files next to this script (see Tests/Fixtures/SOURCES.md, osm/).
Each starts with the real OSMHeader blob of ../liechtenstein-2013-08-03.osm.pbf, so that a reader gets past
the header before it meets the fault."""
import os, struct, zlib

here = os.path.dirname(os.path.abspath(__file__))
extract = open(os.path.join(here, "..", "liechtenstein-2013-08-03.osm.pbf"), "rb").read()
header_length = struct.unpack(">I", extract[:4])[0]

def varint(n):
    out = b""
    while True:
        byte = n & 0x7F
        n >>= 7
        if n:
            out += bytes([byte | 0x80])
        else:
            return out + bytes([byte])

def field(number, wire, payload):
    key = varint(number << 3 | wire)
    return key + (varint(payload) if wire == 0 else varint(len(payload)) + payload)

def blob_header(kind, datasize):
    return field(1, 2, kind) + field(3, 0, datasize)

def first_blob():
    """The extract's OSMHeader blob, whole."""
    header = extract[4:4 + header_length]
    # datasize is field 3 of the BlobHeader: read it by walking the header's fields
    i, datasize = 0, None
    while i < len(header):
        key = header[i]; i += 1
        if key == 0x0A:
            n = header[i]; i += 1 + n
        elif key == 0x18:
            shift = value = 0
            while True:
                b = header[i]; i += 1
                value |= (b & 0x7F) << shift; shift += 7
                if not b & 0x80: break
            datasize = value
        else:
            raise SystemExit("unexpected BlobHeader field %x" % key)
    return extract[:4 + header_length + datasize]

def frame(header, blob):
    return struct.pack(">I", len(header)) + header + blob

def write(name, data):
    with open(os.path.join(here, name), "wb") as f:
        f.write(data)

start = first_blob()
# A BlobHeader length of 2 GB (the format allows 64 KB).
write("blob-header-length-2gb.osm.pbf", start + struct.pack(">I", 0x80000000) + b"\x0a\x07OSMData")
# A BlobHeader that says its blob is 2 GB - 1 long (the format allows 32 MB), then a few bytes.
write("blob-size-2gb.osm.pbf", start + frame(blob_header(b"OSMData", 0x7FFFFFFF), b"\x10\x01\x1a\x01\x00"))
# A zlib bomb: a data blob that claims 32 MB uncompressed (the most the format allows) and inflates to 64 MB.
bomb = zlib.compress(bytes(64 << 20), 9)
blob = field(2, 0, 32 << 20) + field(3, 2, bomb)
write("zlib-bomb.osm.pbf", start + frame(blob_header(b"OSMData", len(blob)), blob))
# A data blob claiming 2 GB uncompressed, with a little zlib data.
small = zlib.compress(bytes(1024))
blob = field(2, 0, 0x7FFFFFFF) + field(3, 2, small)
write("raw-size-2gb.osm.pbf", start + frame(blob_header(b"OSMData", len(blob)), blob))
