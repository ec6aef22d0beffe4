#!/usr/bin/env python3
"""No two files of src/ call into each other, however indirectly.

Reads what each object file of DIR (default build/src, made by make)
defines and uses, as nm(1) lists them, draws an arrow from a file to every
file whose symbols it uses, and fails on each circle of arrows, naming
the symbols that make each of its arrows.  Objects without a source under
src/ (left behind by a move) are not read.
"""
import collections
import os
import subprocess
import sys


def symbols(obj):
    defined, used = set(), set()
    out = subprocess.run(['nm', obj], capture_output=True, text=True,
                         check=True).stdout
    for line in out.splitlines():
        f = line.split()
        if len(f) == 3 and f[1] in 'TDBRC':
            defined.add(f[2])
        elif len(f) == 2 and f[0] == 'U':
            used.add(f[1])
    return defined, used


def circles(graph):
    """Tarjan: the strongly connected parts of more than one file."""
    index, low, stack, on, found = {}, {}, [], set(), []
    counter = [0]

    def visit(v):
        index[v] = low[v] = counter[0]
        counter[0] += 1
        stack.append(v)
        on.add(v)
        for w in sorted(graph[v]):
            if w not in index:
                visit(w)
                low[v] = min(low[v], low[w])
            elif w in on:
                low[v] = min(low[v], index[w])
        if low[v] == index[v]:
            part = []
            while True:
                w = stack.pop()
                on.discard(w)
                part.append(w)
                if w == v:
                    break
            if len(part) > 1:
                found.append(sorted(part))

    for v in sorted(graph):
        if v not in index:
            visit(v)
    return found


def main():
    top = sys.argv[1] if len(sys.argv) > 1 else 'build/src'
    srcdir = sys.argv[2] if len(sys.argv) > 2 else 'src'
    objs = []
    for root, _, files in os.walk(top):
        for name in files:
            if not name.endswith('.o'):
                continue
            rel = os.path.relpath(os.path.join(root, name), top)
            if os.path.exists(os.path.join(srcdir, rel[:-2] + '.c')):
                objs.append(rel)
    if not objs:
        print(f'FAIL link-cycles: no object of {srcdir}/ in {top} (run make first)')
        return 1
    defs, uses = {}, {}
    for rel in objs:
        d, u = symbols(os.path.join(top, rel))
        uses[rel] = u
        for s in d:
            defs[s] = rel
    graph = {o: {defs[s] for s in uses[o] if s in defs and defs[s] != o}
             for o in objs}
    bad = circles(graph)
    for part in bad:
        print('FAIL link-cycles: ' + ' '.join(p[:-2] + '.c' for p in part)
              + ' call into each other:')
        for a in part:
            for b in sorted(graph[a] & set(part)):
                names = sorted(s for s in uses[a] if defs.get(s) == b)
                print(f'  {a[:-2]}.c -> {b[:-2]}.c: {", ".join(names)}')
    if bad:
        return 1
    print(f'PASS link-cycles: {len(objs)} files of {srcdir}/, no two calling into each other')
    return 0


if __name__ == '__main__':
    sys.exit(main())
