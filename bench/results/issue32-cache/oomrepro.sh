#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later
# (a record of the probe issue 32 ran; see bench/RESULTS.md)
# usage: oomrepro.sh K ROUNDS R SIZE [extra...]
K=$1 R=$2 RAM=$3 S=$4; shift 4
AB=/work/main/arraybench
oom=0 fail=0 tot=0
for r in $(seq $R); do
  pids=()
  for k in $(seq $K); do
    mkdir -p ${OOMD:-/var/tmp/oomt}/$k
    $AB run -d ${OOMD:-/var/tmp/oomt}/$k -s $S -r $RAM -n 0 --cache cgroup --phases block-write,rewrite,block-read "$@" >${OOMD:-/var/tmp/oomt}/out.$r.$k 2>&1 &
    pids+=($!)
  done
  for i in "${!pids[@]}"; do wait ${pids[$i]}; rc=$?; tot=$((tot+1)); [ $rc = 0 ] || fail=$((fail+1)); grep -q "out-of-memory" ${OOMD:-/var/tmp/oomt}/out.$r.$((i+1)) && oom=$((oom+1)); done
done
echo "runs $tot failed $fail oom $oom"
