#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later
# mdadm arrays built by arraybench, in a qemu guest (this kernel has no md):
# raid0, raid1, raid5, raid10 f2 and nested 1+0 on virtio members, each run
# and torn down in one boot (tests/vm/guest-tests.sh), a tune of md raid10
# with xfs on its stripe-hint key (each visit's mkfs given the su/sw the
# kernel reports for the array, or none) and its --dry-run, then a comparison
# matrix of md raid1 and raid10 x ext4 and xfs x defaults and noatime, 3
# repeats; the guest's checks are relayed here, and the matrix's results
# compared and drawn here (report --compare, --html).  AB_VM_MATRIX_KEEP=DIR
# keeps its results.jsonl, comparison and page in DIR.  Root only; skipped when qemu cannot be installed or the guest
# cannot boot.  The kernel and initramfs stay cached in build/vm.
. "$(dirname "$0")/lib.sh"
vm=$top/tests/vm
guest_checks=$(bash "$vm/guest-tests.sh" --count)

is_root || skip_all "the mdadm guest needs root"
command -v apt-get >/dev/null || skip_all "no apt-get to fetch the guest's kernel"

# 1. The guest: kernel + initramfs from Debian packages (cached).
"$vm/build-guest.sh" "$top/build/vm" 2>"$T/build.err"
status=$?
if [ "$status" = 77 ]; then
	skip_all "cannot build the guest here: $(tail -1 "$T/build.err")"
	exit 0
fi
is "$status" 0 "the guest's kernel and initramfs are built (tests/vm/build-guest.sh)"
if [ "$status" != 0 ]; then
	sed 's/^/#   /' "$T/build.err" | tail -10
	skip_rest "no guest"
	exit 0
fi

# 2. Boot it once with four members and run every case.
case $AB in /*) ;; *) AB=$PWD/$AB ;; esac
export AB TMPDIR=$T
start=$(date +%s)
"$vm/run-guest.sh" -d "$top/build/vm" -n 4 -s 512M -t 3600 -l "$T/log" "$vm/guest-tests.sh" \
	>"$T/guest.tap" 2>"$T/run.err"
status=$?
diag "guest run: exit $status after $(($(date +%s) - start))s"
if [ "$status" = 125 ] || { [ "$status" = 124 ] && ! grep -q '^1\.\.' "$T/guest.tap"; }; then
	sed 's/^/#   /' "$T/run.err" | tail -10
	reason="the guest did not boot: $(grep -v '^ *$' "$T/run.err" | tail -1 | cut -c1-100)"
	skip "$reason"
	booted=0
else
	booted=1
	is "$status" 0 "the guest ran the tests and powered off"
	[ "$status" = 0 ] || sed 's/^/#   /' "$T/run.err" | tail -10
	# 3. The guest's own checks, renumbered; any it did not report fail.
	relay_guest "$T/guest.tap" "$guest_checks" "$T/log"
fi

# 4. The matrix's runs, read back on the host: compared and drawn (not
# when the guest did not boot: those checks were skipped above).
if [ "$booted" = 1 ]; then
	grep '^@matrix ' "$T/guest.tap" | cut -c9- >"$T/matrix.jsonl"
	"$AB" report --compare "$T/matrix.jsonl" >"$T/compare.txt" 2>"$T/compare.err" &&
		"$AB" report --compare --format json "$T/matrix.jsonl" >"$T/compare.json" 2>>"$T/compare.err"
	status=$?
	got=$(python3 -c "
import json, sys
d = json.load(open(sys.argv[1]))
cols = [c for c in d['columns'] if c['figure'] == 'rate']
print(len(d['groups']), len(cols) >= 10, all(len(c['groups']) == 8 and all(g['n'] == 3 for g in c['groups']) for c in cols))
" "$T/compare.json" 2>&1 | tail -1)
	is "$status $got" "0 8 True True" "report --compare: the matrix's 8 cells, n=3 in every rate's table"
	"$AB" report --html "$T/matrix.html" "$T/matrix.jsonl" >/dev/null 2>"$T/html.err"
	status=$?
	bars=$(grep -o 'id="rate-[0-9]*"' "$T/matrix.html" 2>/dev/null | wc -l)
	io=$(grep -c '<svg class="io"' "$T/matrix.html" 2>/dev/null)
	is "$status $((bars >= 10)) $((io > 0))" "0 1 1" "report --html: a bar chart per phase and the members' I/O bars"
	if [ -n "${AB_VM_MATRIX_KEEP:-}" ]; then
		mkdir -p "$AB_VM_MATRIX_KEEP" && cp "$T/matrix.jsonl" "$T/compare.txt" "$T/matrix.html" "$AB_VM_MATRIX_KEEP/"
	fi
fi

# 5. Nothing of the run is left: images, share, loop devices, qemu.
is "$(guest_left)" "" "the guest's images, share and qemu process are gone"
done_testing
