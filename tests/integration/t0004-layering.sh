#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later
# Which folder may include which (HACKING.md), checked on what the compiler
# reads, headers of headers included: data moves one way, and nothing in
# reports/, workloads/ or fs-setup/ reaches the live config.
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
is "$(bad reports 'src/(run|units|histogram|error|stats|backend-list|raid-level)\.h$|workloads/(phase|step|sweep|curve-math)\.h$')" "" \
	"reports/ reads the results model, the statistics, the phase facts, the backend list and the level words: no config, runner or cache"
is "$(bad workloads 'src/(histogram|timing|rng|units)\.h$')" "" \
	"workloads/ reads only small utilities of src/, never config.h"
is "$(bad fs-setup 'src/(error|runid|parse|units|backend-list|raid-level)\.h$')" "" \
	"fs-setup/ reads only error, run id, parse, units, the backend list and the level words of src/ (no runner, no phases)"
[ ! -s "$T/mm.err" ] && [ -s "$T/reports.deps" ] && [ -s "$T/fs-setup.deps" ]
ok $? "gcc -MM read every file" || sed 's/^/#   /' "$T/mm.err"
done_testing
