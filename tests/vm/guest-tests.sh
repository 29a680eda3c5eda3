#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later
# Runs INSIDE the mdadm test guest (tests/vm/run-guest.sh): arraybench builds
# an md array with --backend mdadm on the guest's virtio members, benchmarks
# it, and tears it down; each case checks the exit status, the JSON target,
# and that no array, mount, superblock or journal is left.  Then a comparison
# matrix, {md raid1, md raid10} x {ext4, xfs} x {defaults, noatime} at tiny
# sizes, 3 repeats, whose results.jsonl lines follow on stdout prefixed
# '@matrix ' for the host to report on.  Between them a tune of md raid10
# with xfs (the stripe-hint key: the array's su/sw or none, one round of 2
# visits) and its --dry-run over the whole xfs space.  TAP on stdout.
# Usage: guest-tests.sh [--count]   (--count: print the number of checks)
# Environment: AB (the arraybench binary, default ./arraybench), GUEST_MEMBERS
# (/dev/vda,/dev/vdb,...: run-guest.sh sets it).
set -u
# name|level|members|fs|extra options|chunk and layout the JSON must record
cases=(
	"raid0|raid0|2|ext4||524288 None"
	"raid1|raid1|2|ext3||0 None"
	"raid5|raid5|3|ext3|--chunk 64k|65536 None"
	"raid10-f2|raid10|4|xfs|--layout f2|524288 f2"
	"nested-1+0|1+0|4|ext4||524288 None"
)
per_case=6
killed_checks=5
tune_checks=8
matrix_checks=4
total=$((1 + ${#cases[@]} * per_case + killed_checks + tune_checks + matrix_checks))
if [ "${1:-}" = --count ]; then echo $total; exit 0; fi

AB=${AB:-$PWD/arraybench}
IFS=, read -r -a all_members <<<"${GUEST_MEMBERS:-/dev/vda,/dev/vdb,/dev/vdc,/dev/vdd}"
py=$(command -v /usr/bin/python3 python3 | head -1)
n=0
ok() { n=$((n + 1)); if [ "$1" -eq 0 ]; then echo "ok $n - $2"; else echo "not ok $n - $2"; fi; }
is() {
	n=$((n + 1))
	if [ "$1" = "$2" ]; then echo "ok $n - $3"; else
		echo "not ok $n - $3"; echo "#   got:  '$1'"; echo "#   want: '$2'"; fi
}
diag() { echo "# $*"; }
# Wait for a state, not for a time: under TCG on a loaded host a step can
# take many times what it takes on an idle one.  A bound ends a hang only.
await() { # condition seconds: poll until the condition holds; 1 if it never did
	local end=$((SECONDS + $2))
	until eval "$1"; do [ "$SECONDS" -lt "$end" ] || return 1; sleep 0.1; done
}

echo "1..$total"
[ -e /proc/mdstat ]; ok $? "the guest kernel has md RAID ($(uname -r))"

work=$(mktemp -d /tmp/ab-guest.XXXXXX)
export ARRAYBENCH_STATE_DIR=$work/state TMPDIR=$work/tmp
mkdir -p "$TMPDIR" "$ARRAYBENCH_STATE_DIR"
if grep -qw memory /sys/fs/cgroup/cgroup.subtree_control 2>/dev/null || [ -w /sys/fs/cgroup/memory ]; then
	cache="--cache cgroup -r 16"
else
	cache="--cache none -r 16"
fi
diag "arraybench $AB, cache: $cache, members ${all_members[*]}"

md_devices() { grep -E '^md[0-9_a-z]* *:' /proc/mdstat 2>/dev/null | cut -d' ' -f1 | tr '\n' ' '; }
mounted() { grep -E '^/dev/(md|vd)' /proc/self/mounts | cut -d' ' -f1,2 | tr '\n' ' '; }
holders() { # members that something (an array) still holds
	local m
	for m in "$@"; do [ -n "$(ls -A "/sys/class/block/${m#/dev/}/holders" 2>/dev/null)" ] && printf 'held:%s ' "$m"; done
}
superblocks() { # the members mdadm still finds a superblock on
	local m
	for m in "$@"; do mdadm --examine "$m" </dev/null >/dev/null 2>&1 && printf '%s ' "$m"; done
}
fresh_members() { # what a case left stopped and wiped: arraybench refuses members with a signature
	local m md
	for md in $(md_devices); do mdadm --stop "/dev/$md" </dev/null >/dev/null 2>&1; done
	for m in "$@"; do
		mdadm --zero-superblock "$m" </dev/null >/dev/null 2>&1
		dd if=/dev/zero of="$m" bs=1M count=16 oflag=direct status=none 2>/dev/null
	done
}
watch_md() { # FILE: the kernel's stripe of the first md array that has one: chunk, io_min, io_opt
	local d chunk io_min io_opt
	while :; do
		for d in /sys/block/md*; do
			chunk=$(cat "$d/md/chunk_size" 2>/dev/null) io_min=$(cat "$d/queue/minimum_io_size" 2>/dev/null)
			io_opt=$(cat "$d/queue/optimal_io_size" 2>/dev/null)
			if [ "${chunk:-0}" -gt 0 ] && [ "${io_min:-0}" -gt 0 ] && [ "${io_opt:-0}" -gt 0 ]; then
				echo "$chunk $io_min $io_opt" >"$1"
				return
			fi
		done
		sleep 0.2
	done
}

for c in "${cases[@]}"; do
	IFS='|' read -r name level count fs extra geometry <<<"$c"
	members=("${all_members[@]:0:$count}")
	list=$(IFS=,; echo "${members[*]}")
	json=$work/$name.json
	start=$(date +%s)
	# shellcheck disable=SC2086 # $extra and $cache are option lists
	timeout -s INT -k 20 300 "$AB" run --array "$level" --members "$list" --fs "$fs" $extra --backend mdadm \
		-s 64m $cache -n 1 -f --json "$json" -q </dev/null >"$work/$name.csv" 2>"$work/$name.err"
	status=$?
	is "$status" 0 "$name: arraybench --array $level on $count members with $fs exits 0 ($(($(date +%s) - start))s)"
	[ "$status" = 0 ] || sed 's/^/#   /' "$work/$name.err" | tail -15
	got=$("$py" -c "
import json, sys
t = json.loads(open(sys.argv[1]).readline())['target']
print(t.get('backend'), t.get('level'), t.get('fs'), len(t.get('members') or []), t.get('chunk_bytes'), t.get('layout'))
" "$json" 2>&1 | tail -1)
	is "$got" "mdadm $level $fs $count $geometry" "$name: JSON target records backend, level, fs, members, chunk, layout"
	is "$(md_devices)$(holders "${members[@]}")" "" "$name: /proc/mdstat lists no md device, the members have no holders"
	is "$(mounted)" "" "$name: nothing of the array or its members is mounted afterwards"
	is "$(superblocks "${members[@]}")" "" "$name: mdadm --examine finds no superblock on the members"
	is "$(find "$ARRAYBENCH_STATE_DIR" "$TMPDIR" -mindepth 1 -maxdepth 1 | tr '\n' ' ')" "" \
		"$name: no journal and no temporary file left"
	# Whatever a failed case left must not spoil the next one.
	fresh_members "${members[@]}"
done
# kill -9 mid-phase on an mdadm raid1: cleanup stops the array (by its
# journaled device node) and zeroes only superblocks naming that array.
members=("${all_members[@]:0:2}")
list=$(IFS=,; echo "${members[*]}")
"$AB" run --array raid1 --members "$list" --fs ext4 --backend mdadm -s 64m $cache -n 0 -f200 \
	--phases per-char-write </dev/null >/dev/null 2>"$work/killed.err" &
pid=$!
# (200 MiB of one-byte writes: once the phase is said to run, it runs when killed)
await "grep -q \"phase 'per-char-write'\" '$work/killed.err' || ! kill -0 $pid 2>/dev/null" 300
kill -KILL $pid; wait $pid 2>/dev/null
await '[ -z "$(pgrep -f -- "--phases per-char-write")" ]' 60 # its workers die with it, a moment later
[ -n "$(md_devices)" ]; ok $? "killed: kill -9 left the array running ($(md_devices))"
"$AB" cleanup </dev/null >"$work/cleanup.out" 2>&1
status=$?
is "$status" 0 "killed: arraybench cleanup exits 0"
[ "$status" = 0 ] || sed 's/^/#   /' "$work/cleanup.out"
is "$(md_devices)$(holders "${members[@]}")$(mounted)" "" "killed: cleanup stopped and unmounted the array"
is "$(superblocks "${members[@]}")" "" "killed: cleanup zeroed the members' superblocks"
is "$(find "$ARRAYBENCH_STATE_DIR" "$TMPDIR" -mindepth 1 -maxdepth 1 | tr '\n' ' ')" "" \
	"killed: no journal and no temporary file left"

# A tune on md raid10 of the four members with xfs (issue 24): the
# stripe-hint key's two candidates, mkfs given the array's su/sw (the
# defaults) and not (--no-stripe-hint), one round of one visit each.  What
# su/sw must be comes from the kernel, not from arraybench: the chunk and
# the stripe (io_opt / io_min) of the array a visit built, read while it
# runs.  Then --dry-run over the whole xfs space, and on one loop image
# (both with --budget 100: 2 visits pay for no round of them, refused).
fresh_members "${all_members[@]}"
list=$(IFS=,; echo "${all_members[*]}")
read -r -a cache_words <<<"$cache"
tune=(--members "$list" --yes-destroy "$list" --array raid10 --fs xfs --backend mdadm
	--phases block-write -s 32m "${cache_words[@]}" --objective block-write --budget 2)
watch_md "$work/md-geometry" &
watcher=$!
start=$(date +%s)
timeout -s INT -k 30 600 "$AB" tune -o "$work/tune" "${tune[@]}" --keys stripe-hint \
	</dev/null >"$work/tune.out" 2>"$work/tune.err"
status=$?
kill "$watcher" 2>/dev/null; wait "$watcher" 2>/dev/null
is "$status" 0 "tune: md raid10 of 4 members with xfs, --keys stripe-hint, --budget 2, exits 0 ($(($(date +%s) - start))s)"
[ "$status" = 0 ] || sed 's/^/#   /' "$work/tune.err" | tail -15
sed 's/^/# tune: /' "$work/tune.out"
read -r chunk io_min io_opt <"$work/md-geometry" 2>/dev/null
if [ -n "${io_opt:-}" ]; then
	want="su=$((chunk / 1024))k,sw=$((io_opt / io_min))"
	diag "the kernel's raid10: chunk $chunk, io_min $io_min, io_opt $io_opt: $want"
else
	want="(no md array seen while the tune ran)"
fi
got=$("$py" -c "
import json, re, sys
runs = [json.loads(l) for l in open(sys.argv[1])]
seen = []
for r in runs:
    m = re.search(r' -d (su=[^ ]*)', (r.get('target') or {}).get('mkfs_command') or '')
    seen.append('%s/%s:%s' % (r['tune']['candidate'], r['tune']['round'], m.group(1) if m else 'none'))
print(' '.join(sorted(seen)))
" "$work/tune/results.jsonl" 2>&1 | tail -1)
is "$got" "defaults/1:$want stripe-hint=none/1:none" \
	"tune: each visit's mkfs.xfs: the defaults with the array's -d $want, stripe-hint=none without"
"$AB" tune --dry-run "${tune[@]}" --budget 100 </dev/null >"$work/plan" 2>"$work/plan.err"
status=$?
grep '^stripe-hint=\|^space: \|^plan: ' "$work/plan" | sed 's/^/# dry-run: /'
is "$status $(grep -c "^stripe-hint=geometry: mkfs\.xfs .* -d $want /dev/mdX " "$work/plan") $(grep '^stripe-hint=none: ' "$work/plan" | grep -c ' -d su=')" \
	"0 1 0" "tune --dry-run, the whole xfs space: stripe-hint=geometry is mkfs -d $want, none without it"
[ -s "$work/plan.err" ] && sed 's/^/#   /' "$work/plan.err" | tail -5
# (one loop image: no stripe to align to)
one=(--loop 1:256M --fs xfs
	--phases block-write -s 32m "${cache_words[@]}" --objective block-write --budget 100)
"$AB" tune --dry-run "${one[@]}" </dev/null >"$work/plan-one" 2>"$work/plan-one.err"
status=$?
is "$status $(grep -c 'su=' "$work/plan-one") $(grep -c '^left out: stripe-hint=none: no stripe' "$work/plan-one")" \
	"0 0 1" "tune --dry-run on one image: no su/sw, stripe-hint=none left out (no stripe)"
[ -s "$work/plan-one.err" ] && sed 's/^/#   /' "$work/plan-one.err" | tail -5
is "$(md_devices)$(holders "${all_members[@]}")" "" "tune: /proc/mdstat lists no md device, the members have no holders"
is "$(mounted)" "" "tune: nothing of the array or its members is mounted afterwards"
is "$(superblocks "${all_members[@]}")" "" "tune: mdadm --examine finds no superblock on the members"
is "$(find "$ARRAYBENCH_STATE_DIR" "$TMPDIR" -mindepth 1 -maxdepth 1 | tr '\n' ' ')" "" \
	"tune: no journal and no temporary file left"

# The issue's second matrix: every cell built on all four members, measured
# 3 times round-robin, torn down; the visits' results go to the host.
fresh_members "${all_members[@]}"
cat >"$work/md.ini" <<EOF
[matrix]
members = $list
yes-destroy = $list
backend = mdadm
levels = raid1, raid10
fs = ext4, xfs
mount-opts = defaults; noatime
workloads = bonnie
repeats = 3
options = -s 32m -n 1 -f $cache
EOF
# Its deadline is there to catch a hang, not to time it: 90 s a run, where
# a run takes about 20 s in a quiet TCG guest and 45 s beside another
# guest, a make check and stress-ng --cpu 4 (which 1000 s for all 24 runs
# did not survive: 22 done).
start=$(date +%s)
timeout -s INT -k 30 $((24 * 90)) "$AB" matrix -q -o "$work/matrix" "$work/md.ini" </dev/null >"$work/matrix.out" 2>"$work/matrix.err"
status=$?
is "$status" 0 "matrix: 2 levels x 2 file systems x 2 mount options, 3 repeats, exits 0 ($(($(date +%s) - start))s)"
[ "$status" = 0 ] || sed 's/^/#   /' "$work/matrix.err" | tail -15
got=$("$py" -c "
import json, sys, collections
runs = [json.loads(l) for l in open(sys.argv[1])]
cells = collections.Counter(r['cell'] for r in runs if not r.get('failure'))
ok = all((r.get('target') or {}).get('backend') == 'mdadm'
         and r['cell'].startswith('mdadm-%s %s ' % (r['target']['level'], r['target']['fs'])) for r in runs)
print(len(runs), len(cells), sorted(set(cells.values())), sorted(set(r['repeat'] for r in runs)), ok)
" "$work/matrix/results.jsonl" 2>&1 | tail -1)
is "$got" "24 8 [3] [1, 2, 3] True" "matrix: 24 runs, 8 cells of 3 repeats, each run's target the cell's level and fs"
is "$(md_devices)$(holders "${all_members[@]}")$(mounted)" "" "matrix: no array, holder or mount left"
is "$(find "$ARRAYBENCH_STATE_DIR" "$TMPDIR" -mindepth 1 -maxdepth 1 | tr '\n' ' ')" "" \
	"matrix: no journal and no temporary file left"
sed 's/^/@matrix /' "$work/matrix/results.jsonl" 2>/dev/null
rm -rf "$work"
exit 0
