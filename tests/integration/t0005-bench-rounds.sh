#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later
# bench/rounds.py, the ratio arithmetic every bench/ script reports with:
# the balanced design, per-position medians, the A/A floor and the
# order-bound mark, on made-up rounds where an order effect is planted.
. "$(dirname "$0")/lib.sh"
# Its made-up rounds go to files under $T (TMPDIR), removed with it.
TMPDIR=$T python3 "$top/tests/integration/bench-rounds-check.py" "$top" >"$T/checks" 2>"$T/err"
ok $? "the checker ran to its end" || sed 's/^/#   /' "$T/err"
while read -r word rest; do
	case $word in
	ok) ok 0 "$rest" ;;
	not) ok 1 "${rest#ok }" ;;
	esac
done <"$T/checks"
[ "$(grep -c '^ok\|^not ok' "$T/checks")" -ge 14 ]
ok $? "the checker made all its checks ($(grep -c '^ok\|^not ok' "$T/checks") lines)"
# The command line the shell scripts call.
is "$(python3 "$top/bench/rounds.py" order 2 A B C)" "B C A" "order 2 of three tools"
is "$(python3 "$top/bench/rounds.py" length 3):$(python3 "$top/bench/rounds.py" length 4)" "6:4" \
	"a full design: 6 rounds for three tools, 4 for four"
python3 "$top/bench/rounds.py" order 0 A B >/dev/null 2>&1
ok $((! $?)) "round 0 is refused"
printf '1\tarraybench\tseeks\tfast\n' >"$T/bad.tsv"
printf '1\t1\tarraybench\n' >"$T/orders.tsv"
err=$(python3 "$top/bench/rounds.py" report --orders "$T/orders.tsv" --results "$T/bad.tsv" --subject arraybench 2>&1)
is "$?:$err" "1:$T/bad.tsv:1: the value must be a number or NA, got 'fast'" "a value that is no number: one line naming the file, line and value"
err=$(python3 "$top/bench/rounds.py" report --orders "$T/orders.tsv" --results "$T/none.tsv" --subject arraybench 2>&1)
case $err in "rounds.py: cannot read '$T/"*) ok 0 "a file that cannot be read: one line naming it" ;; *) ok 1 "a file that cannot be read: one line naming it (got: $err)" ;; esac
# bench/limits-table.py: a figure is held against the rig's bound over its
# own timed region (the limit x (1 + (0.1 s + R/m) / T), qemu's bucket), so
# the same fraction of the limit is flagged over a long region and not over
# a short one.
lt() { # DIR FRACTION SECONDS: one raid0 level of 4 members at 10 MiB/s
	mkdir -p "$1"
	printf 'level=raid0 fs=xfs rounds=1 size_mib=256 ram_mib=64\nmembers=a,b,c,d\nlimits=%s\n' \
		"/dev/vda=10485760:200,/dev/vdb=10485760:200,/dev/vdc=10485760:200,/dev/vdd=10485760:200" >"$1/setup.txt"
	printf '1\tarraybench\tsweep-read-1m\t%s\n' "$(python3 -c "print(40960 * $2)")" >"$1/results.tsv"
	printf '1\tarraybench\tsweep-read-1m\t%s\n' "$3" >"$1/elapsed.tsv"
	python3 "$top/bench/limits-table.py" table "$1" 2>&1
}
out=$(lt "$T/lt-short" 1.025 6)
case $out in *"| sweep-read-1m | 40960 KiB/s | 1.025 |"*"| 1.025 | 1.000 | 1 |"*) ok 0 "limits-table: 1.025 of the limit over 6 s is 1.000 of the rig's bound" ;;
*) ok 1 "limits-table: 1.025 of the limit over 6 s is 1.000 of the rig's bound (got: $out)" ;; esac
case $out in *ABOVE*) ok 1 "limits-table: ... and not flagged" ;; *) ok 0 "limits-table: ... and not flagged" ;; esac
out=$(lt "$T/lt-long" 1.025 60)
case $out in *"ABOVE 1.02: raid0 xfs sweep-read-1m: arraybench reached 1.022 of the rig's bound (1 of 1 runs"*)
	ok 0 "limits-table: 1.025 of the limit over 60 s is flagged above 1.02 of the bound" ;;
*) ok 1 "limits-table: 1.025 of the limit over 60 s is flagged above 1.02 of the bound (got: $out)" ;; esac
done_testing
