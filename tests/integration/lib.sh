# SPDX-License-Identifier: GPL-2.0-or-later
# TAP helpers shared by the integration scripts.  Each script sources this,
# uses ok/is/skip, and ends with done_testing, which prints the plan from the
# checks it ran (git's test_done habit: no count kept by hand).  A script
# that stops before that has no plan, and tests/run-checks fails it.  One
# where nothing can run says skip_all "why" before its first check.
# Everything made lives in $T, removed on exit together with any mount or
# loop device registered with cleanup_add.

top=$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)
AB=${AB:-$top/arraybench}
T=$(mktemp -d "${TMPDIR:-/tmp}/ab-test.XXXXXX")
_n=0
_cleanups=()

cleanup_add() { _cleanups=("$*" "${_cleanups[@]}"); }
_cleanup() {
	local c
	for c in "${_cleanups[@]}"; do eval "$c" >/dev/null 2>&1; done
	rm -rf "$T" "$_unseen"
}
trap _cleanup EXIT
# Journals go to the test's own state directory (the documented
# ARRAYBENCH_STATE_DIR), never the invoker's: root's /var/lib/arraybench is
# shared with the machine and with other jobs' cleanups, and a user without a
# home would be left an empty /var/tmp/arraybench-state.UID.  A check of the
# default location unsets it for its run (it reaches su's commands too).
export ARRAYBENCH_STATE_DIR=$T/state

# Observers: the tools a check looks through (losetup, the mount table,
# pgrep, the cgroup tree, strace's log).  One that is missing or fails must
# fail the check, never let it pass on the empty output it leaves ("losetup:
# command not found" prints nothing on stdout, and "nothing attached" is
# what most checks want).  The helpers below note such a failure in a file
# (they mostly run inside $(...)); the next ok, is or skip then fails,
# naming it.
_unseen=$T.unseen
unseen() { echo "$*" >>"$_unseen"; }
_seen() { # true unless an observer failed since the last check
	[ -s "$_unseen" ] || return 0
	sed 's/^/#   observer failed: /' "$_unseen"; rm -f "$_unseen"; return 1
}

_planned=
plan() { # N: the plan up front, for a script that knows its count (optional)
	_planned=$1; echo "1..$1"
}
done_testing() { # the script's end: the plan, from the checks run (unless given up front)
	# A trailing plan is what tells run-checks the script got here: one cut
	# short (set -e, a crash, an exit in the middle) prints none and fails.
	[ -n "$_planned" ] && return 0
	_planned=$_n
	echo "1..$_n"
}
test_done() { done_testing; }
ok() { # condition-status description
	_n=$((_n + 1))
	local why; why=$(_seen)
	if [ "$1" -eq 0 ] && [ -z "$why" ]; then echo "ok $_n - $2"; else echo "not ok $_n - $2"; fi
	[ -z "$why" ] || echo "$why"
}
is() { # got want description
	_n=$((_n + 1))
	local why; why=$(_seen)
	if [ "$1" = "$2" ] && [ -z "$why" ]; then echo "ok $_n - $3"; else
		echo "not ok $_n - $3"; echo "#   got:  '$1'"; echo "#   want: '$2'"; fi
	[ -z "$why" ] || echo "$why"
}
skip() { # a skip decided on what a failed observer showed is a failure
	_n=$((_n + 1))
	local why; why=$(_seen)
	if [ -z "$why" ]; then echo "ok $_n # SKIP $*"; else echo "not ok $_n - skipped ($*), but:"; echo "$why"; fi
}
diag() { echo "# $*"; }
skip_all() { # reason: nothing in this script can run here (say so before any check)
	# (a root-only script run by another user: TAP's "1..0 # SKIP", which
	# run-checks counts as skipped, not failed)
	[ "$_n" -eq 0 ] || { skip_rest "$@"; return; }
	echo "1..0 # SKIP $*"
	exit 0
}
skip_rest() { # reason: the checks left cannot run here: say so once and end the script
	# (its plan still adds up, whatever was run before)
	if [ "$_n" -eq 0 ] && [ -z "$_planned" ]; then skip_all "$@"; fi
	if [ -n "$_planned" ]; then
		while [ "$_n" -lt "$_planned" ]; do skip "$*"; done
	else
		skip "$* (the checks left are not run)"
		done_testing
	fi
	exit 0
}
is_root() { [ "$(id -u)" = 0 ]; }

# The cache mode tests use: a memory cgroup when this machine has one (the
# honest default), else none with a small trusted -r.
cache_args() {
	if is_root && { [ -w /sys/fs/cgroup/memory ] || grep -qw memory /sys/fs/cgroup/cgroup.subtree_control 2>/dev/null; }; then
		echo "--cache cgroup -r 16"
	else
		echo "--cache none -r 16"
	fi
}

# arraybench as a path other users can run: the tree may lie where only root
# may enter (a root user's clone in /root), so then a copy in $T (made 711).
ab_for_others() { # user
	if su "$1" -s /bin/sh -c "test -x '$AB'" 2>/dev/null; then echo "$AB"; return; fi
	chmod 711 "$T" && mkdir -p -m 755 "$T/bin" && install -m 755 "$AB" "$T/bin/arraybench" && echo "$T/bin/arraybench"
}

# A figure from a JSON Lines file (--json's, a matrix's results.jsonl):
# js FILE EXPRESSION prints the Python expression's value (a string as is,
# anything else as JSON).  The expression sees objs (every object), o (the
# last one, usually the run a check looks at), and the last run's results
# by phase: cells (sweep), w (wal), res (oltp) and rows (oltp, by test);
# rate(v) is a rate as every text view prints it (one decimal below 1000,
# else its whole part).  One helper, so that each script's checks read the
# same names.
js() { # json-file python-expression
	python3 - "$@" <<'PY'
import json, sys
objs = [json.loads(l) for l in open(sys.argv[1])]
o = objs[-1]
def results(name):
    return [p for p in o.get("phases", []) if p.get("name") == name] if isinstance(o, dict) else []
cells = results("sweep")
w = results("wal")
res = results("oltp")
rows = {p["key"].get("test"): p for p in res}
rate = lambda v: "%.1f" % v if v < 1000 else "%d" % int(v)
r = eval(sys.argv[2])
print(r if isinstance(r, str) else json.dumps(r))
PY
}

# Empty except for what the test itself put there?
dir_is_empty() { [ -z "$(ls -A "$1")" ]; }

# A small ext4 image on a loop device, mounted at $1 (root only).
make_loop_fs() { # mountpoint size_mib [mkfs.ext4 options...]
	local img=$T/fs.img mnt=$1 size=$2
	shift 2
	truncate -s "${size}M" "$img"
	mkfs.ext4 -q -F "$@" "$img" || return 1
	local dev
	dev=$(losetup --find --show "$img") || return 1
	cleanup_add "losetup -d $dev"
	mkdir -p "$mnt"
	mount "$dev" "$mnt" || return 1
	cleanup_add "umount $mnt"
}

# The observers.  Each prints what it sees (nothing when there is nothing)
# and returns 0, or notes why it could not look and returns 1.
need() { # command...: all of them are installed
	local c r=0
	for c; do command -v "$c" >/dev/null || { unseen "'$c' is missing (make deps installs it)"; r=1; }; done
	return $r
}
_matching() { # text [fixed-string]: TEXT's lines holding the string (all without one)
	[ -n "$1" ] || return 0
	printf '%s\n' "$1" | grep -F -- "${2-}"
	return 0
}
loops() { # [string]: the `losetup -a` lines naming STRING
	need losetup || return 1
	local out
	out=$(losetup -a 2>&1) || { unseen "losetup -a failed: $out"; return 1; }
	_matching "$out" "${1-}"
}
mounts() { # [string]: the lines of /proc/self/mounts naming STRING
	local out
	out=$(cat /proc/self/mounts 2>&1) && [ -n "$out" ] || { unseen "cannot read /proc/self/mounts: $out"; return 1; }
	_matching "$out" "${1-}"
}
procs() { # pgrep-arguments...: pgrep's lines (it exits 1 when none match)
	need pgrep || return 1
	local out st
	out=$(pgrep "$@" 2>&1); st=$?
	[ $st -le 1 ] || { unseen "pgrep $* failed (exit $st): $out"; return 1; }
	_matching "$out"
}
memcg_root() { # the memory cgroup tree: v1's memory hierarchy, else v2's root
	if [ -e /sys/fs/cgroup/memory/cgroup.procs ]; then echo /sys/fs/cgroup/memory
	elif [ -e /sys/fs/cgroup/cgroup.controllers ]; then echo /sys/fs/cgroup
	else unseen "no cgroup tree is mounted at /sys/fs/cgroup"; return 1; fi
}
traced_whole() { # strace-log: strace ran and saw its tracee to the end
	[ -s "$1" ] && grep -q '+++ \(exited with\|killed by\)' "$1" && return 0
	if command -v strace >/dev/null; then unseen "strace's log '$1' does not show the run's end"
	else unseen "'strace' is missing (make deps installs it)"; fi
	return 1
}

# Waiting without racing.  A check that needs something to have happened
# waits for that thing, never for a fixed time: on a loaded machine (CI, other
# jobs attaching loop devices beside us) a run can take many seconds to reach
# a phase, and on an idle one a phase can be over before a fixed sleep is.
# The bounds are generous, as they cost nothing when things go well, and
# running out of one is a failure, never a pass.
AWAIT_TIMEOUT=${AWAIT_TIMEOUT:-120}
# A check that a command does not hang (timeout, or an await on its end)
# gives it this long: a quick command can take many seconds on a loaded
# machine, and only a hang takes this.
HANG_AFTER=${HANG_AFTER:-300}
await() { # condition [seconds]: poll the shell condition until it holds; 1 if it never did
	local end=$((SECONDS + ${2:-$AWAIT_TIMEOUT}))
	until eval "$1"; do
		[ "$SECONDS" -lt "$end" ] || return 1
		sleep 0.05
	done
}
ended() { # pid: the process is gone, or a zombie no one has reaped yet
	local state
	state=$(sed -n 's/^.*) \(.\).*/\1/p' "/proc/$1/stat" 2>/dev/null)
	[ -z "$state" ] || [ "$state" = Z ] || [ "$state" = X ]
}
_ours() { # pid: a child of this shell (after a reap, the number may be anyone's)
	[ "$(sed -n 's/^.*) . \([0-9]*\).*/\1/p' "/proc/$1/stat" 2>/dev/null)" = "$$" ]
}
kill_at_exit() { # pid: a helper process of the test's own, killed at the end if still running
	cleanup_add "_ours $1 && kill -KILL $1"
}
descendants() { # pid: the processes it started, theirs, and so on
	local c
	for c in $(procs -P "$1"); do echo "$c"; descendants "$c"; done
}
run_pid() { # pid: the first arraybench process under it (the run, started through su, script, timeout)
	local p
	for p in $(descendants "$1"); do
		[ "$(cat "/proc/$p/comm" 2>/dev/null)" = arraybench ] && { echo "$p"; return 0; }
	done
	return 1
}
kill9() { # pid: kill -9 a run as a crash would, then wait until it and all it started are gone
	# Its workers die with it (PR_SET_PDEATHSIG), but a moment later: a
	# check that looks at once (what is left, cleanup) would race them.  Our
	# own child is stopped first, so it cannot fork between the listing and
	# the kill (not a child of su's: su stops itself when its child stops).
	local p pids
	[ -n "$1" ] || { unseen "no process to kill -9"; return 1; }
	_ours "$1" && kill -STOP "$1"
	pids=$(descendants "$1")
	kill -KILL "$1" 2>/dev/null
	# A run held by strace dies only once its tracer lets go: the SIGKILL
	# is pending, so it runs no more code of its own either way.
	[ "$1" = "${held-}" ] && hold_release
	wait "$1" 2>/dev/null
	for p in "$1" $pids; do
		await "ended $p" || unseen "process $p outlived the run $1 killed with -9"
	done
	return 0
}
none_left() { # [dir]: no loop device backed by a file under DIR ($T) and no mount under it
	# Only our own: other jobs on the machine attach and mount as they like,
	# so a count of all loop devices or mounts proves nothing.
	local top left
	top=$(realpath "${1:-$T}") || return 1
	left=$({ loops "$top/"; mounts "$top/"; })
	[ -z "$left" ] && return 0
	printf '%s\n' "$left" | sed 's/^/#   left: /'
	return 1
}

# The page cache is the machine's: another job's drop_caches (a test of
# --cache drop beside this one) may empty it at any moment.  A check that
# needs the cache to keep what its run put there (a warm read, a stat that
# reads no inode) runs it through warm_run, which runs it again when
# /proc/vmstat has counted a drop meanwhile.
drops() { awk '$1 == "drop_pagecache" || $1 == "drop_slab" { n += $2 } END { print n + 0 }' /proc/vmstat; }
warm_run() { # command-text [file...]: eval the command until no drop came during it (3 tries), removing FILEs before each
	local cmd=$1 try before st
	shift
	for try in 1 2 3; do
		rm -f "$@"
		before=$(drops)
		eval "$cmd"
		st=$?
		[ "$(drops)" = "$before" ] && return $st
		diag "the page cache was dropped during the run (another job's drop_caches): running it again"
	done
	return $st
}

# Holding a run at a known point.  A check that needs a run at one moment
# (about to unmount, between two visits, right after a mkdir) holds it
# there instead of racing it: `hold` starts the command under strace, which
# stops it at the NTH call CALL (naming PATH, strace's -P, if one is given),
# before the call (enter) or after it (exit); `hold_reached` waits until
# strace's log shows it held there; the test acts; `hold_release` lets it go.
#
# The release is strace's exit, not a timer: strace is attached (-p) to
# the command, our own child, so when it is killed the kernel detaches every
# tracee and the held call just goes on (no PTRACE_O_EXITKILL: strace sets
# that only with --kill-on-exit), while `wait $held` still gives the
# command's exit status.  The delay strace is told is an hour, longer than
# any test, so nothing lets the run go but the test.  (Not --seccomp-bpf:
# without a tracer, seccomp's trace action fails the traced calls with
# ENOSYS; so every call of a traced process stops, and -f, following the
# workers, is for holds in a worker only: one-byte writes traced cost dear.)
hold() { # [-f] log enter|exit call nth path command...: start COMMAND in the background, held; sets $held, $holder
	local follow=
	[ "$1" = -f ] && { follow=-f; shift; }
	local log=$1 at=$2 call=$3 nth=$4 path=$5
	shift 5
	_hold_log=$log _hold_at=$at _hold_call=$call _hold_nth=$nth
	: >"$log"
	holder=
	if ! need strace; then false & held=$!; return 1; fi
	# The command stops itself before it runs (its exec comes after strace
	# is attached), so not one of its calls is missed.
	bash -c 'kill -STOP $$; exec "$@"' held "$@" &
	held=$!
	if ! await "_stopped $held"; then unseen "the command to hold never stopped to wait for strace"; return 1; fi
	strace $follow -p "$held" -o "$log" ${path:+-P "$path"} -e trace="$call" \
		-e inject="$call:delay_$at=3600s:when=$nth" </dev/null >/dev/null 2>"$log.strace" &
	holder=$!
	kill_at_exit "$holder"
	# strace says "attached" after PTRACE_SEIZE and PTRACE_INTERRUPT: the
	# command then traps before any code of its own runs.
	await "grep -q 'Process $held attached' '$log.strace' || ended $holder"
	if ! grep -q "Process $held attached" "$log.strace"; then
		unseen "strace could not attach to the command to hold: $(head -c 300 "$log.strace")"
		kill -KILL "$held"; return 1
	fi
	kill -CONT "$held"
}
_stopped() { [ "$(sed -n 's/^.*) \(.\).*/\1/p' "/proc/$1/stat" 2>/dev/null)" = T ]; }
_held_line() { # the line of strace's log that shows the held call, if there is one yet
	if [ "$_hold_at" = exit ]; then
		grep -m1 '(DELAYED)$' "$_hold_log"
	else # held on entry: the call is logged, unfinished; strace counts NTH per process
		awk -v c="$_hold_call" -v n="$_hold_nth" '$0 ~ "^([0-9]+ +)?" c "\\(" {
			k = $0 ~ /^[0-9]/ ? $1 : "-"; if (++seen[k] == n) { print; exit } }' "$_hold_log"
	fi
}
_held_there() { [ -n "$(_held_line)" ]; }
hold_pid() { # the process held (with -f, perhaps a worker): strace's log names it
	local line
	line=$(_held_line)
	case $line in [0-9]*) echo "${line%% *}" ;; *) echo "$held" ;; esac
}
hold_reached() { # wait until the run is held; 1, noted so that the next check fails, if it never was
	await "_held_there || ended $held || ended $holder"
	_held_there && ! ended "$held" && return 0
	unseen "the run was never held at its $_hold_call ($_hold_at, call $_hold_nth): $(tail -3 "$_hold_log" | tr '\n' ' ')"
	return 1
}
hold_release() { # let the held run go on
	[ -n "$holder" ] && kill -KILL "$holder" 2>/dev/null && wait "$holder" 2>/dev/null
	return 0
}

# The TAP a test guest wrote (tests/vm/), relayed as this script's checks,
# renumbered: its comments and skips as they are, each ok or not ok as one
# check, and every check of the COUNT it promised that it did not report as
# a failure, with the ends of its stderr and console from LOGDIR.
relay_guest() { # tap-file count logdir
	local tap=$1 count=$2 logdir=$3 relayed=0 line
	while IFS= read -r line; do
		case $line in
		'#'*) echo "$line" ;;
		ok\ *'# SKIP'*) [ $relayed -lt "$count" ] && { skip "${line#*# SKIP }"; relayed=$((relayed + 1)); } ;;
		ok\ *) [ $relayed -lt "$count" ] && { ok 0 "guest: ${line#ok * - }"; relayed=$((relayed + 1)); } ;;
		not\ ok\ *) [ $relayed -lt "$count" ] && { ok 1 "guest: ${line#not ok * - }"; relayed=$((relayed + 1)); } ;;
		esac
	done <"$tap"
	if [ $relayed -lt "$count" ]; then
		diag "the guest reported $relayed of $count checks; its stderr and console end with:"
		tail -15 "$logdir/stderr" 2>/dev/null | sed 's/^/#   /'
		tail -15 "$logdir/console.log" 2>/dev/null | sed 's/^/#   /'
	fi
	while [ $relayed -lt "$count" ]; do ok 1 "guest check $((relayed + 1)) not reported"; relayed=$((relayed + 1)); done
}

# What a test guest run from this script left (run-guest.sh's directory in
# $T, a loop device or qemu process of it), on one line; nothing when all
# is gone.
guest_left() {
	{
		ls -d "$T"/ab-vm.* 2>/dev/null
		loops "$T/"
		procs -a -f "qemu-system-x86_64 .*$T/"
	} | tr '\n' ' '
}
