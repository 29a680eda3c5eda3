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
	rm -rf "$T"
}
trap _cleanup EXIT

plan() { echo "1..$1"; }
ok() { # condition-status description
	_n=$((_n + 1))
	if [ "$1" -eq 0 ]; then echo "ok $_n - $2"; else echo "not ok $_n - $2"; fi
}
is() { # got want description
	_n=$((_n + 1))
	if [ "$1" = "$2" ]; then echo "ok $_n - $3"; else
		echo "not ok $_n - $3"; echo "#   got:  '$1'"; echo "#   want: '$2'"; fi
}
skip() { _n=$((_n + 1)); echo "ok $_n # SKIP $*"; }
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
