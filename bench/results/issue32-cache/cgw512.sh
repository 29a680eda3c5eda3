#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later
# max rss, kmem and usage of arraybench groups limited to $1 MiB
want=$(( $1 * 1048576 )); mr=0; mk=0; mu=0
while [ ! -e /var/tmp/cgwatch.stop ]; do
  for g in /sys/fs/cgroup/memory/arraybench.*/; do
    [ "$(cat $g/memory.limit_in_bytes 2>/dev/null)" = "$want" ] || continue
    r=$(awk '$1=="rss"{print $2}' $g/memory.stat 2>/dev/null); k=$(cat $g/memory.kmem.usage_in_bytes 2>/dev/null)
    [ "${r:-0}" -gt $mr ] && mr=$r; [ "${k:-0}" -gt $mk ] && mk=$k
  done
  sleep 0.02
done
echo "rss $((mr/1024))K kmem $((mk/1024))K"
