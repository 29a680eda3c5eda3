#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later
# fio3.sh DIR INVALIDATE OUTPREFIX: compare.sh's fio write, read and seeks
# jobs (4 GiB, 8 KiB, 100000 seeks by 5), one after the other.
d=$1 inv=$2 o=$3
common=(--output-format=json --directory="$d" --filename=fio.dat --bs=8k --size=4096m --ioengine=psync
	--direct=0 --end_fsync=1 --fallocate=none --invalidate="$inv" --fadvise_hint=0 --group_reporting)
rm -f "$d/fio.dat"
fio "${common[@]}" --output="$o.write.json" --name=write --rw=write >/dev/null || exit 1
sync; sleep 1
fio "${common[@]}" --output="$o.read.json" --name=read --rw=read >/dev/null || exit 1
sync; sleep 1
fio "${common[@]}" --output="$o.seeks.json" --name=seeks --rw=randrw --rwmixread=91 --numjobs=5 \
	--number_ios=22000 --norandommap=1 --randrepeat=0 >/dev/null || exit 1
