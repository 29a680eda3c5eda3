#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later
# `make demo`: the main job on the built-in default target.  As root that is
# a 4-member array of loop-attached image files (mdadm raid10 with xfs where
# the kernel has md, else btrfs raid10) that arraybench builds, formats,
# measures and tears down itself; otherwise a temporary directory.  Prints the
# table and the bonnie++ CSV line, then the line as bon_csv2txt renders it.
set -u
top=$(cd "$(dirname "$0")/.." && pwd)
work=$(mktemp -d "${TMPDIR:-/var/tmp}/arraybench-demo.XXXXXX")
trap 'rm -rf "$work"' EXIT
trap 'exit 130' INT TERM

sizes=(-s 2g -r 512 -f8 -n 1024 --csv "$work/demo.csv")
if [ "$(id -u)" = 0 ] && [ -e /dev/loop-control ]; then
	if [ -e /proc/mdstat ]; then
		target=(--loop "4:5G:$work" --array raid10 --fs xfs --backend mdadm)
	else
		target=(--loop "4:5G:$work" --array raid10 --fs btrfs)
	fi
	echo "demo: arraybench ${target[*]} ${sizes[*]}"
	"$top/arraybench" run "${target[@]}" --mount-opts noatime "${sizes[@]}"
else
	echo "demo: not root: testing in $work"
	"$top/arraybench" run -d "$work" "${sizes[@]}"
fi
status=$?
if [ $status -eq 0 ] && command -v bon_csv2txt >/dev/null; then
	echo; echo "demo: the CSV line through bonnie++'s bon_csv2txt:"
	bon_csv2txt <"$work/demo.csv"
fi
# The sizes are chosen so that every phase lasts over bonnie++'s 0.5 s here;
# a faster machine may finish one sooner, and the CSV then says +++++.
if [ $status -eq 0 ] && grep -q '+++++' "$work/demo.csv"; then
	echo "demo: note: some phases lasted under 0.5 s on this machine, so their CSV columns say +++++" \
		"(the table above shows their rates); raise -s, -f or -n to measure them"
fi
exit $status
