#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later
# Hostile and careless option values against built targets: a device slipped
# in through --mkfs-opts or --mount-opts, duplicate members, a missing --loop
# directory, a level the backend lacks, contradicting options, a uid out of
# range.  Each is refused before anything is made, with one clear line, and
# the device it aimed at is untouched.  Root only (loop devices).
. "$(dirname "$0")/lib.sh"
is_root && [ -e /dev/loop-control ] || skip_all "needs root and loop devices"
export ARRAYBENCH_STATE_DIR=$T/state TMPDIR=$T/tmp
mkdir -p "$TMPDIR"
small="-s 32m -r 16 --cache cgroup -n 1 -f -q"

left_behind() {
	{ loops "$T/tmp"; mounts "$T/"; ls -A "$TMPDIR"; ls -A "$ARRAYBENCH_STATE_DIR" 2>/dev/null; } | tr '\n' ' '
}
one_error() { # stderr-file text
	[ "$(wc -l <"$1")" -eq 1 ] && grep -q '^arraybench: error: ' "$1" && grep -qF -- "$2" "$1" && return 0
	sed 's/^/#   /' "$1"; return 1
}

# The victim: an ext4 device of the test's own, holding data.
truncate -s 64m "$T/victim.img"; mkfs.ext4 -q -F -L victim "$T/victim.img"
victim=$(losetup --find --show "$T/victim.img"); cleanup_add "losetup -d $victim"
uuid=$(blkid -s UUID -o value "$victim")
sum() { head -c 4M "$victim" | md5sum; }
before=$(sum)

attack() { # want-status text description args...
	local want=$1 text=$2 what=$3; shift 3
	"$AB" run "$@" $small >"$T/out" 2>"$T/err"
	is $? "$want" "$what: exit $want"
	one_error "$T/err" "$text"; ok $? "$what: one line naming '$text'"
}
attack 4 "refusing --mkfs-opts '$victim': it is a block device" "--mkfs-opts naming a device" \
	--loop 2:256m --array raid1 --fs btrfs --mkfs-opts "$victim"
attack 4 "refusing --mkfs-opts '$victim'" "--mkfs-opts -J device=DEV" \
	--loop 1:256m --fs ext4 --mkfs-opts "-J device=$victim"
attack 4 "refusing --mkfs-opts 'UUID=$uuid': it names a device by tag" "--mkfs-opts -J device=UUID=..." \
	--loop 1:256m --fs ext4 --mkfs-opts "-J device=UUID=$uuid"
attack 4 "refusing --mkfs-opts '$victim'" "--mkfs-opts -l logdev=DEV" \
	--loop 1:320m --fs xfs --mkfs-opts "-l logdev=$victim,size=10m"
attack 4 "refusing --mount-opts '$victim'" "--mount-opts device=DEV" \
	--loop 2:256m --array raid1 --fs btrfs --mount-opts "noatime,device=$victim"
attack 4 "refusing --mkfs-opts '$victim'" "--dry-run refuses the same" \
	--loop 2:256m --array raid1 --fs btrfs --mkfs-opts "$victim" --dry-run
is "$(sum)" "$before" "the victim's first 4 MiB are unchanged"
is "$(blkid -s LABEL -o value "$victim")" "victim" "the victim still carries its ext4 file system"
is "$(left_behind)" "" "no image, loop, mount or journal is left"

# Everything is checked before the first image is made: strace sees no
# image created for any of these.
traced_images() { # args...: how many .img files the run created
	command -v strace >/dev/null || { echo "unknown: no strace"; return; }
	strace -f -e trace=openat -o "$T/trace" "$AB" run "$@" $small >/dev/null 2>"$T/err"
	echo $? >"$T/status"
	traced_whole "$T/trace" && grep -c 'arraybench-.*\.img.*O_CREAT' "$T/trace"
}
check_first() { # want-status text description args...
	local want=$1 text=$2 what=$3; shift 3
	is "$(traced_images "$@")" 0 "$what: no image is made"
	is "$(cat "$T/status")" "$want" "$what: exit $want"
	one_error "$T/err" "$text"; ok $? "$what: one line naming '$text'"
}
command -v strace >/dev/null || diag "strace is missing: these checks fail"
check_first 1 "invalid --array 'raid7' for the btrfs backend" "a level btrfs lacks" \
	--loop 2:256m --array raid7 --fs btrfs
check_first 1 "too few devices for btrfs profile 'raid6'" "too few members" \
	--loop 2:256m --array raid6 --fs btrfs
if [ ! -e /proc/mdstat ]; then
	check_first 3 "md RAID is not in this kernel" "mdadm without md" \
		--loop 4:256m --array raid10 --fs xfs --backend mdadm
else
	check_first 1 "invalid RAID level" "an mdadm level that does not exist" \
		--loop 4:256m --array raid7 --fs xfs --backend mdadm
fi
check_first 1 "invalid --loop directory '$T/nowhere'" "a --loop directory that does not exist" \
	--loop 2:256m:"$T/nowhere" --array raid1 --fs btrfs
check_first 1 "--device '$victim' excludes --array, --members and --loop" "--device with --loop" \
	--device "$victim" --loop 1:256m --fs ext4
check_first 1 "invalid --members: '$victim' is the same device as '$victim'" "a member named twice" \
	--array raid1 --members "$victim,$victim" --fs btrfs
ln -s "$victim" "$T/alias"
check_first 1 "invalid --members: '$T/alias' is the same device as '$victim'" "a member named twice, once by a symlink" \
	--array raid1 --members "$victim,$T/alias" --fs btrfs
is "$(left_behind)" "" "nothing is left by the refused runs"

# -u: ids out of range are refused (setuid(-1) would leave the workers root).
"$AB" run -d "$T" -u 4294967295 $small >/dev/null 2>"$T/err"
is $? 1 "-u 4294967295: exit 1"
one_error "$T/err" "invalid user id '4294967295': out of range"; ok $? "-u 4294967295: one line naming it"
"$AB" run -d "$T" -u 0:99999999999 $small >/dev/null 2>"$T/err"
is $? 1 "-u 0:99999999999: exit 1"

# The -r hint never suggests a value that is then refused.
hint_ok() { # description args...: each suggestion of the refusal passes the checks
	local what=$1; shift
	"$AB" run -d "$T" -n 0 -f -q "$@" --dry-run >/dev/null 2>"$T/err"
	local msg; msg=$(cat "$T/err")
	local bad=0 tried=0 s r
	for s in $(echo "$msg" | grep -oE -- '-s [0-9]+m' | cut -d' ' -f2); do
		tried=$((tried + 1))
		"$AB" run -d "$T" -n 0 -f -q "$@" -s "$s" --dry-run >/dev/null 2>&1 || bad=1
	done
	for r in $(echo "$msg" | grep -oE -- '-r [0-9]+' | cut -d' ' -f2); do
		tried=$((tried + 1))
		"$AB" run -d "$T" -n 0 -f -q "$@" -r "$r" --dry-run >/dev/null 2>&1 || bad=1
	done
	[ "$tried" -ge 1 ] && [ "$bad" = 0 ]; ok $? "$what: every suggestion of '$msg' passes"
}
hint_ok "--cache cgroup -r 32 -s 32m" --cache cgroup -r 32 -s 32m
hint_ok "--cache cgroup -r 20 -s 32m (no -r would do)" --cache cgroup -r 20 -s 24m
hint_ok "--cache none -r 64 -s 32m" --cache none -r 64 -s 32m

# A tool's failure is one line; -v shows all it said.
"$AB" run --loop 1:256m --fs ext4 --mkfs-opts "-O nosuchfeature" $small >/dev/null 2>"$T/err"
is $? 1 "mkfs.ext4 rejecting an option: exit 1"
one_error "$T/err" "mkfs.ext4 failed:"; ok $? "one error line with mkfs.ext4's reason"
"$AB" run --loop 1:256m --fs ext4 --mkfs-opts "-O nosuchfeature" $small -v >/dev/null 2>"$T/err"
grep -q '^\$ mkfs.ext4 ' "$T/err" && [ "$(wc -l <"$T/err")" -gt 2 ]; ok $? "-v shows the command and all of mkfs's output"
is "$(left_behind)" "" "nothing is left after the tool failed"
# A tool that prints its usage after the reason: the reason is the line.
if need mkfs.xfs; then
	"$AB" run --loop 1:64m --fs xfs $small >/dev/null 2>"$T/err"
	one_error "$T/err" "mkfs.xfs failed: Filesystem must be larger than"; ok $? "mkfs.xfs's reason, not its usage's last line" ||
		sed 's/^/#   /' "$T/err"
else
	skip "mkfs.xfs is not installed"
fi

# In use in ways no table shows: an active swap area, a device some
# program holds open exclusively.  Both are refused (exit 4).
truncate -s 64m "$T/swap.img"; mkswap -q "$T/swap.img" >/dev/null 2>&1
swapdev=$(losetup --find --show "$T/swap.img"); cleanup_add "losetup -d $swapdev"
if need swapon swapoff && swapon "$swapdev" 2>/dev/null; then
	cleanup_add "swapoff $swapdev"
	"$AB" run --device "$swapdev" --fs ext4 --yes-destroy "$swapdev" $small >/dev/null 2>"$T/err"
	is $? 4 "an active swap device is refused even when confirmed: exit 4"
	one_error "$T/err" "refusing '$swapdev': it is in use"; ok $? "saying it is in use"
	swapoff "$swapdev"
else
	skip "swapon is not allowed here"; skip "swapon is not allowed here"
fi
truncate -s 64m "$T/held.img"; held=$(losetup --find --show "$T/held.img"); cleanup_add "losetup -d $held"
# (the holder keeps the device until it is killed, however long the run takes)
python3 -c 'import os, signal, sys; fd = os.open(sys.argv[1], os.O_RDONLY | os.O_EXCL); print(flush=True); signal.pause()' \
	"$held" >"$T/held.ready" & holder=$!
kill_at_exit $holder
await "[ -s '$T/held.ready' ] || ended $holder" && [ -s "$T/held.ready" ] || unseen "the holder could not open '$held' exclusively"
"$AB" run --device "$held" --fs ext4 $small >/dev/null 2>"$T/err"
is $? 4 "a device another program holds open exclusively is refused: exit 4"
one_error "$T/err" "refusing '$held': it is in use"; ok $? "saying it is in use"
kill "$holder"; wait "$holder" 2>/dev/null

# A disk and its own partition as two members: they overlap.
truncate -s 64m "$T/parted.img"
# One MBR partition from sector 2048 to the end: type 0x83, then 0x55aa.
printf '\000\000\000\000\203\000\000\000\000\010\000\000\000\370\001\000' |
	dd of="$T/parted.img" bs=1 seek=446 conv=notrunc status=none
printf '\125\252' | dd of="$T/parted.img" bs=1 seek=510 conv=notrunc status=none
disk=$(losetup -P --find --show "$T/parted.img"); cleanup_add "losetup -d $disk"
await "[ -b '${disk}p1' ]" 10 # the kernel reads the table as it attaches; no table, no wait worth more
if [ -b "${disk}p1" ]; then
	"$AB" run --array raid1 --members "$disk,${disk}p1" --fs btrfs --yes-destroy "$disk,${disk}p1" $small \
		>/dev/null 2>"$T/err"
	is $? 1 "a disk and its own partition as members: exit 1"
	one_error "$T/err" "'$disk' and '${disk}p1' overlap"; ok $? "saying they overlap"
else
	skip "this kernel reads no partition table on loop devices"; skip "(no partition to test)"
fi

# Building needs root, and says so before anything is made, dry run too.
if id nobody >/dev/null 2>&1; then
	chmod 711 "$T"
	ab_nobody=$(ab_for_others nobody)
	for extra in "" --dry-run; do
		env -u ARRAYBENCH_STATE_DIR su nobody -s /bin/sh -c "HOME=/nonexistent XDG_STATE_HOME=$T/nobody-state '$ab_nobody' run --loop 1:300m:/tmp --fs ext4 \
			-s 32m -r 16 --cache none -n 1 -f -q $extra" >/dev/null 2>"$T/err"
		is $? 3 "a non-root --loop run ${extra:+($extra) }exits 3"
		one_error "$T/err" "building a target (--device, --array, --loop) needs root"; ok $? "saying root is needed"
	done
	[ ! -e "$T/nobody-state" ]; ok $? "and no journal was made"
else
	skip "needs the user nobody"
fi

# The --loop directory: root makes and removes images there by name, so no
# other user may be able to move things on the way.
mkdir "$T/nobody-images"; chown nobody "$T/nobody-images" 2>/dev/null
"$AB" run --loop 1:300m:"$T/nobody-images" --fs ext4 $small >/dev/null 2>"$T/err"
is $? 4 "a --loop directory another user owns is refused: exit 4"
one_error "$T/err" "refusing --loop directory '$T/nobody-images': '$T/nobody-images' belongs to uid"; ok $? "naming why"
done_testing
