#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0-or-later
# probe.py CGROUP DIR INTERVAL OUT.tsv
# Samples, every INTERVAL s until the cgroup is gone or empty for 2 s: the
# cgroup's process and task counts, the summed /proc/PID/io of its
# processes, memory.stat cache figures, and which parts of each file of 64 MiB
# or more in DIR are in the page cache (mmap + mincore: faults nothing in),
# in MiB per sixteenth of the file.  One TSV line per file and sample.
import ctypes, ctypes.util, glob, mmap, os, sys, time

libc = ctypes.CDLL(ctypes.util.find_library("c"), use_errno=True)
libc.mincore.argtypes = [ctypes.c_void_p, ctypes.c_size_t, ctypes.c_char_p]
libc.mmap.restype = ctypes.c_void_p
libc.mmap.argtypes = [ctypes.c_void_p, ctypes.c_size_t, ctypes.c_int, ctypes.c_int, ctypes.c_int, ctypes.c_long]
libc.munmap.argtypes = [ctypes.c_void_p, ctypes.c_size_t]
PAGE = 4096
NREG = 16

def resident(path):
    try:
        fd = os.open(path, os.O_RDONLY | os.O_NOFOLLOW)
    except OSError:
        return None
    try:
        size = os.fstat(fd).st_size
        if size < (64 << 20):
            return None
        addr = libc.mmap(None, size, mmap.PROT_READ, mmap.MAP_SHARED, fd, 0)
        if addr in (None, ctypes.c_void_p(-1).value):
            return None
        n = (size + PAGE - 1) // PAGE
        vec = ctypes.create_string_buffer(n)
        rc = libc.mincore(addr, size, vec)
        libc.munmap(addr, size)
        if rc != 0:
            return None
        raw = vec.raw
        per = (n + NREG - 1) // NREG
        raw = raw.translate(bytes([b & 1 for b in range(256)]))
        regs = [raw.count(1, i, min(i + per, n)) * PAGE >> 20 for i in range(0, n, per)]
        return {"size_mib": size >> 20, "cached_mib": sum(regs), "regions_mib": regs}
    finally:
        os.close(fd)

def main():
    cg, d, interval, out = sys.argv[1], sys.argv[2], float(sys.argv[3]), sys.argv[4]
    empty_since = None
    t0 = time.monotonic()
    with open(out, "w") as f:
        f.write("# t_s\tprocs\ttasks\tsyscr\tsyscw\trchar\twchar\tcg_cache_mib\tcg_active_file_mib\tfile\t"
                "file_cached_mib\tcached_mib_per_16th_of_the_file\n")
        while True:
            t = time.monotonic() - t0
            try:
                procs = [int(x) for x in open(cg + "/cgroup.procs").read().split()]
                tasks = len(open(cg + "/tasks").read().split())
                ms = dict(l.split() for l in open(cg + "/memory.stat"))
            except OSError:
                break
            if not procs:
                empty_since = empty_since if empty_since is not None else t
                if t - empty_since > 2:
                    break
            else:
                empty_since = None
            io = {"rchar": 0, "wchar": 0, "syscr": 0, "syscw": 0}
            for p in procs:
                try:
                    for l in open("/proc/%d/io" % p):
                        k, v = l.split(":")
                        if k in io:
                            io[k] += int(v)
                except OSError:
                    pass
            files = {}
            for p in glob.glob(d + "/*"):
                r = resident(p)
                if r:
                    files[os.path.basename(p)] = r
            for name, r in (files or {"-": {"cached_mib": "", "regions_mib": []}}).items():
                f.write("\t".join(str(x) for x in (
                    round(t, 2), len(procs), tasks, io["syscr"], io["syscw"], io["rchar"], io["wchar"],
                    int(ms["cache"]) >> 20, int(ms["active_file"]) >> 20, name, r["cached_mib"],
                    ",".join(map(str, r["regions_mib"])))) + "\n")
            f.flush()
            time.sleep(interval)

main()
