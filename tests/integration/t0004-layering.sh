#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later
# Which folder may include which (HACKING.md "Layers"): src/ is built in
# layers (base, model, options, runner, suite, pipeline, matrix with tune
# beside it, cmd, then main.c), each including only its own layer and
# those below; workloads/,
# fs-setup/ and reports/ read of src/ only base/ and model/; no two modules
# include each other in a circle.  Checked on what the compiler reads
# (headers of headers included) and on every file's own includes, and the
# checker is shown to fail on a tree that breaks each rule.
. "$(dirname "$0")/lib.sh"
# As -isystem, the libraries' headers are left out of gcc -MM's list.
cflags=$(pkg-config --cflags glib-2.0 libgtop-2.0 json-glib-1.0 blkid mount gsl 2>"$T/pc.err" | sed 's/-I/-isystem /g')
ok $? "pkg-config gives the libraries' flags (the observer of the checks below)"
deps() { # folder: every project header a file of that folder reads, "file: header" per line
	local f
	for f in "$top/$1"/*.c; do
		gcc -std=gnu11 $cflags -MM -MT x "$f" 2>>"$T/mm.err" | tr -d '\\' | tr ' ' '\n' | grep '\.h$' |
			python3 -c 'import os,sys
for l in sys.stdin: print(sys.argv[1] + ": " + os.path.relpath(os.path.normpath(l.strip()), sys.argv[2]))' \
				"$1/$(basename "$f")" "$top" || echo "$1/$(basename "$f"): gcc -MM failed"
	done
}
for d in reports workloads fs-setup; do deps $d >"$T/$d.deps"; done
# What a folder's files may read besides their own folder (an ERE over the
# header's path); anything else they read is listed.
bad() { grep -Ev ": ($1/|$2)" "$T/$1.deps"; }
is "$(bad reports 'src/(base|model)/|workloads/(phase|step|sweep|curve-math)\.h$')" "" \
	"reports/ reads the base and the results model of src/ and the phase facts: no config, runner or cache"
is "$(bad workloads 'src/base/')" "" \
	"workloads/ reads only src/base/ (small utilities), never the config"
is "$(bad fs-setup 'src/(base|model)/')" "" \
	"fs-setup/ reads only src/base/ and src/model/ (no runner, no phases)"
[ ! -s "$T/mm.err" ] && [ -s "$T/reports.deps" ] && [ -s "$T/fs-setup.deps" ]
ok $? "gcc -MM read every file" || sed 's/^/#   /' "$T/mm.err"

check=$top/tests/integration/include-layers.py
python3 "$check" "$top" >"$T/layers.out" 2>"$T/layers.err"
rc=$?
is "$rc:$(cat "$T/layers.out")" "0:" "src/ in layers, each including only those below it; no include circle"
grep -q '^[0-9][0-9]* files, [0-9][0-9]* includes read$' "$T/layers.err" && [ "$(cut -d' ' -f1 "$T/layers.err")" -gt 100 ]
ok $? "the layer check read the tree ($(cat "$T/layers.err"))"

# The checker on small trees that break one rule each: it must say so.
fake() { # name: a tree with one file per layer, each including the one below
	local d=$T/$1
	mkdir -p "$d/src/base" "$d/src/model" "$d/src/cmd" "$d/workloads" "$d/fs-setup" "$d/reports"
	printf '#include "low.h"\n' >"$d/src/model/mid.h"
	: >"$d/src/base/low.h"
	printf '#include "../model/mid.h"\n' >"$d/src/cmd/top.c"
	printf '#include "../src/base/low.h"\n' >"$d/reports/r.c"
	echo "$d"
}
d=$(fake up); printf '#include "../cmd/top.h"\n' >"$d/src/base/low.c"; : >"$d/src/cmd/top.h"
out=$(python3 "$check" "$d" 2>/dev/null); rc=$?
is "$rc:$out" "1:src/base/low.c includes src/cmd/top.h: a lower layer includes a higher one" \
	"the check fails on a lower layer that includes a higher one"
d=$(fake circle); printf '#include "b.h"\n' >"$d/src/model/a.c"; : >"$d/src/model/a.h"
printf '#include "a.h"\n' >"$d/src/model/b.c"; : >"$d/src/model/b.h"
out=$(python3 "$check" "$d" 2>/dev/null); rc=$?
is "$rc:$out" "1:include circle: src/model/a -> src/model/b -> src/model/a" \
	"the check fails on two modules that include each other (a.c reads b.h, b.c reads a.h)"
d=$(fake flat); : >"$d/src/stray.c"; printf '#include "../src/options/config.h"\n' >"$d/reports/r2.c"
mkdir -p "$d/src/options"; : >"$d/src/options/config.h"
out=$(python3 "$check" "$d" 2>/dev/null | sort); rc=$?
is "$out" "reports/r2.c includes src/options/config.h: reports/ may include only src/base/ and src/model/
src/stray.c: a .c file at the top of src/ (only main.c sits there)" \
	"the check fails on a .c file at the top of src/ and on reports/ reading a layer above the model"
d=$(fake beside); mkdir -p "$d/src/matrix" "$d/src/tune"
printf '#include "../matrix/m.h"\n' >"$d/src/tune/t.c"; : >"$d/src/matrix/m.h"
printf '#include "../tune/t2.h"\n' >"$d/src/matrix/m.c"; : >"$d/src/tune/t2.h"
printf '#include "../cmd/top.h"\n' >"$d/src/tune/up.c"; : >"$d/src/cmd/top.h"
out=$(python3 "$check" "$d" 2>/dev/null); rc=$?
is "$rc:$out" "1:src/tune/up.c includes src/cmd/top.h: a lower layer includes a higher one" \
	"src/tune/ sits beside src/matrix/ (each may include the other) and below src/cmd/"
done_testing
