#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0-or-later
# Checks the include rule of HACKING.md on a source tree (its root the
# argument): src/ is built in layers, each including only its own layer and
# those below it; workloads/, fs-setup/ and reports/ include of src/ only
# base/ and model/; no .c file but main.c sits at the top of src/; and no
# two files include each other in a circle (a file and its header count as
# one module, so a.c -> b.h and b.c -> a.h is a circle).  Prints one line per
# fault and exits 1 when there is any; prints what it read to stderr.
import os
import re
import sys

LAYERS = ['base', 'model', 'options', 'runner', 'suite', 'pipeline', 'matrix', 'cmd', 'mpi']
# Folders that sit at the level of another layer (either may include the
# other, without a circle): tune/ (many runs, as the matrix) beside matrix/.
BESIDE = {'tune': 'matrix'}
FOLDERS = ['src', 'workloads', 'fs-setup', 'reports']
root = sys.argv[1]
include = re.compile(r'^\s*#\s*include\s+"([^"]+)"', re.M)


def layer_of(path):
    """The rank of a src/ file's layer; main.c above them all; None elsewhere."""
    parts = path.split('/')
    if parts[0] != 'src':
        return None
    if len(parts) == 2:
        return len(LAYERS)  # main.c: the top
    name = BESIDE.get(parts[1], parts[1])
    return LAYERS.index(name) if name in LAYERS else -1


faults = []
edges = {}  # file -> set of files it includes (repository paths)
files = []
for folder in FOLDERS:
    for dirpath, _, names in os.walk(os.path.join(root, folder)):
        for n in sorted(names):
            if n.endswith(('.c', '.h')):
                files.append(os.path.relpath(os.path.join(dirpath, n), root))

for f in sorted(files):
    parts = f.split('/')
    if parts[0] == 'src':
        if len(parts) == 2 and f.endswith('.c') and f != 'src/main.c':
            faults.append('%s: a .c file at the top of src/ (only main.c sits there)' % f)
        if len(parts) > 2 and layer_of(f) == -1:
            faults.append('%s: src/%s/ is not a layer (%s)' % (f, parts[1], ' '.join(LAYERS)))
    with open(os.path.join(root, f), errors='replace') as fh:
        text = fh.read()
    for name in include.findall(text):
        target = os.path.normpath(os.path.join(os.path.dirname(f), name))
        if not os.path.exists(os.path.join(root, target)):
            continue  # generated, or found on the include path
        edges.setdefault(f, set()).add(target)
        mine, theirs = layer_of(f), layer_of(target)
        if theirs is None:
            continue
        if mine is None:
            if theirs > LAYERS.index('model'):
                faults.append('%s includes %s: %s/ may include only src/base/ and src/model/'
                              % (f, target, parts[0]))
        elif mine >= 0 and theirs > mine:
            faults.append('%s includes %s: a lower layer includes a higher one' % (f, target))

# Circles between modules (a path without its .c/.h).
module = lambda p: os.path.splitext(p)[0]
graph = {}
for f, targets in edges.items():
    for t in targets:
        if module(t) != module(f):
            graph.setdefault(module(f), set()).add(module(t))
state, stack, seen_cycles = {}, [], set()


def visit(m):
    state[m] = 1
    stack.append(m)
    for n in sorted(graph.get(m, ())):
        if state.get(n) == 1:
            cycle = stack[stack.index(n):]
            key = frozenset(cycle)
            if key not in seen_cycles:
                seen_cycles.add(key)
                faults.append('include circle: ' + ' -> '.join(cycle + [n]))
        elif n not in state:
            visit(n)
    stack.pop()
    state[m] = 2


sys.setrecursionlimit(10000)
for m in sorted(graph):
    if m not in state:
        visit(m)

print('%d files, %d includes read' % (len(files), sum(len(t) for t in edges.values())), file=sys.stderr)
for line in faults:
    print(line)
sys.exit(1 if faults else 0)
