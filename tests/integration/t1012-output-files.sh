#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later
# Every output file under one rule, and every run counted once.  No output
# is opened through a symbolic link, the user's own too (run --csv, --json,
# --sweep-csv, raw --json, report --html, the matrix's results files):
# exit 4, the file it points to untouched; the names of one's own
# descriptors (/dev/stdout, /dev/fd/N) and /dev/null still work.  Two
# outputs that are one file (one name however spelled, a hard link, one
# pipe) are refused before either is made.  report reads a run given twice
# (one file twice, one line twice in a file, a CSV line twice) once, with
# one warning: a file holding one run twice compares as n=1, and the CSV
# line of a JSON run read (run --json J --csv C) is that run.
. "$(dirname "$0")/lib.sh"
cd "$T" || exit 1
export ARRAYBENCH_STATE_DIR=$T/state
mkdir d
quick=(-d d -s 0 -n 1 -q)
sweep=(-d d -q --phases sweep --sweep-file-sizes 64k --sweep-records 64k --sweep-tests write)

# Symbolic links: one's own, to a file kept, or dangling.
ln -s "$T/mine" link; ln -s "$T/nowhere" dangling
for opt in --csv --json --sweep-csv; do
	case $opt in --sweep-csv) args=("${sweep[@]}") ;; *) args=("${quick[@]}") ;; esac
	echo keep >mine
	"$AB" run "${args[@]}" "$opt" link >/dev/null 2>err
	is "$? $(cat mine) $(cat err)" "4 keep arraybench: error: refusing $opt 'link': a symbolic link (name the file itself)" \
		"run $opt through one's own symbolic link: exit 4, one line, the file it points to untouched"
	"$AB" run "${args[@]}" "$opt" dangling >/dev/null 2>err
	[ $? = 4 ] && [ ! -e nowhere ] && grep -q "refusing $opt 'dangling': a symbolic link" err
	ok $? "run $opt through a dangling link: exit 4, nothing made where it points"
done
"$AB" run "${quick[@]}" --csv new.csv --json link >/dev/null 2>err
[ $? = 4 ] && [ ! -e new.csv ]; ok $? "checked before any output is opened: --csv's new file is not made"
echo keep >mine
"$AB" report --html link "$top/tests/fixtures/arraybench-run.json" >/dev/null 2>err
is "$? $(cat mine) $(cat err)" "4 keep arraybench: error: refusing to write the HTML report to 'link': a symbolic link (name the file itself)" \
	"report --html through one's own symbolic link: exit 4, the same rule"
dir_is_empty d; ok $? "the refused runs left nothing in DIR"

# What still works: devices, and the names of one's own descriptors.
"$AB" run "${quick[@]}" --csv /dev/null --json /dev/null >/dev/null 2>err
is "$?" 0 "--csv and --json /dev/null: exit 0"
"$AB" run "${quick[@]}" --json /dev/stdout >so.out 2>err
is "$? $(grep -c '^1\.98,' so.out) $(grep -c '^{"format":"arraybench-run"' so.out)" "0 1 1" \
	"--json /dev/stdout: the JSON line on standard output, after the CSV line"
"$AB" run "${quick[@]}" --json /dev/fd/3 3>fd3.json >/dev/null 2>err
is "$? $(grep -c '^{"format":"arraybench-run"' fd3.json)" "0 1" "--json /dev/fd/3: the JSON line in what descriptor 3 is"
# ... unless that descriptor was closed: main() holds /dev/null there, and
# the run went to it without a word (exit 0).  Refused before the run.
"$AB" run "${quick[@]}" --json /dev/stdout >&- 2>err
is "$? $(cat err)" "5 arraybench: error: refusing --json '/dev/stdout': standard output was closed when arraybench started (the results would be lost)" \
	"--json /dev/stdout with standard output closed: exit 5, one line"
"$AB" run "${quick[@]}" --csv /dev/fd/0 --json /proc/self/fd/1 <&- >/dev/null 2>err
is "$? $(grep -c "refusing --csv '/dev/fd/0': standard input was closed" err)" "5 1" "--csv /dev/fd/0 with standard input closed: the same"
"$AB" report --html /dev/stdout "$top/tests/fixtures/arraybench-run.json" >/dev/null 2>err
is "$? $(grep -c "invalid --html '/dev/stdout': the page goes to a regular file" err)" "1 1" \
	"report --html /dev/stdout: exit 1, the page goes to a regular file"

# Two outputs that are one file: refused before either is made.
"$AB" run "${quick[@]}" --csv F --json F >/dev/null 2>err
is "$? $(cat err) $(ls F 2>&1 | grep -c 'No such')" "1 arraybench: error: refusing --json 'F': it is the file of --csv 1" \
	"--csv F --json F: exit 1, one line, F not made"
"$AB" run "${quick[@]}" --csv F --json "$T/./F" >/dev/null 2>err
is "$? $(cat err)" "1 arraybench: error: refusing --json '$T/./F': it is the file of --csv" "the same name spelt otherwise too"
: >G; ln G H
"$AB" run "${quick[@]}" --csv G --json H >/dev/null 2>err
is "$? $(wc -c <G) $(cat err)" "1 0 arraybench: error: refusing --json 'H': it is the file of --csv" \
	"a hard link: exit 1, nothing written"
"$AB" run "${sweep[@]}" --json G --sweep-csv ./G >/dev/null 2>err
is "$? $(cat err)" "1 arraybench: error: refusing --sweep-csv './G': it is the file of --json" "--sweep-csv by another name too"
"$AB" run "${quick[@]}" --csv /dev/stdout --json /dev/fd/1 2>err | cat >pipe.out
is "${PIPESTATUS[0]} $(cat err)" "1 arraybench: error: refusing --json '/dev/fd/1': it is the file of --csv" \
	"one pipe by two names: refused as well"
dir_is_empty d; ok $? "and nothing is left in DIR"

# An append the disk takes part of (a file size limit here, SIGXFSZ
# ignored: a full disk alike) cuts the file back: no torn line.
"$AB" run "${quick[@]}" --json cut.json --csv cut.csv >/dev/null 2>&1
size=$(stat -c %s cut.json)
(trap '' XFSZ; ulimit -f $((size / 1024 + 4)); exec "$AB" run "${quick[@]}" --json cut.json) >/dev/null 2>cut.err
is "$? $(stat -c %s cut.json) $(grep -c "^arraybench: error: cannot write the results to 'cut.json': File too large; they are whole in 'standard output'$" cut.err)" \
	"5 $size 1" "a --json append cut short: exit 5, the file cut back to its whole line, one message"
"$AB" run "${quick[@]}" --json cut.json >/dev/null 2>&1
"$AB" report cut.json >/dev/null 2>cut2.err
is "$? $(wc -l <cut.json) $(wc -c <cut2.err)" "0 2 0" "the next run's line follows it: report reads both, no warning"

# The append's lock: any reader of the file may hold one, so it is waited
# for a while (5 s), not for ever.
: >locked.json
# (the holder keeps the lock until it is killed, however long the run takes)
python3 -c 'import fcntl, signal, sys
f = open(sys.argv[1])
fcntl.flock(f, fcntl.LOCK_EX)
print("locked", flush=True)
signal.pause()' locked.json >holder.out & holder=$!
kill_at_exit $holder
await "[ -s holder.out ] || ended $holder" || unseen "the holder never took the lock"
timeout $HANG_AFTER "$AB" run "${quick[@]}" --json locked.json >/dev/null 2>&1
is "$? $(wc -l <locked.json)" "0 1" "a lock another process holds on --json: the run goes in after a while, not never"
kill $holder

# One run read twice counts once.  Two repeats share a run id and stay two.
"$AB" run -d d -s 8m -r 0 -f -n 0 --seeks 2000 --cache none -x 2 --json r.json --csv r.csv -q >/dev/null 2>err
is "$? $(wc -l <r.json) $(wc -l <r.csv)" "0 2 2" "a run of 2 repeats wrote 2 JSON and 2 CSV lines"
n_of() { # report --compare's CSV: n of block-write and seeks
	python3 -c 'import csv, sys
print(" ".join(r["n"] for r in csv.DictReader(open(sys.argv[1])) if r["column"] in ("block-write", "seeks")))' "$1"
}
head -1 r.json >one.json; head -1 r.json >>one.json
"$AB" report --compare one.json >one.txt 2>one.err
is "$? $(head -1 one.txt | cut -d';' -f1)" "0 comparison of 1 group (1 run)" "a file holding one run twice compares one run"
"$AB" report --compare --format csv one.json >one.csv 2>/dev/null
is "$(n_of one.csv)" "1 1" "... n=1 for block-write and seeks (was 2, CV 0.0)"
is "$(cat one.err)" "arraybench: warning: 1 run read again was dropped: each run counts once (the first at 'one.json:2'; a run is known by its run id, repeat and cell, a line without a run id by its text, a JSON run's CSV line as that run)" \
	"... and one warning says so"
"$AB" report --compare --format csv r.json r.json >rr.csv 2>rr.err
is "$(n_of rr.csv) $(grep -c 'warning' rr.err) $(grep -c '2 runs read again were dropped' rr.err)" "2 2 1 1" \
	"report --compare R R: n=2 (the two repeats), one warning for the 2 dropped"
"$AB" report --compare r.csv r.csv >cc.txt 2>cc.err
is "$(head -1 cc.txt | cut -d';' -f1) $(grep -c '2 runs read again were dropped' cc.err)" "comparison of 1 group (2 runs) 1" \
	"CSV lines (no run id) are known by their text: the same file twice is 2 runs, not 4"
# run --json J --csv C wrote one run twice: its CSV line is the JSON run's.
runs_of() { # report --compare's CSV: the runs of block-write's group (n counts only the measured)
	python3 -c 'import csv, sys
print(" ".join(r["runs"] for r in csv.DictReader(open(sys.argv[1])) if r["column"] == "block-write"))' "$1"
}
"$AB" report --compare --format csv r.json r.csv >jc.csv 2>jc.err
is "$(runs_of jc.csv) $(grep -c 'warning' jc.err) $(grep -c "2 runs read again were dropped: each run counts once (the first at 'r.csv:1'" jc.err)" \
	"2 1 1" "report --compare J C of one run's --json and --csv: 2 runs (the two repeats, was 4), one warning"
"$AB" report --compare --format csv r.json >j.csv 2>/dev/null
"$AB" report --compare --format csv r.csv r.json >cj.csv 2>cj.err
is "$(runs_of cj.csv) $(cut -d, -f11 cj.csv | sort -u | tr '\n' ' ')" "2 $(cut -d, -f11 j.csv | sort -u | tr '\n' ' ')" \
	"report --compare C J: 2 runs too, grouped as the JSON runs are (they are kept)"
"$AB" report --html jc.html r.csv r.json >/dev/null 2>jch.err
is "$? $(grep -c '2 runs read again were dropped' jch.err)" "0 1" "--html over both: the same, one warning"
"$AB" report --format json r.json r.json >plain.json 2>/dev/null
is "$(wc -l <plain.json)" 2 "the plain formats print each run once"
"$AB" report --html p.html one.json >/dev/null 2>h.err
is "$? $(grep -c '1 run read again was dropped' h.err)" "0 1" "so does --html"

# raw --json and the matrix's files: the same rule (root and loop devices).
if is_root && [ -e /dev/loop-control ]; then
	echo keep >mine
	truncate -s 16M raw.img
	dev=$(losetup --find --show raw.img) && cleanup_add "losetup -d $dev"
	"$AB" raw --device "$dev" --bytes 8m --json link >/dev/null 2>err
	is "$? $(cat mine) $(cat err)" "4 keep arraybench: error: refusing --json 'link': a symbolic link (name the file itself)" \
		"raw --json through a symbolic link: exit 4, the file untouched"
	"$AB" raw --device "$dev" --bytes 8m --json dangling >/dev/null 2>err
	[ $? = 4 ] && [ ! -e nowhere ]; ok $? "raw --json through a dangling link: exit 4, nothing made"
	"$AB" raw --device "$dev" --bytes 8m --json /dev/stdout >raw.out 2>err
	is "$? $(grep -c '^{"format":"arraybench-run"' raw.out)" "0 1" "raw --json /dev/stdout still works"
	mkdir -p tmp
	cat >m.ini <<-EOF
	[matrix]
	loop = 1:64m
	levels = none
	fs = ext4
	repeats = 1
	options = -s 8m -n 0 -f --phases block-write -r 0 --cache none
	EOF
	TMPDIR=$T/tmp "$AB" matrix -q -o M m.ini >/dev/null 2>m.err
	is "$? $(wc -l <M/results.jsonl 2>&1) $(grep -c '"failure":null' M/results.jsonl)" "0 1 1" "a one-visit matrix ran"
	for f in results.csv results.jsonl; do
		echo keep >mine
		cp "M/$f" saved && rm "M/$f" && ln -s "$T/mine" "M/$f"
		TMPDIR=$T/tmp "$AB" matrix -q -o M m.ini >/dev/null 2>m.err
		[ $? = 4 ] && [ "$(cat mine)" = keep ] && grep -q "'$T/M/$f'.*symbolic link" m.err
		ok $? "the matrix's $f as a symbolic link: exit 4, the file it points to untouched"
		rm "M/$f" && mv saved "M/$f"
	done
	# A results directory others may rename in: they could swap the
	# matrix's files (results.csv over results.jsonl) or take them away.
	chmod 777 M
	TMPDIR=$T/tmp "$AB" matrix -q -o M m.ini >/dev/null 2>m.err
	is "$? $(cat m.err)" "4 arraybench: error: refusing results directory '$T/M': others may rename in it (mode 0777, not sticky): chmod go-w it, or give another -o DIR" \
		"a results directory others may write to: exit 4, one line"
	chmod 1777 M
	TMPDIR=$T/tmp "$AB" matrix -q -o M m.ini >/dev/null 2>m.err
	is "$?" 0 "sticky (as /tmp), it is taken: others cannot rename the matrix's files"
	chmod 755 M
	is "$(loops "$T/tmp/")$(mounts "$T/")" "" "nothing of the matrix is attached or mounted"
else
	skip "raw and matrix need root and loop devices"
fi
done_testing
