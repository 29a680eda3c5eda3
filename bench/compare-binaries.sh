#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later
# Does a change cost the tool anything?  Two arraybench binaries, A (before)
# and B (after), run the same bonnie++ phases on one directory, in rounds
# with an A/A pair (B run a second time, as the tool B2) in every round as
# the noise floor.  The three runs of round R take bench/rounds.py's order R
# (a Williams design of three tools: six rounds, each run in each position
# twice, B before A in three of them; this machine hands freed memory back
# to its host, so whoever runs after a big free pays for it).  Writes
# orders.tsv (ROUND POSITION TOOL) and results.tsv (ROUND TOOL PHASE RATE)
# beside the JSON, and prints per phase, with rounds.format_row: the median
# of the per-round ratios B/A, min-max, the medians when B ran before /
# after A, the A/A median (B/B2), the floor (median |A/A - 1|) and the
# ORDER-BOUND mark; then the A/A pair by position.
#
# Usage: bench/compare-binaries.sh -a OLD -b NEW [-d DIR] [-r ROUNDS] [-- run options]
#   -a PATH   the binary before the change                      (required)
#   -b PATH   the binary after it                               [./arraybench]
#   -d DIR    where the runs write (kept only while running)    [/var/tmp]
#   -r N      rounds: a multiple of 6 balances the design (a warning otherwise) [6]
#   -o DIR    keep every run's JSON, orders.tsv and results.tsv there [a temporary directory]
#   -R        run nothing: report again from the JSON an earlier run kept in -o DIR
#             (its orders.tsv; a directory from before rounds.py: the six orders it used)
#   run options after --                                        [-s 512m -n 16 -r 0 --cache none -q]
# A full design of 6 rounds of `-s 512m -n 16` takes about 4.5 minutes here.
set -u
here=$(cd "$(dirname "$0")" && pwd)
die() { echo "compare-binaries: $*" >&2; exit 1; }
a= b=./arraybench dir=/var/tmp rounds=6 out= report_only=
while getopts a:b:d:r:o:R opt; do
	case $opt in
	a) a=$OPTARG ;; b) b=$OPTARG ;; d) dir=$OPTARG ;; r) rounds=$OPTARG ;; o) out=$OPTARG ;; R) report_only=1 ;;
	*) die "usage: -a OLD -b NEW [-d DIR] [-r ROUNDS] [-o DIR] [-R] [-- run options]" ;;
	esac
done
shift $((OPTIND - 1))
[ "${1:-}" = -- ] && shift
[ $# -gt 0 ] || set -- -s 512m -n 16 -r 0 --cache none -q
case $rounds in '' | *[!0-9]*) die "rounds '$rounds' is not a number" ;; esac
[ "$rounds" -ge 1 ] || die "rounds '$rounds' must be at least 1"
tools=(A B B2)
design=$(python3 "$here/rounds.py" length ${#tools[@]}) || die "cannot run $here/rounds.py"
if [ -n "$report_only" ]; then
	[ -n "$out" ] && [ -d "$out" ] || die "-R reads the runs an earlier run kept: give its -o DIR"
	if [ ! -s "$out/orders.tsv" ]; then
		# Kept before rounds.py: the six orders the script used then.
		legacy=("A B B2" "B B2 A" "B2 A B" "B A B2" "A B2 B" "B2 B A")
		for r in $(seq 1 "$rounds"); do
			p=0
			for who in ${legacy[$(((r - 1) % 6))]}; do
				p=$((p + 1))
				printf '%s\t%s\t%s\n' "$r" "$p" "$who"
			done
		done >"$out/orders.tsv"
		echo "# $out/orders.tsv written from the six orders the script used before rounds.py"
	fi
else
	[ $((rounds % design)) -eq 0 ] ||
		echo "compare-binaries: warning: $rounds rounds is not a multiple of $design (the design of A, B, B2): positions and orders are not balanced" >&2
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
	echo "# run options: $*; directory $dir; $rounds rounds in rounds.py's order; A/A = B against itself (B2)"
	: >"$out/orders.tsv"
	for r in $(seq 1 "$rounds"); do
		order=$(python3 "$here/rounds.py" order "$r" "${tools[@]}") || die "cannot run $here/rounds.py"
		p=0
		for who in $order; do
			p=$((p + 1))
			printf '%s\t%s\t%s\n' "$r" "$p" "$who" >>"$out/orders.tsv"
			bin=${who%2}
			"$work/$bin" run -d "$dir" "$@" --json "$out/$who.$r.json" >/dev/null 2>"$work/$who.$r.err" ||
				die "round $r, $who failed: $(tail -1 "$work/$who.$r.err")"
		done
		echo "# round $r done ($order)"
	done
fi
python3 - "$here" "$out" "$rounds" <<'EOF'
import json, os, sys
sys.dont_write_bytecode = True
sys.path.insert(0, sys.argv[1])
import rounds
out, n = sys.argv[2], int(sys.argv[3])
# results.tsv from the JSON: ROUND TOOL PHASE RATE, the phases in run order.
phases = []
with open(os.path.join(out, "results.tsv"), "w") as res:
    for r in range(1, n + 1):
        for who in ("A", "B", "B2"):
            path = os.path.join(out, "%s.%d.json" % (who, r))
            if not os.path.exists(path):
                continue
            for p in json.load(open(path))["phases"]:
                if p["name"] not in phases:
                    phases.append(p["name"])
                rate = p.get("rate")
                res.write("%d\t%s\t%s\t%s\n" % (r, who, p["name"], rate if rate else "NA"))
values = rounds.read_results(os.path.join(out, "results.tsv"))
positions = rounds.read_orders(os.path.join(out, "orders.tsv"))
positions = {k: v for k, v in positions.items() if k[0] <= n}
print(rounds.HEADER.replace("ab 1st", "B 1st ").replace("ab 2nd", "B 2nd "))
cs = []
for ph in phases:
    c = rounds.Comparison(values, positions, "B", "A", ph, "B2")
    cs.append(c)
    print(rounds.format_row(c, label="B/A"))
print("B 1st / B 2nd: median of the rounds where B ran before / after A; A/A: B against B2 (B run")
print("again) in the same rounds; floor: median |A/A - 1|; ORDER-BOUND: the two positions' medians")
print("differ by more than the floor; within floor: |B/A - 1| <= the floor")
for c in cs:
    print(rounds.aa_line(c))
EOF
