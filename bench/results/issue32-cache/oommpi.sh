#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later
# (a record of the probe issue 32 ran; see bench/RESULTS.md)
# usage: oommpi.sh ROUNDS R SIZE
R=$1 RAM=$2 S=$3; shift 3
export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1
D=${OOMD:-/var/tmp/oomt}/m; mkdir -p $D
oom=0 fail=0
for r in $(seq $R); do
  mpirun --oversubscribe --bind-to none --mca btl self,vader --mca btl_vader_single_copy_mechanism none -np 4 /work/main/arraybench-mpi run -d $D -s $S -n 0 -f --cache cgroup -r $RAM --mpi-layout shared-file --phases block-write,rewrite,block-read,seeks "$@" >$D/../mpi.$r 2>&1
  rc=$?; [ $rc = 0 ] || fail=$((fail+1)); grep -q out-of-memory $D/../mpi.$r && oom=$((oom+1))
done
echo "rounds $R failed $fail oom $oom"
