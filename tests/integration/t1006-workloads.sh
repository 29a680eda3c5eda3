#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later
# Workload profiles (arraybench-workload(5)): the built-in ones listed and
# run with the command line over them, a user's file of two steps run in
# order, and bad files refused naming file and line with exit status 1.
. "$(dirname "$0")/lib.sh"
d=$T/dir; mkdir "$d"
read -r -a cache <<<"$(cache_args)"

"$AB" list >"$T/list"; ok $? "list exits 0"
is "$(grep -oE '^(bonnie|database|iozone-auto|lab|mirror) ' "$T/list" | tr -d ' ' | tr '\n' ' ')" \
	"bonnie database iozone-auto lab mirror " "list shows the five built-in profiles"
grep -q '^ *\[step mirror\] --phases=sweep .*--streams=4 --sweep-files=50$' "$T/list"; ok $? "... with their steps as options"
grep -q "^lab  *a RAID lab's large sequential files: " "$T/list" &&
	grep -q "^mirror  *a mirror site's file serving: " "$T/list" && ! grep -qi 'seed 00' "$T/list"
ok $? "... lab and mirror named by what they model, not by a seed's number"

# bonnie at tiny sizes: the command line changes its step.
"$AB" run -d "$d" --workload bonnie -s 32m -n 1:4k:1k:2 -f "${cache[@]}" -q --json "$T/b.json" >/dev/null 2>"$T/b.err"
is $? 0 "--workload bonnie -s 32m -n 1 -f exits 0" || sed 's/^/#   /' "$T/b.err"
is "$(js "$T/b.json" '" ".join(p["name"] for p in o["phases"])')" \
	"block-write rewrite block-read seeks seq-create seq-stat seq-delete rand-create rand-stat rand-delete" \
	"... runs bonnie++'s phases but the per-char ones -f skips"
is "$(js "$T/b.json" '[o["workload"], o["config"]["file_size_bytes"]]')" '["bonnie", 33554432]' \
	"... and the JSON names the profile, with the 32m given"

# A user's file: two steps in order, each with its own parameters.
cat >"$T/two.ini" <<'INI'
# two steps
[workload]
summary = a sweep, then bonnie's block phases

[step small-sweep]
phases = sweep
sweep-tests = write,read
sweep-file-sizes = 256k
sweep-records = 64k
streams = 2

[step blocks]
phases = block-write,block-read
size = 32m
INI
"$AB" run -d "$d" --workload "$T/two.ini" "${cache[@]}" -q --json "$T/t.json" >/dev/null 2>"$T/t.err"
is $? 0 "a profile file of two steps exits 0" || sed 's/^/#   /' "$T/t.err"
is "$(js "$T/t.json" '" ".join(p["name"] + ("/" + p["key"]["test"] if p["key"].get("test") else "") for p in o["phases"])')" \
	"sweep/write sweep/read block-write block-read" "... runs its steps in file order"
is "$(js "$T/t.json" '[o["workload"], sorted(set(p["key"]["streams"] for p in o["phases"] if p["name"] == "sweep")), o["config"]["file_size_bytes"]]')" \
	'["two", [2], 33554432]' "... each step with its parameters; the JSON names the file's profile"
dir_is_empty "$d"; ok $? "nothing is left in DIR"

# A bad file: file and line in one message, exit 1, nothing run.
printf '[workload]\nsummary = typo\n\n[step read]\nphases = block-read\n# streams, misspelt\nstrems = 4\n' >"$T/bad.ini"
"$AB" run -d "$d" --workload "$T/bad.ini" >"$T/bad.out" 2>"$T/bad.err"
is $? 1 "a profile with an unknown key exits 1"
is "$(cat "$T/bad.err")" "arraybench: error: $T/bad.ini:7: unknown key 'strems' in [step read]" \
	"... saying file, line, key and group"
printf '[step a]\nstreams = 2\n[step a]\n' >"$T/dup.ini"
"$AB" run -d "$d" --workload "$T/dup.ini" 2>"$T/dup.err"
is "$? $(cat "$T/dup.err")" "1 arraybench: error: $T/dup.ini:3: duplicate group [step a] (first at line 1)" \
	"a group given twice is refused at its second line"
printf '[step a]\ndevice = /dev/sda\n' >"$T/dev.ini"
"$AB" run -d "$d" --workload "$T/dev.ini" 2>"$T/dev.err"
is "$? $(grep -c "dev.ini:2: key 'device' in \[step a\]: a target" "$T/dev.err")" "1 1" "a target option in a profile is refused"
"$AB" run -d "$d" --workload "$T/none.ini" 2>"$T/none.err"
is "$? $(grep -c "cannot open profile '$T/none.ini': No such file" "$T/none.err")" "1 1" "a missing file: exit 1 saying so"
mkfifo "$T/fifo.ini"
timeout $HANG_AFTER "$AB" run -d "$d" --workload "$T/fifo.ini" 2>"$T/fifo.err"
is "$? $(grep -c "refusing profile '$T/fifo.ini': not a regular file" "$T/fifo.err")" "1 1" \
	"a FIFO is refused, not waited on"
# A phase's key in a step without that phase is that step's mistake, even
# when another step has the phase (the command line's options may be).
printf '[workload]\nsummary = misplaced\n\n[step commits]\nphases = wal\noltp-procs = 2\n\n[step pool]\nphases = oltp\n' >"$T/mis.ini"
"$AB" run -d "$d" --workload "$T/mis.ini" -s 32m -r 0 --cache none >"$T/mis.out" 2>"$T/mis.err"
is "$? $(cat "$T/mis.err")" \
	"1 arraybench: error: $T/mis.ini:4: [step commits]: the --oltp-* options apply to the oltp phase, which is not asked for (--phases oltp or oltp+wal)" \
	"oltp-procs in a step of the wal phase: refused naming that step, though another step has oltp"
printf '[workload]\nsummary = misplaced\n\n[step a]\nphases = block-write\nwal-seconds = 1\n\n[step b]\nphases = wal\n' >"$T/mis2.ini"
"$AB" run -d "$d" --workload "$T/mis2.ini" -s 32m -r 0 --cache none >"$T/mis2.out" 2>"$T/mis2.err"
is "$? $(cat "$T/mis2.err")" \
	"1 arraybench: error: $T/mis2.ini:4: [step a]: --wal-seconds applies to the wal phase, which is not asked for (--phases wal)" \
	"wal-seconds in a step without wal: refused naming that step"
printf '[workload]\nsummary = misplaced\n\n[step a]\nphases = wal\n\n[step b]\nphases = oltp+wal\nwal-seconds = 1\n' >"$T/mis3.ini"
"$AB" run -d "$d" --workload "$T/mis3.ini" -s 32m -r 0 --cache none >"$T/mis3.out" 2>"$T/mis3.err"
is "$? $(cat "$T/mis3.err")" \
	"1 arraybench: error: $T/mis3.ini:7: [step b]: --wal-seconds does not apply to oltp+wal, whose commits run for --oltp-seconds beside the load (it times --phases wal)" \
	"wal-seconds in an oltp+wal step: refused naming that step, though another step has wal"
"$AB" run -d "$d" --workload nosuch 2>"$T/ns.err"
is "$? $(grep -c "no such built-in profile (bonnie, database, iozone-auto, lab, mirror)" "$T/ns.err")" "1 1" \
	"an unknown built-in name: exit 1 naming those there are"
# Built in: from any directory, with no workloads/ next to it.
(cd / && "$AB" run -d "$d" --workload iozone-auto --sweep-file-sizes 64k --sweep-records 64k --sweep-tests write \
	"${cache[@]}" -q --json "$T/i.json" >/dev/null 2>"$T/i.err")
is $? 0 "--workload iozone-auto narrowed runs from /" || sed 's/^/#   /' "$T/i.err"
is "$(js "$T/i.json" '[o["workload"], len(o["phases"])]')" '["iozone-auto", 1]' "... and names its profile"
done_testing
