#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later
# Boots the mdadm test guest (made by build-guest.sh) under TCG with N fresh
# sparse member images (/dev/vda, /dev/vdb, ... in the guest), runs SCRIPT
# inside it as root with the host's root file system seen read-only under a
# writable overlay, and prints what the script wrote to standard output.
# The images and the share live in a temporary directory that is removed
# afterwards; qemu runs under a hard timeout and is killed if we are.
# Usage: tests/vm/run-guest.sh [-d VMDIR] [-n MEMBERS] [-s SIZE] [-t SECONDS]
#                              [-l LOGDIR] SCRIPT [ARG...]
#   -d  where build-guest.sh cached vmlinuz and initrd.gz (build/vm)
#   -n  member images (4), -s their size (512M), -t timeout (300)
#   -l  copy the guest's console log and the script's stderr there
# The script runs with its working directory and these variables as here:
# PATH, AB, ARRAYBENCH_* and GUEST_MEMBERS (the member devices, comma separated).
# Exit status: the script's; 124 the guest timed out; 125 the guest did not
# run the script (no kernel, no boot, no 9p); 1 bad usage.
set -u
vmdir=build/vm members=4 size=512M limit=300 logdir=
while getopts d:n:s:t:l: o; do
	case $o in
	d) vmdir=$OPTARG ;;
	n) members=$OPTARG ;;
	s) size=$OPTARG ;;
	t) limit=$OPTARG ;;
	l) logdir=$OPTARG ;;
	*) exit 1 ;;
	esac
done
shift $((OPTIND - 1))
[ $# -ge 1 ] || { echo "usage: $0 [-d VMDIR] [-n N] [-s SIZE] [-t SECONDS] [-l LOGDIR] SCRIPT [ARG...]" >&2; exit 1; }
script=$1; shift
[ -r "$script" ] || { echo "run-guest: cannot read '$script'" >&2; exit 1; }
for f in vmlinuz initrd.gz; do
	[ -s "$vmdir/$f" ] || { echo "run-guest: no $vmdir/$f (run tests/vm/build-guest.sh)" >&2; exit 125; }
done
command -v qemu-system-x86_64 >/dev/null || { echo "run-guest: no qemu-system-x86_64" >&2; exit 125; }
case $members in '' | *[!0-9]*) echo "run-guest: -n wants a number" >&2; exit 1 ;; esac
[ "$members" -le 16 ] || { echo "run-guest: at most 16 members" >&2; exit 1; }

tmp=$(mktemp -d "${TMPDIR:-/tmp}/ab-vm.XXXXXX") || exit 125
qpid=
# shellcheck disable=SC2317 # called from the traps
finish() {
	if [ -n "$qpid" ] && kill -0 "$qpid" 2>/dev/null; then
		kill -TERM "$qpid" 2>/dev/null
		for _ in 1 2 3 4 5 6 7 8 9 10; do kill -0 "$qpid" 2>/dev/null || break; sleep 0.5; done
		kill -KILL "$qpid" 2>/dev/null
		wait "$qpid" 2>/dev/null
	fi
	# qemu itself, should timeout have gone first
	if [ -s "$tmp/qemu.pid" ] && kill -0 "$(cat "$tmp/qemu.pid")" 2>/dev/null; then
		kill -KILL "$(cat "$tmp/qemu.pid")" 2>/dev/null
		sleep 0.5
	fi
	rm -rf "$tmp"
}
trap finish EXIT
# Clean up, then die of the signal so that a calling script stops too.
# shellcheck disable=SC2064 # $sig now, $$ when signalled
for sig in INT TERM; do trap "finish; trap - EXIT $sig; kill -$sig \$\$" $sig; done
mkdir "$tmp/out" "$tmp/disks"

drives=() names=() letters=abcdefghijklmnop
for i in $(seq 0 $((members - 1))); do
	img=$tmp/disks/d$i.img
	truncate -s "$size" "$img" || exit 125
	drives+=(-drive "file=$img,if=virtio,format=raw,cache=none")
	names+=("/dev/vd${letters:i:1}")
done
guest_members=$(IFS=,; echo "${names[*]}")

cp "$script" "$tmp/out/script"
{
	echo "export PATH=$(printf %q "$PATH") GUEST_MEMBERS=$guest_members"
	env | grep -E '^(AB|ARRAYBENCH_[A-Z_]*)=' | while IFS='=' read -r k v; do echo "export $k=$(printf %q "$v")"; done
	echo "cd $(printf %q "$PWD") || cd /"
	printf 'exec /bin/bash /out/script'
	for a in "$@"; do printf ' %q' "$a"; done
	echo
} >"$tmp/out/run"

timeout -k 10 "$limit" qemu-system-x86_64 -accel tcg -cpu max -m 1024 -smp 2 -nographic -no-reboot \
	-pidfile "$tmp/qemu.pid" \
	-kernel "$vmdir/vmlinuz" -initrd "$vmdir/initrd.gz" -append "console=ttyS0 quiet panic=-1" \
	-virtfs local,path=/,mount_tag=hostroot,security_model=none,readonly=on,multidevs=remap \
	-virtfs "local,path=$tmp/out,mount_tag=out,security_model=none" \
	"${drives[@]}" </dev/null >"$tmp/console.log" 2>&1 &
qpid=$!
wait "$qpid"
qstatus=$?
qpid=

if [ -n "$logdir" ]; then
	mkdir -p "$logdir"
	cp "$tmp/console.log" "$logdir/console.log"
	[ -e "$tmp/out/stderr" ] && cp "$tmp/out/stderr" "$logdir/stderr"
fi
[ -e "$tmp/out/stdout" ] && cat "$tmp/out/stdout"
if [ "$qstatus" = 124 ] || [ "$qstatus" = 137 ]; then
	echo "run-guest: the guest did not finish within ${limit}s" >&2
	tail -5 "$tmp/console.log" >&2
	exit 124
fi
if [ ! -s "$tmp/out/status" ]; then
	echo "run-guest: the guest did not run the script (qemu exit $qstatus); console:" >&2
	tail -20 "$tmp/console.log" >&2
	exit 125
fi
exit "$(cat "$tmp/out/status")"
