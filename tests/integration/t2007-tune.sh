#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later
# arraybench tune (issue 24): --dry-run lists the candidates and leaves an
# unsafe value out unless --allow-unsafe; a bad --objective is refused in
# one line; then, as root on loop images, a small tune on btrfs raid1 (4
# candidates: 2 keys x 2 values) whose budget pays for 3 rounds, SIGINT in
# round 2 and the same command resuming it to the end (no visit made
# twice, nothing left attached or mounted), its summary with the fstab
# line, each run stamped, report --html's Tuning section, and another
# command on the same DIR refused naming what differs; a screening that
# tells no key apart still ends in a race of the best one-key changes;
# a tune on a --device of the test's own, formatted at each visit
# (without --yes-destroy naming it, or mounted, it is refused up front).
. "$(dirname "$0")/lib.sh"
export ARRAYBENCH_STATE_DIR=$T/state TMPDIR=$T/tmp
mkdir -p "$TMPDIR"
chmod 755 "$T"

cat >"$T/space.ini" <<'EOF'
# 2 keys x 2 values, and a key whose only other value is unsafe
[space]
fs = btrfs
summary = the test's space

[key atime]
mount = {}
values = relatime; noatime

[key commit]
mount = commit={}
values = 30; 5

[key barrier]
mount = {}
values = barrier; nobarrier
unsafe = nobarrier
why-unsafe = a crash can corrupt the file system
EOF
chmod 644 "$T/space.ini"
tune=(--loop 2:1G --array raid1 --fs btrfs --space "$T/space.ini" --phases block-write -s 64m
	--cache fadvise --objective block-write --budget 12)

# --dry-run: the candidates and the plan, the unsafe value left out.
"$AB" tune --dry-run "${tune[@]}" >"$T/plan" 2>&1
is $? 0 "--dry-run exits 0"
is "$(grep -c '^candidate [1-4]/4: ' "$T/plan")" 4 "--dry-run lists the 4 candidates"
grep -q '^left out as unsafe .*: nobarrier: a crash can corrupt the file system$' "$T/plan"
ok $? "--dry-run says the unsafe value was left out, and why"
grep -q '^plan: race whole: 4 candidates x 3 rounds = 12 visits within the budget of 12 visits$' "$T/plan"
ok $? "--dry-run says the plan"
"$AB" tune --dry-run --allow-unsafe "${tune[@]}" >"$T/plan-unsafe" 2>&1
is "$(grep -c '^candidate [1-8]/8: ' "$T/plan-unsafe"):$(grep -c 'nobarrier' "$T/plan-unsafe")" "8:4" \
	"--allow-unsafe tries it: 8 candidates, 4 of them with nobarrier"
[ -z "$(loops "$T/")" ] && [ -z "$(ls -A "$TMPDIR")" ]; ok $? "--dry-run builds nothing"

# A bad objective: one line naming it, exit 1.
"$AB" tune --dry-run "${tune[@]}" --objective speed >"$T/bad.out" 2>"$T/bad.err"
is $? 1 "a bad --objective exits 1"
grep -q "^arraybench: error: invalid --objective 'speed': " "$T/bad.err" && [ "$(wc -l <"$T/bad.err")" = 1 ]
ok $? "in one line naming it"
# An objective whose phase the visits do not run: every visit would give
# no figure and the race spend its budget on nothing.
"$AB" tune --dry-run "${tune[@]}" --objective block-read >"$T/unrun.out" 2>"$T/unrun.err"
is "$?:$(wc -l <"$T/unrun.err")" "1:1" "an objective of a phase the visits do not run is refused in one line (exit 1)"
grep -q "^arraybench: error: invalid --objective 'block-read': it reads the block-read phase, which the visits do not run (they run block-write): " "$T/unrun.err"
ok $? "naming it and the phases the visits run"
# ... and commits of a cell the wal phase does not run (fdatasync 8k, the
# default, beside --wal-sync fsync).
wal=(--loop 1:1G --fs btrfs --space "$T/space.ini" --budget 12 --phases wal --wal-sync fsync)
"$AB" tune --dry-run "${wal[@]}" --objective commits >"$T/cell.out" 2>"$T/cell.err"
is "$?:$(cat "$T/cell.err")" \
	"1:arraybench: error: invalid --objective 'commits': no wal step of the visits runs --wal-sync fdatasync with --wal-records 8k, the cell it reads: give them, or an objective of a cell they run" \
	"commits of a wal cell the visits do not run is refused in one line (exit 1)"
"$AB" tune --dry-run "${wal[@]}" --objective commits:fsync >/dev/null 2>&1
is $? 0 "commits:fsync, the cell they run, is taken"
"$AB" tune --dry-run -d "$T" --fs btrfs --objective block-write --budget 3 >"$T/d.out" 2>"$T/d.err"
is "$?:$(wc -l <"$T/d.err")" "1:1" "-d is refused in one line: a tune builds its target"

# Hostile spaces (refused in one line naming the file and line, exit 1).
# A value with a ',' that gives what two keys give together: both
# candidates would be the one cell 'noatime,lazytime' of results.jsonl, and
# a resume would take either's visit for the other's.
cat >"$T/dup.ini" <<'EOF'
[space]
fs = btrfs
[key a]
mount = {}
values = relatime; noatime
[key b]
mount = {}
values = nolazytime; lazytime
[key c]
mount = {}
values = nodiscard; noatime,lazytime
EOF
"$AB" tune --dry-run "${tune[@]}" --space "$T/dup.ini" >"$T/dup.out" 2>"$T/dup.err"
is "$?:$(wc -l <"$T/dup.err")" "1:1" "a space whose two candidates share a label is refused in one line (exit 1)"
grep -q "^arraybench: error: $T/dup.ini:9: two candidates are both 'noatime,lazytime': " "$T/dup.err"
ok $? "naming the file, the line of the value with the ',' and the label"

# A mount option that makes no new writable mount (ro, bind, remount):
# every visit failed to mount or to write, and the tune burnt its budget.
printf '[space]\nfs = btrfs\n[key atime]\nmount = {}\nvalues = relatime; noatime,ro\n' >"$T/ro.ini"
"$AB" tune --dry-run "${tune[@]}" --space "$T/ro.ini" >"$T/ro.out" 2>"$T/ro.err"
is "$?:$(wc -l <"$T/ro.err")" "1:1" "a space value with 'ro' is refused in one line (exit 1)"
grep -q "^arraybench: error: $T/ro.ini:5: invalid value 'noatime,ro' of \[key atime\]: a visit mounts a new file system to write in" "$T/ro.err"
ok $? "naming the file, line and value"
# Nothing to try: a key whose only other value is unsafe leaves the
# defaults alone, which would race themselves.
sed -n '/^\[space\]/,/^summary/p; /^\[key barrier\]/,$p' "$T/space.ini" >"$T/only-unsafe.ini"
"$AB" tune --dry-run "${tune[@]}" --space "$T/only-unsafe.ini" >"$T/none.out" 2>"$T/none.err"
is "$?:$(wc -l <"$T/none.err")" "1:1" "a space with nothing but the defaults to try is refused in one line (exit 1)"
grep -q "^arraybench: error: invalid --space '$T/only-unsafe.ini': nothing to try on this target, .*; left out: nobarrier (unsafe: --allow-unsafe tries it)$" "$T/none.err"
ok $? "saying what was left out"
# --keys naming a key whose only other value was left out: it said the
# space had no such key, which the user could see in the file.
"$AB" tune --dry-run "${tune[@]}" --keys barrier >"$T/kb.out" 2>"$T/kb.err"
is "$?:$(cat "$T/kb.err")" \
	"1:arraybench: error: invalid --keys 'barrier': key 'barrier' of space 'space' has nothing but its default to try here (left out: nobarrier (unsafe: --allow-unsafe tries it))" \
	"--keys of a key with nothing left to try says why, in one line (exit 1)"
# A budget of visits under one round of the candidates: it paid for no
# visit, and the tune ended at once, exit 0, with nothing decided.
"$AB" tune --dry-run "${tune[@]}" --budget 3 >"$T/b3.out" 2>"$T/b3.err"
is "$?:$(wc -l <"$T/b3.err")" "1:1" "--budget 3 for 4 candidates is refused in one line (exit 1)"
grep -q "^arraybench: error: invalid --budget '3': 3 visits do not pay for one round of the 4 candidates " "$T/b3.err"
ok $? "naming it and the candidates"

# A run option last on the line without its value took the word the tune
# adds to each visit's ("-x"), and the tune said "unexpected argument '1'".
"$AB" tune --dry-run "${tune[@]}" --machine >"$T/m.out" 2>"$T/m.err"
is "$?:$(cat "$T/m.err")" "1:arraybench: error: missing argument for --machine" \
	"a run option without its value, last on the line, is refused naming it (exit 1)"
"$AB" tune --dry-run "${tune[@]}" -z 7 >"$T/z.out" 2>"$T/z.err"
is "$?:$(wc -l <"$T/z.err")" "1:1" "run's -z is refused in one line (exit 1): each visit's seed is the tune's"

# --fs ext3 without --space: it said "invalid --space 'ext3'", an option
# never given.
"$AB" tune --dry-run --loop 1:1G --fs ext3 --phases block-write -s 64m --objective block-write --budget 12 \
	>"$T/ext3.out" 2>"$T/ext3.err"
is "$?:$(cat "$T/ext3.err")" \
	"1:arraybench: error: --fs ext3 has no built-in search space (ext4, xfs, btrfs have): give one as --space FILE" \
	"--fs without a built-in space is refused naming --fs, not a --space never given (exit 1)"

# A space file whose name holds a newline: --dry-run's space line stays
# one line.
cp "$T/space.ini" "$T/new
line.ini"
"$AB" tune --dry-run "${tune[@]}" --space "$T/new
line.ini" >"$T/nl.out" 2>&1
grep -qx "space: $T/new\\\\nline.ini, 2 keys, 4 candidates" "$T/nl.out"; ok $? "--dry-run's space line escapes a newline in the file's name"

# Screening takes as many whole rounds as half a budget of visits pays for:
# the built-in ext4 space on one device has 13 one-key candidates, and half
# of 130 visits is 5 rounds of them.
"$AB" tune --dry-run --loop 1:2G --fs ext4 --phases block-write -s 64m --objective block-write --budget 130 \
	>"$T/screen.out" 2>&1
grep -q '^screening: 13 one-key candidates x 5 rounds = 65 visits, then ' "$T/screen.out"
ok $? "screening gets the whole rounds half the budget pays for"

is_root && [ -e /dev/loop-control ] || skip_rest "the tune itself builds targets: needs root and loop devices"

stamps() { # results.jsonl: "candidate|round" per line, from each run's tune stamp
	python3 -c "
import json, sys
for l in open(sys.argv[1]):
    r = json.loads(l)
    t = r['tune']
    print('%s|%s|%s' % (t['candidate'], t['round'], r['cell'] == t['candidate'] and r['repeat'] == t['round']))" "$1"
}

# SIGINT in round 2: the tune is held as it syncs the sixth visit's line
# in results.jsonl (round 2's second), and signalled there.
hold "$T/a.trace" exit fsync 6 "$T/a/results.jsonl" "$AB" tune -o "$T/a" "${tune[@]}" >"$T/a.out" 2>"$T/a.err"
hold_reached
# Meanwhile a second tune on the DIR is refused, never interleaved.
"$AB" tune -o "$T/a" "${tune[@]}" >"$T/second.out" 2>"$T/second.err"
is "$?:$(cat "$T/second.err")" "1:arraybench: error: results directory '$T/a' is in use by another arraybench matrix or tune" \
	"a second tune on a DIR in use is refused in one line (exit 1)"
kill -INT $held
hold_release
wait $held
is $? 130 "SIGINT in round 2 exits 130"
grep -q 'run the same command again to resume' "$T/a.err"; ok $? "and says how to resume"
is "$(wc -l <"$T/a/results.jsonl")" 6 "the 6 visits made before it are recorded"
none_left; ok $? "SIGINT leaves no loop device or mount"
cp "$T/a/results.jsonl" "$T/a.before"

# The same command resumes: the rest of round 2, then round 3.
"$AB" tune -o "$T/a" "${tune[@]}" >"$T/b.out" 2>"$T/b.err"
is $? 0 "the same command resumes the tune and exits 0"
is "$(wc -l <"$T/a/results.jsonl")" 12 "results.jsonl ends with 12 visits (3 rounds of 4)"
is "$(stamps "$T/a/results.jsonl" | sort -u | wc -l)" 12 "no candidate visited twice in a round"
is "$(stamps "$T/a/results.jsonl" | cut -d'|' -f3 | sort -u)" True "each run's stamp is its cell and round"
is "$(head -n 6 "$T/a/results.jsonl" | cmp - "$T/a.before" && echo same)" same "the visits made before are kept"
is "$(grep -c '^tune: race round' "$T/b.out")" 6 "the resume makes only the 6 visits left"
none_left; ok $? "no loop device or mount left"

# The end: printed and in DIR.
# (3 rounds of 4 rarely decide a race: the best is then only leading)
decided=$(js "$T/a/tune.json" 'o["decided"]')
role=leading; [ "$decided" = true ] && role=winner
grep -q "^$role  *[a-z=0-9,]*: [0-9.]* \[" "$T/b.out"; ok $? "it names the best ($role) with its ratio and interval"
grep -Eq '^fstab: UUID=<uuid> /srv/data btrfs [^ ]+ 0 0$' "$T/a/tune.txt"; ok $? "tune.txt has a ready fstab line"
is "$(js "$T/a/tune.json" 'len(o["candidates"])')" 4 "tune.json lists the 4 candidates"
is "$(js "$T/a/tune.json" 'o["leading"] is not None and (o["winner"] == o["leading"]) == o["decided"] and o["rounds"] == 3')" true \
	"tune.json names the leading candidate after 3 rounds, the winner only when the race was decided"
grep -q 'left out as unsafe: nobarrier' "$T/a/tune.txt"; ok $? "the summary says the unsafe value was left out"
"$AB" report "$T/a/results.jsonl" >"$T/report.out" 2>&1
is $? 0 "report reads the tune's results.jsonl"
grep -q '^tune: objective max:block-write (higher is better), 4 candidates over 3 rounds, redone from the runs$' "$T/report.out"
ok $? "and ends with the race redone from the runs"
"$AB" report --html "$T/page.html" "$T/a/results.jsonl" >/dev/null 2>&1
grep -q '<h2 id="tuning">Tuning</h2>' "$T/page.html" && grep -q '4 candidates over 3 rounds' "$T/page.html"
ok $? "report --html shows the race redone from the runs: 4 candidates over 3 rounds"
winner=$(js "$T/a/tune.json" 'o["leading"]')
grep -q "<tr><td>$winner</td>.*best still in the race" "$T/page.html"
ok $? "with the tune's winner ($winner) first"

# The same command on the ended tune prints its end again; to a full
# standard output that is exit 5 with the reason, once the files are
# written (the reason was whatever errno writing them left: after a tune
# that made visits, "No such file or directory"), naming where the end is.
if [ -c /dev/full ]; then
	"$AB" tune -o "$T/a" "${tune[@]}" >/dev/full 2>"$T/full.err"
	is "$?:$(cat "$T/full.err")" \
		"5:arraybench: error: cannot write the tune's end to standard output (it is in $T/a/tune.txt): No space left on device" \
		"its end to a full standard output: exit 5, saying why and where the end is"
else
	skip "no /dev/full"
fi
# --whole-workload FILE: each visit reads the profile anew, so a profile
# changed between the start and a resume made the later visits run
# another workload than the first; tune.ini now holds its SHA-256.
printf '[workload]\nsummary = the test\x27s\n[step write]\nphases = block-write\nsize = 8m\n' >"$T/wl.ini"
whole=(--loop 1:128M --fs btrfs --space "$T/space.ini" --keys atime --workload "$T/wl.ini" --whole-workload
	--cache fadvise --objective block-write --budget 2 --min-rounds 2)
"$AB" tune -o "$T/w" "${whole[@]}" >"$T/w.out" 2>"$T/w.err"
is "$?:$(wc -l <"$T/w/results.jsonl" 2>/dev/null)" "0:2" "a --whole-workload tune makes its 2 visits (exit 0)"
sed -i 's/size = 8m/size = 16m/' "$T/wl.ini"
"$AB" tune -o "$T/w" "${whole[@]}" >"$T/w2.out" 2>"$T/w2.err"
is "$?:$(wc -l <"$T/w2.err")" "1:1" "the same command after its profile changed is refused in one line (exit 1)"
grep -q "its tune.ini has 'workload-sha256 = [0-9a-f]*' where this command makes 'workload-sha256 = " "$T/w2.err"
ok $? "naming the profile's digest"

# Relative names in the run words (--loop's DIR here): the visits run
# from "/", where 'imgs' was another directory or none, and every visit
# failed ("invalid --loop directory 'imgs'"); they are made absolute.
mkdir -p "$T/imgs"
(cd "$T" && "$AB" tune -o rel --loop 1:128M:imgs --fs btrfs --space space.ini --keys atime --phases block-write -s 8m \
	--cache fadvise --objective block-write --budget 2 --min-rounds 2 >"$T/rel.out" 2>"$T/rel.err")
is "$?:$(wc -l <"$T/rel/results.jsonl" 2>/dev/null)" "0:2" "a relative --loop DIR: the 2 visits run (exit 0)"
grep -q "^visit = run --loop 1:128M:$T/imgs " "$T/rel/tune.ini"; ok $? "tune.ini holds the DIR made absolute"

# Another command on the same DIR: refused, naming what differs.
"$AB" tune -o "$T/a" "${tune[@]}" --budget 16 >"$T/c.out" 2>"$T/c.err"
is $? 1 "another tune's command on the DIR is refused (exit 1)"
grep -q "its tune.ini has 'budget = 12' where this command makes 'budget = 16'" "$T/c.err"
ok $? "naming the line that differs"
is "$(wc -l <"$T/a/results.jsonl")" 12 "and leaves the results alone"

# Screening that tells no key apart: the race after it still ranks the
# defaults against the best one-key changes (4 keys of 2 values: 16
# candidates, 5 one-key ones; 20 visits: 2 rounds of screening, then the
# 10 left pay 3 rounds of 3 candidates).
cat >"$T/four.ini" <<'EOF'
[space]
fs = ext4
[key atime]
mount = {}
values = relatime; noatime
[key commit]
mount = commit={}
values = 5; 30
[key delalloc]
mount = {}
values = delalloc; nodelalloc
[key barrier]
mount = {}
values = barrier; barrier=1
EOF
chmod 644 "$T/four.ini"
"$AB" tune -o "$T/s" --space "$T/four.ini" --loop 1:64m --fs ext4 --phases block-write -s 8m -r 16 --cache fadvise \
	--objective block-write --budget 20 -q >"$T/s.out" 2>"$T/s.err"
is "$? $(js "$T/s/tune.json" 'len(o["candidates"])') $(js "$T/s/tune.json" 'o["rounds"]')" "0 3 3" \
	"after screening the race ranks 3 candidates over 3 rounds (the visits left pay no more)"
# (2 rounds of noise rarely tell a key apart; when they do, its kept
# values make fewer changes join)
joined=$(sed -n 's/^screening: the race also takes the best one-key changes\{0,1\} by their ratio, \(.*\): the values kept made \([0-9]*\) candidates\{0,1\}, too few to rank$/\1|\2/p' "$T/s.out")
names=${joined%|*} kept=${joined#*|}
[ -n "$joined" ] && [ $(( $(echo "$names" | tr ',' '\n' | wc -l) + kept )) = 3 ] ||
	{ [ -z "$joined" ] && grep -q '^screening: key .* mattered:' "$T/s.out"; }
ok $? "it says which one-key changes joined the values kept and why ($joined)"
is "$(grep '^screening: [a-z=0-9]*: [0-9.]* ' "$T/s.out" | awk '{ print $3 }' | sort -rn | tr '\n' ' ')" \
	"$(grep '^screening: [a-z=0-9]*: [0-9.]* ' "$T/s.out" | awk '{ print $3 }' | tr '\n' ' ')" "screening's lines come best ratio first"
# The report redoes the screening from the runs, with the tune's figures.
"$AB" report "$T/s/results.jsonl" >"$T/s-report.out" 2>&1
is "$(sed -n 's/^screening: \([a-z=0-9]*\): \([0-9.]*\) .*/\1 \2/p' "$T/s/tune.txt" | tr '\n' ' ')" \
	"$(sed -n 's/^  \([a-z=0-9]*\)  *\([0-9.]*\) \[.*over 2 rounds.*/\1 \2/p' "$T/s-report.out" | tr '\n' ' ')" \
	"report redoes the screening from the runs: the tune's changes, ratios and order"
"$AB" report --html "$T/s.html" "$T/s/results.jsonl" >/dev/null 2>&1
grep -q '<h3>Screening</h3>' "$T/s.html" && grep -q '3 candidates over 3 rounds' "$T/s.html"
ok $? "report --html's Tuning section shows the screening and the race after it"
none_left; ok $? "no loop device or mount left"

# --device: one device of the test's own, formatted at each visit; visit 2
# on finds the file system visit 1 made, so --yes-destroy must name it.
truncate -s 128M "$T/dev.img"
dev=$(losetup --find --show "$T/dev.img")
ok $? "a loop device of the test's own ($dev)"
detach_ours() { # only while it is still backed by our image: the number may be another job's since
	[ "$(losetup -n -O BACK-FILE "$dev" 2>/dev/null)" = "$T/dev.img" ] && losetup -d "$dev"
}
cleanup_add detach_ours
cat >"$T/one.ini" <<'EOF2'
[space]
fs = ext4
[key atime]
mount = {}
values = relatime; noatime
EOF2
chmod 644 "$T/one.ini"
dtune=(--device "$dev" --fs ext4 --space "$T/one.ini" --phases block-write -s 8m -r 16 --cache fadvise
	--objective block-write --budget 4 -q)
"$AB" tune -o "$T/n" "${dtune[@]}" >"$T/n.out" 2>"$T/n.err"
is "$?:$(wc -l <"$T/n.err"):$(grep -c "^arraybench: error: a tune formats '$dev' at every visit, .*: give --yes-destroy $dev$" "$T/n.err")" \
	"1:1:1" "--device without --yes-destroy naming it is refused in one line saying what to give (exit 1)"
"$AB" tune --dry-run "${dtune[@]}" --yes-destroy "$dev" >"$T/dplan" 2>&1
is "$?:$(grep -c "^each visit: arraybench run --device $dev .*--yes-destroy $dev " "$T/dplan")" "0:1" \
	"--device --dry-run: each visit formats the device"
"$AB" tune -o "$T/dev" "${dtune[@]}" --yes-destroy "$dev" >"$T/dev.out" 2>"$T/dev.err"
is $? 0 "a tune on --device DEV --yes-destroy DEV ends (exit 0)"
is "$(python3 -c "
import json, sys
for l in open(sys.argv[1]):
    t = json.loads(l)['target']
    print(t['backend'], t['source'], t['mkfs_command'].endswith(' ' + t['source']))" "$T/dev/results.jsonl" | sort | uniq -c | xargs)" \
	"4 device $dev True" "each of its 4 visits formatted the device and ran on it"
grep -q "^mkfs: mkfs.ext4 .* $dev$" "$T/dev/tune.txt" && grep -q '^fstab: UUID=<uuid> /srv/data ext4 ' "$T/dev/tune.txt"
ok $? "the end's mkfs command names the device"
mkdir "$T/mnt" && mount "$dev" "$T/mnt" && cleanup_add umount "$T/mnt"
"$AB" tune --dry-run "${dtune[@]}" --yes-destroy "$dev" >/dev/null 2>"$T/m.err"
is "$?:$(wc -l <"$T/m.err"):$(grep -c "refusing '$dev': it is mounted" "$T/m.err")" "4:1:1" \
	"a mounted --device is refused even when confirmed, in one line (exit 4)"
umount "$T/mnt"
detach_ours
none_left; ok $? "the device is detached, nothing of it mounted"
done_testing
