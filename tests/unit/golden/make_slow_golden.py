#!/usr/bin/env python3
"""Generator of the slow_*.txt golden files of tests/unit/test_slow_output.c.

Run from the repository root:  python3 tests/unit/golden/make_slow_golden.py
An independent rendering of the events of the C test with the column
formats of BCC's tools/ext4slower.py (text and -j CSV: its % format
strings, Python 3 division, bytes decoded as UTF-8 with 'replace'), and of
this project's --json with Python's json module.  Unlike BCC, text and CSV
escape the control characters of comm and file names (C0, DEL, C1) as
\\xHH, a backslash as \\\\, and in CSV a comma as \\x2c.  The events
below must stay in step with tests/unit/test_slow_output.c.
"""
import json
import time

NOW = 1796237615          # the wall clock of the text lines (TZ=UTC)
OPS = ["read", "write", "open", "fsync"]
LETTERS = "RWOS"

# end_ns, delta_ns, pos, ret, tgid, tid, op, comm, name (None: unknown)
EVENTS = [
    (123456789012345, 10500000, 8192, 4096, 1234, 1234, 0, b"dd",
     b"file1.dat"),
    (123456799000000, 1005999, 5000, 1048576, 99999, 100001, 1,
     b"a-very-long-com", b"log with spaces"),
    (123456800000000, 123456789000, 0, 0, 1, 1, 2, b"bash",
     b"abcdefghijklmnopqrstuvwxyz012345"),
    (123456800000001, 999, 0, -5, 4194303, 4194303, 3, b"fsync-er", None),
    (123456800000002, 2500000, 1 << 40, -529, 77, 78, 1,
     b"\xc3\xa9\xe6\xbc\xa2\xe5\xad\x97-\xe6\xbc", b"caf\xe9.txt"),
    (123456800000003, 20000000, 1023, 100, 5, 5, 0, b"ctl\x01\x7f",
     b"q\"b\\s\n"),
    # A terminal's commands (ESC, and CSI as C1: U+009B), a line and a
    # field forged, a 0x9b byte alone (not UTF-8: U+FFFD, no escape).
    (123456800000004, 30000000, 0, 7, 66, 66, 1, b"\x1b[31mred,\ttab",
     b"x\xc2\x9b2J,1,R\r\n9\x9b"),
]


def esc(s, also=""):
    """Control characters (C0, DEL, C1) and also's as \\xHH; \\ doubled."""
    out = []
    for ch in s:
        o = ord(ch)
        if o < 0x20 or o == 0x7f or 0x80 <= o <= 0x9f or ch in also:
            out.append("\\x%02x" % o)
        elif ch == "\\":
            out.append("\\\\")
        else:
            out.append(ch)
    return "".join(out)


def text_line(e):
    end_ns, delta_ns, pos, ret, tgid, tid, op, comm, name = e
    delta_us = delta_ns // 1000
    size = ret & 0xffffffff
    fname = name.decode("utf-8", "replace") if name is not None else "[unknown]"
    # BCC's %-14.14s on the decoded name; each character then escaped.
    c = comm.decode("utf-8", "replace")[:14]
    return "%-8s %s %-6s %1s %-7s %-8d %7.2f %s" % (
        time.strftime("%H:%M:%S", time.gmtime(NOW)),
        esc(c) + " " * (14 - len(c)), tgid, LETTERS[op], size,
        pos / 1024, float(delta_us) / 1000, esc(fname))


def csv_line(e):
    end_ns, delta_ns, pos, ret, tgid, tid, op, comm, name = e
    fname = name.decode("utf-8", "replace") if name is not None else "[unknown]"
    return "%d,%s,%d,%s,%d,%d,%d,%s" % (
        end_ns // 1000, esc(comm.decode("utf-8", "replace"), ","), tgid,
        LETTERS[op], ret & 0xffffffff, pos, delta_ns // 1000,
        esc(fname, ","))


def json_line(e):
    end_ns, delta_ns, pos, ret, tgid, tid, op, comm, name = e
    obj = {
        "time": NOW, "end_ns": end_ns,
        "comm": comm.decode("utf-8", "replace"),
        "pid": tgid, "tid": tid, "op": OPS[op], "ret": ret, "offset": pos,
        "latency_ns": delta_ns,
        "file": name.decode("utf-8", "replace") if name is not None else None,
    }
    return json.dumps(obj, ensure_ascii=False, separators=(",", ":"))


def main():
    d = "tests/unit/golden/"
    header = "%-8s %-14s %-6s %1s %-7s %-8s %7s %s" % (
        "TIME", "COMM", "PID", "T", "BYTES", "OFF_KB", "LAT(ms)", "FILENAME")
    with open(d + "slow_text.txt", "w", encoding="utf-8") as f:
        f.write("Tracing ext4 operations slower than 10 ms\n")
        f.write(header + "\n")
        for e in EVENTS:
            f.write(text_line(e) + "\n")
    with open(d + "slow_text_all.txt", "w", encoding="utf-8") as f:
        f.write("Tracing ext4 operations\n")
        f.write(header + "\n")
    with open(d + "slow_csv.txt", "w", encoding="utf-8") as f:
        f.write("ENDTIME_us,TASK,PID,TYPE,BYTES,OFFSET_b,LATENCY_us,FILE\n")
        for e in EVENTS:
            f.write(csv_line(e) + "\n")
    with open(d + "slow_json.txt", "w", encoding="utf-8") as f:
        for e in EVENTS:
            f.write(json_line(e) + "\n")


main()
