#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later
# arraybench's 1m sweep write of 256 MiB against fio's and a plain write loop
# outside any memory group, on raid0 of 4 throttled members, xfs, three
# times (run in the test guest as sweepread.sh).  Output:
# bench/results/limits/burst/sweepwrite.txt.
set -u
IFS=, read -r -a members <<<"${GUEST_MEMBERS:?}"
mnt=/mnt/x; md=/dev/md/x; mkdir -p $mnt
mdadm --create $md --level=0 --raid-devices=4 --run --assume-clean --metadata=1.2 --chunk=512 "${members[@]}" </dev/null >/dev/null 2>&1 || exit 3
mkfs.xfs -f $md >/dev/null 2>&1; mount $md $mnt; mkdir $mnt/t
sz=256
echo "dirty: $(cat /proc/sys/vm/dirty_ratio) $(cat /proc/sys/vm/dirty_background_ratio) $(grep -E 'MemTotal|MemAvail' /proc/meminfo | tr -s ' ' | tr '\n' ' ')"
for rep in 1 2 3; do
  sync; echo 3 >/proc/sys/vm/drop_caches
  rm -f /tmp/j.json
  $AB run -d $mnt/t -s ${sz}m -r 64 -f -q -m x --phases sweep --sweep-file-sizes ${sz}m --sweep-records 1m --sweep-tests write --json /tmp/j.json >/dev/null 2>/tmp/err || { cat /tmp/err >&2; }
  python3 - <<'PY'
import json
for l in open('/tmp/j.json'):
    for p in json.loads(l)['phases']:
        if p['key'].get('test')=='write':
            L=p['latency_ns']
            print("ab sweep write: %.3f s rate %.0f = %.4f; write lat mean %.1f ms p50 %.1f min %.1f; sys %.2f user %.2f" % (p['elapsed_s'],p['rate'],p['rate']/40960,L['mean']/1e6,L['p50']/1e6,L['min']/1e6,p['sys_s'],p['user_s']))
PY
  find $mnt/t -mindepth 1 -delete; sync; echo 3 >/proc/sys/vm/drop_caches
  fio --name=w --directory=$mnt/t --filename=f --size=${sz}m --ioengine=psync --rw=write --bs=1m --end_fsync=1 --output-format=json --output=/tmp/fw.json >/dev/null 2>&1
  python3 -c "
import json;j=json.load(open('/tmp/fw.json'))['jobs'][0];w=j['write']
print('fio write: runtime %.3f s rate %.0f = %.4f; clat mean %.1f ms min %.1f; sys %.2f usr %.2f' % (w['runtime']/1000, w['bw_bytes']/1024, w['bw_bytes']/1024/40960, w['clat_ns']['mean']/1e6, w['clat_ns']['min']/1e6, j['sys_cpu'], j['usr_cpu']))"
  rm -f $mnt/t/f; sync; echo 3 >/proc/sys/vm/drop_caches
  t0=$(date +%s.%N); dd if=/dev/urandom of=/tmp/src bs=1M count=1 2>/dev/null; python3 - $mnt/t/p <<'PY'
import os,sys,time
buf=os.urandom(1<<20)
fd=os.open(sys.argv[1],os.O_WRONLY|os.O_CREAT|os.O_TRUNC,0o644)
t=time.monotonic()
for i in range(256): os.write(fd,buf)
t1=time.monotonic(); os.fsync(fd); t2=time.monotonic()
print("python write loop: writes %.3f s fsync %.3f s total %.3f = %.4f" % (t1-t,t2-t1,t2-t, 256*1024/(t2-t)/40960))
PY
  rm -f $mnt/t/p
done
umount $mnt; mdadm --stop $md >/dev/null 2>&1
