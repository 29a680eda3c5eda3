#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later
#
# bench/compare-sweep-pairs.sh: each sweep test of each cell on its own,
# arraybench against fio in balanced rounds, on one loop-backed ext4.
# bench/compare-sweep.sh runs a whole cell (write, read, random-read,
# random-write) per tool per round; on this VM the state one run leaves
# (pages handed back to the host, writeback still going) made one cell's
# ratio swing 0.5x-3x from round to round.  Here every measured run starts
# from the same state: the test directory emptied, sync, 3 s idle, the
# file the test needs laid out by the tool itself, evicted right before
# the clock for the cold reads (arraybench's parent before it forks; for
# fio its exec_prerun, after its set-up, with the same fdatasync +
# POSIX_FADV_DONTNEED), nothing evicted before writes.
#
# Rounds: each cell and test runs in rounds of three runs, arraybench,
# arraybench-aa (the same binary a second time: the A/A pair, whose ratio
# is the machine's noise floor) and fio, in the order bench/rounds.py gives
# round R (a Williams design: 6 rounds to a full one, in which each run
# takes each position twice and runs before each other run in half the
# rounds).  This VM hands freed memory back to its host, so whichever run
# follows a big free pays for it; a fixed or merely alternating order
# measures the order.  -n not a multiple of 6 is warned about and run.
#
# Timing is the same on both sides (bench/RESULTS.md, "Timing"): writes
# time their fsync (fio end_fsync=1), reads only the reads; one pread or
# pwrite per record (fio psync, fadvise_hint=0, fallocate=none); random
# tests visit every record once: arraybench in a shuffled permutation (as
# iozone), fio by default (-R lfsr) with random_generator=lfsr, which also
# visits every block once with no map.  fio's own default (-R tausworthe,
# with its random map) is not a uniform order: once most blocks are taken,
# a pick that lands on a used block takes the next free one after it, so
# the end of the run reads long sequential stretches, which readahead turns
# into fewer, larger I/Os.  Measured at 2g/64k: fio randread 610-621 MiB/s
# with its default, 456-540 with lfsr, 512-604 with norandommap
# (bench/RESULTS.md).
#
# Writes to the output directory: orders.tsv (ROUND POSITION TOOL),
# results.tsv (ROUND TOOL CELL/TEST MiB/s), log.txt and report.txt.  The
# report gives per cell and test the ratio arraybench / fio: median over
# the rounds, min-max, the medians of the rounds where arraybench ran
# before / after fio, the A/A median and floor (median |A/A - 1|), the
# verdict and the ORDER-BOUND mark (the two positions' medians differ by
# more than the floor); then each round's ratio with both tools' median
# MiB/s, and the A/A pair by position.
#
# Options (defaults in brackets; sizes take a k/m/g suffix):
#   -c CELLS   comma-separated FILE:RECORD cells         [2g:64k,2g:1m,2g:16m]
#   -t TESTS   comma-separated tests, each run in every cell
#              [write,read,random-read,random-write]
#   -n ROUNDS  rounds per cell and test (6 to a full design)       [6]
#   -R GEN     fio's random_generator: lfsr or tausworthe (fio's own
#              default, with its random map)                        [lfsr]
#   -A KB      the loop device's read_ahead_kb           [the kernel's, 2560]
#   -i SIZE    sparse image size                                    [8g]
#   -o DIR     keep the outputs (TSVs, log, report, last JSONs) in DIR
#              [a temporary directory, removed at exit]
#   -P         run nothing: report again from the TSVs an earlier run kept
#              in -o DIR
#   -b PATH    arraybench binary                  [../arraybench from here]
#   -h         this help
# A run (one tool, one test) takes 5-10 s at 2 GiB; the full default set,
# 3 cells x 4 tests x 6 rounds x 3 runs, about 30 minutes.
#
# Exit status: 0 every median at records of 64k and up is 0.95-1.10, 1 one
# is not (or a run failed), 2 bad usage or a missing tool, 3 set-up
# failed.  The image, loop device and mount go away on exit, error, Ctrl-C
# or TERM.
set -u -o pipefail

here=$(cd "$(dirname "$0")" && pwd)
prog=compare-sweep-pairs.sh
. "$here/lib.sh" # usage, bad, log, bench_fio, bench_other_option
cells_arg=2g:64k,2g:1m,2g:16m rounds=6 keep="" ab="$here/../arraybench" gen=lfsr ra_kb="" image_size=8g
tests_arg=write,read,random-read,random-write report_only=""
while getopts ":c:n:o:b:R:t:A:i:Ph" opt; do
	case $opt in
	c) cells_arg=$OPTARG ;; n) rounds=$OPTARG ;; o) keep=$OPTARG ;; b) ab=$OPTARG ;;
	R) gen=$OPTARG ;; t) tests_arg=$OPTARG ;; A) ra_kb=$OPTARG ;; i) image_size=$OPTARG ;;
	P) report_only=1 ;;
	*) bench_other_option "$opt" ;;
	esac
done
shift $((OPTIND - 1))
bench_no_operands "$@"

# The three runs of a round, as bench/rounds.py places them.
tools=(arraybench arraybench-aa fio)

# The report: per cell and test, rounds.Comparison of arraybench / fio with
# the A/A twin.  METRIC in results.tsv is CELL/TEST.
report() { # OUT_DIR
	python3 - "$1" "$rounds_py" <<'EOF'
import os, statistics, sys
out, rounds_py = sys.argv[1], sys.argv[2]
sys.path.insert(0, os.path.dirname(rounds_py))
sys.dont_write_bytecode = True  # no __pycache__ beside the copy
import rounds
values = rounds.read_results(os.path.join(out, "results.tsv"))
positions = rounds.read_orders(os.path.join(out, "orders.tsv"))
keys = []  # CELL/TEST in the order they ran
for line in open(os.path.join(out, "results.tsv")):
    f = line.rstrip("\n").split("\t")
    if len(f) >= 3 and f[2] not in keys:
        keys.append(f[2])

def record_kib(cell):
    rec = cell.split(":")[1].lower()
    mult = {"k": 1, "m": 1024, "g": 1 << 20}.get(rec[-1:], None)
    return int(rec[:-1]) * mult if mult else int(rec)

nrounds = sorted({r for (r, t) in positions})
print("arraybench / fio per cell and test, %d rounds; orders: %s" % (len(nrounds), ", ".join(
    " ".join(t for t, p in sorted(((t, p) for (rr, t), p in positions.items() if rr == r), key=lambda x: x[1]))
    for r in nrounds[:6])))
print("verdict: median 0.95-1.10 at records of 64k and up, info below")
print("%-8s %s" % ("cell", rounds.HEADER.replace("metric", "test  ", 1)))
bad = 0
comps = []
for m in keys:
    cell, test = m.split("/", 1)
    c = rounds.Comparison(values, positions, "arraybench", "fio", m, "arraybench-aa")
    c.metric = test  # the row's label; the cell goes in a column of its own
    targeted = record_kib(cell) >= 64
    lo, hi = (0.95, 1.10) if targeted else (None, None)
    print("%-8s %s" % (cell, rounds.format_row(c, lo, hi)))
    bad += targeted and c.verdict(lo, hi) != "PASS"
    comps.append((m, c))
print(rounds.LEGEND)
print()
print("%-24s %-48s %9s %9s %9s" % ("cell/test", "ratios arraybench/fio per round", "ab MiB/s", "aa MiB/s", "fio MiB/s"))
for m, c in comps:
    med = lambda tool: statistics.median([v for (r, t, mm), v in values.items() if t == tool and mm == m and v]
                                         or [0])
    print("%-24s %-48s %9.0f %9.0f %9.0f" % (m, " ".join("n/a" if x is None else "%.2f" % x for x in c.ratios),
                                             med("arraybench"), med("arraybench-aa"), med("fio")))
print()
for m, _ in comps:
    c = rounds.Comparison(values, positions, "arraybench", "arraybench-aa", m, "arraybench-aa")
    c.metric = m.split("/", 1)[1]
    print("%-8s %s" % (m.split("/", 1)[0], rounds.aa_line(c)))
sys.exit(1 if bad else 0)
EOF
}

if [ -n "$report_only" ]; then
	[ -n "$keep" ] && [ -s "$keep/results.tsv" ] && [ -s "$keep/orders.tsv" ] ||
		bad "-P reports again from the results.tsv and orders.tsv an earlier run kept: give its -o DIR"
	rounds_py=$here/rounds.py
	report "$keep" | tee "$keep/report.txt"
	exit "${PIPESTATUS[0]}"
fi

IFS=, read -r -a cells <<<"$cells_arg"
IFS=, read -r -a tests <<<"$tests_arg"
[ ${#cells[@]} -gt 0 ] || bad "no cells (-c)"
for cell in "${cells[@]}"; do
	[[ $cell =~ ^[0-9]+[kKmMgG]?:[0-9]+[kKmMgG]?$ ]] || bad "invalid cell '$cell': want FILE:RECORD, e.g. 2g:1m"
done
[ ${#tests[@]} -gt 0 ] || bad "no tests (-t)"
for test in "${tests[@]}"; do
	case $test in write | read | random-read | random-write) ;;
	*) bad "invalid test '$test': write, read, random-read or random-write" ;;
	esac
done
[[ $rounds =~ ^[0-9]+$ ]] && [ "$rounds" -ge 1 ] || bad "invalid -n '$rounds': a number of rounds, 1 or more"
case $gen in lfsr | tausworthe) ;; *) bad "invalid -R '$gen': lfsr or tausworthe" ;; esac
[ -z "$ra_kb" ] || [[ $ra_kb =~ ^[0-9]+$ ]] || bad "invalid -A '$ra_kb': KiB, a number"
[[ $image_size =~ ^[0-9]+[kKmMgG]?$ ]] || bad "invalid -i '$image_size': a size such as 8g"
command -v fio >/dev/null || bad "fio is missing (apt-get install fio)"
[ "$(id -u)" = 0 ] || bad "run as root (loop device, mount)"
[ -x "$ab" ] || bad "no arraybench binary at '$ab' (run make, or -b PATH)"

work=$(mktemp -d /var/tmp/abpairs.XXXXXX) || exit 3
out=${keep:-$work/out}
mkdir -p "$out" && out=$(cd "$out" && pwd) || exit 3 # absolute: fio runs in $work
dev="" mnt=$work/mnt
cleanup() {
	local st=$?
	[ -n "$dev" ] && { umount "$mnt" 2>/dev/null; losetup -d "$dev" 2>/dev/null; }
	rm -rf "$work/mnt" "$work/disk.img" "$work/evict.py" "$work/arraybench" "$work/rounds.py" \
		"$work/__pycache__" "$work"/*.prerun.txt
	[ -n "$keep" ] && rmdir "$work" 2>/dev/null || rm -rf "$work"
	exit "$st"
}
trap cleanup EXIT
trap 'exit 130' INT
trap 'exit 143' TERM

# One copy of the ratio arithmetic for the whole run, beside the work files.
cp "$here/rounds.py" "$work/rounds.py" || exit 3
rounds_py=$work/rounds.py
design_len=$(python3 "$rounds_py" length ${#tools[@]}) || exit 3
[ $((rounds % design_len)) -eq 0 ] ||
	log "warning: $rounds rounds is not a multiple of $design_len (a full design of ${#tools[@]} runs): positions are not balanced"

truncate -s "$image_size" "$work/disk.img" &&
	mkfs.ext4 -q -F -E nodiscard,lazy_itable_init=0,lazy_journal_init=0 "$work/disk.img" &&
	dev=$(losetup --direct-io=on -f --show "$work/disk.img") && mkdir "$mnt" && mount "$dev" "$mnt" || exit 3
# -A: the loop device's readahead (its default here is 2560 KiB: a random
# 1 MiB read then brings 2.5 MiB, and how much of it a later read uses
# depends on the order of the reads).
[ -z "$ra_kb" ] || echo "$ra_kb" >"/sys/block/${dev#/dev/}/queue/read_ahead_kb" || exit 3
log "$dev read_ahead_kb $(cat "/sys/block/${dev#/dev/}/queue/read_ahead_kb")"
# The host allocates the sparse image on first write: paid once, here.
dd if=/dev/zero of="$mnt/fill" bs=16M oflag=direct status=none 2>/dev/null
rm -f "$mnt/fill" && sync
cp "$ab" "$work/arraybench" || exit 3
ab=$work/arraybench
t=$mnt/test
mkdir "$t"
cat >"$work/evict.py" <<'EOF'
import os, sys
fd = os.open(sys.argv[1], os.O_RDONLY)
os.fdatasync(fd)
os.posix_fadvise(fd, 0, 0, os.POSIX_FADV_DONTNEED)
os.close(fd)
EOF
settle() { find "$t" -mindepth 1 -delete; sync; sleep 3; }

# MiB/s of one arraybench run of TEST alone (its file laid out untimed).
run_ab() { # FILE RECORD TEST
	"$ab" run -d "$t" --phases sweep --sweep-file-sizes "$1" --sweep-records "$2" --sweep-tests "$3" \
		-q --json "$out/ab.json" >/dev/null 2>>"$out/ab.err" || return 1
	python3 -c 'import json, sys
o = json.loads(open(sys.argv[1]).readlines()[-1])
print("%.1f" % (o["phases"][-1]["rate"] / 1024))' "$out/ab.json"
}

# MiB/s of fio's job for TEST, its file written first (untimed, a job of its own).
# fio runs in $work (bench_fio), where its exec_prerun output goes.
run_fio() { # FILE RECORD TEST
	local f=$t/fio.dat c=(--filename="$t/fio.dat" --bs="$2" --size="$1" --ioengine=psync --direct=0
		--fallocate=none --fadvise_hint=0 --invalidate=0 --output-format=json)
	if [ "$3" != write ]; then
		bench_fio "${c[@]}" --name=layout --rw=write --end_fsync=1 >/dev/null || return 1
	fi
	local job
	case $3 in
	write) job=(--name=write --rw=write --end_fsync=1) ;;
	read) job=(--name=read --rw=read --exec_prerun="python3 $work/evict.py $f") ;;
	random-read) job=(--name=randread --rw=randread --randrepeat=0 --random_generator="$gen"
		--exec_prerun="python3 $work/evict.py $f") ;;
	random-write) job=(--name=randwrite --rw=randwrite --randrepeat=0 --random_generator="$gen" --end_fsync=1) ;;
	esac
	bench_fio "${c[@]}" "${job[@]}" --output="$out/fio.json" >/dev/null || return 1
	python3 -c 'import json, sys
j = json.load(open(sys.argv[1]))["jobs"][0]
print("%.1f" % ((j["read"]["bw"] + j["write"]["bw"]) / 1024))' "$out/fio.json"
}

: >"$out/orders.tsv"
: >"$out/results.tsv"
log "fio random_generator=$gen; cells $cells_arg; tests $tests_arg; $rounds rounds of ${tools[*]}"
# Round R of every cell and test runs in the design's order R, so one
# orders.tsv serves them all.
for ((r = 1; r <= rounds; r++)); do
	read -r -a order < <(python3 "$rounds_py" order "$r" "${tools[@]}") || exit 3
	for i in "${!order[@]}"; do printf '%s\t%s\t%s\n' "$r" $((i + 1)) "${order[$i]}" >>"$out/orders.tsv"; done
done
for cell in "${cells[@]}"; do
	file=${cell%%:*} rec=${cell#*:}
	for test in "${tests[@]}"; do
		for ((r = 1; r <= rounds; r++)); do
			read -r -a order < <(awk -F'\t' -v r="$r" '$1 == r { print $3 }' "$out/orders.tsv" | tr '\n' ' ')
			words=()
			for tool in "${order[@]}"; do
				settle
				case $tool in fio) fn=run_fio ;; *) fn=run_ab ;; esac
				v=$("$fn" "$file" "$rec" "$test") || { log "$cell $test round $r: $tool failed"; exit 1; }
				printf '%s\t%s\t%s\t%s\n' "$r" "$tool" "$cell/$test" "$v" >>"$out/results.tsv"
				words+=("$tool $v")
			done
			log "$cell $test round $r (MiB/s): $(IFS=,; echo "${words[*]}" | sed 's/,/, /g')"
		done
	done
done

report "$out" | tee "$out/report.txt"
exit "${PIPESTATUS[0]}"
