#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later
# Ordinary users benchmark and recover like root; output is never lost or
# misplaced: closed standard descriptors, a full output file, and workers
# under -u that keep none of root's descriptors.
. "$(dirname "$0")/lib.sh"
read -r -a cache <<<"$(cache_args)"
d=$T/dir; mkdir "$d"

if is_root && id nobody >/dev/null 2>&1; then
	chmod 711 "$T"; mkdir -m 777 "$T/pub"
	# nobody's default state directory is what these runs check.
	asnobody() { env -u ARRAYBENCH_STATE_DIR su nobody -s /bin/sh -c "$*"; }
	abn=$(ab_for_others nobody)
	# nobody's home does not exist: the journal goes to /var/tmp, a
	# directory every run as nobody on the machine shares, so only this
	# run's journal counts, and the directory goes only if it is empty.
	state=/var/tmp/arraybench-state.$(id -u nobody)
	[ -e "$state" ] || cleanup_add "rmdir $state"
	asnobody "'$abn' run -d '$T/pub' -s 0 -n 1 --json '$T/pub/n.json' -q" >/dev/null 2>"$T/n.err"
	is $? 0 "su nobody: a -d run exits 0"
	is "$(python3 -c "import json;print(json.load(open('$T/pub/n.json'))['cache']['mode'])")" fadvise \
		"nobody's default cache mode is fadvise"
	is "$(ls -A "$T/pub" | grep -v n.json)" "" "nothing is left in DIR"
	# kill -9 mid-phase (once it has made files), then nobody's own cleanup.
	rid=nobody-$$
	asnobody "ARRAYBENCH_RUN_ID=$rid exec '$abn' run -d '$T/pub' -s 0 -n 8:-1 -b" >/dev/null 2>"$T/k.err" &
	pid=$!
	await "[ -n \"\$(find '$T/pub' -path '*/files/*' -print -quit)\" ] || ended $pid" ||
		unseen "the run as nobody made no file: $(tail -2 "$T/k.err")"
	kill9 "$(run_pid "$pid")"; wait $pid 2>/dev/null
	[ -n "$(ls -A "$T/pub" | grep -v n.json)" ]; ok $? "kill -9 left nobody's test files"
	[ -e "$state/journal-$rid" ]; ok $? "and a journal in $state"
	asnobody "'$abn' cleanup" >"$T/c.out" 2>&1
	is $? 0 "su nobody: cleanup exits 0"
	is "$(ls -A "$T/pub" | grep -v n.json)" "" "and removes the test files"
	[ ! -e "$state/journal-$rid" ]; ok $? "and the journal"
	# The table says what fadvise cannot promise.
	asnobody "'$abn' run -d '$T/pub' -s 32m -r 0 -n 0 -f --phases block-read" >"$T/t.out" 2>&1
	grep -q "(fadvise: the test file's pages are written back and evicted" "$T/t.out"; ok $? "the table states fadvise's limits"
	# Fewer processes allowed than seekers: the forks fail, and the run
	# says so and ends (it once waited forever for workers never forked).
	timeout -k 5 $HANG_AFTER env -u ARRAYBENCH_STATE_DIR su nobody -s /bin/sh -c "exec prlimit --nproc=40 -- '$abn' run -d '$T/pub' -s 16m -r 0 -n 0 -f \
		--phases seeks --seekers 200 --seeks 5000" >/dev/null 2>"$T/fork.err"
	is "$? $(grep -c '^arraybench: error: ' "$T/fork.err")" "3 1" "seekers beyond the process limit: exit 3 with one error, not a hang"
	grep -q "^arraybench: error: cannot fork worker [0-9]* of 200: Resource temporarily unavailable" "$T/fork.err"
	ok $? "the error names the fork that failed"
	is "$(ls -A "$T/pub" | grep -v n.json)" "" "and nothing is left"
else
	skip "needs root and the user nobody"
fi

# Closed standard output: /dev/null holds its place, so nothing meant for it
# (the CSV line) can land in the journal; a run killed mid-phase is still
# cleaned up.
export ARRAYBENCH_STATE_DIR=$T/state
"$AB" run -d "$d" -s 64m -f64 -r 16 --cache none -n 0 --phases per-char-write >&- 2>"$T/x.err" &
pid=$!
# (64 MiB of one-byte writes last a minute: once the phase is said to
# run, it is running when the test looks and kills)
await "grep -q \"phase 'per-char-write'\" '$T/x.err' || ended $pid" || unseen "the run never started per-char-write"
is "$(readlink "/proc/$pid/fd/1")" /dev/null "with stdout closed at start, fd 1 is /dev/null"
kill9 $pid
journal=$(ls "$ARRAYBENCH_STATE_DIR"/journal-* 2>/dev/null)
[ -n "$journal" ] && ! grep -q '^1\.98,' "$journal"; ok $? "the journal holds no CSV line"
"$AB" cleanup >"$T/c.out" 2>&1
is $? 0 "cleanup of that run exits 0"
is "$(ls -A "$d" "$ARRAYBENCH_STATE_DIR" | grep -v ':$' | grep .)" "" "and leaves nothing"
"$AB" run -d "$d" -s 0 -n 1 -q <&- >&- 2>&-
is "$? $(ls -A "$d")" "5 " "a run with stdin, stdout and stderr closed: its results went nowhere, exit 5, nothing left"
"$AB" run -d "$d" -s 0 -n 1 -q --csv "$T/closed.csv" >&- 2>"$T/closed.err"
is "$? $(grep -c '^1\.98,' "$T/closed.csv")" "5 1" "stdout closed, --csv FILE: exit 5, the line is whole in FILE"
grep -q "cannot write the results to 'standard output': .*; they are whole in '$T/closed.csv'" "$T/closed.err"
ok $? "and the error says where the results are"

# The run id is in the results, so they lead to the journal and objects.
ARRAYBENCH_RUN_ID=json-$$ "$AB" run -d "$d" -s 0 -n 1 --json "$T/id.json" >"$T/id.out" 2>&1
is "$(python3 -c "import json;print(json.load(open('$T/id.json'))['run_id'])")" "json-$$" "JSON records the run id"
grep -q "  id json-$$\$" "$T/id.out"; ok $? "so does the table"

# A value that looks like -fSIZE is a value when an option takes it.
(cd "$T" && "$AB" run -d "$d" -s 0 -n 1 -q --csv -fx.csv >/dev/null 2>&1)
[ -s "$T/-fx.csv" ]; ok $? "--csv -fx.csv writes to the file '-fx.csv'"
# Other commands report a failed standard output too.
"$AB" list >/dev/full 2>"$T/list.err"
is $? 5 "list into /dev/full: exit 5"
# (a pipe whose reader is gone before cleanup writes: "| true" might still read)
status=$(python3 -c 'import os, subprocess, sys
r, w = os.pipe(); os.close(r)
print(subprocess.run([sys.argv[1], "cleanup"], stdout=w, stderr=subprocess.DEVNULL).returncode)' "$AB")
is "$status" 5 "cleanup into a closed pipe says so (exit 5), not killed by SIGPIPE"

# A DIR so deep that the run's names would pass PATH_MAX: cleanup could not
# reach them by path after a crash, so it is refused up front.
deep=$T; for i in $(seq 20); do deep=$deep/$(printf '%0200d' "$i"); done; mkdir -p "$deep"
"$AB" run -d "$deep" -s 0 -n 1 -q >/dev/null 2>"$T/deep.err"
is $? 1 "a DIR too deep for the run's names to fit PATH_MAX: exit 1"

# --dry-run for -d: the same checks, the plan with each undo, nothing made.
"$AB" run -d "$d" -s 0 -n 1 --dry-run >"$T/plan" 2>&1
is $? 0 "-d --dry-run exits 0"
grep -q "^  mkdir $d/arraybench\.[0-9]*-[0-9]*-[0-9a-f]*\$" "$T/plan" && grep -q "undo: remove-test-files $d/arraybench\." "$T/plan"
ok $? "it prints the test directory it would make, with its undo"
"$AB" run -d "$T/missing" -s 0 -n 1 --dry-run >/dev/null 2>&1
is $? 1 "-d --dry-run checks the directory"
dir_is_empty "$d" && [ ! -e "$ARRAYBENCH_STATE_DIR" ] || [ -z "$(ls -A "$ARRAYBENCH_STATE_DIR")" ]
ok $? "and touches nothing"

# Results that cannot be written: their own exit status, naming what was.
"$AB" run -d "$d" -s 0 -n 1 -q --json /dev/full >"$T/o.csv" 2>"$T/full.err"
is $? 5 "--json /dev/full: exit 5"
grep -q "cannot write the results to '/dev/full': No space left on device; they are whole in 'standard output'" \
	"$T/full.err"; ok $? "saying which output failed and which holds the run"
is "$(grep -c '^1\.98,' "$T/o.csv")" 1 "standard output has the CSV line"
dir_is_empty "$d"; ok $? "nothing is left in DIR"

# Workers under -u keep none of root's descriptors.
if is_root && id nobody >/dev/null 2>&1; then
	mkdir "$T/u"; chown nobody "$T/u"
	# The worker is held after its first one-byte write, its files open.
	rid=fds-$$
	ARRAYBENCH_RUN_ID=$rid hold -f "$T/u.trace" exit write 1 "$T/u/arraybench.$rid.io" \
		"$AB" run -d "$T/u" -s 32m -f1 -r 16 --cache none -n 0 --phases per-char-write -u nobody \
		--csv "$T/u.csv" --json "$T/u.json" >/dev/null 2>"$T/u.err"
	worker=
	hold_reached && worker=$(hold_pid)
	fds=$(for f in /proc/"$worker"/fd/*; do readlink "$f"; done | sort | tr '\n' ' ')
	owner=$(stat -c %U /proc/"$worker")
	hold_release
	wait $held
	is "$owner" nobody "the worker runs as nobody"
	case $fds in *u.csv* | *u.json* | *journal* | *"$ARRAYBENCH_STATE_DIR"*) bad=1 ;; *) bad=0 ;; esac
	[ -n "$fds" ] && [ $bad = 0 ]; ok $? "the worker holds no CSV, JSON, journal or state directory descriptor"
	[ -n "$fds" ] || diag "no worker seen"; [ $bad = 0 ] || diag "worker fds: $fds"
	is "$(echo "$fds" | wc -w)" 6 "only stdin, stdout, stderr, DIR, the run's directory and the test file ($fds)"
	# kill -9 of arraybench takes the worker along, though it changed its
	# user (which clears the death signal: it is set again after).
	# (200 MiB of one-byte writes: the phase lasts, so its worker is there)
	"$AB" run -d "$T/u" -s 64m -f200 -r 16 --cache none -n 0 --phases per-char-write -u nobody >/dev/null 2>"$T/u9.err" &
	pid=$!
	worker=
	await "grep -q \"phase 'per-char-write'\" '$T/u9.err' && worker=\$(procs -P $pid) && [ -n \"\$worker\" ] || ended $pid"
	kill -KILL $pid; wait $pid 2>/dev/null
	[ -n "$worker" ] && await "ended $worker"; ok $? "the -u worker (${worker:-none seen}) died with arraybench"
	[ -n "$worker" ] && ! ended "$worker" && kill -KILL "$worker"
	"$AB" cleanup >/dev/null 2>&1; is $? 0 "and cleanup then exits 0"
	# The -u user swaps the test file for a FIFO: root must not block on it.
	# The swap is made between the phases: the run is held as it syncs the
	# written file (fdatasync, then its eviction) before the read phase.
	ARRAYBENCH_RUN_ID=fifo-$$ hold "$T/fifo.trace" exit fdatasync 1 "$T/u/arraybench.fifo-$$.io" \
		"$AB" run -d "$T/u" -s 64m -f1 -r 16 --cache fadvise -n 0 \
		--phases per-char-write,per-char-read -u nobody >/dev/null 2>"$T/fifo.err"
	hold_reached && su nobody -s /bin/sh -c "cd '$T/u' && rm arraybench.fifo-$$.io && mkfifo arraybench.fifo-$$.io"
	ok $? "the test file was swapped for a FIFO between the write and the read phase"
	hold_release
	await "ended $held" $HANG_AFTER || kill -KILL $held # a hang
	wait $held
	status=$?
	# The read phase finds no file of the size it reads and lays one out
	# (the user's own worker replaces the FIFO), or refuses it: no hang.
	[ $status = 0 ] || [ $status = 2 ]; ok $? "a FIFO in place of the test file does not hang the run (exit $status)"
	! grep -q "phase '.*' failed\|interrupted" "$T/fifo.err" || grep -q "not a regular file" "$T/fifo.err"
	ok $? "it either carries on or says the test file is not a regular file"
	# With -u, an output in a directory USER may write could be a symlink.
	echo secret >"$T/root-file"; ln -s "$T/root-file" "$T/u/results.csv"
	"$AB" run -d "$T/u" -u nobody --csv "$T/u/results.csv" -s 0 -n 1 -q >/dev/null 2>"$T/sym.err"
	is $? 4 "with -u, an output that is a symlink is refused: exit 4"
	is "$(cat "$T/root-file")" secret "and the file it points at is untouched"
else
	skip "-u needs root"
fi
done_testing
