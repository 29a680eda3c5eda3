#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later
# The sweep's cold sequential read at 16 MiB records, arraybench against fio
# (as bench/compare-sweep-pairs.sh runs them), with what each did counted
# rather than timed: the read calls and how long each took (strace -T, only
# the reads stop), and the requests and sectors the loop device and the
# disk under it served (/proc/diskstats around each run).
#   probe.sh ROUNDS OUTDIR [FILE_MIB [RECORD]]   (root)
set -u
rounds=${1:?rounds} out=${2:?outdir} fmib=${3:-2048} rec=${4:-16m}
here=$(cd "$(dirname "$0")" && pwd)
ab=$(cd "$here/../../.." && pwd)/arraybench
mkdir -p "$out" || exit 2
. "$here/../loop-ext4.sh"
probe_loop_ext4 read16 $((fmib * 3))
dd if=/dev/zero of="$w/mnt/fill" bs=16M oflag=direct status=none 2>/dev/null; rm -f "$w/mnt/fill"; sync
t=$T loopname=${dev#/dev/}
disk=$(lsblk -no PKNAME "$(df --output=source "$w" | tail -1)" 2>/dev/null); disk=${disk:-vda}
cat >"$w/evict.py" <<'PY'
import os, sys
fd = os.open(sys.argv[1], os.O_RDONLY)
os.fdatasync(fd)
os.posix_fadvise(fd, 0, 0, os.POSIX_FADV_DONTNEED)
os.close(fd)
PY
stats() { awk -v a="$loopname" -v b="$disk" '$3==a||$3==b{print $3, $4, $6}' /proc/diskstats; } # name reads sectors
for r in $(seq 1 "$rounds"); do
	if [ $((r % 2)) = 1 ]; then order="arraybench fio"; else order="fio arraybench"; fi
	for tool in $order; do
		base=$out/$tool.r$r
		find "$t" -mindepth 1 -delete; sync; sleep 3
		if [ "$tool" = fio ]; then
			c=(--filename="$t/fio.dat" --bs="$rec" --size="${fmib}m" --ioengine=psync --direct=0 --fallocate=none
				--fadvise_hint=0 --invalidate=0 --output-format=json)
			(cd "$w" && fio "${c[@]}" --name=layout --rw=write --end_fsync=1 >/dev/null)
			stats >"$base.before"
			(cd "$w" && strace --seccomp-bpf -f -T -ttt -e trace=pread64,read -o "$base.strace" \
				fio "${c[@]}" --name=read --rw=read --exec_prerun="python3 $w/evict.py $t/fio.dat" --output="$base.json" >/dev/null)
			stats >"$base.after"
		else
			# The sweep lays out, evicts and reads in one run: the counters
			# around the run hold the layout's writes too (reads are what
			# is compared), the strace only the worker's reads.
			stats >"$base.before"
			rm -f "$base.json"
			strace --seccomp-bpf -f -T -ttt -e trace=pread64,read -o "$base.strace" \
				"$ab" run -d "$t" --phases sweep --sweep-file-sizes "${fmib}m" --sweep-records "$rec" \
				--sweep-tests read -q --json "$base.json" >/dev/null 2>"$base.err"
			stats >"$base.after"
		fi
	done
done
python3 - "$out" "$rounds" "$fmib" <<'PY'
import json, re, statistics, sys
out, rounds, fmib = sys.argv[1], int(sys.argv[2]), int(sys.argv[3])
big = 1 << 20
print("per run: rate MiB/s (the tool's own), big reads (>= 1 MiB) and their summed time, the first and median read,"
      " reads and MiB the loop device and the disk served")
for r in range(1, rounds + 1):
    for tool in ("arraybench", "fio"):
        base = "%s/%s.r%d" % (out, tool, r)
        if tool == "fio":
            j = json.load(open(base + ".json"))["jobs"][0]
            rate = j["read"]["bw"] / 1024
        else:
            o = json.loads(open(base + ".json").readlines()[-1])
            rate = o["phases"][-1]["rate"] / 1024
        durs = []
        for l in open(base + ".strace"):
            # A call strace saw interrupted by another thread's ends on
            # a "<... pread64 resumed>" line: count it there.
            m = re.search(r"(?:pread64|read)(?:\(\d+,| resumed>).*\)\s+= (\d+) <([0-9.]+)>", l)
            if m and int(m.group(1)) >= big:
                durs.append(float(m.group(2)))
        b = {l.split()[0]: (int(l.split()[1]), int(l.split()[2])) for l in open(base + ".before")}
        a = {l.split()[0]: (int(l.split()[1]), int(l.split()[2])) for l in open(base + ".after")}
        dev = {k: (a[k][0] - b[k][0], (a[k][1] - b[k][1]) * 512 / (1 << 20)) for k in a}
        print("%-10s r%d %7.0f MiB/s  %3d reads in %.3f s (first %.4f, median %.4f)  %s" % (
            tool, r, rate, len(durs), sum(durs), durs[0] if durs else 0, statistics.median(durs) if durs else 0,
            "  ".join("%s %d reads %.0f MiB" % (k, v[0], v[1]) for k, v in sorted(dev.items()))))
PY
