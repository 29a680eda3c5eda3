#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later
# arraybench's 1m sweep read (and fio's and dd's) of 64, 256 and 768 MiB
# files on raid0 of 4 throttled members, xfs, twice, with the members' read
# bytes (run in the test guest: AB=... tests/vm/run-guest.sh -n 4 -s 1G -F
# -b 10m -i 200 -t 900 sweepread.sh).  Output:
# bench/results/limits/burst/sweepread.txt (made before each run removed
# its JSON file first).
set -u
IFS=, read -r -a members <<<"${GUEST_MEMBERS:?}"
mnt=/mnt/x; md=/dev/md/x; mkdir -p $mnt
mdadm --create $md --level=0 --raid-devices=4 --run --assume-clean --metadata=1.2 --chunk=512 "${members[@]}" </dev/null >/dev/null 2>&1 || exit 3
mkfs.xfs -f $md >/dev/null 2>&1; mount $md $mnt; mkdir $mnt/t
rsec() { local s=0 m; for m in "${members[@]}"; do set -- $(grep -w "${m#/dev/}" /proc/diskstats); s=$((s+${6})); done; echo $s; }
for rep in 1 2; do
for sz in 64 256 768; do
  sync; echo 3 >/proc/sys/vm/drop_caches
  b=$(rsec); rm -f /tmp/j.json
  $AB run -d $mnt/t -s ${sz}m -r 64 -f -q -m x --phases sweep --sweep-file-sizes ${sz}m --sweep-records 1m --sweep-tests write,read --json /tmp/j.json >/dev/null 2>/tmp/err || { cat /tmp/err >&2; }
  a=$(rsec)
  python3 - $sz $b $a <<'PY'
import json,sys
sz,b,a=int(sys.argv[1]),int(sys.argv[2]),int(sys.argv[3])
for l in open('/tmp/j.json'):
    for p in json.loads(l)['phases']:
        if p['key'].get('test')=='read':
            print("ab sweep read %4d MiB: %.3f s rate %.0f KiB/s = %.4f of 40960; member read %.1f MiB" % (sz,p['elapsed_s'],p['rate'],p['rate']/40960,(a-b)*512/1048576))
PY
  find $mnt/t -mindepth 1 -delete
  # fio uncgrouped, same size
  fio --name=w --directory=$mnt/t --filename=f --size=${sz}m --ioengine=psync --rw=write --bs=1m --end_fsync=1 --output-format=json --output=/tmp/fw.json >/dev/null 2>&1
  sync; echo 3 >/proc/sys/vm/drop_caches
  fio --name=r --directory=$mnt/t --filename=f --size=${sz}m --ioengine=psync --rw=read --bs=1m --output-format=json --output=/tmp/fr.json >/dev/null 2>&1
  python3 -c "
import json;r=json.load(open('/tmp/fr.json'))['jobs'][0]['read'];w=json.load(open('/tmp/fw.json'))['jobs'][0]['write']
print('fio read %4d MiB: %.3f s rate %.0f = %.4f; fio write %.0f = %.4f' % ($sz, r['runtime']/1000, r['bw_bytes']/1024, r['bw_bytes']/1024/40960, w['bw_bytes']/1024, w['bw_bytes']/1024/40960))"
  sync; echo 3 >/proc/sys/vm/drop_caches
  t0=$(date +%s.%N); dd if=$mnt/t/f of=/dev/null bs=1M 2>/dev/null; t1=$(date +%s.%N)
  awk "BEGIN{printf \"dd read %4d MiB: %.3f s = %.4f\n\", $sz, $t1-$t0, $sz*1024/($t1-$t0)/40960}"
  rm -f $mnt/t/f
done
done
umount $mnt; mdadm --stop $md >/dev/null 2>&1
