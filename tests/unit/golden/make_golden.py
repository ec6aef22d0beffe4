#!/usr/bin/env python3
"""Generator of the report_*.txt golden files of tests/unit/test_report.c.

Run once from the repository root:  python3 tests/unit/golden/make_golden.py
It is an independent reimplementation of what BCC's ext4dist.py prints
(table.py's log2 histogram with Python 3's true division for the stars),
plus this project's extended line and Prometheus format written with exact
fractions.  The inputs below must stay in step with tests/unit/test_report.c.
"""
import time
from fractions import Fraction

OPS = ["read", "write", "open", "fsync", "getattr"]
ALL = 0x1f


def stars(val, val_max, width):
    # Star loop as in BCC: i counts while i <= width*val/val_max - 1.
    text = ""
    i = 0
    while True:
        if i > (width * val / val_max) - 1 or i > width - 1:
            break
        text += "*"
        i += 1
    return text


def log2_hist(vals, label):
    out = []
    idx_max = -1
    val_max = 0
    for i, v in enumerate(vals):
        if v > 0:
            idx_max = i
        if v > val_max:
            val_max = v
    if idx_max <= 32:
        header = "     %-19s : count     distribution"
        body = "%10d -> %-10d : %-8d |%-*s|"
        width = 40
    else:
        header = "               %-29s : count     distribution"
        body = "%20d -> %-20d : %-8d |%-*s|"
        width = 20
    if idx_max > 0:
        out.append(header % label)
    for i in range(1, idx_max + 1):
        low = (1 << i) >> 1
        high = (1 << i) - 1
        if low == high:
            low -= 1
        out.append(body % (low, high, vals[i], width,
                           stars(vals[i], val_max, width)))
    return out


def bounds(i):
    if i == 0:
        return 0, 0
    low, high = (1 << i) >> 1, (1 << i) - 1
    return (low - 1 if low == high else low), high


def milli(ns, den):
    # ns / den in thousandths, rounded half up, printed with 3 decimals
    q = (Fraction(ns * 1000, den) + Fraction(1, 2)).__floor__()
    return "%d.%03d" % (q // 1000, q % 1000)


def extended(h, ms):
    factor = 1000000 if ms else 1000
    unit = "msecs" if ms else "usecs"
    total = sum(h["slots"])
    if not total:
        return []
    s = "count %d, mean %s %s, max %s %s" % (
        total, milli(h["sum_ns"], total * factor), unit,
        milli(h["max_ns"], factor), unit)
    for p in (50, 90, 99):
        rank = -(-total * p // 100)
        seen = 0
        for i, v in enumerate(h["slots"]):
            seen += v
            if seen >= rank:
                break
        lo, hi = bounds(i)
        s += ", p%d in [%d, %d]" % (p, lo, hi)
    return [s]


def text(rep):
    lines = [""]
    if rep.get("show_time"):
        lines.append(time.strftime("%H:%M:%S:", time.gmtime(rep["when"])))
    label = "msecs" if rep.get("ms") else "usecs"
    for n, name in enumerate(OPS):
        h = rep["ops"].get(name)
        if not (rep.get("mask", ALL) >> n) & 1 or not h or not any(h["slots"]):
            continue
        lines.append("\noperation = '%s'" % name)
        lines += log2_hist(h["slots"], label)
        if rep.get("extended"):
            lines += extended(h, rep.get("ms"))
    return "\n".join(lines) + "\n"


def dec(frac):
    # exact decimal of a Fraction whose denominator divides 10^k
    s = ""
    ip = frac.numerator // frac.denominator
    rest = frac - ip
    while rest:
        rest *= 10
        d = rest.numerator // rest.denominator
        s += str(d)
        rest -= d
    return str(ip) + ("." + s if s else "")


def prom(rep):
    unit = Fraction(1, 1000) if rep.get("ms") else Fraction(1, 1000000)
    fs = rep.get("fs", "ext4")
    p = rep.get("metric", "ext4dist")
    m = p + "_latency_seconds"
    out = ["# HELP %s Latency of %s file operations." % (m, fs),
           "# TYPE %s histogram" % m]
    for n, name in enumerate(OPS):
        if not (rep.get("mask", ALL) >> n) & 1:
            continue
        h = rep["ops"].get(name, {"slots": [0] * 64, "sum_ns": 0,
                                  "max_ns": 0})
        lab = 'fs="%s",op="%s"' % (fs, name)
        for s in range(1, 64):
            cum = sum(h["slots"][:s + 1])
            out.append('%s_bucket{%s,le="%s"} %d'
                       % (m, lab, dec((1 << s) * unit), cum))
        total = sum(h["slots"])
        out.append('%s_bucket{%s,le="+Inf"} %d' % (m, lab, total))
        out.append('%s_sum{%s} %s'
                   % (m, lab, dec(Fraction(h["sum_ns"], 10 ** 9))))
        out.append('%s_count{%s} %d' % (m, lab, total))
    # Calls not in the histogram, and calls in flight.
    u = p + "_untimed_calls_total"
    out += ["# HELP %s %s calls not in the latency histogram, by reason."
            % (u, fs), "# TYPE %s counter" % u]
    for n, name in enumerate(OPS):
        if not (rep.get("mask", ALL) >> n) & 1:
            continue
        c = rep.get("untimed", {}).get(name, {})
        for reason in ("queued", "error", "missed", "stolen", "unseen"):
            out.append('%s{fs="%s",op="%s",reason="%s"} %d'
                       % (u, fs, name, reason, c.get(reason, 0)))
    g = p + "_calls_in_flight"
    out += ["# HELP %s %s calls entered and not yet returned." % (g, fs),
            "# TYPE %s gauge" % g]
    for n, name in enumerate(OPS):
        if (rep.get("mask", ALL) >> n) & 1:
            c = rep.get("untimed", {}).get(name, {})
            out.append('%s{fs="%s",op="%s"} %d'
                       % (g, fs, name, c.get("in_flight", 0)))
    return "\n".join(out) + "\n"


def hist(pairs, sum_ns=0, max_ns=0):
    slots = [0] * 64
    for i, v in pairs.items():
        slots[i] = v
    return {"slots": slots, "sum_ns": sum_ns, "max_ns": max_ns}


U64 = (1 << 64) - 1
V = 40 << 54
CASES = {
    "basic": dict(show_time=True, when=1700000000, ops={
        "read": hist({3: 5, 4: 120, 5: 33, 7: 2, 8: 1}),
        "write": hist({5: 10, 6: 1000, 7: 400, 10: 3, 11: 7}),
        "open": hist({1: 1, 2: 2}),
        "fsync": hist({12: 9, 15: 40, 20: 1}),
    }),
    "msecs": dict(ms=True, ops={
        "read": hist({1: 100, 2: 50, 3: 25, 4: 12, 5: 6, 6: 3, 7: 1}),
        "fsync": hist({3: 7}),
    }),
    "huge": dict(ops={
        "read": hist({1: U64, 2: U64 - 1, 3: 1 << 63, 4: 5000000000,
                      5: U64 - (1 << 11), 6: 1, 7: 0, 8: 1 << 32}),
        "write": hist({1: 1 << 32, 2: (1 << 32) - 1, 3: 107374182,
                       4: 107374183, 5: 3}),
    }),
    "stars": dict(ops={
        "read": hist({1: V, 2: (1 << 54) - 1, 3: (1 << 54) - 2,
                      4: (2 << 54) - 1, 5: (3 << 54) - 2,
                      6: (3 << 54) - 4, 7: (3 << 54) - 5,
                      8: (40 << 54) - 1, 9: 39 << 54}),
    }),
    "wide": dict(ops={
        "read": hist({1: 7, 33: 1}),
        "write": hist({40: 2, 62: 1, 63: 3}),
        "open": hist({32: 4, 2: 1}),
    }),
    "single": dict(ops={"read": hist({10: 1})}),
    "mask": dict(mask=(1 << 0) | (1 << 4), show_time=True, when=0, ops={
        "read": hist({0: 5}),
        "write": hist({3: 3}),
        "getattr": hist({2: 1, 4: 2}),
    }),
    "extended": dict(extended=True, ops={
        "read": hist({3: 5, 4: 120, 5: 33, 7: 2, 8: 1},
                     sum_ns=2345678, max_ns=200123),
        "fsync": hist({12: 9, 15: 40, 20: 1},
                      sum_ns=987654321987, max_ns=1000000000),
        "getattr": hist({1: 1}, sum_ns=1, max_ns=1),
    }),
    "extended_ms": dict(extended=True, ms=True, ops={
        "write": hist({1: 10, 2: 80, 3: 9, 10: 1},
                      sum_ns=123456789, max_ns=700000500),
    }),
}

if __name__ == "__main__":
    d = "tests/unit/golden/"
    for name, rep in CASES.items():
        with open(d + "report_%s.txt" % name, "w") as f:
            f.write(text(rep))
    with open(d + "report_prom.txt", "w") as f:
        f.write(prom(dict(mask=(1 << 0) | (1 << 3), ops={
            "read": hist({1: 2, 3: 5, 10: 1}, sum_ns=1234567890123),
            "write": hist({2: 9}, sum_ns=5),
        }, untimed={
            "read": dict(queued=4, error=3, missed=2, stolen=1, in_flight=6,
                         unseen=8),
            "fsync": dict(missed=U64, in_flight=7),
        })))
    # Two file systems in one exposition, each its own metric prefix.
    with open(d + "report_prom_two.txt", "w") as f:
        f.write(prom(dict(mask=1 << 3, ops={
            "fsync": hist({12: 3}, sum_ns=9000000),
        })) + prom(dict(fs="xfs", metric="xfsdist", mask=(1 << 0) | (1 << 1),
                        ops={"read": hist({4: 2}, sum_ns=20000)},
                        untimed={"write": dict(error=1)})))
    with open(d + "report_prom_ms.txt", "w") as f:
        f.write(prom(dict(ms=True, mask=1 << 2, ops={
            "open": hist({0: 1, 63: 2}, sum_ns=U64),
        })))
