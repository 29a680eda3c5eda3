#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later
# arraybench on members whose limits are known, in the qemu guest (this
# kernel has no md): four virtio members throttled by qemu to 2 MiB/s and
# 200 IOPS each, the second (vdb) to half of that (run-guest.sh -L), md
# raid0 with ext4 built by arraybench (tests/vm/guest-limits.sh): block
# write and read under the default cache defeat not below 0.85 of the
# array's limit, nor above it by more than qemu's throttle lets through (N x the slowest member: every stripe waits for it), the
# members' busy time and the members-unequal finding naming the slow
# member (and the finding naming it on raid10 and raid5 too), arraybench's efficiency ceiling (from --raw-baseline) equal to the
# rig's limit, a read from the page cache
# flagged rate-above-members and a cold one not, and no out-of-memory kill
# at -r 16.  AB_T6002_EQUAL=1 leaves the slow member unthrottled (no -L)
# while the checks still expect it: the test must then fail (the array
# runs at twice the limit the checks compute, and no member stands out).
# Root only; skipped when the guest cannot be built or booted.
. "$(dirname "$0")/lib.sh"
vm=$top/tests/vm
guest_checks=$(bash "$vm/guest-limits.sh" --count)
# Limits low enough that the guest's own CPU (qemu emulates it) is not
# what limits the figures, also beside another make check and CPU hogs:
# there, at 10 MiB/s a member, block write fell to 0.35 of the limit.
member_bps=$((2 * 1048576)) member_iops=200
slow_bps=$((member_bps / 2)) slow_iops=$((member_iops / 2))

is_root || skip_all "the guest needs root"
command -v apt-get >/dev/null || skip_all "no apt-get to fetch the guest's kernel"
"$vm/build-guest.sh" "$top/build/vm" 2>"$T/build.err"
status=$?
[ "$status" = 77 ] && skip_all "cannot build the guest here: $(tail -1 "$T/build.err")"
is "$status" 0 "the guest's kernel and initramfs are built (tests/vm/build-guest.sh)"
if [ "$status" != 0 ]; then
	sed 's/^/#   /' "$T/build.err" | tail -10
	skip_rest "no guest"
fi

case $AB in /*) ;; *) AB=$PWD/$AB ;; esac
export AB TMPDIR=$T
slow=(-L "vdb=$slow_bps:$slow_iops")
[ "${AB_T6002_EQUAL:-0}" = 1 ] && { slow=(); diag "AB_T6002_EQUAL=1: vdb is NOT throttled to half; the checks below must fail"; }
start=$(date +%s)
# 32 MiB members: --raw-baseline reads each whole (xfs would want 300 MB
# and a 64 MB log: ext4 it is).
"$vm/run-guest.sh" -d "$top/build/vm" -n 4 -s 32M -F -b "$member_bps" -i "$member_iops" "${slow[@]}" \
	-t 900 -l "$T/log" "$vm/guest-limits.sh" "$member_bps" "$slow_bps" >"$T/guest.tap" 2>"$T/run.err"
status=$?
diag "guest run: exit $status after $(($(date +%s) - start))s"
if [ "$status" = 125 ] || { [ "$status" = 124 ] && ! grep -q '^1\.\.' "$T/guest.tap"; }; then
	sed 's/^/#   /' "$T/run.err" | tail -10
	skip_rest "the guest did not boot: $(grep -v '^ *$' "$T/run.err" | tail -1 | cut -c1-100)"
fi
is "$status" 0 "the guest ran the checks and powered off"
[ "$status" = 0 ] || sed 's/^/#   /' "$T/run.err" | tail -10
# The guest's checks, renumbered; any it did not report fail.
relay_guest "$T/guest.tap" "$guest_checks" "$T/log"

is "$(guest_left)" "" "the guest's images, share and qemu process are gone"
done_testing
