# SPDX-License-Identifier: GPL-2.0-or-later
# cache-probe (gcc -O2 -o /tmp/cgx/loop cache-probe.c) on ext4 over a loop device on a /dev/shm image: the same loop with the file cached and with its pages dropped.
set -e
img=$(mktemp /dev/shm/exp.XXXXXX.img); truncate -s 2G $img
loop=$(losetup --direct-io=on -f --show $img); mkfs.ext4 -q -F $loop; mnt=/tmp/cgx/mnt; mkdir -p $mnt; mount $loop $mnt; mkdir -p $mnt/pg
trap 'umount $mnt; losetup -d $loop; rm -f $img' EXIT
for r in 1 2 3; do
  rm -f $mnt/pg/x $mnt/pg/y
  echo "round $r cached $(/tmp/cgx/loop $mnt/pg/x 2 0 1 0) advised-away $(/tmp/cgx/loop $mnt/pg/y 2 0 1 1)"
done
