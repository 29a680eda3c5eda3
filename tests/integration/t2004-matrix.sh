#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later
# arraybench matrix on loop images: a 2x2 matrix (ext4, btrfs x defaults,
# noatime) of 2 repeats runs whole, interleaved, into results.jsonl and
# results.csv; SIGINT mid-matrix and a resume that repeats no visit; a
# changed file refused, --fresh; --dry-run touches nothing; a cell whose
# build fails is recorded and the rest run.  Root only.
. "$(dirname "$0")/lib.sh"
is_root && [ -e /dev/loop-control ] || skip_all "matrix builds targets: needs root and loop devices"
export ARRAYBENCH_STATE_DIR=$T/state TMPDIR=$T/tmp
mkdir -p "$TMPDIR"

left_behind() { # what of ours is still attached, mounted, in TMPDIR or journaled
	{ loops "$T/"; mounts "$T/"; ls -A "$TMPDIR"; ls -A "$ARRAYBENCH_STATE_DIR" 2>/dev/null; } | tr '\n' ' '
}
visits() { # results.jsonl: "cell|repeat|failure" per line
	python3 -c "
import json, sys
for l in open(sys.argv[1]):
    r = json.loads(l)
    print('%s|%s|%s' % (r['cell'], r['repeat'], r.get('failure') is not None))" "$1"
}

cat >"$T/m.ini" <<EOF
# two file systems x two mount options, 2 repeats, tiny sizes
[matrix]
loop = 1:320m
levels = none
fs = ext4, btrfs
mount-opts = defaults; noatime
repeats = 2
options = -s 64m -n 1 -f --phases block-write,block-read,seq-create -r 32 --cache fadvise
EOF

# --dry-run: the cells and each visit's command, in order, and nothing made.
"$AB" matrix --dry-run -o "$T/dry" "$T/m.ini" >"$T/plan" 2>&1
is $? 0 "--dry-run exits 0"
is "$(grep -c '^cell [1-4]/4: plain ' "$T/plan")" 4 "--dry-run lists the 4 cells"
is "$(grep -E '^[0-9]+/8 cell' "$T/plan" | sed 's/ cell \([0-9]\) repeat \([0-9]\):.*/ \1.\2/' | tr '\n' ' ')" \
	"1/8 1.1 2/8 2.1 3/8 3.1 4/8 4.1 5/8 1.2 6/8 2.2 7/8 3.2 8/8 4.2 " "visits go round-robin over the repeats"
grep -q '^1/8 cell 1 repeat 1: arraybench run --loop 1:320m --fs ext4 .* -x 1 -z [0-9]*$' "$T/plan"
ok $? "each visit is one 'arraybench run' command line"
[ ! -e "$T/dry" ] && [ -z "$(left_behind)" ]; ok $? "--dry-run touches nothing"

# The whole matrix.
"$AB" matrix -o "$T/a" "$T/m.ini" >"$T/a.out" 2>"$T/a.err"
is $? 0 "the 2x2 matrix of 2 repeats exits 0"
is "$(wc -l <"$T/a/results.jsonl")" 8 "results.jsonl has the 8 visits"
[ "$(grep -c 'under twice the RAM' "$T/a.err")" -le 1 ]; ok $? "the page-cache warning is said once, not for each visit"
is "$(wc -l <"$T/a/results.csv")" 8 "results.csv has 8 bonnie++ lines"
is "$(cut -d, -f3 "$T/a/results.csv" | sort | uniq -c | awk '{print $1 "x" $2}' | tr '\n' ' ')" \
	"2xplain_btrfs_defaults 2xplain_btrfs_noatime 2xplain_ext4_defaults 2xplain_ext4_noatime " \
	"each CSV line names its cell (bon_csv2html's row)"
is "$(visits "$T/a/results.jsonl" | cut -d'|' -f2 | tr '\n' ' ')" "1 1 1 1 2 2 2 2 " "each run carries its matrix repeat, interleaved"
is "$(visits "$T/a/results.jsonl" | sort -u | wc -l)" 8 "each (cell, repeat) once"
is "$(visits "$T/a/results.jsonl" | sed -n 1,4p | cut -d'|' -f1 | tr '\n' ',')" \
	"plain ext4 defaults,plain ext4 noatime,plain btrfs defaults,plain btrfs noatime," "each run carries its cell label"
is "$(python3 -c "
import json, sys
rs = [json.loads(l) for l in open(sys.argv[1])]
print(len(set(r['seed'] for r in rs)), all(r['failure'] is None and r['phases'] for r in rs))" "$T/a/results.jsonl")" \
	"8 True" "a seed of its own for each visit, and results"
cmp -s "$T/m.ini" "$T/a/matrix.ini" && (cd "$T/a" && sha256sum -c --quiet matrix.sha256); ok $? "DIR keeps the matrix file and its digest"
"$AB" report "$T/a/results.jsonl" >/dev/null 2>&1; ok $? "report reads results.jsonl"
is "$(left_behind)" "" "no loop device, mount, image or journal left"

# Again: everything is done, nothing runs.
cp "$T/a/results.jsonl" "$T/a.before"
"$AB" matrix -q -o "$T/a" "$T/m.ini" >"$T/again.out" 2>&1
is $? 0 "a rerun of a finished matrix exits 0"
cmp -s "$T/a.before" "$T/a/results.jsonl"; ok $? "and runs no visit again"

# SIGINT in the middle, then resume: the matrix is held as it syncs the
# third visit's line in results.jsonl, and signalled there.
hold "$T/b.trace" exit fsync 3 "$T/b/results.jsonl" "$AB" matrix -o "$T/b" "$T/m.ini" >"$T/b.out" 2>"$T/b.err"
hold_reached && kill -INT $held
hold_release
wait $held
is $? 130 "SIGINT mid-matrix exits 130"
grep -q 'run the same command again to resume' "$T/b.err"; ok $? "and says how to resume"
done_before=$(wc -l <"$T/b/results.jsonl")
is "$done_before" 3 "the visits recorded before it are kept"
is "$(left_behind)" "" "SIGINT leaves no loop device, mount or journal"
cp "$T/b/results.jsonl" "$T/b.before"
"$AB" matrix -o "$T/b" "$T/m.ini" >"$T/b2.out" 2>"$T/b2.err"
is $? 0 "the resumed matrix exits 0"
is "$(wc -l <"$T/b/results.jsonl")" 8 "results.jsonl ends with the 8 visits"
is "$(visits "$T/b/results.jsonl" | sort -u | wc -l)" 8 "no (cell, repeat) twice"
is "$(head -n "$done_before" "$T/b/results.jsonl" | cmp - "$T/b.before" && echo same)" same "the finished visits are kept as they were"
grep -q "$done_before already done" "$T/b2.out"; ok $? "the resume skips the $done_before finished visits"
is "$(wc -l <"$T/b/results.csv")" 8 "results.csv ends with 8 lines"

# A changed matrix file is refused; --fresh starts afresh.
sed 's/^repeats = 2/repeats = 1/; s/^fs = ext4, btrfs/fs = ext4/; s/^mount-opts.*/mount-opts = noatime/' "$T/m.ini" >"$T/m2.ini"
echo "notes" >"$T/b/notes.txt"
"$AB" matrix -o "$T/b" "$T/m2.ini" >"$T/c.out" 2>"$T/c.err"
is $? 1 "a changed matrix file is refused (exit 1)"
grep -q -- "give --fresh" "$T/c.err" && [ "$(wc -l <"$T/c.err")" = 1 ]; ok $? "in one line saying what to do"
is "$(wc -l <"$T/b/results.jsonl")" 8 "and leaves the results alone"
"$AB" matrix -q --fresh -o "$T/b" "$T/m2.ini" >"$T/f.out" 2>"$T/f.err"
is $? 0 "--fresh exits 0"
is "$(visits "$T/b/results.jsonl")" "plain ext4 noatime|1|False" "--fresh starts over with the new matrix"
is "$(ls "$T/b" | grep -c '\.old-')" 4 "the old results and matrix copy are moved aside"
is "$(cat "$T/b/notes.txt")" notes "a file the matrix did not make is left alone"

# A cell whose build fails is recorded, and the rest run.
cat >"$T/bad.ini" <<EOF
[matrix]
loop = 1:320m
levels = none
fs = ext4
mkfs-opts = -O no_such_feature; defaults
repeats = 1
options = -s 64m -n 1 -f --phases block-write -r 32 --cache fadvise
EOF
"$AB" matrix -o "$T/bad" "$T/bad.ini" >"$T/bad.out" 2>"$T/bad.err"
is $? 2 "a matrix with a failed visit exits 2"
is "$(visits "$T/bad/results.jsonl" | tr '\n' ' ')" "plain ext4 mkfs(-O no_such_feature) defaults|1|True plain ext4 defaults|1|False " \
	"the failed visit is recorded as failed, the next one ran"
grep -q '"failure":"[^"]*mkfs' "$T/bad/results.jsonl"; ok $? "its failure says why"
is "$(wc -l <"$T/bad/results.csv")" 1 "results.csv has only the run with results"
"$AB" matrix -o "$T/bad" "$T/bad.ini" >"$T/bad2.out" 2>&1
is "$(wc -l <"$T/bad/results.jsonl")" 2 "a failed visit counts as finished on resume"
"$AB" matrix --retry-failed -o "$T/bad" "$T/bad.ini" >"$T/bad3.out" 2>&1
is "$(wc -l <"$T/bad/results.jsonl")" 3 "--retry-failed runs it again"
# --repeat-until: a spread that never gets that small repeats up to --max-repeats.
sed 's/^mkfs-opts.*//' "$T/bad.ini" >"$T/ru.ini"
"$AB" matrix -q --repeat-until 0.0001 --max-repeats 3 -o "$T/ru" "$T/ru.ini" >"$T/ru.out" 2>&1
is $? 0 "--repeat-until exits 0"
is "$(visits "$T/ru/results.jsonl" | tr '\n' ' ')" "plain ext4 defaults|1|False plain ext4 defaults|2|False plain ext4 defaults|3|False " \
	"--repeat-until repeats a wide cell up to --max-repeats"
# A results directory on a full disk: exit 5, and nothing half-written
# that would have the rerun refuse DIR (an empty matrix.sha256 did).
mkdir "$T/full"
if mount -t tmpfs -o size=64k tmpfs "$T/full" 2>/dev/null; then
	cleanup_add "umount $T/full"
	head -c 60k /dev/zero >"$T/full/fill" 2>/dev/null
	"$AB" matrix -q -o "$T/full/o" "$T/ru.ini" >/dev/null 2>"$T/full.err"
	is "$? $(ls -A "$T/full/o" | tr '\n' ' ')" "5 " "a full disk: exit 5 and DIR left empty" || sed 's/^/#   /' "$T/full.err"
	umount "$T/full"
else
	skip "cannot mount a small tmpfs"
fi
is "$(left_behind)" "" "no loop device, mount or journal left at the end"
done_testing
