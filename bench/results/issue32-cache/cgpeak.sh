#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later
# (a record of the probe issue 32 ran; see bench/RESULTS.md)
# prints peak dirty+writeback (KiB) over all arraybench.* v1 groups until the stop file appears
mx=0
while [ ! -e /var/tmp/cgpeak.stop ]; do
  for g in /sys/fs/cgroup/memory/arraybench.*/memory.stat; do
    [ -e "$g" ] || continue
    v=$(awk '$1=="dirty"{d=$2} $1=="writeback"{w=$2} END{print int((d+w)/1024)}' "$g" 2>/dev/null)
    [ "${v:-0}" -gt $mx ] && mx=$v
  done
  sleep 0.02
done
echo $mx
