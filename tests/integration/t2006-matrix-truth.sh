#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later
# What a matrix says is what it ran (issue 20, items 2, 4, 5): every cell
# goes through run's checks before the first visit (a bad level, too few
# members, md on a kernel without it: refused with file:line, dry run too);
# results.csv is made anew from results.jsonl when a CSV append failed on a
# full disk or a kill came between the two appends; a failed visit that
# --retry-failed ran no longer counts; the profiles are part of what the
# matrix is (copied, hashed, a changed one refused, the copy run); a resume
# after kill -9 undoes the dead visit's target, and only it; the state
# directory is checked before anything is made.  The checks
# before the first visit need no root; the rest builds targets.
. "$(dirname "$0")/lib.sh"
export ARRAYBENCH_STATE_DIR=$T/state TMPDIR=$T/tmp
mkdir -p "$TMPDIR"

# --- Item 4: refused up front, naming the levels line (3), before any visit.
bad() { # name loop levels [fs]: a matrix file whose levels line is line 3
	printf '[matrix]\nloop = %s\nlevels = %s\n%srepeats = 1\noptions = -s 64m -n 1 -f -r 32 --cache fadvise\n' \
		"$2" "$3" "${4:+fs = $4
}" >"$T/$1.ini"
}
bad raid7 2:320m btrfs:raid7
bad raid1-one 1:320m btrfs:raid1
bad raid6-two 2:320m btrfs:raid6
bad md5-one 1:320m mdadm:raid5 ext4
bad md-none 2:320m mdadm:raid1 ext4
refused() { # name status message-part: --dry-run refuses it in one line naming FILE:3
	"$AB" matrix --dry-run "$T/$1.ini" >"$T/$1.out" 2>"$T/$1.err"
	local st=$?
	is "$st $(wc -l <"$T/$1.err") $(wc -c <"$T/$1.out")" "$2 1 0" "--dry-run of $1: exit $2, one line, no plan"
	grep -q "^arraybench: error: $T/$1.ini:3: cell '.*': .*$3" "$T/$1.err"
	ok $? "naming $1.ini:3 (the levels line) and why" || sed 's/^/#   /' "$T/$1.err"
}
refused raid7 1 "invalid --array 'raid7' for the btrfs backend"
refused raid1-one 1 "too few devices for btrfs profile 'raid1': got '1', need at least 2"
refused raid6-two 1 "too few devices for btrfs profile 'raid6': got '2', need at least 3"
refused md5-one 1 "too few devices for RAID level 5: got '1', need at least 3"
if [ -e /proc/mdstat ]; then
	skip "this kernel has md: an md level is no error"; skip "(the same)"
else
	refused md-none 3 "md RAID is not in this kernel"
fi
# Started for real (root: the cells build targets), nothing is made either.
if is_root; then
	for b in raid7 raid1-one raid6-two md5-one; do
		"$AB" matrix -o "$T/o-$b" "$T/$b.ini" >/dev/null 2>&1
		is "$? $(ls -d "$T/o-$b" 2>/dev/null)" "1 " "a start of $b: exit 1, no results directory made"
	done
else
	skip "a matrix starts as root only"
fi

# --- The state directory (where the visits journal) is checked as run
# checks it, before anything is made, --dry-run too: it passed, and the
# first visit failed (exit 4) after DIR and its files were made.
printf '[matrix]\nloop = 1:320m\nlevels = none\nfs = ext4\nrepeats = 1\noptions = -s 64m -n 1 -f -r 32 --cache fadvise\n' >"$T/ok.ini"
mkdir "$T/open-state" && chmod 777 "$T/open-state"
ln -s "$T/open-state" "$T/link-state"
for s in "open-state group or others may write to it (mode 0777)" "link-state it is a symbolic link"; do
	ARRAYBENCH_STATE_DIR=$T/${s%% *} "$AB" matrix --dry-run "$T/ok.ini" >"$T/st.out" 2>"$T/st.err"
	is "$? $(wc -c <"$T/st.out") $(cat "$T/st.err")" "4 0 arraybench: error: refusing state directory '$T/${s%% *}': ${s#* }" \
		"--dry-run with a state directory that ${s#* }: exit 4, one line, no plan"
done
if is_root; then
	ARRAYBENCH_STATE_DIR=$T/open-state "$AB" matrix -o "$T/o-state" "$T/ok.ini" >/dev/null 2>&1
	is "$? $(ls -d "$T/o-state" 2>/dev/null)" "4 " "a start with it: exit 4, no results directory made"
	mkdir -m 700 "$T/their-state" && chown nobody "$T/their-state"
	ARRAYBENCH_STATE_DIR=$T/their-state "$AB" matrix --dry-run "$T/ok.ini" >/dev/null 2>"$T/st.err"
	is "$? $(grep -c "refusing state directory '$T/their-state': it belongs to uid" "$T/st.err")" "4 1" \
		"one another user owns: exit 4 (--dry-run)"
else
	skip "a matrix starts as root only; another user's directory needs root to make"
fi

# --- The rest builds targets: root and loop devices.
is_root && [ -e /dev/loop-control ] || skip_rest "matrix builds targets: needs root and loop devices"
need strace
# Whatever a check leaves (a kill is the point here), our state dir's
# journals undo it at the end; they are ours alone.
cleanup_add "ARRAYBENCH_STATE_DIR=$T/state '$AB' cleanup"

left_behind() { # what of ours is still attached, mounted, in TMPDIR or journaled
	{ loops "$T/"; mounts "$T/tmp"; ls -A "$TMPDIR"; ls -A "$ARRAYBENCH_STATE_DIR" 2>/dev/null; } | tr '\n' ' '
}
seeds_json() { python3 -c "
import json, sys
print(' '.join(str(json.loads(l)['seed']) for l in open(sys.argv[1]) if json.loads(l)['failure'] is None))" "$1"; }
seeds_csv() { cut -d, -f5 "$1" | tr '\n' ' ' | sed 's/ $//'; }
held_by_strace() { # strace-pid log: the pid of its tracee once strace's SIGSTOP holds it (held until
	# SIGCONT: this waits for a state, not a moment; the limit only ends a test that went wrong)
	await "grep -q -- '--- stopped by SIGSTOP ---' '$2' 2>/dev/null || ended $1" 300
	grep -q -- '--- stopped by SIGSTOP ---' "$2" && { procs -P "$1"; return; }
	unseen "strace's log '$2' never showed the matrix held"
}
cat >"$T/w.ini" <<EOF
[step a]
phases = block-write,block-read
size = 64m
EOF
cat >"$T/m.ini" <<EOF
[matrix]
loop = 1:320m
levels = none
fs = ext4
workloads = ./w.ini
repeats = 2
options = -n 1 -f -r 32 --cache fadvise
EOF

# --- Item 2: a CSV append that fails on a full disk.  The run is held
# (SIGSTOP from strace) right after results.jsonl's fsync, the tmpfs
# holding DIR is filled, and the CSV append then fails for real.
mkdir "$T/full"
mount -t tmpfs -o size=1m tmpfs "$T/full" && cleanup_add "umount $T/full"
strace -f -o "$T/stop.log" -P "$T/full/o/results.jsonl" -e trace=fsync -e inject=fsync:signal=STOP:when=1 \
	"$AB" matrix -q -o "$T/full/o" "$T/m.ini" >/dev/null 2>"$T/full.err" &
spid=$!
held=$(held_by_strace $spid "$T/stop.log")
head -c 2m /dev/zero >"$T/full/fill" 2>/dev/null
[ -n "$held" ] && kill -CONT "$held"
wait $spid
is "$? $(wc -l <"$T/full/o/results.jsonl") $(wc -l <"$T/full/o/results.csv")" "5 1 0" \
	"the CSV append fails on a full disk after the JSON one: exit 5, the run in results.jsonl only"
grep -q "^arraybench: error: cannot write '$T/full/o/results.csv': No space left on device (the run is in results.jsonl: the next start writes results.csv anew from it)$" \
	"$T/full.err"; ok $? "saying the run is kept and what the next start does" || sed 's/^/#   /' "$T/full.err"
rm -f "$T/full/fill"
"$AB" matrix -q -o "$T/full/o" "$T/m.ini" >/dev/null 2>"$T/full2.err"
is "$? $(grep -c "results.csv' was not the CSV of the runs in results.jsonl (0 lines where they make 1): written anew from it" "$T/full2.err")" \
	"0 1" "the resume exits 0 and says in one line that results.csv was made anew"
is "$(seeds_csv "$T/full/o/results.csv")" "$(seeds_json "$T/full/o/results.jsonl")" \
	"the resumed matrix has the same runs in both files, in order (2 visits)"
"$AB" matrix -q -o "$T/full/o" "$T/m.ini" >/dev/null 2>"$T/full3.err"
is "$? $(grep -c 'written anew' "$T/full3.err")" "0 0" "a right results.csv is left alone"
umount "$T/full"

# --- Items 2 and 5: kill -9 between the two appends (strace kills the
# matrix as it enters the CSV write).  A run that died on its own before
# is in the same state directory: the matrix's resume must leave it.
# (A subshell, so that the shell's "Killed" goes nowhere.)
(strace -f -o /dev/null -e trace=mount -e inject=mount:signal=KILL "$AB" run --loop 1:320m --fs ext4 -s 32m -r 16 \
	--cache none -n 1 -f -q --phases block-write >/dev/null; exit $?) 2>/dev/null
other=$(ls "$ARRAYBENCH_STATE_DIR" | grep '^journal-')
[ -n "$other" ] && [ -n "$(loops "$T/")" ]; ok $? "another run killed on its own left its journal and loop device"
(strace -f -o "$T/kill.log" -P "$T/k/results.csv" -e trace=write -e inject=write:signal=KILL \
	"$AB" matrix -q -o "$T/k" "$T/m.ini" >/dev/null; exit $?) 2>/dev/null
is "$? $(wc -l <"$T/k/results.jsonl") $(wc -l <"$T/k/results.csv") $(mounts "$T/tmp" | wc -l)" "137 1 0 1" \
	"killed between the appends: the run in results.jsonl only, its file system still mounted"
"$AB" matrix -q -o "$T/k" "$T/m.ini" >/dev/null 2>"$T/k.err"
is "$? $(grep -c 'the visit that was running when the matrix died (run .*) had left its target built: undone now ([0-9]* steps)$' "$T/k.err")" \
	"0 1" "the resume undoes the dead visit, saying so in one line" || sed 's/^/#   /' "$T/k.err"
is "$(seeds_csv "$T/k/results.csv")" "$(seeds_json "$T/k/results.jsonl")" "and has the same runs in both files"
is "$(ls "$ARRAYBENCH_STATE_DIR" | grep '^journal-' | tr '\n' ' ')" "$other " \
	"the other run's journal is left to 'arraybench cleanup'"
"$AB" cleanup >/dev/null 2>&1
is "$(left_behind)" "" "after which nothing is left"

# --- Item 5: a failed visit that --retry-failed ran no longer counts.
# strace fails the first visit's mount (EIO): recorded as failed.
sed 's/^repeats = 2/repeats = 1/' "$T/m.ini" >"$T/m1.ini"
strace -f -o /dev/null -e trace=mount -e inject=mount:error=EIO:when=1 "$AB" matrix -q -o "$T/rf" "$T/m1.ini" >/dev/null 2>&1
is $? 2 "a visit whose mount fails: exit 2, recorded"
"$AB" matrix -q --retry-failed -o "$T/rf" "$T/m1.ini" >/dev/null 2>&1
is "$? $(wc -l <"$T/rf/results.jsonl")" "0 2" "--retry-failed runs it again, and it runs"
"$AB" matrix -o "$T/rf" "$T/m1.ini" >"$T/rf.out" 2>"$T/rf.err"
is $? 0 "the next resume exits 0: the visit ran" || sed 's/^/#   /' "$T/rf.err"
! grep -q -- '--retry-failed\|failed (their' "$T/rf.out" "$T/rf.err"; ok $? "and neither counts it as failed nor suggests --retry-failed"

# --- A start or --fresh killed (kill -9) at any step of setting DIR up
# leaves a DIR that the same command again takes: it got "holds results
# no matrix started there" or "holds no SHA-256 digest" after a kill
# between the copies and the digests.  The steps are the syscalls that
# change DIR (strace -y names it), taken from one start's trace; each is a
# kill point (strace kills on entry).  The rerun is killed in its turn as it
# prints its first visit: it got past the setup.
walk_setup() { # template-dir|"" args...: "steps bad" to $T/walk.res, a diag line per bad step
	local tpl=$1 D=$T/wd; shift
	local prep="rm -rf $D${tpl:+ && cp -a $tpl $D}"
	eval "$prep"
	strace -y -o "$T/walk.log" "$AB" matrix -o "$D" "$@" >"$T/walk.out" 2>/dev/null
	local end n=0 steps=() line name bad=0 s st rst kept
	end=$(grep -n '^write(1<.*"matrix: cell' "$T/walk.log" | head -1 | cut -d: -f1)
	[ -n "$end" ] || { echo "0 0" >"$T/walk.res"; return; }
	head -n $((end - 1)) "$T/walk.log" | grep -v '^---\|^+++' >"$T/walk.setup"
	while IFS= read -r line; do
		n=$((n + 1))
		case $line in
		*"$D"[\>/\"]*) ;;
		*) continue ;;
		esac
		name=${line%%(*}
		case $name in
		openat) case $line in *O_CREAT*) ;; *) continue ;; esac ;;
		write | pwrite64 | renameat | renameat2 | unlinkat | mkdirat | ftruncate | fchmod | linkat) ;;
		*) continue ;;
		esac
		steps+=("$name:$(head -n $n "$T/walk.setup" | grep -c "^$name(")")
	done <"$T/walk.setup"
	for s in "${steps[@]}"; do
		eval "$prep"
		# (subshells, so that the shell's "Killed" goes nowhere)
		(strace -o /dev/null -e trace="${s%%:*}" -e inject="${s%%:*}:signal=KILL:when=${s#*:}" \
			"$AB" matrix -o "$D" "$@" >/dev/null 2>&1; exit $?) 2>/dev/null
		st=$?
		(strace -o /dev/null -P "$T/walk.out" -e trace=write -e inject=write:signal=KILL:when=1 \
			"$AB" matrix -o "$D" "$@" >"$T/walk.out" 2>"$T/walk.err"; exit $?) 2>/dev/null
		rst=$?
		kept=yes
		if [ -n "$tpl" ]; then
			kept=no
			for f in "$D"/results.jsonl.old-*; do cmp -s "$tpl/results.jsonl" "$f" && kept=yes; done
		fi
		if [ $st != 137 ] || [ $rst != 137 ] || grep -q 'error' "$T/walk.err" || [ $kept != yes ] ||
			ls -A "$D" | grep -q '^\.' || ! (cd "$D" && sha256sum -c --quiet matrix.sha256 >/dev/null 2>&1); then
			bad=$((bad + 1))
			diag "killed at $s (exit $st): rerun exit $rst, old results kept: $kept; DIR: $(ls -A "$D" | tr '\n' ' ')$(tr '\n' ' ' <"$T/walk.err")"
		fi
	done
	echo "${#steps[@]} $bad" >"$T/walk.res"
}
walk_setup "" "$T/m1.ini"; read -r steps bad <"$T/walk.res"
[ "$steps" -ge 8 ] && [ "$bad" = 0 ]
ok $? "a start killed at each of its $steps steps that change DIR: the same command again takes DIR ($bad refused or left a temporary file)"
walk_setup "$T/rf" --fresh "$T/m1.ini"; read -r steps bad <"$T/walk.res"
[ "$steps" -ge 16 ] && [ "$bad" = 0 ]
ok $? "a --fresh killed at each of its $steps steps: the same command again finishes it, the old results kept ($bad not)"
ls "$T/wd" | grep -q '^results.jsonl.old-' && [ -z "$(loops "$T/")$(mounts "$T/tmp")" ]
ok $? "and nothing was built meanwhile"

# --- results.jsonl's last line without its newline: a whole run is kept
# (it was cut, and the visit counted as failed or ran again), part of one
# is cut off, each saying so.
cp -a "$T/rf" "$T/nl"
cp "$T/nl/results.jsonl" "$T/nl.before"
truncate -s -1 "$T/nl/results.jsonl"
"$AB" matrix -o "$T/nl" "$T/m1.ini" >"$T/nl.out" 2>"$T/nl.err"
is "$? $(grep -c '^matrix: 0 visits run (0 failed), 1 already done' "$T/nl.out") $(cat "$T/nl.err")" \
	"0 1 arraybench: warning: the last line of '$T/nl/results.jsonl' was a whole run without its newline: kept, the newline added" \
	"a whole last run without its newline: kept (exit 0, nothing run again), the newline added, one line says so"
cmp -s "$T/nl.before" "$T/nl/results.jsonl"; ok $? "results.jsonl is as it was"
head -1 "$T/nl.before" | head -c 300 >>"$T/nl/results.jsonl"
"$AB" matrix -o "$T/nl" "$T/m1.ini" >"$T/nl.out" 2>"$T/nl.err"
is "$? $(cat "$T/nl.err")" \
	"0 arraybench: warning: the last line of '$T/nl/results.jsonl' was torn (300 bytes without their end: a kill or a full disk mid-write): cut off, its visit runs again" \
	"part of a run after the last newline: cut off, saying how much"
cmp -s "$T/nl.before" "$T/nl/results.jsonl"; ok $? "results.jsonl is as it was"

# A run given twice in results.jsonl (merged by hand, restored) counts
# once: results.csv held it twice, and --repeat-until's spread counted it
# twice.
cp -a "$T/rf" "$T/dup"
tail -1 "$T/dup/results.jsonl" >>"$T/dup/results.jsonl"
"$AB" matrix -o "$T/dup" "$T/m1.ini" >"$T/dup.out" 2>"$T/dup.err"
is "$? $(wc -l <"$T/dup/results.csv") $(grep -c "^arraybench: warning: $T/dup/results.jsonl: 1 run read again (the first at '$T/dup/results.jsonl:3'): each counts once" "$T/dup.err")" \
	"0 1 1" "a run twice in results.jsonl: once in results.csv, one warning"

# --- Item 5: the profiles are part of the matrix.  A built-in one counts
# too (bonnie: its text is this arraybench's).
cat >"$T/p.ini" <<EOF
[matrix]
loop = 1:320m
levels = none
fs = ext4
workloads = ./w.ini, bonnie
repeats = 2
options = -n 1 -f -r 32 --cache fadvise

[workload bonnie]
options = -s 64m --phases block-write
EOF
# Held after the first visit's record, w.ini is edited: the visits still
# run the copy the matrix started with.
cp "$T/w.ini" "$T/w.orig"
strace -f -o "$T/stop2.log" -P "$T/p/results.jsonl" -e trace=fsync -e inject=fsync:signal=STOP:when=1 \
	"$AB" matrix -q -o "$T/p" "$T/p.ini" >/dev/null 2>"$T/p.err" &
spid=$!
held=$(held_by_strace $spid "$T/stop2.log")
sed -i 's/^size = 64m/size = 128m/' "$T/w.ini"
[ -n "$held" ] && kill -CONT "$held"
wait $spid
is "$?" 0 "a matrix of a profile file and a built-in profile exits 0" || sed 's/^/#   /' "$T/p.err"
cmp -s "$T/w.orig" "$T/p/matrix.workloads/w.ini" && [ -s "$T/p/matrix.workloads/bonnie.ini" ] &&
	(cd "$T/p" && sha256sum -c --quiet matrix.sha256); ok $? "DIR keeps a copy of each profile and their digests"
is "$(python3 -c "
import json, sys
print(' '.join('%s:%s' % (r['cell'].split()[-1], r['config']['file_size_bytes']) for r in map(json.loads, open(sys.argv[1]))))" "$T/p/results.jsonl")" \
	"w:67108864 bonnie:67108864 w:67108864 bonnie:67108864" "a profile edited mid-matrix: the visits ran the copy (64m)"
cp "$T/p/results.jsonl" "$T/p.before"
"$AB" matrix -q -o "$T/p" "$T/p.ini" >/dev/null 2>"$T/p2.err"
is "$? $(wc -l <"$T/p2.err")" "1 1" "a resume whose profile changed is refused (exit 1) in one line"
grep -q "^arraybench: error: the profile '$T/./w.ini' is not the one the matrix in '$T/p' was started with (that one is its matrix.workloads/w.ini): give --fresh" \
	"$T/p2.err"; ok $? "naming the profile and its copy" || sed 's/^/#   /' "$T/p2.err"
cp "$T/w.orig" "$T/w.ini"
sed -i 's/^size = 64m/size = 1g/' "$T/p/matrix.workloads/w.ini"
"$AB" matrix -q -o "$T/p" "$T/p.ini" >/dev/null 2>"$T/p5.err"
is "$? $(grep -c "^arraybench: error: '$T/p/matrix.workloads/w.ini' is not the copy of profile '$T/./w.ini' the matrix was started with" "$T/p5.err")" \
	"1 1" "a copy edited in DIR (the visits run it) is refused too"
cp "$T/w.orig" "$T/p/matrix.workloads/w.ini"
sed -i "s/^[0-9a-f]*  matrix.workloads\/bonnie.ini$/$(printf '0%.0s' $(seq 64))  matrix.workloads\/bonnie.ini/" "$T/p/matrix.sha256"
"$AB" matrix -q -o "$T/p" "$T/p.ini" >/dev/null 2>"$T/p3.err"
is "$?" 1 "a DIR whose built-in profile's text was another arraybench's is refused too"
grep -q "^arraybench: error: this arraybench's built-in profile 'bonnie' is not the one" "$T/p3.err"; ok $? "saying so"
cmp -s "$T/p.before" "$T/p/results.jsonl"; ok $? "the refusals leave the results alone"
sed -i 's/^size = 64m/size = 128m/' "$T/w.ini"
"$AB" matrix -q --fresh -o "$T/p" "$T/p.ini" >/dev/null 2>"$T/p4.err"
is "$? $(ls -d "$T"/p/matrix.workloads.old-* | wc -l)" "0 1" "--fresh starts over, the old copies moved aside"
cmp -s "$T/w.ini" "$T/p/matrix.workloads/w.ini"; ok $? "with a copy of the profile as it is now"
# matrix.workloads replaced by a symbolic link (another user's, to copies
# that match): the visits would run what it points to.  Refused.
mv "$T/p/matrix.workloads" "$T/p-wl" && ln -s "$T/p-wl" "$T/p/matrix.workloads" && chown -h nobody "$T/p/matrix.workloads"
"$AB" matrix -q -o "$T/p" "$T/p.ini" >/dev/null 2>"$T/p6.err"
is "$? $(cat "$T/p6.err")" \
	"4 arraybench: error: refusing '$T/p/matrix.workloads': a symbolic link, not the directory the matrix made (remove it)" \
	"matrix.workloads as a symbolic link: refused (exit 4) in one line"
rm "$T/p/matrix.workloads" && mv "$T/p-wl" "$T/p/matrix.workloads"
is "$(left_behind)" "" "no loop device, mount or journal left at the end"
done_testing
