#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later
# Boots the mdadm test guest (made by build-guest.sh) under TCG with N fresh
# sparse member images (/dev/vda, /dev/vdb, ... in the guest), runs SCRIPT
# inside it as root with the host's root file system seen read-only under a
# writable overlay, and prints what the script wrote to standard output.
# The images and the share live in a temporary directory that is removed
# afterwards; qemu runs under a hard timeout and is killed if we are.
# Usage: tests/vm/run-guest.sh [-d VMDIR] [-n MEMBERS] [-s SIZE] [-t SECONDS]
#          [-l LOGDIR] [-b BPS] [-i IOPS] [-L MEMBER=BPS:IOPS]... [-F]
#          [-m MIB] [-c v1|v2] SCRIPT [ARG...]
#   -d  where build-guest.sh cached vmlinuz and initrd.gz (build/vm)
#   -n  member images (4), -s their size (512M), -t timeout (300)
#   -l  copy the guest's console log and the script's stderr there
#   -b  every member's limit in bytes per second (k, m, g: powers of 1024)
#   -i  every member's limit in I/O operations per second
#   -L  another limit for one member, named by its guest device (vdb) or
#       index (1); a 0 leaves that side unlimited; repeat for more members
#   -F  allocate the member images in full before boot (a sparse image makes
#       the host allocate blocks during the first writes: slower, and only
#       on the first round)
#   -m  the guest's RAM in MiB (1024); -c the memory cgroup it mounts:
#       v2 (default, whose writeback throttles a group's dirty pages) or v1
# Limits are qemu's drive throttling (throttling.bps-total, .iops-total:
# reads and writes together), so a member with a limit is a disk whose
# ceiling is known.
# The script runs with its working directory and these variables as here:
# PATH, AB, ARRAYBENCH_* and GUEST_MEMBERS (the member devices, comma
# separated), GUEST_LIMITS (each member's DEV=BPS:IOPS, 0 for none, comma
# separated) and GUEST_RAM_MIB.
# Exit status: the script's; 124 the guest timed out; 125 the guest did not
# run the script (no kernel, no boot, no 9p); 1 bad usage.
set -u
vmdir=build/vm members=4 size=512M limit=300 logdir= bps=0 iops=0 full=0 ram=1024 cgroup=v2
member_limits=()
usage="usage: $0 [-d VMDIR] [-n N] [-s SIZE] [-t SECONDS] [-l LOGDIR] [-b BPS] [-i IOPS] [-L MEMBER=BPS:IOPS]... [-F] [-m MIB] [-c v1|v2] SCRIPT [ARG...]"
bytes() { # value: a count of bytes with an optional k/m/g suffix, or nothing
	local v=${1,,} m=1
	case $v in *k) m=1024 ;; *m) m=1048576 ;; *g) m=1073741824 ;; esac
	v=${v%[kmg]}
	case $v in '' | *[!0-9]*) return 1 ;; esac
	echo $((v * m))
}
count() { case $1 in '' | *[!0-9]*) return 1 ;; esac; echo $(($1 + 0)); }
while getopts d:n:s:t:l:b:i:L:Fm:c: o; do
	case $o in
	d) vmdir=$OPTARG ;;
	n) members=$OPTARG ;;
	s) size=$OPTARG ;;
	t) limit=$OPTARG ;;
	l) logdir=$OPTARG ;;
	b) bps=$(bytes "$OPTARG") || { echo "run-guest: invalid -b '$OPTARG': bytes per second, k/m/g allowed" >&2; exit 1; } ;;
	i) iops=$(count "$OPTARG") || { echo "run-guest: invalid -i '$OPTARG': operations per second" >&2; exit 1; } ;;
	L) member_limits+=("$OPTARG") ;;
	F) full=1 ;;
	m) ram=$(count "$OPTARG") && [ "$ram" -ge 256 ] || { echo "run-guest: invalid -m '$OPTARG': MiB, 256 or more" >&2; exit 1; } ;;
	c) case $OPTARG in v1 | v2) cgroup=$OPTARG ;; *) echo "run-guest: invalid -c '$OPTARG': v1 or v2" >&2; exit 1 ;; esac ;;
	*) echo "$usage" >&2; exit 1 ;;
	esac
done
shift $((OPTIND - 1))
[ $# -ge 1 ] || { echo "$usage" >&2; exit 1; }
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

letters=abcdefghijklmnop
# Each member's limits: -b/-i for all, then -L for the one it names.
member_bps=() member_iops=()
for i in $(seq 0 $((members - 1))); do member_bps[i]=$bps member_iops[i]=$iops; done
for spec in "${member_limits[@]}"; do
	who=${spec%%=*} what=${spec#*=}
	case $who in vd[a-p]) i=${who#vd}; i=$(expr index "$letters" "$i") && i=$((i - 1)) ;; *) i=$(count "$who") || i=-1 ;; esac
	b=$(bytes "${what%%:*}") && n=$(count "${what#*:}") && [ "$spec" != "$who" ] && [ "$what" != "${what#*:}" ] &&
		[ "$i" -ge 0 ] && [ "$i" -lt "$members" ] ||
		{ echo "run-guest: invalid -L '$spec': MEMBER=BPS:IOPS, MEMBER a guest device (vdb) or an index below $members" >&2; exit 1; }
	member_bps[i]=$b member_iops[i]=$n
done

drives=() names=() limits=()
for i in $(seq 0 $((members - 1))); do
	img=$tmp/disks/d$i.img
	if [ "$full" = 1 ]; then
		# Every block allocated, and written once, so no first write pays
		# for the host's allocation (fallocate's unwritten extents would).
		dd if=/dev/zero of="$img" bs=1M count="$(($(bytes "$size") / 1048576))" conv=fsync status=none || exit 125
	else
		truncate -s "$size" "$img" || exit 125
	fi
	throttle=
	[ "${member_bps[i]}" -gt 0 ] && throttle+=",throttling.bps-total=${member_bps[i]}"
	[ "${member_iops[i]}" -gt 0 ] && throttle+=",throttling.iops-total=${member_iops[i]}"
	drives+=(-drive "file=$img,if=virtio,format=raw,cache=none$throttle")
	names+=("/dev/vd${letters:i:1}")
	limits+=("/dev/vd${letters:i:1}=${member_bps[i]}:${member_iops[i]}")
done
guest_members=$(IFS=,; echo "${names[*]}")
guest_limits=$(IFS=,; echo "${limits[*]}")

cp "$script" "$tmp/out/script"
{
	echo "export PATH=$(printf %q "$PATH") GUEST_MEMBERS=$guest_members GUEST_LIMITS=$guest_limits GUEST_RAM_MIB=$ram"
	env | grep -E '^(AB|ARRAYBENCH_[A-Z_]*)=' | while IFS='=' read -r k v; do echo "export $k=$(printf %q "$v")"; done
	echo "cd $(printf %q "$PWD") || cd /"
	printf 'exec /bin/bash /out/script'
	for a in "$@"; do printf ' %q' "$a"; done
	echo
} >"$tmp/out/run"

timeout -k 10 "$limit" qemu-system-x86_64 -accel tcg -cpu max -m "$ram" -smp 2 -nographic -no-reboot \
	-pidfile "$tmp/qemu.pid" \
	-kernel "$vmdir/vmlinuz" -initrd "$vmdir/initrd.gz" -append "console=ttyS0 quiet panic=-1 ab_cgroup=$cgroup" \
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
