#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later
# -d DIR on file systems made here, not by arraybench: each phase records
# the I/O of the devices under DIR as a built target's does (ext4 on one
# loop device; btrfs raid1 over two, and a subvolume of it), and a
# directory on tmpfs records none.  Root only: loop devices of images made
# here, always detached.
. "$(dirname "$0")/lib.sh"
is_root && [ -e /dev/loop-control ] || skip_all "file systems on loop devices need root"
need mkfs.ext4 mkfs.btrfs losetup || skip_all "mkfs.ext4, mkfs.btrfs and losetup are needed"
small="-s 32m -r 16 -q --phases block-write,block-read"

attach() { # var image size: a loop device on a new image in $var, detached on exit
	truncate -s "$3" "$T/$2" || return 1
	local dev
	dev=$(losetup --find --show "$T/$2") || return 1
	cleanup_add "losetup -d $dev"
	printf -v "$1" %s "$dev"
}
# The phase's devices as "name:MiB read:MiB written ..." in the JSON's order.
devices() { # json phase
	js "$1" "' '.join('%s:%d:%d' % (d['name'], d['read_bytes'] >> 20, d['written_bytes'] >> 20) for d in results('$2')[0]['devices'])"
}
names() { # json phase
	js "$1" "' '.join(d['name'] for d in results('$2')[0]['devices'])"
}

# ext4 on one loop device.
attach e e.img 256M && mkfs.ext4 -q -F "$e" && mkdir -p "$T/e" && mount "$e" "$T/e"
ok $? "ext4 made and mounted on a loop device"
cleanup_add "umount $T/e"
"$AB" run -d "$T/e" $small --json "$T/e.json" >"$T/e.out" 2>"$T/e.err"
is $? 0 "a run in a directory on it exits 0"
is "$(names "$T/e.json" block-write)" "${e#/dev/}" "block write records the loop device under the directory"
is "$(js "$T/e.json" "results('block-write')[0]['devices'][0]['written_bytes'] >= 32 << 20")" true \
	"its counters show at least the file written"
is "$(js "$T/e.json" "results('block-read')[0]['devices'][0]['read_bytes'] >= 31 << 20")" true \
	"and block read's at least the file read (it started cold)"
# The table goes to standard error beside the CSV.
grep -q "^block-write .*${e#/dev/} " "$T/e.err"; ok $? "the table's per-device rows name it"
"$AB" report "$T/e.json" >"$T/e.rep" 2>&1
is "$(grep -A2 '^per device' "$T/e.rep")" "$(grep -A2 '^per device' "$T/e.err")" \
	"report of the JSON shows the same per-device rows"

# btrfs raid1 over two loop devices: both members, each with a copy.
attach a a.img 512M && attach b b.img 512M
ok $? "two more loop devices attached"
mkfs.btrfs -q -f -d raid1 -m raid1 "$a" "$b" >"$T/mkfs.out" 2>&1 && mkdir -p "$T/b" && mount "$a" "$T/b"
ok $? "btrfs raid1 made over them and mounted"
cleanup_add "umount $T/b"
"$AB" run -d "$T/b" $small --json "$T/b.json" >"$T/b.out" 2>"$T/b.err"
is $? 0 "a run in the btrfs exits 0"
is "$(names "$T/b.json" block-write)" "${a#/dev/} ${b#/dev/}" \
	"block write records both members, the one it was mounted from first"
is "$(js "$T/b.json" "all(d['written_bytes'] >= 32 << 20 for d in results('block-write')[0]['devices'])")" true \
	"each member took a whole copy of the file ($(devices "$T/b.json" block-write))"
"$AB" report --html "$T/b.html" "$T/b.json" >/dev/null 2>&1
# The member section: from its heading to the next.
python3 -c "
import sys
page = open(sys.argv[1]).read()
sec = page.split('<h2 id=\"members\">')[1].split('<h2')[0]
print(sec.count('<h3>block-write'), all(m in sec for m in sys.argv[2:]))" "$T/b.html" "${a#/dev/}" "${b#/dev/}" >"$T/b.sec"
is "$(cat "$T/b.sec")" "1 True" "report --html draws block write's member chart, naming both members"
grep -q 'No member charts' "$T/b.html"
is $? 1 "and does not say there are none"
btrfs subvolume create "$T/b/sub" >/dev/null 2>&1
ok $? "a subvolume made"
[ "$(stat -c %d "$T/b/sub")" != "$(stat -c %d "$T/b")" ]
ok $? "its device number is its own, one mountinfo does not show"
"$AB" run -d "$T/b/sub" $small --json "$T/s.json" >/dev/null 2>"$T/s.err"
is $? 0 "a run in the subvolume exits 0"
is "$(names "$T/s.json" block-read)" "${a#/dev/} ${b#/dev/}" "the subvolume's run records the same two members"

# tmpfs: no block device, no rows, as before.
mkdir -p "$T/t" && mount -t tmpfs -o size=96m ab-t2009 "$T/t"
ok $? "a tmpfs mounted"
cleanup_add "umount $T/t"
"$AB" run -d "$T/t" -s 32m -r 16 -q --phases block-write --cache none --json "$T/t.json" >"$T/t.out" 2>"$T/t.err"
is $? 0 "a run on tmpfs exits 0"
is "$(js "$T/t.json" "len(results('block-write')[0]['devices'])")" 0 "it records no devices"
grep -q '^per device' "$T/t.err"
is $? 1 "and the table has no per-device rows"

done_testing
