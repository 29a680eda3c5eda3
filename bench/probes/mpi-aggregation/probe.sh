#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later
# bench/probes/mpi-aggregation/probe.sh ROUNDS OUT: why 4 ranks and one
# process of 4 workers differ (bench/RESULTS.md, "Many ranks over MPI").
# Seeks: 4 ranks x 1 seeker on 128m files of their own (ranks), one process
# x 4 seekers on one 512m file (one-512m, as compare-mpi.sh) and on one 128m
# file (one-128m), and mpirun -np 1 of the 512m one (mpi1-512m).  Sweep
# write 128m per worker: 4 ranks with 64 MiB cgroups each (ranks), one
# process with one of 256 MiB (one-r256, as compare-mpi.sh) and of 64 MiB
# (one-r64).  Sweep read, the same two first ones (read:ranks, read:one-r256).
# VARIANTS="TEST:NAME ..." picks some (all but the reads by default).  Each
# round runs them in the order of the one before, reversed.
# Writes OUT/probe.tsv: ROUND VARIANT TEST RATE ELAPSED_S.
set -u
here=$(cd "$(dirname "$0")/.." && pwd)
rounds=${1:-3} out=${2:?usage: probe.sh ROUNDS OUT}
mkdir -p "$out/json" && out=$(cd "$out" && pwd) || exit 3
. "$here/loop-ext4.sh"
probe_loop_ext4 abmpiprobe 4096
dd if=/dev/zero of="$w/mnt/fill" bs=16M oflag=direct status=none 2>/dev/null; rm -f "$w/mnt/fill"; sync
ab=$here/../../arraybench abm=$here/../../arraybench-mpi
export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1
mpirun_=(timeout 600 mpirun --oversubscribe --bind-to none --mca btl self,vader)
sw=(--phases sweep --sweep-file-sizes 128m --sweep-records 64k --sweep-tests write -q)
sr=(--phases sweep --sweep-file-sizes 128m --sweep-records 64k --sweep-tests read -q)
sk=(--phases seeks --cache cgroup -q)
run1() { # VARIANT JSON
	case $1 in
	seeks:ranks) "${mpirun_[@]}" -np 4 "$abm" run -d "$T" "${sk[@]}" -r 64 -s 128m --seeks 8192 --seekers 1 --json "$2" ;;
	seeks:one-512m) "$ab" run -d "$T" "${sk[@]}" -r 256 -s 512m --seeks 32768 --seekers 4 --json "$2" ;;
	seeks:one-128m) "$ab" run -d "$T" "${sk[@]}" -r 64 -s 128m --seeks 32768 --seekers 4 --json "$2" ;;
	seeks:mpi1-512m) "${mpirun_[@]}" -np 1 "$abm" run -d "$T" "${sk[@]}" -r 256 -s 512m --seeks 32768 --seekers 4 --json "$2" ;;
	write:ranks) "${mpirun_[@]}" -np 4 "$abm" run -d "$T" "${sw[@]}" --streams 1 --cache cgroup -r 64 --json "$2" ;;
	write:one-r256) "$ab" run -d "$T" "${sw[@]}" --streams 4 --cache cgroup -r 256 --json "$2" ;;
	write:one-r64) "$ab" run -d "$T" "${sw[@]}" --streams 4 --cache cgroup -r 64 --json "$2" ;;
	read:ranks) "${mpirun_[@]}" -np 4 "$abm" run -d "$T" "${sr[@]}" --streams 1 --cache cgroup -r 64 --json "$2" ;;
	read:one-r256) "$ab" run -d "$T" "${sr[@]}" --streams 4 --cache cgroup -r 256 --json "$2" ;;
	esac >>"$out/stdout.txt" 2>>"$out/stderr.txt"
}
read -r -a variants <<<"${VARIANTS:-seeks:ranks seeks:one-512m seeks:one-128m seeks:mpi1-512m write:ranks write:one-r256 write:one-r64}"
: >"$out/probe.tsv"
for ((r = 1; r <= rounds; r++)); do
	for v in "${variants[@]}"; do
		find "$T" -mindepth 1 -delete; sync; sleep 2
		j=$out/json/$r.${v/:/.}.json
		run1 "$v" "$j" || { echo "round $r $v failed" >&2; continue; }
		python3 -c 'import json, sys
p = json.loads(open(sys.argv[1]).readlines()[-1])["phases"][-1]
print("%s\t%s\t%s\t%.1f\t%.3f" % (sys.argv[2], sys.argv[3], sys.argv[4], p["rate"], p["elapsed_s"]))' "$j" "$r" "${v#*:}" "${v%%:*}" >>"$out/probe.tsv"
	done
	variants=($(printf '%s\n' "${variants[@]}" | tac))
	echo "$(date +%T) round $r done ($(cut -d' ' -f1 /proc/loadavg))" >&2
done
python3 - "$out/probe.tsv" <<'PY'
import statistics, sys, collections
v = collections.defaultdict(list)
for l in open(sys.argv[1]):
    r, var, test, rate, el = l.split("\t")
    v[(test, var)].append(float(rate))
for (test, var), xs in sorted(v.items()):
    print("%-6s %-10s median %10.0f  rounds %s" % (test, var, statistics.median(xs), " ".join("%.0f" % x for x in xs)))
PY
