#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later
# Devices in use, in the forms this kernel can make that other scripts do
# not already test (t2001: mounted, the root device; t2002: swap, held open
# exclusively): a device that backs a loop device (directly, at an offset,
# through a chain, through a partition), a partition mounted, a member of a
# mounted multi-device btrfs, a loop device on a device in use (mounted,
# swap).  run, run --dry-run, run --members, raw
# --write, matrix and matrix --dry-run all refuse with exit 4 and one line,
# whatever --yes-destroy says, and the file system on the upper loop is
# intact afterwards.  Holders (md, dm) are not in this kernel: test-safety
# covers them on a fake sysfs.  Root only.
. "$(dirname "$0")/lib.sh"
is_root && [ -e /dev/loop-control ] || skip_all "needs root and loop devices"
export ARRAYBENCH_STATE_DIR=$T/state TMPDIR=$T/tmp
mkdir -p "$TMPDIR"
run_args="--fs ext4 -s 64m -r 32 --cache none -n 0 -f --phases block-write -q"

left_behind() { # what arraybench left: its images, mounts under $T, its journal
	{ loops "$T/tmp"; mounts "$T/tmp"; ls -A "$TMPDIR"; ls -A "$ARRAYBENCH_STATE_DIR" 2>/dev/null; } | tr '\n' ' '
}
one_error() { # stderr-file text: one line, an error, holding the text
	[ "$(wc -l <"$1")" -eq 1 ] && grep -q '^arraybench: error: ' "$1" && grep -qF -- "$2" "$1" && return 0
	sed 's/^/#   /' "$1"; return 1
}
# Loop devices are never detached before the end (another job may get the
# number at once, and the cleanup would then detach its device); the last
# attached is detached first.
attach() { # var losetup-args...: a new loop device in $var
	local var=$1 dev; shift
	dev=$(losetup --find --show "$@") || return 1
	cleanup_add "losetup -d $dev"
	printf -v "$var" %s "$dev"
}
image() { truncate -s "$2" "$T/$1" && echo "$T/$1"; }
refused() { # description text command...: exit 4 and one line holding the text
	local what=$1 text=$2; shift 2
	"$@" >"$T/out" 2>"$T/err"
	is $? 4 "$what: exit 4"
	one_error "$T/err" "$text"; ok $? "$what: one line, '$text'"
}
name() { echo "${1#/dev/}"; }

# The issue's reproduction: ext4 on loop B, B backed by loop A, mounted.
attach a "$(image a.img 256M)" && attach b "$a"
mkfs.ext4 -q -F -L upper "$b" && mkdir "$T/mnt" && mount "$b" "$T/mnt" && cleanup_add "umount $T/mnt"
ok $? "ext4 on loop device $b (backed by $a), mounted"
seq 100000 >"$T/mnt/data" && sync
uuid() { blkid -p -s UUID -o value "$1"; }
uuid_b=$(uuid "$b")
mounted="the loop device '$(name "$b")' (built on it) is mounted at '$T/mnt'"
refused "run --device A" "refusing '$a': $mounted" \
	"$AB" run --device "$a" --yes-destroy "$a" $run_args
refused "run --dry-run --device A" "refusing '$a': $mounted" \
	"$AB" run --dry-run --device "$a" --yes-destroy "$a" $run_args
grep -q mkfs "$T/out"; is $? 1 "the dry run shows no plan past the refusal"
attach x "$(image x.img 256M)"
refused "run --members A,X --array raid1" "refusing '$a': $mounted" \
	"$AB" run --array raid1 --backend btrfs --members "$a,$x" --yes-destroy "$a,$x" ${run_args/ext4/btrfs}
refused "raw --write" "refusing '$a': $mounted" \
	"$AB" raw --write --device "$a" --yes-destroy "$a" --bytes 4m
"$AB" raw --device "$a" --bytes 4m >/dev/null 2>"$T/err"
is "$? $(grep -cF "warning: '$a' is in use ($mounted)" "$T/err")" "0 1" "raw reads A, warning that B is mounted on it"

# A matrix refuses its members before the first visit, and in its dry run.
cat >"$T/m.ini" <<EOF
[matrix]
members = $a,$x
yes-destroy = $a,$x
levels = btrfs:raid1
fs = btrfs
repeats = 1
options = -s 64m -r 32 --cache none -n 0 -f --phases block-write
EOF
refused "matrix with members A,X" "refusing '$a': $mounted" "$AB" matrix -o "$T/mx" "$T/m.ini"
grep -q "^arraybench: error: $T/m.ini:[0-9]*: " "$T/err"; ok $? "naming the matrix file and line"
[ ! -e "$T/mx" ]; ok $? "before any visit: no results directory"
refused "matrix --dry-run" "refusing '$a': $mounted" "$AB" matrix --dry-run "$T/m.ini"
[ ! -s "$T/out" ]; ok $? "the matrix dry run prints no plan"

# Unmounted, B still shows A's blocks: still in use.
umount "$T/mnt"
refused "run --device A, B not mounted" "refusing '$a': it backs the loop device '$(name "$b")'" \
	"$AB" run --device "$a" --yes-destroy "$a" $run_args
e2fsck -fn "$b" >"$T/fsck" 2>&1; is "$? $(uuid "$b")" "0 $uuid_b" "e2fsck -fn of B: clean, and the same file system"
mount -o ro "$b" "$T/mnt" && cmp -s <(seq 100000) "$T/mnt/data"; ok $? "B's data is intact"
umount "$T/mnt"

# The upper loop at an offset: the same.
attach a2 "$(image a2.img 256M)" && attach b2 -o 1048576 "$a2"
mkfs.ext4 -q -F "$b2" && mkdir "$T/mnt2" && mount "$b2" "$T/mnt2" && cleanup_add "umount $T/mnt2"
uuid_b2=$(uuid "$b2")
ok $? "ext4 on $b2, backed by $a2 from 1 MiB on, mounted"
refused "run --device A, B at an offset" "refusing '$a2': the loop device '$(name "$b2")' (built on it) is mounted at '$T/mnt2'" \
	"$AB" run --device "$a2" --yes-destroy "$a2" $run_args
umount "$T/mnt2"
refused "B at an offset, not mounted" "refusing '$a2': it backs the loop device '$(name "$b2")'" \
	"$AB" run --device "$a2" --yes-destroy "$a2" $run_args
e2fsck -fn "$b2" >"$T/fsck2" 2>&1; is "$? $(uuid "$b2")" "0 $uuid_b2" "e2fsck -fn of B at an offset: clean, the same file system"

# A chain of three: C on B on A.
attach a3 "$(image a3.img 64M)" && attach b3 "$a3" && attach c3 "$b3"
ok $? "a chain of loops: $c3 on $b3 on $a3"
refused "the bottom of a chain" "refusing '$a3': it backs the loop device '$(name "$b3")'" \
	"$AB" run --device "$a3" --yes-destroy "$a3" $run_args
refused "the middle of a chain" "refusing '$b3': it backs the loop device '$(name "$c3")'" \
	"$AB" run --device "$b3" --yes-destroy "$b3" $run_args
mkfs.ext4 -q -F "$c3" && mkdir "$T/mnt3" && mount "$c3" "$T/mnt3" && cleanup_add "umount $T/mnt3"
refused "the top of the chain mounted" "refusing '$a3': the loop device '$(name "$c3")' (built on it) is mounted at '$T/mnt3'" \
	"$AB" run --device "$a3" --yes-destroy "$a3" $run_args
umount "$T/mnt3"

# A partition of a partitioned loop device backs a loop device, then is
# mounted: the whole disk is in use either way.
image p.img 64M >/dev/null
# One MBR partition from sector 2048 to the end: type 0x83, then 0x55aa.
printf '\000\000\000\000\203\000\000\000\000\010\000\000\000\370\001\000' |
	dd of="$T/p.img" bs=1 seek=446 conv=notrunc status=none
printf '\125\252' | dd of="$T/p.img" bs=1 seek=510 conv=notrunc status=none
attach p -P "$T/p.img"
await "[ -b '${p}p1' ]" 10 # the kernel reads the table as it attaches; without the parser, no wait helps
# A kernel without the msdos parser reads no table: partx reads it and
# adds the partition (BLKPG).
[ -b "${p}p1" ] || { need partx && partx --add "$p"; }
if [ -b "${p}p1" ]; then
	attach q "${p}p1"
	refused "a partition backing a loop device" "refusing '$p': its partition '$(name "$p")p1' backs the loop device '$(name "$q")'" \
		"$AB" run --device "$p" --yes-destroy "$p" $run_args
	refused "the partition itself" "refusing '${p}p1': it backs the loop device '$(name "$q")'" \
		"$AB" run --device "${p}p1" --yes-destroy "${p}p1" $run_args
	mkfs.ext4 -q -F "${p}p1" && mkdir "$T/mnt4" && mount "${p}p1" "$T/mnt4" && cleanup_add "umount $T/mnt4"
	refused "a partition mounted" "refusing '$p': its partition '$(name "$p")p1' is mounted at '$T/mnt4'" \
		"$AB" run --device "$p" --yes-destroy "$p" $run_args
	umount "$T/mnt4"
else
	skip "no partition on a loop device here"
fi

# A member of a mounted two-device btrfs that it was not mounted from: only
# /sys/fs/btrfs shows it.
attach m1 "$(image m1.img 160M)" && attach m2 "$(image m2.img 160M)"
if need mkfs.btrfs && mkfs.btrfs -q -f -d raid1 -m raid1 "$m1" "$m2" >"$T/mkfs" 2>&1 &&
	mkdir "$T/mnt5" && mount -t btrfs -o device="$m2" "$m1" "$T/mnt5"; then
	cleanup_add "umount $T/mnt5"
	fsid=$(blkid -s UUID -o value "$m1")
	refused "a member of a mounted btrfs" "refusing '$m2': it is a member of the mounted btrfs file system '$fsid'" \
		"$AB" run --device "$m2" --yes-destroy "$m2" $run_args
	umount "$T/mnt5"
else
	sed 's/^/#   /' "$T/mkfs"
	skip "no multi-device btrfs here"; skip "no multi-device btrfs here"
fi

# The other way: a write to a loop device is a write to what backs it.
attach u "$(image u.img 64M)" && mkfs.ext4 -q -F "$u" && mkdir "$T/mnt6" && mount "$u" "$T/mnt6" &&
	cleanup_add "umount $T/mnt6" && attach v "$u"
ok $? "loop device $v on $u, which is mounted"
refused "a loop device on a mounted device" "refusing '$v': its backing device '$(name "$u")' is mounted at '$T/mnt6'" \
	"$AB" run --device "$v" --yes-destroy "$v" $run_args
umount "$T/mnt6"
if need mkswap swapon swapoff && mkswap -q "$u" >/dev/null 2>&1 && swapon "$u" 2>/dev/null; then
	cleanup_add "swapoff $u"
	refused "a loop device on an active swap area" "refusing '$v': its backing device '$(name "$u")' is in use: opened exclusively" \
		"$AB" run --device "$v" --yes-destroy "$v" $run_args
	swapoff "$u"
else
	skip "swapon is not allowed here"; skip "swapon is not allowed here"
fi
"$AB" run --dry-run --device "$v" --yes-destroy "$v" $run_args >/dev/null 2>"$T/err"
is "$? $(cat "$T/err")" "0 " "a loop device on a device nothing else uses is accepted"

is "$(left_behind)" "" "the refusals made no image, mount or journal"
done_testing
