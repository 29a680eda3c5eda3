#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later
# runcg.sh NAME MIB CMD...: runs CMD in a fresh memory cgroup v1 NAME limited
# to MIB MiB, then removes the group.  With PROBE=OUT.tsv and PROBEDIR=DIR,
# probe.py (beside this script) samples the group and the files in DIR every
# PROBEINT seconds (0.1) while CMD runs.
cg=/sys/fs/cgroup/memory/$1 mib=$2
shift 2
mkdir "$cg" || exit 9
echo $((mib * 1024 * 1024)) >"$cg/memory.limit_in_bytes"
(echo "$BASHPID" >"$cg/cgroup.procs" && exec "$@") &
pid=$! ppid=""
if [ -n "${PROBE:-}" ]; then
	python3 "$(dirname "$0")/probe.py" "$cg" "${PROBEDIR:?}" "${PROBEINT:-0.1}" "$PROBE" &
	ppid=$!
fi
wait "$pid"
st=$?
[ -n "$ppid" ] && wait "$ppid"
for _ in $(seq 20); do rmdir "$cg" 2>/dev/null && break; sleep 0.5; done
exit "$st"
