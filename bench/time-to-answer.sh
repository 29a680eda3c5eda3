#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later
# bench/time-to-answer.sh: how long until a storage engineer has a full row of
# numbers?  On one directory, one after the other (this is a wall-clock
# answer, not a ratio; each run is minutes long, so one round each):
#   readme    arraybench run -d DIR -s 2g -r 512 -f8 -n 1024   (README's first run)
#   bonnie++  bonnie++ -d DIR -u root                           (its own defaults:
#             a file of twice the RAM, 16 x 1024 files)
#   demo      make demo (the built-in default target; root only, optional with -D)
# For each: the wall time, and which of the bonnie++ CSV's result columns it
# filled with a number, with +++++ (phase too short to time) or left empty.
# Both tools write the same 50-field CSV line, so one parser reads both.
#
# Options:
#   -d DIR    an existing directory on the file system to measure   [/var/tmp]
#   -b PATH   arraybench binary                                     [../arraybench]
#   -o DIR    keep the CSV lines, logs and the report there         [a temporary directory]
#   -B        skip bonnie++ (it writes twice the RAM: 48 GiB here)
#   -D        also time `make demo` from the tree of -b
#   -h        this help
set -u -o pipefail
here=$(cd "$(dirname "$0")" && pwd)
dir=/var/tmp ab=$here/../arraybench keep="" skip_bonnie="" demo=""
prog=time-to-answer.sh
usage() { sed -n '/^# Options/,/^#   -h/p' "$0" | sed 's/^# \{0,1\}//'; }
bad() { echo "$prog: $*" >&2; exit 2; }
while getopts ":d:b:o:BDh" opt; do
	case $opt in
	d) dir=$OPTARG ;; b) ab=$OPTARG ;; o) keep=$OPTARG ;; B) skip_bonnie=1 ;; D) demo=1 ;;
	h) usage; exit 0 ;;
	:) bad "option -$OPTARG needs a value (-h for help)" ;;
	*) bad "unknown option -$OPTARG (-h for help)" ;;
	esac
done
shift $((OPTIND - 1))
[ $# -eq 0 ] || bad "unexpected argument '$1' (-h for help)"
[ -d "$dir" ] || bad "no directory '$dir' (-d)"
[ -x "$ab" ] || bad "no arraybench binary at '$ab' (-b)"
[ -n "$skip_bonnie" ] || command -v bonnie++ >/dev/null || bad "missing bonnie++ (apt-get install bonnie++), or -B"
[ "$(id -u)" = 0 ] || [ -n "$skip_bonnie" ] || bad "bonnie++ -u root needs root (or -B)"

work=$(mktemp -d "$dir/ab-tta.XXXXXX") || bad "cannot make a directory in '$dir'"
trap 'rm -rf "$work"' EXIT
trap 'exit 130' INT TERM
if [ -n "$keep" ]; then mkdir -p "$keep" || bad "cannot make '$keep'"; out=$keep; else out=$work/out; mkdir "$out"; fi

# timed NAME CMD...: runs CMD with its stdout in NAME.out, notes the wall time.
timed() {
	local name=$1 t0 t1 st
	shift
	echo "$prog: $(date +%H:%M:%S) $name: $*" >&2
	t0=$(date +%s.%N)
	"$@" >"$out/$name.out" 2>"$out/$name.err"
	st=$?
	t1=$(date +%s.%N)
	printf '%s\t%s\t%s\n' "$name" "$(python3 -c "print(round($t1-$t0,1))")" "$st" >>"$out/wall.tsv"
	return 0
}
: >"$out/wall.tsv"
mkdir "$work/run"
timed readme "$ab" run -d "$work/run" -s 2g -r 512 -f8 -n 1024 -q
rm -rf "$work/run" && mkdir "$work/run"
[ -n "$skip_bonnie" ] || timed bonnie++ bonnie++ -d "$work/run" -u root -q
rm -rf "$work/run"
if [ -n "$demo" ]; then
	timed demo make -C "$(dirname "$ab")" --no-print-directory demo
	grep -h '^1\.98,' "$out/demo.out" >"$out/demo.csvline" 2>/dev/null
fi

python3 - "$out" <<'EOF'
import os, sys
out = sys.argv[1]
cols = {9: "putc", 11: "put_block", 13: "rewrite", 15: "getc", 17: "get_block", 19: "seeks",
        26: "seq_create", 28: "seq_stat", 30: "seq_del", 32: "ran_create", 34: "ran_stat", 36: "ran_del"}
print("%-9s %9s %6s  %-24s %s" % ("run", "wall s", "status", "file size, files", "columns: number / +++++ / empty"))
for line in open(os.path.join(out, "wall.tsv")):
    name, wall, st = line.split()
    csv = [l for l in open(os.path.join(out, name + ".out")) if l.startswith("1.98,")]
    if not csv:
        print("%-9s %9s %6s  no CSV line" % (name, wall, st))
        continue
    f = csv[-1].rstrip("\n").split(",")
    num = [n for i, n in sorted(cols.items()) if f[i] and not f[i].startswith("+")]
    plus = [n for i, n in sorted(cols.items()) if f[i].startswith("+")]
    empty = [n for i, n in sorted(cols.items()) if not f[i]]
    print("%-9s %9s %6s  %-24s %s / %s / %s" % (name, wall, st, "%s, %sx1024" % (f[5] or "-", f[21] or "0"),
          " ".join(num) or "-", " ".join(plus) or "-", " ".join(empty) or "-"))
EOF
