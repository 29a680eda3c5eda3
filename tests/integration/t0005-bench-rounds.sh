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
done_testing
