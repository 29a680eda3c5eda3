#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later
# Usage (root): read-64k-tmpfs-loopstats.sh [RECORD]  (arraybench binary at /work/wt-bench/arraybench)
# investigation: 2g/64k sequential read, arraybench vs fio, on a tmpfs-backed loop; loop stats per read
set -u
W=$(mktemp -d /dev/shm/abinv.XXXXXX); dev=""
cleanup() { mountpoint -q $W/mnt && umount $W/mnt; [ -n "$dev" ] && losetup -d $dev; rm -rf $W; }
trap cleanup EXIT
truncate -s 5g $W/img; mkfs.ext4 -q -F -E nodiscard,lazy_itable_init=0,lazy_journal_init=0 $W/img
dev=$(losetup --find --show --direct-io=off $W/img); mkdir $W/mnt; mount $dev $W/mnt; mkdir $W/mnt/t
dd if=/dev/zero of=$W/mnt/fill bs=4M count=700 status=none; rm $W/mnt/fill; sync
S=/sys/block/${dev#/dev/}/stat
rec=${1:-64k}
st() { awk '{print $1, $3}' $S; }   # reads completed, sectors read
fio --output-format=json --output=/dev/null --filename=$W/mnt/t/fio.dat --bs=$rec --size=2g --ioengine=psync --fallocate=none --name=w --rw=write --end_fsync=1 --invalidate=0
cat > $W/ev.py <<'PY'
import os,sys
fd=os.open(sys.argv[1],os.O_RDONLY); os.fdatasync(fd); os.posix_fadvise(fd,0,0,os.POSIX_FADV_DONTNEED); os.close(fd)
PY
for i in 1 2 3; do
  sleep 3; read a0 s0 < <(st)
  /work/wt-bench/arraybench run --phases sweep -d $W/mnt/t --sweep-file-sizes 2g --sweep-records $rec --sweep-tests read --json $W/ab.json -q >$W/ab.out 2>&1 || tail -3 $W/ab.out
  read a1 s1 < <(st)
  python3 -c "
import json
for l in open('$W/ab.json'):
    for p in json.loads(l)['phases']: print('ab  read %6.0f MiB/s %.3f s res %.3f' % (p['rate']/1024, p['elapsed_s'], p['resident_at_start']), end=' ')"
  echo " loop reads $((a1-a0)) (incl. layout), avg KiB $(( (s1-s0)/2/((a1-a0)>0?(a1-a0):1) ))"; rm -f $W/ab.json
  sleep 3; read a0 s0 < <(st)
  (cd $W && fio --output-format=json --output=$W/f.json --filename=$W/mnt/t/fio.dat --bs=$rec --size=2g --ioengine=psync --fallocate=none --fadvise_hint=0 --invalidate=0 --name=r --rw=read --exec_prerun="python3 $W/ev.py $W/mnt/t/fio.dat")
  read a1 s1 < <(st)
  python3 -c "
import json;j=json.load(open('$W/f.json'))['jobs'][0]['read'];print('fio read %6.0f MiB/s %.3f s' % (j['bw_bytes']/1048576, j['runtime']/1000), end=' ')"
  echo " loop reads $((a1-a0)), avg KiB $(( (s1-s0)/2/((a1-a0)>0?(a1-a0):1) ))"
  sleep 3; read a0 s0 < <(st)
  (cd $W && fio --output-format=json --output=$W/f.json --filename=$W/mnt/t/fio.dat --bs=$rec --size=2g --ioengine=psync --fallocate=none --fadvise_hint=0 --invalidate=1 --name=r --rw=read)
  read a1 s1 < <(st)
  python3 -c "
import json;j=json.load(open('$W/f.json'))['jobs'][0]['read'];print('fio-inval1 read %6.0f MiB/s %.3f s' % (j['bw_bytes']/1048576, j['runtime']/1000), end=' ')"
  echo " loop reads $((a1-a0)), avg KiB $(( (s1-s0)/2/((a1-a0)>0?(a1-a0):1) ))"
done
