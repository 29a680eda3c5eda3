#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later
# Block write, arraybench against bonnie++ 2.00a: where the final fsync and
# close fall and how long each takes, and what each tool charges to its
# memory cgroup (its own anonymous memory is page cache the file cannot use;
# cgroup v1 has no per-group dirty throttling, so a group's room for dirty
# pages is what its writer gets before reclaim waits on writeback).
#   probe.sh ROUNDS SIZE_MIB LIMIT_MIB OUTDIR     (root; needs strace, bonnie++)
# Each round runs both tools, the order alternating, each in a fresh group
# of LIMIT_MIB on one ext4 on a loop device with direct I/O (as
# bench/compare.sh), in bonnie++'s phase order without per-char; strace
# stops only at fsync and close (--seccomp-bpf), so the writes run untraced.
# A sampler reads the group's memory.stat every 0.1 s.
set -u
rounds=${1:?rounds} size=${2:?size MiB} limit=${3:?limit MiB} out=${4:?outdir}
here=$(cd "$(dirname "$0")" && pwd)
ab=$(cd "$here/../../.." && pwd)/arraybench
mkdir -p "$out" || exit 2
cg=/sys/fs/cgroup/memory/wprobe.$$
probe_cleanup_extra() {
	[ -d "$cg" ] && { while read -r p; do kill -9 "$p"; done <"$cg/cgroup.procs"; sleep 1; rmdir "$cg"; }
}
. "$here/../loop-ext4.sh"
probe_loop_ext4 wprobe $((size * 3))
sample() { # the group's memory.stat, every 0.1 s, until the group is empty
	while [ -d "$cg" ]; do
		awk -v t="$(date +%s.%N)" '$1=="rss"||$1=="cache"||$1=="dirty"||$1=="writeback"{v[$1]=$2}
			END{printf "%s\t%d\t%d\t%d\t%d\n", t, v["rss"]/1048576, v["cache"]/1048576, v["dirty"]/1048576, v["writeback"]/1048576}' \
			"$cg/memory.stat" 2>/dev/null
		sleep 0.1
	done
}
run() { # tool round
	local tool=$1 r=$2 base=$out/$1.r$2
	mkdir "$cg" && echo $((limit * 1048576)) >"$cg/memory.limit_in_bytes" || exit 3
	sample >"$base.mem" &
	local sp=$!
	sync; sleep 1
	if [ "$tool" = arraybench ]; then
		rm -f "$base.json"
		(echo "$BASHPID" >"$cg/cgroup.procs" && exec strace --seccomp-bpf -f -ttt -T -e trace=openat,fsync,close -o "$base.strace" \
			"$ab" run -d "$w/mnt/t" -s "${size}m" -r "$limit" -n 0 --phases block-write,rewrite,block-read,seeks \
			--cache none -q --json "$base.json") >/dev/null 2>"$base.err"
	else
		(echo "$BASHPID" >"$cg/cgroup.procs" && exec strace --seccomp-bpf -f -ttt -T -e trace=openat,fsync,close -o "$base.strace" \
			bonnie++ -d "$w/mnt/t" -s "$size:8k" -r "$limit" -n 0 -f -u root -q) >"$base.csv" 2>"$base.err"
	fi
	rmdir "$cg"; wait "$sp"
	rm -rf "$w/mnt/t"/*
}
for r in $(seq 1 "$rounds"); do
	if [ $((r % 2)) = 1 ]; then order="arraybench bonnie++"; else order="bonnie++ arraybench"; fi
	for t in $order; do run "$t" "$r"; done
	echo "round $r done ($order)" >&2
done
python3 - "$out" "$rounds" "$size" <<'PY'
import json, statistics, sys, re
out, rounds, size = sys.argv[1], int(sys.argv[2]), int(sys.argv[3])
rows = {"arraybench": [], "bonnie++": []}
for r in range(1, rounds + 1):
    for t in rows:
        base = "%s/%s.r%d" % (out, t, r)
        if t == "arraybench":
            ph = [p for p in json.load(open(base + ".json"))["phases"] if p["name"] == "block-write"][0]
            el = ph["elapsed_s"]
        else:
            f = [l for l in open(base + ".csv") if l.startswith("1.98,")][0].split(",")
            el = size * 1024 / float(f[11]) if f[11] and not f[11].startswith("+") else float("nan")
        # The block write's fsync: that of the descriptor from the last
        # open of the test file with O_CREAT or O_TRUNC (bonnie++ -f makes
        # the file twice: the skipped per-char write, then the block write;
        # arraybench's worker opens with O_TRUNC the file its parent made),
        # before the first open with neither (the rewrite's).
        fsync_s, cand = float("nan"), None
        for l in open(base + ".strace"):
            m = re.match(r'(\d+) \S+ openat\([^,]+, "([^"]*)", ([A-Z_|]+).*\) = (\d+)', l)
            if m and ("Bonnie." in m.group(2) or m.group(2).endswith(".io")):
                if "O_CREAT" in m.group(3) or "O_TRUNC" in m.group(3):
                    cand = (m.group(1), m.group(4))
                elif cand:
                    break
            m = re.match(r"(\d+) \S+ fsync\((\d+)\)\s+= 0 <([0-9.]+)>", l)
            if m and (m.group(1), m.group(2)) == cand:
                fsync_s = float(m.group(3))
        mem = [l.split("\t") for l in open(base + ".mem") if l.strip()]
        rss = max(int(x[1]) for x in mem) if mem else -1
        dirty = max(int(x[3]) for x in mem) if mem else -1
        rows[t].append((el, fsync_s, rss, dirty))
print("block write of %d MiB, medians of %d rounds (order alternating)" % (size, rounds))
print("%-11s %10s %9s %12s %14s %14s" % ("tool", "elapsed s", "fsync s", "fsync share", "group rss MiB", "max dirty MiB"))
for t, xs in rows.items():
    med = lambda i: statistics.median([x[i] for x in xs])
    print("%-11s %10.2f %9.3f %11.1f%% %14d %14d" % (t, med(0), med(1), 100 * statistics.median([x[1] / x[0] for x in xs]), med(2), med(3)))
print("per round (elapsed, fsync, rss, dirty):")
for t, xs in rows.items():
    print(t, ["%.2f/%.3f/%d/%d" % x for x in xs])
PY
