#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later
# Does a change cost the tool anything?  Two arraybench binaries, A (before)
# and B (after), run the same bonnie++ phases on one directory, in rounds
# whose order alternates (A then B, B then A, ...), with an A/A pair (B
# against itself) in every round as the noise floor.  Prints, per phase,
# the median of the per-round ratios B/A overall and per position, and the
# A/A floor's median distance from 1; a ratio whose distance from 1 exceeds
# the floor is marked.  The three runs of a round take the six orders in
# turn, so no binary always runs first (this machine hands freed memory
# back to its host: whoever runs after a big free pays for it).
#
# Usage: bench/compare-binaries.sh -a OLD -b NEW [-d DIR] [-r ROUNDS] [-- run options]
#   -a PATH   the binary before the change                      (required)
#   -b PATH   the binary after it                               [./arraybench]
#   -d DIR    where the runs write (kept only while running)    [/var/tmp]
#   -r N      rounds (>= 5 for a median worth reading)          [5]
#   -o DIR    keep every run's JSON there                       [a temporary directory]
#   -R        run nothing: report again from the JSON an earlier run kept in -o DIR
#   run options after --                                        [-s 512m -n 16 -r 0 --cache none -q]
set -u
die() { echo "compare-binaries: $*" >&2; exit 1; }
a= b=./arraybench dir=/var/tmp rounds=5 out= report_only=
while getopts a:b:d:r:o:R opt; do
	case $opt in
	a) a=$OPTARG ;; b) b=$OPTARG ;; d) dir=$OPTARG ;; r) rounds=$OPTARG ;; o) out=$OPTARG ;; R) report_only=1 ;;
	*) die "usage: -a OLD -b NEW [-d DIR] [-r ROUNDS] [-o DIR] [-- run options]" ;;
	esac
done
shift $((OPTIND - 1))
[ "${1:-}" = -- ] && shift
[ $# -gt 0 ] || set -- -s 512m -n 16 -r 0 --cache none -q
case $rounds in '' | *[!0-9]*) die "rounds '$rounds' is not a number" ;; esac
[ "$rounds" -ge 1 ] || die "rounds '$rounds' must be at least 1"
# The six orders of the three runs in turn (a Latin square over six
# rounds): each run takes each position equally often, and B runs before A
# in half the rounds.
orders=("A B B2" "B B2 A" "B2 A B" "B A B2" "A B2 B" "B2 B A")
if [ -n "$report_only" ]; then
	[ -n "$out" ] && [ -d "$out" ] || die "-R reads the runs an earlier run kept: give its -o DIR"
else
	[ -x "$a" ] || die "no binary at '$a' (-a)"
	[ -x "$b" ] || die "no binary at '$b' (-b)"
	[ -d "$dir" ] || die "no directory '$dir' (-d)"
	work=$(mktemp -d "${TMPDIR:-/tmp}/ab-binaries.XXXXXX") || die "cannot make a work directory"
	trap 'rm -rf "$work"' EXIT
	[ -n "$out" ] || out=$work/json
	mkdir -p "$out" || die "cannot make '$out'"
	# Copies, so a rebuild of the tree meanwhile changes nothing.
	cp "$a" "$work/A" && cp "$b" "$work/B" || die "cannot copy the binaries"
	echo "# A: $a (sha256 $(sha256sum "$a" | cut -c1-12))"
	echo "# B: $b (sha256 $(sha256sum "$b" | cut -c1-12))"
	echo "# run options: $*; directory $dir; $rounds rounds, orders rotating; A/A = B against itself"
	for r in $(seq 1 "$rounds"); do
		order=${orders[$(((r - 1) % 6))]}
		for who in $order; do
			bin=${who%2}
			"$work/$bin" run -d "$dir" "$@" --json "$out/$who.$r.json" >/dev/null 2>"$work/$who.$r.err" ||
				die "round $r, $who failed: $(tail -1 "$work/$who.$r.err")"
		done
		echo "# round $r done ($order)"
	done
fi
python3 - "$out" "$rounds" "${orders[@]}" <<'EOF'
import json, statistics, sys
out, rounds, orders = sys.argv[1], int(sys.argv[2]), sys.argv[3:]
def rates(path):
    o = json.load(open(path))
    return {p['name']: p['rate'] for p in o['phases'] if p.get('rate') is not None and p['rate'] > 0}
rows = {}
for r in range(1, rounds + 1):
    A, B, B2 = (rates('%s/%s.%d.json' % (out, w, r)) for w in ('A', 'B', 'B2'))
    for name in A:
        if name in B and name in B2:
            d = rows.setdefault(name, {'all': [], 'first': [], 'second': [], 'aa': []})
            ratio = B[name] / A[name]
            d['all'].append(ratio)
            o = orders[(r - 1) % len(orders)].split()
            d['first' if o.index('B') < o.index('A') else 'second'].append(ratio)
            d['aa'].append(B2[name] / B[name])
med = lambda xs: statistics.median(xs) if xs else float('nan')
print('%-16s %8s %10s %11s %9s %7s  %s' % ('phase', 'B/A', 'B before A', 'B after A', 'A/A', 'floor', 'verdict'))
for name, d in rows.items():
    floor = med([abs(x - 1) for x in d['aa']])
    m = med(d['all'])
    verdict = 'within the floor' if abs(m - 1) <= floor else 'beyond the floor'
    print('%-16s %8.3f %10.3f %11.3f %9.3f %7.3f  %s' % (name, m, med(d['first']), med(d['second']), med(d['aa']), floor,
                                                      verdict))
print('# A/A: the median of B/B ratios in the same rounds; the floor is the median of |A/A - 1|')
EOF
