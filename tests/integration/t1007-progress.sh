#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later
# The progress line: live on a terminal (under script(1), which gives the
# run a pty), one line per finished phase off a terminal, none with -q; the
# table and the CSV line come through whole either way.
. "$(dirname "$0")/lib.sh"
d=$T/dir; mkdir "$d"
read -r -a cache <<<"$(cache_args)"
# Seeks grow until a pass lasts 1 s: at least one phase is long enough to
# be drawn with its figures (every 0.5 s).
args=(-d "$d" -s 32m -n 1 "${cache[@]}")

# What a terminal would show once LOG has been played on it: \r returns to
# column 0, ESC[K erases to the end of the line, anything else overwrites.
render() { # log
	python3 - "$1" <<'PY'
import sys
data = open(sys.argv[1], 'rb').read().decode('utf-8', 'replace')
for raw in data.split('\n'):
    line, col, i = [], 0, 0
    while i < len(raw):
        if raw.startswith('\x1b[K', i):
            del line[col:]; i += 3; continue
        c = raw[i]; i += 1
        if c == '\r':
            col = 0; continue
        if col < len(line):
            line[col] = c
        else:
            line.append(c)
        col += 1
    print(''.join(line))
PY
}
# The status lines drawn: each \r-started piece of LOG, escapes removed.
drawn() { # log
	tr '\r' '\n' <"$1" | sed 's/\x1b\[K//g' | grep -v '^$'
}

need script python3 || true
# On a terminal.
script -qfec "$(printf '%q ' "$AB" run "${args[@]}" --csv "$T/tty.csv")" "$T/tty.log" >/dev/null 2>&1
is $? 0 "a run under script (stderr a terminal) exits 0"
grep -q $'\r' "$T/tty.log" && grep -q $'\x1b\\[K' "$T/tty.log"; ok $? "the log holds lines rewritten with \\r and erase-to-end"
drawn "$T/tty.log" >"$T/tty.drawn"
grep -Eq '^(seeks|per-char-write|per-char-read)( again with [0-9]+ seeks)? [0-9]{1,3}% [0-9.]+ [A-Za-z/]+ \| [0-9]+:[0-9]{2} elapsed' "$T/tty.drawn"
ok $? "a status line shows a phase, its percent, its rate and the elapsed time" || sed -n '1,30s/^/#   /p' "$T/tty.drawn"
grep -Eq ', ETA [0-9]+:[0-9]{2}$' "$T/tty.drawn"; ok $? "... and an ETA"
grep -qx 'tearing down' "$T/tty.drawn" && grep -qx 'making the run directory' "$T/tty.drawn"
ok $? "activity lines say what the run is doing between phases"
grep -Eqx '(syncing the test file|dropping caches|evicting the test file from the cache|emptying the memory group.s cache)' "$T/tty.drawn" ||
	[ "${cache[1]}" = none ]
ok $? "... the cache work before a cold phase among them"
render "$T/tty.log" >"$T/tty.screen"
csv=$(cat "$T/tty.csv")
grep -qxF -- "$csv" "$T/tty.screen"; ok $? "the CSV line on the terminal is whole and the --csv file's"
for p in per-char-write block-write rewrite per-char-read block-read seeks seq-create seq-stat \
	seq-delete rand-create rand-stat rand-delete; do
	grep -Eq "^$p +[0-9+]" "$T/tty.screen" || { echo "# row $p is not whole on the screen"; false; }
done; ok $? "every table row is whole on the screen: nothing of the line is left in it"
is "$(grep -c 'elapsed' "$T/tty.screen")" 0 "once the run is over the screen holds no status line"

# A narrow terminal: the line is cut to its width (one column short).
script -qfec "stty cols 30; $(printf '%q ' "$AB" run "${args[@]}" --phases seeks)" "$T/narrow.log" >/dev/null 2>&1
is $? 0 "a run on a 30-column terminal exits 0"
long=$(tr '\r' '\n' <"$T/narrow.log" | grep -a $'\x1b\\[K$' | sed 's/\x1b\[K$//' | awk 'length > 29' | head -3)
is "$long" "" "no status line is wider than 29 columns"
tr '\r' '\n' <"$T/narrow.log" | grep -a $'\x1b\\[K$' | grep -q '^seeks'; ok $? "... and the seeks phase was drawn there"

# TERM=dumb (Emacs' shell): a terminal that shows escapes as text gets the plain lines.
TERM=dumb script -qfec "$(printf '%q ' "$AB" run "${args[@]}" --phases block-write)" "$T/dumb.log" >/dev/null 2>&1
! grep -q $'\x1b' "$T/dumb.log" && grep -q "^arraybench: phase 'block-write'\.\.\. done" "$T/dumb.log"
ok $? "TERM=dumb: no escape, one plain line per phase" || sed 's/^/#   /' "$T/dumb.log"

# Sent to the background by an interactive shell: the prompt's line is left
# alone (the run is not in the terminal's foreground process group).
script -qfec "bash --norc -ic '$(printf '%q ' "$AB" run "${args[@]}" --phases seeks) >/dev/null & wait'" "$T/bg.log" >/dev/null 2>&1
! grep -q 'elapsed' "$T/bg.log" && grep -q 'Done' "$T/bg.log"; ok $? "a run in the background draws no status line" ||
	sed 's/^/#   /' "$T/bg.log"

# Off a terminal: one plain line per finished phase, nothing rewritten.
"$AB" run "${args[@]}" --csv "$T/file.csv" >"$T/file.out" 2>"$T/file.err"
is $? 0 "a run with stderr to a file exits 0"
! grep -q $'\r' "$T/file.err" && ! grep -q $'\x1b' "$T/file.err"; ok $? "no \\r and no escape in stderr"
# Under --cache none (no memory cgroup here, or not root) the small file
# also brings the documented warning that reads may measure memory, once,
# before the phases.
warning="arraybench: warning: file 32M is under twice the RAM ([0-9]*M) and --cache none does not cap the page cache: read and seek rates may measure memory, not the disk"
[ "${cache[1]}" = none ] && { head -1 "$T/file.err" | grep -qx "$warning" || echo "# no cache warning first" >>"$T/file.bad"; }
bad=$(grep -vx "$warning" "$T/file.err" |
	grep -Ev "^arraybench: phase '[a-z-]+'( again with [0-9]+ seeks)?\.\.\. done(: [0-9.]+ [A-Za-z/]+)?, [0-9.:]+( s)? elapsed$"
	cat "$T/file.bad" 2>/dev/null)
is "$bad" "" "every stderr line is a finished phase with its rate and elapsed time (after the cache warning, if any)"
for p in per-char-write block-write rewrite per-char-read block-read seq-create seq-stat \
	seq-delete rand-create rand-stat rand-delete; do
	[ "$(grep -c "^arraybench: phase '$p'\.\.\. done" "$T/file.err")" = 1 ] || { echo "# $p: not one line"; false; }
done; ok $? "one line for each phase"
grep -Eq "^arraybench: phase 'block-write'\.\.\. done: [0-9.]+ (B|KiB|MiB|GiB)/s, " "$T/file.err"; ok $? "block-write's line gives its rate in bytes"
grep -Eq "^arraybench: phase 'seq-create'\.\.\. done: [0-9.]+ files/s, " "$T/file.err"; ok $? "seq-create's in files"
is "$(tail -1 "$T/file.out")" "$(cat "$T/file.csv")" "stdout's CSV line is the --csv file's"
is "$(grep -c '^phase  *rate' "$T/file.out")" 1 "stdout holds the table, untouched"

# -q: nothing, on a terminal or not.
"$AB" run "${args[@]}" --phases block-write,seeks -q >"$T/q.out" 2>"$T/q.err"
is $? 0 "-q exits 0"
! grep -q "phase '" "$T/q.err" && grep -q '^phase  *rate' "$T/q.err"; ok $? "-q: stderr has the table and no phase lines"
script -qfec "$(printf '%q ' "$AB" run "${args[@]}" --phases block-write,seeks -q)" "$T/qtty.log" >/dev/null 2>&1
! grep -q $'\x1b\\[K' "$T/qtty.log" && ! grep -q 'elapsed' "$T/qtty.log"; ok $? "-q on a terminal: no status line"

# A closed or full stderr never fails the run.
"$AB" run "${args[@]}" --phases block-write,seeks >"$T/full.out" 2>/dev/full
is "$? $(tail -1 "$T/full.out" | awk -F, '{print NF}')" "0 50" "stderr on /dev/full: exit 0 and the CSV line"
"$AB" run "${args[@]}" --phases block-write,seeks >"$T/closed.out" 2>&-
is "$? $(tail -1 "$T/closed.out" | awk -F, '{print NF}')" "0 50" "stderr closed: exit 0 and the CSV line"

# Interrupted on a terminal: the error starts on a line of its own.  The
# signal comes once a status line is drawn; 128k files take many seconds to
# make, so the phase is still running then (and the interrupted run removes
# only what it made).
script -qfec "$(printf '%q ' "$AB" run -d "$d" -s 0 -n 128 "${cache[@]}" --phases seq-create)" "$T/int.log" >/dev/null 2>&1 &
spid=$!
await "grep -q 'seq-create [0-9]' '$T/int.log' 2>/dev/null || ended $spid" || unseen "no status line was drawn"
pid=$(run_pid $spid) # the run's parent, under script(1)
[ -n "$pid" ] && kill -INT "$pid"
wait $spid
render "$T/int.log" >"$T/int.screen"
grep -q '^arraybench: error: interrupted' "$T/int.screen"; ok $? "SIGINT: the error is on a line of its own, the status line erased" ||
	sed 's/^/#   /' "$T/int.screen"
dir_is_empty "$d"; ok $? "nothing is left in DIR"
done_testing
