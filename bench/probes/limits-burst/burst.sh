#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later
# One member's raw limit over regions of different length (run in the test
# guest: AB=... tests/vm/run-guest.sh -n 2 -s 256M -F -b 10m -i 200 burst.sh):
# O_DIRECT reads and writes of 4-128 MiB, each after 2 s idle, so that
# qemu's throttle bucket is empty at every start.  Output:
# bench/results/limits/burst/burst.txt.
# raw O_DIRECT reads of one member after idle, for several lengths
for k in 4 8 16 32 64 128; do
  for dev in vda; do
    sleep 2
    t0=$(date +%s.%N)
    dd if=/dev/$dev of=/dev/null bs=1M count=$k iflag=direct 2>/dev/null
    t1=$(date +%s.%N)
    echo "$dev read $k MiB $(echo "$t1 - $t0" | bc -l 2>/dev/null || awk "BEGIN{print $t1-$t0}")"
  done
done
for k in 4 16 64; do
    sleep 2
    t0=$(date +%s.%N)
    dd if=/dev/zero of=/dev/vdb bs=1M count=$k oflag=direct 2>/dev/null
    t1=$(date +%s.%N)
    echo "vdb write $k MiB $(awk "BEGIN{print $t1-$t0}")"
done
