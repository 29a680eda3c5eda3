# SPDX-License-Identifier: GPL-2.0-or-later
# TAP helpers shared by the integration scripts.  Each script sources this,
# calls plan N, and uses ok/is/skip.  Everything made lives in $T, removed on
# exit together with any mount or loop device registered with cleanup_add.

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

plan() { echo "1..$1"; }
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
