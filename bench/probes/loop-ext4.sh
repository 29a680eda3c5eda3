# SPDX-License-Identifier: GPL-2.0-or-later
# bench/probes/loop-ext4.sh, sourced by the probes: one ext4 on a loop
# device with direct I/O to its image (as bench/compare.sh), made in a work
# directory of the probe's own and torn down on exit, error, Ctrl-C or TERM.
#   probe_loop_ext4 NAME IMAGE_MIB: sets w (the work directory,
#   /var/tmp/NAME.XXXXXX), dev (the loop device) and T ($w/mnt/t, the empty
#   test directory).  A probe with more to undo defines probe_cleanup_extra
#   before it calls this; it runs first.
probe_loop_ext4() {
	w=$(mktemp -d "/var/tmp/$1.XXXXXX") || exit 3
	dev=""
	trap probe_loop_cleanup EXIT
	trap 'exit 130' INT TERM
	truncate -s "$2M" "$w/img" && mkfs.ext4 -q -F -E nodiscard,lazy_itable_init=0,lazy_journal_init=0 "$w/img" || exit 3
	dev=$(losetup --find --show --direct-io=on "$w/img") || { dev=""; exit 3; }
	mkdir "$w/mnt" && mount "$dev" "$w/mnt" && mkdir "$w/mnt/t" || exit 3
	T=$w/mnt/t
}
probe_loop_cleanup() {
	declare -F probe_cleanup_extra >/dev/null && probe_cleanup_extra
	mountpoint -q "$w/mnt" && umount "$w/mnt"
	# Only while it still holds our image: never another's device.
	[ -n "$dev" ] && [ "$(cat "/sys/block/${dev#/dev/}/loop/backing_file" 2>/dev/null)" = "$w/img" ] && losetup -d "$dev"
	rm -rf "$w"
}
