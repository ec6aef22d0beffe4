#!/usr/bin/env python3
"""Comments that name code must name code that exists.

Every comment of the C, header and assembly files under src/, bpf/ and
include/ (at any depth) is read for the names of code it gives:

  call    a function written as a call, "foo()"
  struct  "struct foo", "union foo", "enum foo"
  word    a bare snake_case or UPPER_CASE identifier ("tracefs_sweep_only",
          "PATCH_SLOW_NS"): words with an underscore, which prose has not
  file    a file name or path, "tally.c", "loader/attach/attach.h",
          "docs/guide.md" (.c .h .S .sh .md .awk .py), or a folder of the
          tree, "src/loader/events/"

A header's comment that keeps it to some files, "for tracer.c and
tally.c only", must name every file of the program (src/, bpf/,
include/) that includes it; tests may look inside.

A name exists when the code of the tree has it: an identifier (or a word
of a string) outside comments in any C, header or assembly file of the
tree, a word outside comment lines of its shell, awk and Python scripts
and Makefile (but this lint's own files and its test, which name stale
names on purpose), or a tracked file's name without its extension (the
test_plan that tests/unit/test_plan.c builds); a file when a tracked path ends with it, at any depth; a
folder when a tracked path starts with it.  What comments name of other
projects' code (the kernel's functions, structs, fields and macros,
BCC's, libc's, zlib's) is in tests/lint/foreign-names.txt, each line saying
whose it is; our own names never go there.  An entry no comment names
any more is reported too, so the list stays short.  A path in the
kernel's source (arch/, fs/, kernel/, mm/, include/linux/...: folders this
tree does not have) is the kernel's without a line.

  tests/lint/comment_names.py [ROOT]
prints "FILE:LINE: ..." for each stale name, then one PASS or FAIL line;
exits 1 on a failure.  ROOT (default: the tree this script is in) is read
through git ls-files when it is a git work tree, else walked whole.
"""
import os
import re
import subprocess
import sys

COMMENTED = ('src/', 'bpf/', 'include/')
OWN = ('tests/lint/', 'tests/host/test_comment_names.sh')
C_FILES = ('.c', '.h', '.S')
SCRIPTS = ('.sh', '.awk', '.py')
FILE_RE = re.compile(
    r'(?<![\w./-])((?:[\w-]+/)*[\w-]+\.(?:c|h|S|sh|md|awk|py))(?![\w/])')
DIR_RE = re.compile(
    r'(?<![\w./-])((?:src|bpf|include|tests|tools|docs|man|packaging)/(?:[\w-]+/)*)'
    r'(?![\w-]|\.\w)')
# Paths in the kernel's source tree, which this tree has no folder of.
KERNEL_PATH_RE = re.compile(
    r'^(?:arch|fs|kernel|mm|net|scripts|include/linux|include/uapi)/')
CALL_RE = re.compile(r'(?<![\w.>-])([A-Za-z_]\w*)\(\)')
STRUCT_RE = re.compile(r'\b(?:struct|union|enum) ([A-Za-z_]\w*)')
WORD_RE = re.compile(
    r'(?<![\w./>-])([a-z][a-z0-9]*(?:_[a-z0-9]+)+|[A-Z][A-Z0-9]*(?:_[A-Z0-9]+)+)'
    r'(?![\w(]|\.[A-Za-z]|/)')
IDENT_RE = re.compile(r'[A-Za-z_]\w*')
ONLY_RE = re.compile(
    r'\b[Ff]or ((?:[\w./-]+\.[chS](?:, | and |, and ))*[\w./-]+\.[chS]) only\b')
INCLUDE_RE = re.compile(r'^[ \t]*#[ \t]*include[ \t]*"([^"]+)"', re.M)


def tracked(root):
    """Paths of the tree's files, relative to root."""
    try:
        out = subprocess.run(['git', '-C', root, 'ls-files', '-z'],
                             capture_output=True, check=True).stdout
        names = [n for n in out.decode().split('\0') if n]
        if names:
            return names
    except (OSError, subprocess.CalledProcessError):
        pass
    names = []
    for d, dirs, files in os.walk(root):
        dirs[:] = [x for x in dirs if x != '.git']
        for f in files:
            names.append(os.path.relpath(os.path.join(d, f), root))
    return names


def split_c(text):
    """(code, comments) of C text; comments as (line, text).  The code
    keeps its strings and gets a space for each comment."""
    code, comments = [], []
    i, n, line = 0, len(text), 1
    while i < n:
        c = text[i]
        if text.startswith('/*', i):
            j = text.find('*/', i + 2)
            j = n if j < 0 else j + 2
            comments.append((line, text[i:j]))
            line += text.count('\n', i, j)
            code.append(' ')
            i = j
        elif text.startswith('//', i):
            j = text.find('\n', i)
            j = n if j < 0 else j
            comments.append((line, text[i:j]))
            i = j
        elif c in '"\'':
            j = i + 1
            while j < n and text[j] != c and text[j] != '\n':
                j += 2 if text[j] == '\\' else 1
            code.append(text[i:j + 1])
            line += text.count('\n', i, j + 1)
            i = j + 1
        else:
            if c == '\n':
                line += 1
            code.append(c)
            i += 1
    return ''.join(code), comments


def foreign_names(path):
    """{name: line number} of the list; a missing list is empty."""
    names = {}
    try:
        with open(path, encoding='utf-8') as f:
            for no, line in enumerate(f, 1):
                line = line.strip()
                if line and not line.startswith('#'):
                    names[line.split()[0]] = no
    except FileNotFoundError:
        pass
    return names


def kernel_path(name, folders):
    """Whether name is a path of the kernel's source tree."""
    m = KERNEL_PATH_RE.match(name)
    return bool(m) and m.group(0) not in folders


def names_in(comment):
    """(kind, name) pairs a comment names."""
    found = []
    for m in FILE_RE.finditer(comment):
        found.append(('file', m.group(1)))
    for m in DIR_RE.finditer(comment):
        found.append(('folder', m.group(1)))
    for m in CALL_RE.finditer(comment):
        found.append(('call', m.group(1)))
    for m in STRUCT_RE.finditer(comment):
        found.append(('struct', m.group(1)))
    given = {name for kind, name in found}
    for m in WORD_RE.finditer(comment):
        if m.group(1) not in given:
            found.append(('word', m.group(1)))
    return found


def flat(comment):
    """A comment's words on one line, its leading stars and marks gone."""
    text = re.sub(r'^\s*(?:/\*+|\*+/?|//)?', '', comment, flags=re.M)
    return ' '.join(text.replace('*/', ' ').split())


def main():
    root = sys.argv[1] if len(sys.argv) > 1 else \
        os.path.join(os.path.dirname(os.path.abspath(__file__)), '..', '..')
    files = tracked(root)
    known = set()
    commented = []
    includers = {}
    for f in files:
        p = os.path.join(root, f)
        if not os.path.isfile(p):
            continue
        base = os.path.basename(f)
        if f.startswith(OWN):
            continue
        if f.endswith(C_FILES):
            with open(p, encoding='utf-8', errors='replace') as fh:
                code, comments = split_c(fh.read())
            known.update(IDENT_RE.findall(code))
            if f.startswith(COMMENTED):
                for inc in INCLUDE_RE.findall(code):
                    includers.setdefault(os.path.basename(inc), set()).add(f)
                commented.append((f, comments))
        elif f.endswith(SCRIPTS) or base == 'Makefile' or base.endswith('.mk'):
            with open(p, encoding='utf-8', errors='replace') as fh:
                for line in fh:
                    if not line.lstrip().startswith('#'):
                        known.update(IDENT_RE.findall(line))

    paths = set(files)
    # A file's name without its extension names what it builds: the unit
    # test test_plan of tests/unit/test_plan.c.
    known.update(os.path.splitext(os.path.basename(f))[0] for f in files)
    suffixes = set()
    folders = set()
    for f in files:
        parts = f.split('/')
        for i in range(len(parts)):
            suffixes.add('/'.join(parts[i:]))
        for i in range(1, len(parts)):
            folders.add('/'.join(parts[:i]) + '/')

    foreign_path = os.path.join(root, 'tests/lint/foreign-names.txt')
    foreign = foreign_names(foreign_path)
    used = set()
    stale = 0
    checked = 0
    for f, comments in sorted(commented):
        for line, text in comments:
            for kind, name in names_in(text):
                checked += 1
                if kind == 'file':
                    ok = name in paths or name in suffixes or \
                        kernel_path(name, folders)
                elif kind == 'folder':
                    ok = name in folders
                else:
                    ok = name in known
                if ok:
                    continue
                if name in foreign:
                    used.add(name)
                    continue
                at = line + text.count('\n', 0, text.find(name))
                what = {'call': 'the function', 'struct': 'the type',
                        'word': 'the name', 'file': 'the file',
                        'folder': 'the folder'}[kind]
                print('%s:%d: the comment names %s %s, which is nowhere in the '
                      'tree (our own: fix the comment; the kernel\'s or another '
                      'project\'s: tests/lint/foreign-names.txt)'
                      % (f, at, what, name))
                stale += 1
    for f, comments in sorted(commented):
        if not f.endswith('.h'):
            continue
        for line, text in comments:
            m = ONLY_RE.search(flat(text))
            if not m:
                continue
            named = {os.path.basename(n) for n in re.split(r',? and |, ', m.group(1))}
            missed = sorted(i for i in includers.get(os.path.basename(f), ())
                            if os.path.basename(i) not in named)
            checked += 1
            if missed:
                print('%s:%d: the comment keeps it "for %s only"; %s '
                      'include%s it too' % (f, line, m.group(1), ', '.join(missed),
                                            's' if len(missed) == 1 else ''))
                stale += 1
    unused = sorted(set(foreign) - used, key=lambda n: foreign[n])
    for name in unused:
        print('tests/lint/foreign-names.txt:%d: %s is named by no comment, or '
              'is in the tree: drop the line' % (foreign[name], name))
    if stale or unused:
        print('FAIL lint-comments: %d stale name(s) in comments, %d needless '
              'line(s) in tests/lint/foreign-names.txt' % (stale, len(unused)))
        return 1
    print('PASS lint-comments: %d names in the comments of %d files, each in '
          'the tree or another project\'s (%d listed)'
          % (checked, len(commented), len(foreign)))
    return 0


if __name__ == '__main__':
    sys.exit(main())
