#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later
# Runs INSIDE the test guest (tests/vm/run-guest.sh, started by
# tests/integration/t6002-limits-vm.sh) on members whose limits qemu sets:
# every member MEMBER_BPS bytes/s, except the slow one (the second, vdb) at
# SLOW_BPS.  arraybench builds md raid0 with ext4 over all of them, three
# times, then raid10 and raid5:
#  1. the default cache defeat (--cache cgroup -r 32), block write and read
#     of 64 MiB: both within [0.85, 1.02] of the array's limit, and the
#     members' busy time and the members-unequal finding name the slow
#     member;
#  2. --cache none, a 32 MiB file read right after it is written, with
#     --raw-baseline: the read came from the page cache, and the
#     rate-above-members finding says so;
#  3. the default cache at -r 16 (the smallest -r), --raw-baseline, block
#     write, rewrite, block read and seeks: the cold read gets no such
#     finding, and the efficiency ceiling arraybench computes from the
#     members' raw reads is the rig's limit; and across the runs no
#     out-of-memory kill;
#  4. raid10 and raid5 over the same members, a block write each: the
#     members-unequal finding names the slow member on both.
# The limit of raid0 over members of unequal speed is N x the slowest
# member's, not their sum: every stripe puts one chunk on every member and
# the writer waits for the last of them, so the fast members idle while the
# slow one catches up.
# TAP on stdout.  Usage: guest-limits.sh MEMBER_BPS SLOW_BPS | --count
set -u
total=18
if [ "${1:-}" = --count ]; then echo $total; exit 0; fi
member_bps=${1:?member limit}
slow_bps=${2:?the slow member limit}
AB=${AB:-$PWD/arraybench}
IFS=, read -r -a members <<<"${GUEST_MEMBERS:-/dev/vda,/dev/vdb,/dev/vdc,/dev/vdd}"
list=$(IFS=,; echo "${members[*]}")
slow=${members[1]}
n=${#members[@]}
py=$(command -v /usr/bin/python3 python3 | head -1)
t=0
ok() { t=$((t + 1)); if [ "$1" -eq 0 ]; then echo "ok $t - $2"; else echo "not ok $t - $2"; fi; }
diag() { echo "# $*"; }
js() { "$py" -c "import json, sys
runs = [json.loads(l) for l in open(sys.argv[1]) if l.strip()]
run = runs[-1]
def rate(name):
    return [p['rate'] for p in run['phases'] if p['name'] == name][0]
def findings(fid):
    return [f for f in run.get('findings', []) if f['id'] == fid]
$2" "$1" "${@:3}" 2>&1; }

echo "1..$total"
work=$(mktemp -d /tmp/ab-limits.XXXXXX)
export ARRAYBENCH_STATE_DIR=$work/state TMPDIR=$work/tmp
mkdir -p "$TMPDIR" "$ARRAYBENCH_STATE_DIR" "$work/mnt"
# The slowest member sets the pace of every stripe (above).
slowest=$((slow_bps < member_bps ? slow_bps : member_bps))
limit_kib=$((n * slowest / 1024))
diag "members ${members[*]} at $member_bps B/s, $slow at $slow_bps B/s (guest says: ${GUEST_LIMITS:-?}); raid0 limit $limit_kib KiB/s"
oom_before=$(dmesg | grep -c -i 'out of memory\|oom-kill')

# The most a phase of FILE_MIB may move over the limit: 1.02, plus what
# qemu's throttle lets through beyond its limit, which is soft: a raw read
# of one member gave 10430-11070 KiB/s against 10240; quiet, +2.2 % and
# +3.4 % on 128 MiB at 20 MiB/s, +4.5 % and +6.8 % on 32 MiB (about 0.25 s
# of the limit over a phase); beside two make checks and eight CPU hogs,
# 1.051 on a 16 s block write (0.8 s).  So 1 s of the limit over the
# phase's length at the limit: a write or read the page cache served is
# still many times over it.
high() { "$py" -c "print('%.3f' % (1.02 + 1.0 * $limit_kib / 1024.0 / $1))"; }
# A raw read (--raw-baseline: 4 MiB O_DIRECT reads of the whole member)
# gets one request more: qemu lets a request through whenever its bucket is
# not full, so the first 4 MiB cost no time (on 32 MiB members at 1 MiB/s:
# 1.146 of the limit).  So 4 MiB more over the member's size, and 1 s of
# the slowest member's limit.
member_mib=$(($(blockdev --getsize64 "$slow" 2>/dev/null || echo 0) / 1048576))
high_raw() { "$py" -c "print('%.3f' % (1.02 + (4 + $slowest / 1048576.0) / max($member_mib, 1)))"; }
on=(--members "$list" --backend mdadm --fs ext4 --chunk 512 --yes-destroy "$list" -m limits -f -q)
build=(run --array raid0 "${on[@]}")

# 1. The default cache defeat, block write and read against the limit.
timeout -s INT -k 20 300 "$AB" "${build[@]}" --cache cgroup -r 32 -s 64m --phases block-write,block-read \
	--json "$work/r1.json" >"$work/r1.csv" 2>"$work/r1.txt"
st=$?
ok $st "raid0: arraybench builds, runs and tears down (exit $st)"
[ $st = 0 ] || sed 's/^/#   /' "$work/r1.txt" | tail -8
for ph in block-write block-read; do
	got=$(js "$work/r1.json" "print('%.3f' % (rate('$ph') / $limit_kib))")
	diag "$ph: $(js "$work/r1.json" "print('%.0f' % rate('$ph'))") KiB/s, $got of the limit"
	"$py" -c "import sys; sys.exit(0 if 0.85 <= float(sys.argv[1]) <= float(sys.argv[2]) else 1)" "$got" "$(high 64)" 2>/dev/null
	ok $? "raid0 $ph under --cache cgroup -r 32: within [0.85, $(high 64)] of N x the slowest member ($got)"
done
# The members' busy time (io_ticks, from /proc/diskstats) of the write:
# qemu holds the slow member's requests, so the guest sees it busy longest.
got=$(js "$work/r1.json" "
names = [m.rsplit('/', 1)[-1] for m in sys.argv[2].split(',')]
d = [x for x in [p for p in run['phases'] if p['name'] == 'block-write'][0]['devices'] if x['name'] in names]
d.sort(key=lambda x: -x['busy_ms'])
print(d[0]['name'] if len(d) == $n and d[0]['busy_ms'] >= 1.5 * d[1]['busy_ms'] else 'none: ' + ' '.join('%s=%d' % (x['name'], x['busy_ms']) for x in d))
" "$list")
diag "block write's busy ms per member: $(js "$work/r1.json" "print(' '.join('%s=%d' % (x['name'], x['busy_ms']) for x in [p for p in run['phases'] if p['name'] == 'block-write'][0]['devices']))")"
[ "$got" = "${slow#/dev/}" ]
ok $? "raid0 block write: the members' busy time names the slow member $slow, 1.5 x the next ($got)"
# members-unequal, from the same busy times: raid0 gives every member an
# even share of the bytes, so only the busy time per byte tells the slow
# member, and the finding must say it is the slow member, not the layout.
diag "findings of run 1: $(js "$work/r1.json" "print('; '.join(f['id'] + ': ' + f['text'] for f in run.get('findings', [])) or 'none')")"
got=$(js "$work/r1.json" "
f = [f for f in findings('members-unequal') if f['text'].startswith('block-write:')]
print(f[0]['text'].split(\"'\")[1] if f and 'is the slow member' in f[0]['text'] else 'none')")
[ "$got" = "${slow#/dev/}" ]
ok $? "raid0 block write: the members-unequal finding names the slow member ${slow#/dev/} as the slow member ($got)"

# 2. A read served from the page cache: above what the members can give.
timeout -s INT -k 20 300 "$AB" "${build[@]}" --cache none -r 16 -s 32m --phases block-write,block-read \
	--raw-baseline --json "$work/r2.json" >"$work/r2.csv" 2>"$work/r2.txt"
st=$?
ok $st "raid0 --cache none --raw-baseline: exit $st"
[ $st = 0 ] || sed 's/^/#   /' "$work/r2.txt" | tail -8
got=$(js "$work/r2.json" "
f = [f for f in findings('rate-above-members') if 'block-read' in (f.get('subject') or '') + f['text']]
print('yes' if f else 'no: %.0f KiB/s; findings: %s' % (rate('block-read'), [x['id'] for x in run.get('findings', [])]))")
diag "cached read: $(js "$work/r2.json" "print('%.0f KiB/s' % rate('block-read'))")"
[ "$got" = yes ]
ok $? "a block read from the page cache (--cache none, 32 MiB) gets the rate-above-members finding ($got)"

# 3. The smallest -r: a cold read, no such finding; every I/O phase runs.
timeout -s INT -k 20 300 "$AB" "${build[@]}" --cache cgroup -r 16 -s 32m \
	--phases block-write,rewrite,block-read,seeks --raw-baseline --json "$work/r3.json" \
	>"$work/r3.csv" 2>"$work/r3.txt"
st=$?
ok $st "raid0 --cache cgroup -r 16 --raw-baseline, block write, rewrite, block read, seeks: exit $st"
[ $st = 0 ] || sed 's/^/#   /' "$work/r3.txt" | tail -8
got=$(js "$work/r3.json" "
f = findings('rate-above-members')
print('none' if not f else '; '.join(x['text'] for x in f))")
diag "cold read: $(js "$work/r3.json" "print('%.0f KiB/s' % rate('block-read'))"), $limit_kib KiB/s allowed"
[ "$got" = none ]
ok $? "a cold block read (--cache cgroup -r 16) gets no rate-above-members finding ($got)"
got=$(js "$work/r3.json" "print('%.3f' % (rate('block-read') / $limit_kib))")
"$py" -c "import sys; sys.exit(0 if float(sys.argv[1]) <= float(sys.argv[2]) else 1)" "$got" "$(high 32)" 2>/dev/null
ok $? "the cold block read at -r 16 is not above $(high 32) x the limit ($got)"
# The efficiency ceiling arraybench computes from its members' raw reads
# (--raw-baseline: N x the slowest member on raid0) is the limit this rig
# computes from the member limits, within what qemu lets a raw read through
# over its limit (see high_raw()).
for ph in block-write block-read; do
	got=$(awk -v ph="$ph" '$1 == ph && $3 == "of" { print $4; exit }' "$work/r3.txt")
	share=$("$py" -c "print('%.3f' % (float('${got:-nan}') / $limit_kib))" 2>/dev/null)
	diag "$ph's efficiency ceiling: ${got:-none} KiB/s, $share of the rig's limit $limit_kib"
	"$py" -c "import sys; sys.exit(0 if 0.97 <= float(sys.argv[1]) <= float(sys.argv[2]) else 1)" "${share:-nan}" "$(high_raw)" 2>/dev/null
	ok $? "raid0 $ph: arraybench's ceiling from the members' raw reads is the rig's limit, N x the slowest member ($share, within [0.97, $(high_raw)])"
done
# 4. The same slow member under raid10 (near copies) and raid5: md hands
# it as many bytes as its partner or the others, so again only its busy
# time per byte tells it, and the finding must name it on both levels.
for lv in raid10 raid5; do
	timeout -s INT -k 20 300 "$AB" run --array "$lv" "${on[@]}" --cache cgroup -r 16 -s 32m --phases block-write \
		--json "$work/$lv.json" >"$work/$lv.csv" 2>"$work/$lv.txt"
	st=$?
	ok $st "$lv: arraybench builds, runs a block write and tears down (exit $st)"
	[ $st = 0 ] || sed 's/^/#   /' "$work/$lv.txt" | tail -8
	diag "$lv: block write $(js "$work/$lv.json" "print('%.0f KiB/s' % rate('block-write'))"); busy ms per member: $(js "$work/$lv.json" "print(' '.join('%s=%d' % (x['name'], x['busy_ms']) for x in [p for p in run['phases'] if p['name'] == 'block-write'][0]['devices']))")"
	diag "$lv: findings: $(js "$work/$lv.json" "print('; '.join(f['id'] + ': ' + f['text'] for f in run.get('findings', [])) or 'none')")"
	got=$(js "$work/$lv.json" "
f = [f for f in findings('members-unequal') if f['text'].startswith('block-write:')]
print(f[0]['text'].split(\"'\")[1] if f and 'is the slow member' in f[0]['text'] else 'none')")
	[ "$got" = "${slow#/dev/}" ]
	ok $? "$lv block write: the members-unequal finding names the slow member ${slow#/dev/} as the slow member ($got)"
done

oom_after=$(dmesg | grep -c -i 'out of memory\|oom-kill')
[ "${oom_after:-x}" = "${oom_before:-y}" ]
ok $? "no out-of-memory kill across the five runs (kernel log lines: before ${oom_before:-?}, after ${oom_after:-?})"
[ "$oom_after" = "$oom_before" ] || dmesg | grep -i -A3 'out of memory\|oom-kill' | head -12 | sed 's/^/#   /'
left=$(grep -c '^md' /proc/mdstat 2>/dev/null; grep -c -E '^/dev/(md|vd)' /proc/self/mounts)
[ "$(echo $left)" = "0 0" ]
ok $? "no array or mount left ($(echo $left))"
rm -rf "$work"
