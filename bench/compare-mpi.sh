#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later
#
# bench/compare-mpi.sh: what running under MPI costs arraybench and whether
# many ranks add up (issue 23's "Benchmark"), in balanced rounds with an
# A/A twin, on one loop-backed ext4 (bench/probes/loop-ext4.sh) with a
# memory cgroup per process (--cache cgroup) so reads reach the disk.
#
# Part "overhead": the bonnie++ phases (block-write, rewrite, block-read,
# seeks, the file phases with -n; -f skips per-char) run three ways in
# every round: plain (arraybench run), plain-aa (the same binary again: the
# A/A pair) and mpi1 (mpirun -np 1 arraybench-mpi run), with the same
# options in the same directory.  Per phase: the median of the per-round
# ratios mpi1/plain, min-max, the medians of the rounds where mpi1 ran
# before / after plain, and the floor, median |plain-aa/plain - 1|.
#
# Part "aggregation": 4 ranks of one worker (mpirun -np 4 ... --streams 1,
# --seekers 1) against one process with 4 (arraybench run --streams 4,
# --seekers 4) and its twin, each test a run of its own (sweep write,
# sweep read, seeks), the test directory emptied, sync and 3 s idle before
# each.  Same per-stream file (-F), same record; the seeks the same total
# (-k per rank, 4 x -k for the one process, whose file is 4 x -S so the
# seeks spread over the same bytes as the ranks' four files).  Each rank
# has its own cgroup of -r MiB; the one process gets 4 x -r, the same
# memory per worker.  Per test: the ratio ranks4/streams4 and, beside it,
# the same for the stonewall rates (the sweep's rate when the first
# worker finished) and the 4-rank runs' start spread and clock bound.
#
# The order of round R is bench/rounds.py's (a Williams design of three
# runs: 6 rounds to a full one).  Before each run the script waits (at most
# 5 s) while another benchmark or mpirun runs on the machine (pgrep -f
# 'bench/|mpirun', its own process group excepted), and logs the load average.
#
# Options (defaults in brackets):
#   -p PARTS   overhead, aggregation or both, comma-separated   [overhead,aggregation]
#   -n ROUNDS  rounds per part (6 to a full design)             [6]
#   -m FIRST   number the rounds from FIRST and add them to what -o DIR
#              holds (rounds 7-12 after a first run of 6)       [1]
#   -s SIZE    overhead: -s of the bonnie++ phases              [256m]
#   -N FILES   overhead: -n, files in units of 1024             [16]
#   -F SIZE    aggregation: the sweep's file per worker         [256m]
#   -S SIZE    aggregation: the seeks' file per rank            [256m]
#   -k SEEKS   aggregation: --seeks per rank                    [16384]
#   -r MIB     overhead: the memory cgroup's limit                [128]
#   -R MIB     aggregation: the cgroup's limit per rank (x4 for the one
#              process)                                         [64]
#   -i MIB     the loop image's size                            [4096]
#   -o DIR     keep the outputs (TSVs, every run's JSON, log, report) in DIR
#              [a temporary directory, removed at exit]
#   -P         run nothing: report again from what -o DIR kept
#   -b DIR     where arraybench and arraybench-mpi are            [..]
#   -h         this help
# Each run's JSON goes to DIR/json/PART.ROUND.TOOL[.TEST].json;
# orders-PART.tsv (ROUND POSITION TOOL), results-PART.tsv (ROUND TOOL
# METRIC VALUE), detail-aggregation.tsv (the 4-rank timebase and the
# stonewall figures of every run), log.txt and report.txt.
# Exit status: 0 done (the report flags, it does not judge), 1 a run
# failed (the others still ran and are reported), 2 bad usage or a
# missing tool, 3 set-up failed.
set -u -o pipefail

here=$(cd "$(dirname "$0")" && pwd)
prog=compare-mpi.sh
. "$here/lib.sh" # usage, bad, die, log, bench_other_option
parts_arg=overhead,aggregation rounds=6 first=1 osize=256m nfiles=16 fsize=256m ssize=256m seeks=16384
ram=128 aram=64 image_mib=4096 keep="" bindir="$here/.." report_only=""
while getopts ":p:n:m:s:N:F:S:k:r:R:i:o:b:Ph" opt; do
	case $opt in
	p) parts_arg=$OPTARG ;; n) rounds=$OPTARG ;; m) first=$OPTARG ;; s) osize=$OPTARG ;; N) nfiles=$OPTARG ;;
	F) fsize=$OPTARG ;; S) ssize=$OPTARG ;; k) seeks=$OPTARG ;; r) ram=$OPTARG ;; R) aram=$OPTARG ;;
	i) image_mib=$OPTARG ;; o) keep=$OPTARG ;; b) bindir=$OPTARG ;; P) report_only=1 ;;
	*) bench_other_option "$opt" ;;
	esac
done
shift $((OPTIND - 1))
bench_no_operands "$@"

# The report of both parts, from the TSVs in OUT.
report() { # OUT
	python3 - "$1" "$here/rounds.py" <<'EOF'
import json, os, statistics, sys
out, rounds_py = sys.argv[1], sys.argv[2]
sys.dont_write_bytecode = True
sys.path.insert(0, os.path.dirname(rounds_py))
import rounds

def fmt(x, nd=3):
    return "n/a" if x is None else "%.*f" % (nd, x)

def part(name, subject, peer, twin, title, limit=None):
    res, ords = os.path.join(out, "results-%s.tsv" % name), os.path.join(out, "orders-%s.tsv" % name)
    if not (os.path.exists(res) and os.path.getsize(res)):
        return
    values, positions = rounds.read_results(res), rounds.read_orders(ords)
    metrics = []
    for line in open(res):
        f = line.rstrip("\n").split("\t")
        if len(f) >= 3 and f[2] not in metrics:
            metrics.append(f[2])
    n = len({r for (r, t) in positions})
    print("%s, %d rounds" % (title, n))
    print("%-22s %8s %11s %8s %8s %8s %7s  %s" % ("metric", "median", "min-max", "1st", "2nd", "A/A", "floor", "marks"))
    for m in metrics:
        # subject/peer and its positions; the floor from the peer's own twin.
        c = rounds.Comparison(values, positions, subject, peer, m)
        aa = rounds.Comparison(values, positions, twin, peer, m)
        aas = [x for x in aa.ratios if x is not None]
        floor = rounds.median([abs(x - 1) for x in aas])
        marks = []
        if c.median is not None and floor is not None:
            if abs(c.median - 1) > floor:
                marks.append("BEYOND FLOOR (%s)" % ("high" if c.median > 1 else "low"))
            else:
                marks.append("within floor")
            if c.med_before is not None and c.med_after is not None and abs(c.med_before - c.med_after) > floor:
                marks.append("ORDER-BOUND")
        if limit is not None and c.median is not None:
            marks.append("within %g%%" % (limit * 100) if abs(c.median - 1) <= limit else "OUTSIDE %g%%" % (limit * 100))
        if c.n < len(c.rounds):
            marks.append("(%d of %d rounds)" % (c.n, len(c.rounds)))
        rng = "%.2f-%.2f" % (c.min, c.max) if c.min is not None else ""
        print("%-22s %8s %11s %8s %8s %8s %7s  %s" % (m, fmt(c.median), rng, fmt(c.med_before), fmt(c.med_after),
                                                    fmt(rounds.median(aas)), fmt(floor), " ".join(marks)))
    print("1st / 2nd: median of the rounds where %s ran before / after %s; A/A: %s/%s in the same" % (subject, peer, twin, peer))
    print("rounds; floor: median |A/A - 1|; BEYOND FLOOR: |median - 1| > floor; ORDER-BOUND: 1st and 2nd")
    print("differ by more than the floor")
    print()
    print("%-22s %s" % ("per round", "ratios %s/%s, then A/A" % (subject, peer)))
    for m in metrics:
        c = rounds.Comparison(values, positions, subject, peer, m)
        aa = rounds.Comparison(values, positions, twin, peer, m)
        print("%-22s %s | %s" % (m, " ".join(fmt(x, 2) for x in c.ratios), " ".join(fmt(x, 2) for x in aa.ratios)))
    print()
    print("%-22s %12s %12s %12s" % ("medians", subject, peer, twin))
    for m in metrics:
        med = lambda t: rounds.median([v for (r, tt, mm), v in values.items() if tt == t and mm == m and v])
        print("%-22s %12s %12s %12s" % (m, fmt(med(subject), 0), fmt(med(peer), 0), fmt(med(twin), 0)))
    print()

part("overhead", "mpi1", "plain", "plain-aa",
     "overhead: mpirun -np 1 arraybench-mpi / arraybench, per phase (KiB/s, seeks/s, files/s)")
part("aggregation", "ranks4", "streams4", "streams4-aa",
     "aggregation: 4 ranks x 1 worker / 1 process x 4 workers (rate; /stonewall: the stonewall rates)", 0.05)
det = os.path.join(out, "detail-aggregation.tsv")
if os.path.exists(det) and os.path.getsize(det):
    rows = [l.rstrip("\n").split("\t") for l in open(det)]
    head, rows = rows[0], rows[1:]
    ix = {h: i for i, h in enumerate(head)}
    print("the 4-rank runs' timebase, per test: median (max) over the rounds")
    print("%-8s %16s %16s %16s %20s" % ("test", "start_spread ms", "clock_bound us", "elapsed s", "rank rate min/max"))
    for test in ("write", "read", "seeks"):
        rr = [r for r in rows if r[ix["tool"]] == "ranks4" and r[ix["test"]] == test]
        if not rr:
            continue
        col = lambda k: [float(r[ix[k]]) for r in rr if r[ix[k]] not in ("", "None", "NA")]
        sp, cb, el = col("start_spread_s"), col("clock_bound_s"), col("elapsed_s")
        spread = [float(r[ix["min_rank_rate"]]) / float(r[ix["max_rank_rate"]]) for r in rr
                  if r[ix["min_rank_rate"]] not in ("", "None") and float(r[ix["max_rank_rate"]] or 0) > 0]
        print("%-8s %8.2f (%5.2f) %8.1f (%5.1f) %8.2f (%5.2f) %20s" % (
            test, statistics.median(sp) * 1e3, max(sp) * 1e3, statistics.median(cb) * 1e6, max(cb) * 1e6,
            statistics.median(el), max(el), "%.2f" % statistics.median(spread) if spread else "n/a"))
    print("rank rate min/max: the slowest rank's own rate over the fastest's (median over the rounds)")
EOF
}

if [ -n "$report_only" ]; then
	[ -n "$keep" ] && [ -d "$keep" ] || bad "-P reports again from what an earlier run kept: give its -o DIR"
	report "$keep" | tee "$keep/report.txt"
	exit "${PIPESTATUS[0]}"
fi

IFS=, read -r -a parts <<<"$parts_arg"
for p in "${parts[@]}"; do
	case $p in overhead | aggregation) ;; *) bad "invalid part '$p': overhead or aggregation (-p)" ;; esac
done
[[ $rounds =~ ^[1-9][0-9]*$ ]] || bad "invalid -n '$rounds': a number of rounds, 1 or more"
[[ $first =~ ^[1-9][0-9]*$ ]] || bad "invalid -m '$first': the first round's number, 1 or more"
[ "$first" = 1 ] || [ -n "$keep" ] || bad "-m $first adds rounds to an earlier run's: give its -o DIR"
for v in "$osize" "$fsize" "$ssize"; do [[ $v =~ ^[0-9]+[kKmMgG]?$ ]] || bad "invalid size '$v'"; done
for v in "$nfiles" "$seeks" "$ram" "$aram" "$image_mib"; do [[ $v =~ ^[0-9]+$ ]] || bad "invalid number '$v'"; done
[ "$(id -u)" = 0 ] || bad "run as root (loop device, mount, cgroup)"
ab=$bindir/arraybench abm=$bindir/arraybench-mpi
[ -x "$ab" ] || bad "no arraybench at '$ab' (make, or -b DIR)"
[ -x "$abm" ] || bad "no arraybench-mpi at '$abm' (make mpi, or -b DIR)"
command -v mpirun >/dev/null || bad "mpirun is missing (make deps)"

. "$here/probes/loop-ext4.sh"
child=""
probe_cleanup_extra() {
	if [ -n "$child" ] && kill -0 "$child" 2>/dev/null; then
		kill -TERM "$child" 2>/dev/null
		for _ in $(seq 40); do kill -0 "$child" 2>/dev/null || break; sleep 0.5; done
		kill -KILL "$child" 2>/dev/null
		wait "$child" 2>/dev/null
	fi
}
probe_loop_ext4 abmpi "$image_mib"
out=${keep:-$w/out}
mkdir -p "$out/json" && out=$(cd "$out" && pwd) || exit 3
[ "$first" = 1 ] && : >"$out/log.txt"
# Copies, so a rebuild of the tree meanwhile changes nothing.
cp "$ab" "$w/arraybench" && cp "$abm" "$w/arraybench-mpi" || exit 3
ab=$w/arraybench abm=$w/arraybench-mpi
log "arraybench $(sha256sum "$ab" | cut -c1-12), arraybench-mpi $(sha256sum "$abm" | cut -c1-12) ($(git -C "$here" rev-parse --short HEAD 2>/dev/null)); $dev; $(mpirun --version 2>&1 | head -1)"
# The host allocates the sparse image on first write: paid once, here.
dd if=/dev/zero of="$w/mnt/fill" bs=16M oflag=direct status=none 2>/dev/null
rm -f "$w/mnt/fill" && sync
export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1
mpirun_=(timeout 600 mpirun --oversubscribe --bind-to none --mca btl self,vader)

settle() { find "$T" -mindepth 1 -delete; sync; sleep 3; }
# Waits while another benchmark or mpirun runs (not this script's own).
own_pgid=$(ps -o pgid= -p $$ | tr -d ' ')
wait_quiet() {
	local i others
	for i in $(seq 5); do
		# Ours are in our process group: the script's own subshells (this
		# one included, whose command line is the script's) and its runs.
		others=$(pgrep -f 'bench/|mpirun' | while read -r p; do
			[ "$(ps -o pgid= -p "$p" 2>/dev/null | tr -d ' ')" = "$own_pgid" ] || echo "$p"
		done | tr '\n' ' ')
		[ -z "$others" ] && return 0
		[ "$i" = 1 ] && log "waiting for $others"
		sleep 1
	done
	log "warning: ran with others running: $others"
}
# Runs "$@" in the background and waits (a signal reaches the script at once).
run() {
	wait_quiet
	"$@" >>"$out/stdout.txt" 2>>"$out/stderr.txt" &
	child=$!
	wait "$child"
	local st=$?
	child=""
	return "$st"
}
# ROUND TOOL METRIC VALUE lines of a run's JSON into results-PART.tsv.
collect() { # PART ROUND TOOL JSON [METRIC_PREFIX]
	python3 - "$@" >>"$out/results-$1.tsv" <<'EOF'
import json, sys
part, r, tool, path = sys.argv[1:5]
o = json.loads(open(path).readlines()[-1])
for p in o["phases"]:
    name = p["name"] if p["name"] != "sweep" else p["key"]["test"]
    print("%s\t%s\t%s\t%s" % (r, tool, name, p["rate"] or "NA"))
    if p.get("stonewall_rate") is not None:
        print("%s\t%s\t%s\t%s" % (r, tool, name + "/stonewall", p["stonewall_rate"]))
EOF
}
detail() { # ROUND TOOL TEST JSON
	python3 - "$@" >>"$out/detail-aggregation.tsv" <<'EOF'
import json, sys
r, tool, test, path = sys.argv[1:5]
o = json.loads(open(path).readlines()[-1])
p = o["phases"][-1]
pr = p.get("per_rank") or []
rates = [x["rate"] for x in pr if x.get("rate")]
print("\t".join(str(x) for x in (r, tool, test, p["rate"], p.get("stonewall_rate"), p.get("end_to_end_rate"),
      p["elapsed_s"], p.get("start_spread_s"), p.get("clock_bound_s"), min(rates) if rates else "",
      max(rates) if rates else "", p.get("workers"), o["cache"].get("mode") if isinstance(o.get("cache"), dict) else "")))
EOF
}
order_of() { # PART ROUND TOOL...: the order, also into orders-PART.tsv
	local part=$1 r=$2 i=0 t
	shift 2
	for t in $(python3 "$here/rounds.py" order "$r" "$@"); do
		i=$((i + 1))
		printf '%s\t%s\t%s\n' "$r" "$i" "$t" >>"$out/orders-$part.tsv"
		echo "$t"
	done
}

# A run that failed: logged, in failures.tsv, its values missing from the
# report (the round's ratio n/a); the script goes on and exits 1.
nfailed=0
failed() { # PART ROUND WHAT STATUS
	log "$1 round $2: $3 failed (exit $4): $(grep -v '^-*$' "$out/stderr.txt" | grep -m1 'error' || tail -1 "$out/stderr.txt")"
	printf '%s\t%s\t%s\t%s\n' "$1" "$2" "$3" "$4" >>"$out/failures.tsv"
	nfailed=$((nfailed + 1))
}

overhead() {
	local r t j opts=(-s "$osize" -n "$nfiles" -f --cache cgroup -r "$ram" -q)
	[ "$first" = 1 ] && : >"$out/orders-overhead.tsv" && : >"$out/results-overhead.tsv"
	log "overhead: rounds $first-$((first + rounds - 1)) of plain, plain-aa, mpi1; run options ${opts[*]}"
	for ((r = first; r < first + rounds; r++)); do
		for t in $(order_of overhead "$r" plain plain-aa mpi1); do
			settle
			j=$out/json/overhead.$r.$t.json
			case $t in
			mpi1) run "${mpirun_[@]}" -np 1 "$abm" run -d "$T" "${opts[@]}" --json "$j" ;;
			*) run "$ab" run -d "$T" "${opts[@]}" --json "$j" ;;
			esac || { failed overhead "$r" "$t" "$?"; continue; }
			collect overhead "$r" "$t" "$j"
		done
		log "overhead round $r done ($(tr '\n' ' ' </proc/loadavg | cut -d' ' -f1-3))"
	done
}

aggregation() {
	local r t j test big_ssize big_seeks
	big_ssize=$(python3 -c 'import sys; s=sys.argv[1]; m={"k":1,"m":1024,"g":1<<20}.get(s[-1].lower()); print("%dk" % (4*int(s[:-1])*m) if m else str(4*int(s)))' "$ssize")
	big_seeks=$((4 * seeks))
	[ "$first" = 1 ] && : >"$out/orders-aggregation.tsv" && : >"$out/results-aggregation.tsv" &&
		printf 'round\ttool\ttest\trate\tstonewall_rate\tend_to_end_rate\telapsed_s\tstart_spread_s\tclock_bound_s\tmin_rank_rate\tmax_rank_rate\tworkers\tcache\n' >"$out/detail-aggregation.tsv"
	log "aggregation: rounds $first-$((first + rounds - 1)) of ranks4, streams4, streams4-aa; sweep ${fsize} per worker at 64k, seeks ${ssize} x 4 ranks / ${big_ssize} x 1, $seeks seeks per rank; cgroup ${aram} MiB per rank, $((4 * aram)) for one process"
	for ((r = first; r < first + rounds; r++)); do
		local order
		order=$(order_of aggregation "$r" ranks4 streams4 streams4-aa)
		for test in write read seeks; do
			for t in $order; do
				settle
				j=$out/json/aggregation.$r.$t.$test.json
				case $test in
				seeks)
					case $t in
					ranks4) run "${mpirun_[@]}" -np 4 "$abm" run -d "$T" --phases seeks -s "$ssize" --seeks "$seeks" --seekers 1 --cache cgroup -r "$aram" -q --json "$j" ;;
					*) run "$ab" run -d "$T" --phases seeks -s "$big_ssize" --seeks "$big_seeks" --seekers 4 --cache cgroup -r $((4 * aram)) -q --json "$j" ;;
					esac ;;
				*)
					local sw=(--phases sweep --sweep-file-sizes "$fsize" --sweep-records 64k --sweep-tests "$test" -q --json "$j")
					case $t in
					ranks4) run "${mpirun_[@]}" -np 4 "$abm" run -d "$T" "${sw[@]}" --streams 1 --cache cgroup -r "$aram" ;;
					*) run "$ab" run -d "$T" "${sw[@]}" --streams 4 --cache cgroup -r $((4 * aram)) ;;
					esac ;;
				esac || { failed aggregation "$r" "$t $test" "$?"; continue; }
				collect aggregation "$r" "$t" "$j"
				detail "$r" "$t" "$test" "$j"
			done
		done
		log "aggregation round $r done ($(tr '\n' ' ' </proc/loadavg | cut -d' ' -f1-3))"
	done
}

for p in "${parts[@]}"; do "$p"; done
report "$out" | tee "$out/report.txt"
[ "$nfailed" = 0 ] || { log "$nfailed runs failed (failures.tsv)"; exit 1; }
