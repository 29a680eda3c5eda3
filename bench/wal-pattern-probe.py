#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0-or-later
# Does the write pattern matter on this storage?  pg_test_fsync rewrites
# the same 8 KiB at offset 0 of its 16 MB file; the wal phase appends
# through its 16 MiB log.  Both patterns, in alternating slices of SLICE
# seconds on one pre-written 16 MiB file in DIR: pwrite 8k + fdatasync
# (buffered), and pwrite 8k with O_DIRECT|O_DSYNC.  Prints ops/s per slice
# and the median ratio sequential / same-offset per mode.
#   wal-pattern-probe.py DIR [SLICES [SLICE]]
import mmap, os, statistics, sys, time

d = sys.argv[1]
slices = int(sys.argv[2]) if len(sys.argv) > 2 else 8
slice_s = float(sys.argv[3]) if len(sys.argv) > 3 else 1.0
path = os.path.join(d, "probe.log")
SIZE, BLK = 16 << 20, 8192
buf = mmap.mmap(-1, 1 << 20)  # page-aligned, for O_DIRECT
buf.write(os.urandom(1 << 20))
fd = os.open(path, os.O_RDWR | os.O_CREAT | os.O_TRUNC, 0o600)
for off in range(0, SIZE, 1 << 20):
    os.pwrite(fd, buf, off)
os.fsync(fd)
os.close(fd)
one = memoryview(buf)[:BLK]

def run(mode, seq):
    flags = os.O_WRONLY | (os.O_DIRECT | os.O_DSYNC if mode == "direct-dsync" else 0)
    fd = os.open(path, flags)
    n, off, end = 0, 0, time.monotonic() + slice_s
    while time.monotonic() < end:
        os.pwrite(fd, one, off if seq else 0)
        if mode == "fdatasync":
            os.fdatasync(fd)
        n += 1
        off = off + BLK if off + BLK < SIZE else 0
    os.close(fd)
    return n / slice_s

for mode in ("fdatasync", "direct-dsync"):
    same, seq = [], []
    for i in range(slices):
        order = (False, True) if i % 2 == 0 else (True, False)
        for s in order:
            (seq if s else same).append(run(mode, s))
    ratios = [b / a for a, b in zip(same, seq)]
    print(f"{mode:13} same-offset ops/s {' '.join(f'{x:.0f}' for x in same)}")
    print(f"{'':13} sequential  ops/s {' '.join(f'{x:.0f}' for x in seq)}")
    print(f"{'':13} sequential/same median {statistics.median(ratios):.3f} "
          f"(medians {statistics.median(seq):.0f} / {statistics.median(same):.0f})")
os.unlink(path)
