#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later
# Seeks in bonnie++'s phase order (block write, rewrite or not, block read,
# seeks), four ways, in rounds in bench/rounds.py's balanced order:
#   arraybench   --phases block-write,rewrite,block-read,seeks (forked seekers)
#   bonnie++     -f (seeker threads; a 3 s sleep before its seeks)
#   fio-proc     write, read, then randrw seeks with numjobs=5 processes
#   fio-thread   the same with --thread: 5 threads of one process
# each in a fresh memory cgroup of LIMIT MiB on one ext4 on a loop device
# with direct I/O, sampled by ../cache-probe/probe.py so that what each
# tool had cached of its file when its seeks began is known.  Answers two
# questions: is bonnie++'s seek rate its cache state, and do threads seek
# faster than processes here (fio is the instrument: one tool, both ways).
#   run.sh ROUNDS OUTDIR [SIZE_MIB [LIMIT_MIB [SEEKS]]]   (root)
set -u
rounds=${1:?rounds} out=${2:?outdir} size=${3:-2048} limit=${4:-512} seeks=${5:-65536}
here=$(cd "$(dirname "$0")" && pwd)
top=$(cd "$here/../../.." && pwd)
ab=$top/arraybench probe=$here/../cache-probe
mkdir -p "$out" || exit 2
probe_cleanup_extra() {
	for c in /sys/fs/cgroup/memory/seekstate.$$.*; do [ -d "$c" ] && rmdir "$c"; done 2>/dev/null
}
. "$here/../loop-ext4.sh"
probe_loop_ext4 seekstate $((size * 3))
nios=$(((seeks * 11 + 49) / 50))
fio_seq() { # base [--thread]
	local common=(--directory="$T" --filename=fio.dat --bs=8k --size="${size}m" --ioengine=psync --end_fsync=1
		--fallocate=none --fadvise_hint=0 --group_reporting --output-format=json --invalidate=0)
	fio "${common[@]}" --name=write --rw=write --output="$1.w.json" >/dev/null &&
		fio "${common[@]}" --name=read --rw=read --output="$1.r.json" >/dev/null &&
		fio "${common[@]}" --name=seeks --rw=randrw --rwmixread=91 --numjobs=5 --number_ios="$nios" \
			--norandommap=1 --randrepeat=0 ${2:-} --output="$1.json" >/dev/null
}
export -f fio_seq
export T size nios
: >"$out/orders.tsv"
: >"$out/results.tsv"
for r in $(seq 1 "$rounds"); do
	pos=0
	for tool in $(python3 "$top/bench/rounds.py" order "$r" arraybench bonnie++ fio-proc fio-thread); do
		pos=$((pos + 1))
		printf '%d\t%d\t%s\n' "$r" "$pos" "$tool" >>"$out/orders.tsv"
		base=$out/$tool.r$r
		sync; sleep 1
		case $tool in
		arraybench) rm -f "$base.json"
			set -- "$ab" run -d "$T" -s "${size}m" -r "$limit" -n 0 --phases block-write,rewrite,block-read,seeks \
				--seeks "$seeks" --seekers 5 --cache none -q --json "$base.json" ;;
		bonnie++) set -- sh -c "exec bonnie++ -d '$T' -s '$size:8k:$seeks:5' -r '$limit' -n 0 -f -u root -q >'$base.csv'" ;;
		fio-proc) set -- bash -c "fio_seq '$base'" ;;
		fio-thread) set -- bash -c "fio_seq '$base' --thread" ;;
		esac
		PROBE=$base.probe.tsv PROBEDIR=$T "$probe/runcg.sh" "seekstate.$$.$tool" "$limit" "$@" >/dev/null 2>"$base.err" ||
			echo "round $r: $tool failed: $(tail -1 "$base.err")" >&2
		rm -rf "${T:?}"/*
		python3 - "$tool" "$base" "$r" >>"$out/results.tsv" <<'PY'
import json, sys
tool, base, r = sys.argv[1:]
if tool == "arraybench":
    rate = [p for p in json.load(open(base + ".json"))["phases"] if p["name"] == "seeks"][0]["rate"]
elif tool == "bonnie++":
    f = [l for l in open(base + ".csv") if l.startswith("1.98,")][0].split(",")
    rate = "NA" if not f[19] or f[19].startswith("+") else float(f[19])
else:
    j = json.load(open(base + ".json"))["jobs"][0]
    rt = max(j["read"]["runtime"], j["write"]["runtime"]) / 1000.0
    rate = j["read"]["total_ios"] / rt
print("%s\t%s\tseeks\t%s" % (r, tool, rate))
PY
		python3 "$probe/analyze.py" "$base.probe.tsv" >"$base.cached.txt" 2>/dev/null
		c=$(sed -n 's/^seeks .*file *\([0-9]*\) MiB cached before it.*/\1/p' "$base.cached.txt" | head -1)
		printf '%s\t%s\tcached-at-seeks-mib\t%s\n' "$r" "$tool" "${c:-NA}" >>"$out/results.tsv"
	done
	echo "round $r done" >&2
done
{
	python3 "$top/bench/rounds.py" report --orders "$out/orders.tsv" --results "$out/results.tsv" \
		--subject arraybench --metric seeks --title "seeks: arraybench / peer (no A/A twin in this probe)"
	python3 "$top/bench/rounds.py" report --orders "$out/orders.tsv" --results "$out/results.tsv" \
		--subject fio-thread --peer fio-proc --metric seeks \
		--title "seeks: fio threads / fio processes"
	echo "cached MiB of the file when the seeks began, per round:"
	for t in arraybench bonnie++ fio-proc fio-thread; do
		printf '%-11s %s\n' "$t" "$(awk -F'\t' -v t="$t" '$2==t && $3=="cached-at-seeks-mib"{printf "%s ", $4}' "$out/results.tsv")"
	done
	echo "seeks/s per round:"
	for t in arraybench bonnie++ fio-proc fio-thread; do
		printf '%-11s %s\n' "$t" "$(awk -F'\t' -v t="$t" '$2==t && $3=="seeks"{printf "%.0f ", $4}' "$out/results.tsv")"
	done
} | tee "$out/report.txt"
