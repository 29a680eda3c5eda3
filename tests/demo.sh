#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later
# `make demo`: the main job on the built-in default target.  As root that is
# an ext4 file system on a loop-attached image (direct I/O on the loop, so
# the image is not cached one layer down), torn down afterwards; otherwise a
# temporary directory.  Prints the table and the bonnie++ CSV line, then the
# line as bon_csv2txt renders it.
set -u
top=$(cd "$(dirname "$0")/.." && pwd)
work=$(mktemp -d "${TMPDIR:-/var/tmp}/arraybench-demo.XXXXXX")
dev="" mnt=""
cleanup() {
	[ -n "$mnt" ] && umount "$mnt" 2>/dev/null
	[ -n "$dev" ] && losetup -d "$dev" 2>/dev/null
	rm -rf "$work"
}
trap cleanup EXIT
trap 'exit 130' INT TERM

dir=$work
if [ "$(id -u)" = 0 ] && command -v mkfs.ext4 >/dev/null && [ -e /dev/loop-control ]; then
	truncate -s 3G "$work/disk.img"
	mkfs.ext4 -q -F -E nodiscard,lazy_itable_init=0,lazy_journal_init=0 "$work/disk.img"
	dev=$(losetup --find --show --direct-io=on "$work/disk.img")
	mkdir "$work/mnt" && mount "$dev" "$work/mnt" && mnt=$work/mnt && dir=$mnt
	echo "demo: ext4 on $dev (image $work/disk.img), mounted at $mnt"
else
	echo "demo: not root: testing in $dir"
fi
"$top/arraybench" run -d "$dir" -s 1g -r 512 -n 4 -m demo --csv "$work/demo.csv"
status=$?
if [ $status -eq 0 ] && command -v bon_csv2txt >/dev/null; then
	echo; echo "demo: the CSV line through bonnie++'s bon_csv2txt:"
	bon_csv2txt <"$work/demo.csv"
fi
exit $status
