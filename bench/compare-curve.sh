#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later
#
# bench/compare-curve.sh: the latency curve's knee, arraybench's
# --phases latency-curve against fio stepped with rate_iops, on one
# loop-backed ext4 (direct I/O on the loop device too) under a blkio
# throttle of THROTTLE reads/s on that loop device (cgroup v1), so the
# device has a knee of its own that the shared VM's noise does not move.
#
#   bench/compare-curve.sh [ROUNDS]      (root; ROUNDS 6)
#   env: THROTTLE (300), START (100), FACTOR (1.25), STEPS (8), SECONDS_ (3),
#        TARGET_MS (50), OUT (a new directory; raw outputs stay there)
#
# Same load on both sides: 4 processes, one 8k O_DIRECT pread in flight
# each, random blocks of a 64 MiB file, the aggregate rate split evenly
# (fio: numjobs=4, ioengine=psync, rate_iops=R/4 each, rate_process=linear).
# Same rule on both sides for where the curve ends (p99 over the target, or
# achieved under 95 % of offered) and for the sizing answer (p99 linear in
# log rate between the last passing and first failing step).  The one
# difference is what a latency is measured from: arraybench from each I/O's
# due time; fio 3.33 (lat, lat_percentiles=1) from when it made the I/O,
# which, behind schedule, is when the previous one ended.  fio's own cure,
# io_submit_mode=offload, hangs in 3.33 here (fixed upstream in 2026, fio
# PR #2058), so fio past the knee shows a falling rate, not a growing p99;
# the 5 % rule catches that.
#
# Each round runs arraybench, its twin arraybench-aa (the same binary again:
# the A/A pair, whose ratio is the noise floor) and fio, in the order
# bench/rounds.py gives the round (a Williams design of 6 rounds: each tool
# in each position, and before each other in half the rounds; a ROUNDS that
# is not a multiple of 6 runs, with a warning).  OUT gets orders.tsv (ROUND
# POSITION TOOL) and results.tsv (ROUND TOOL METRIC VALUE) beside the raw
# outputs; the summary (OUT/summary.txt) lists every round's steps, then for
# the answer ("sizing", the target is within 10 %) and the knee ("last
# pass", the highest step offered that passed) the median ratio
# arraybench/fio, min-max, the medians when arraybench ran before / after
# fio, the A/A median, the floor and the ORDER-BOUND mark, and the A/A pair
# by position.
set -u
ROUNDS=${1:-6}
THROTTLE=${THROTTLE:-300} START=${START:-100} FACTOR=${FACTOR:-1.25} STEPS=${STEPS:-8}
SECS=${SECONDS_:-3} TARGET_MS=${TARGET_MS:-50}
top=$(cd "$(dirname "$0")/.." && pwd)
AB=${AB:-$top/arraybench}
[ "$(id -u)" = 0 ] || { echo "compare-curve: needs root (loop device, blkio cgroup)" >&2; exit 3; }
case $ROUNDS in '' | *[!0-9]* | 0) echo "compare-curve: invalid ROUNDS '$ROUNDS'" >&2; exit 2 ;; esac
tools=(arraybench arraybench-aa fio)
design=$(python3 "$top/bench/rounds.py" length ${#tools[@]}) || exit 3
[ $((ROUNDS % design)) = 0 ] ||
	echo "compare-curve: warning: $ROUNDS rounds is not a multiple of the design's $design: positions unbalanced" >&2
OUT=${OUT:-$(mktemp -d /var/tmp/compare-curve.XXXXXX)}
mkdir -p "$OUT"
W=$(mktemp -d /var/tmp/compare-curve-work.XXXXXX)
dev= mnt=$W/mnt cg=/sys/fs/cgroup/blkio/compare-curve.$$
cleanup() {
	mountpoint -q "$mnt" && umount "$mnt"
	[ -n "$dev" ] && losetup -d "$dev"
	[ -d "$cg" ] && rmdir "$cg"
	rm -rf "$W"
}
trap cleanup EXIT
trap 'exit 130' INT TERM
# The report's arithmetic, copied: a change to the tree meanwhile changes nothing.
cp "$top/bench/rounds.py" "$W/" || exit 1
truncate -s 512M "$W/img" && mkfs.ext4 -q -F "$W/img" || exit 1
dev=$(losetup --direct-io=on --find --show "$W/img") || exit 1
mkdir -p "$mnt" && mount "$dev" "$mnt" || exit 1
majmin=$(lsblk -dno MAJ:MIN "$dev" | tr -d ' ')
mkdir "$cg" && echo "$majmin $THROTTLE" >"$cg/blkio.throttle.read_iops_device" || exit 1
in_cg() { bash -c 'echo $$ >"$1/cgroup.procs" && shift && exec "$@"' sh "$cg" "$@"; }
export ARRAYBENCH_STATE_DIR=$W/state
mkdir -p "$mnt/ab" "$mnt/fio"
fio --name=layout --filename="$mnt/fio/f" --size=64m --rw=write --bs=1m --direct=1 --end_fsync=1 \
	--output=/dev/null || exit 1

rates=$(python3 -c "print(' '.join('%.6g' % ($START * $FACTOR ** i) for i in range($STEPS)))")
{
	echo "date: $(date -u)"; echo "uptime: $(uptime)"; echo "kernel: $(uname -r)"; echo "fio: $(fio --version)"
	echo "arraybench: $("$AB" --version 2>&1 | head -1) $(git -C "$top" rev-parse --short HEAD 2>/dev/null)"
	echo "device: $dev ($majmin, direct-io on) over $W/img, ext4; throttle $THROTTLE reads/s"
	echo "steps: $rates IOPS, $SECS s each, target p99 <= $TARGET_MS ms, 4 processes, 8k randread O_DIRECT"
} >"$OUT/conditions.txt"
cat "$OUT/conditions.txt"

run_ab() { # round [prefix: ab, or aa for the twin]
	local x=${2:-ab}
	in_cg "$AB" run -q -d "$mnt/ab" -s 64m --direct --cache fadvise -r 16 --phases latency-curve \
		--curve-procs 4 --curve-block 8k --rate-start "$START" --rate-factor "$FACTOR" --curve-steps "$STEPS" \
		--curve-seconds "$SECS" --p99-target "${TARGET_MS}ms" --json "$OUT/$x.$1.json" \
		>"$OUT/$x.$1.txt" 2>&1
}

run_fio() { # round: one fio run per step, until a step fails
	local r per
	for r in $rates; do
		per=$(python3 -c "print(max(1, round($r / 4)))")
		in_cg fio --name=curve --filename="$mnt/fio/f" --size=64m --rw=randread --bs=8k --direct=1 \
			--ioengine=psync --numjobs=4 --rate_iops="$per" --rate_process=linear --runtime="$SECS" \
			--time_based --group_reporting --lat_percentiles=1 --randrepeat=0 --output-format=json \
			>"$OUT/fio.$1.$r.json" 2>"$OUT/fio.$1.$r.err" || return 1
		python3 "$W/judge.py" fio-step "$OUT/fio.$1.$r.json" "$((per * 4))" "$TARGET_MS" || break
	done
}

cat >"$W/judge.py" <<'PY'
import json, math, sys

def fio_step(path):
    text = open(path).read()
    j = json.loads(text[text.index("{"):])["jobs"][0]["read"]
    return j["iops"], j["lat_ns"]["percentile"]["99.000000"] / 1e6

def passes(offered, achieved, p99, target):
    return p99 <= target and achieved >= 0.95 * offered

def sizing(steps, target):  # [(offered, achieved, p99_ms)], as arraybench's ab_curve_sizing
    last_pass = first_fail = None
    for s in steps:
        if passes(s[0], s[1], s[2], target):
            last_pass = s
        else:
            first_fail = s
            break
    if last_pass is None:
        return float("nan"), False
    if first_fail is None or first_fail[2] <= target or first_fail[2] <= last_pass[2]:
        return last_pass[0], False
    f = (target - last_pass[2]) / (first_fail[2] - last_pass[2])
    return last_pass[0] * (first_fail[0] / last_pass[0]) ** f, True

if sys.argv[1] == "fio-step":
    iops, p99 = fio_step(sys.argv[2])
    sys.exit(0 if passes(float(sys.argv[3]), iops, p99, float(sys.argv[4])) else 1)
def ab_curve(path):  # (steps, sizing) of one arraybench run; ([], None) if it has none
    steps, size = [], None
    try:
        for line in open(path):
            for p in json.loads(line)["phases"]:
                if p["name"] != "latency-curve":
                    continue
                if p["key"]["test"] == "sizing":
                    # no rate when no step passed: no answer
                    size = (p["rate"], p["interpolated"]) if p.get("rate") else None
                else:
                    steps.append((p["offered_rate"], p["rate"], p["latency_ns"]["p99"] / 1e6))
    except (OSError, ValueError, KeyError):
        pass
    return steps, size

def last_pass(steps, target):  # the knee: the highest offered rate passed before the first failure
    best = None
    for s in steps:
        if not passes(s[0], s[1], s[2], target):
            break
        best = s[0]
    return best

if sys.argv[1] == "summary":
    import os
    sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
    import rounds as R
    out, rounds, rates, target = sys.argv[2], int(sys.argv[3]), sys.argv[4].split(), float(sys.argv[5])
    na = lambda v: "NA" if v is None or v != v else repr(v)
    res = open(f"{out}/results.tsv", "w")
    for n in range(1, rounds + 1):
        ab_steps, ab_size = ab_curve(f"{out}/ab.{n}.json")
        aa_steps, aa_size = ab_curve(f"{out}/aa.{n}.json")
        fio_steps = []
        for r in rates:
            try:
                iops, p99 = fio_step(f"{out}/fio.{n}.{r}.json")
            except (OSError, ValueError, KeyError):
                break
            fio_steps.append((4 * max(1, round(float(r) / 4)), iops, p99))
        fio_size = sizing(fio_steps, target)
        print(f"round {n}")
        for tool, steps in (("arraybench", ab_steps), ("ab-aa", aa_steps), ("fio", fio_steps)):
            for s in steps:
                print(f"  {tool:10s} offered {s[0]:8.1f} achieved {s[1]:8.1f} p99 {s[2]:9.2f} ms"
                      f"  {'pass' if passes(s[0], s[1], s[2], target) else 'FAIL'}")
        for tool, steps, size in (("arraybench", ab_steps, ab_size), ("arraybench-aa", aa_steps, aa_size),
                                  ("fio", fio_steps, fio_size)):
            res.write(f"{n}\t{tool}\tsizing\t{na(size[0] if size else None)}\n")
            res.write(f"{n}\t{tool}\tlast pass\t{na(last_pass(steps, target))}\n")
        fmt = lambda sz: f"{sz[0]:.1f} IOPS (interpolated {sz[1]})" if sz and sz[0] == sz[0] else "none"
        ratio = ab_size[0] / fio_size[0] if ab_size and fio_size[0] == fio_size[0] and fio_size[0] else float("nan")
        print(f"  sizing: arraybench {fmt(ab_size)}, twin {fmt(aa_size)}, fio {fmt(fio_size)}, ratio {ratio:.3f}")
    res.close()
    values, positions = R.read_results(f"{out}/results.tsv"), R.read_orders(f"{out}/orders.tsv")
    print()
    print(R.HEADER)
    comps = [R.Comparison(values, positions, "arraybench", "fio", m, "arraybench-aa") for m in ("sizing", "last pass")]
    print(R.format_row(comps[0], 0.90, 1.10))
    print(R.format_row(comps[1]))
    print(R.LEGEND)
    print("verdict (sizing): PASS within 10 % (0.90-1.10), FAIL under, HIGH over; last pass: information")
    for m in ("sizing", "last pass"):
        print(R.aa_line(R.Comparison(values, positions, "arraybench", "arraybench-aa", m, "arraybench-aa")))
    c = comps[0]
    ratios = sorted(x for x in c.ratios if x is not None)
    if c.median is not None:
        print(f"median ratio arraybench/fio sizing over {c.n} of {rounds} rounds: {c.median:.3f} "
              f"({'within' if abs(c.median - 1) <= 0.10 else 'OUTSIDE'} 10 %); ratios {' '.join('%.3f' % r for r in ratios)}")
PY

: >"$OUT/orders.tsv"
for n in $(seq "$ROUNDS"); do
	order=$(python3 "$W/rounds.py" order "$n" "${tools[@]}") || exit 3
	pos=0
	for t in $order; do
		pos=$((pos + 1))
		printf '%s\t%s\t%s\n' "$n" "$pos" "$t" >>"$OUT/orders.tsv"
		case $t in
		arraybench) run_ab "$n" ab || echo "arraybench round $n failed" ;;
		arraybench-aa) run_ab "$n" aa || echo "arraybench (the twin) round $n failed" ;;
		fio) run_fio "$n" ;;
		esac
	done
	echo "round $n done ($order) $(date -u +%T), $(uptime | sed 's/.*load/load/')"
done
python3 "$W/judge.py" summary "$OUT" "$ROUNDS" "$rates" "$TARGET_MS" | tee "$OUT/summary.txt"
echo "raw outputs: $OUT"
