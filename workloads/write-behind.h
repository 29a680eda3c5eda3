/* SPDX-License-Identifier: GPL-2.0-or-later */
#ifndef AB_WRITE_BEHIND_H
#define AB_WRITE_BEHIND_H

#include <stdint.h>

/*
 * Write-behind: a worker that writes through the page cache keeps its dirty
 * and in-flight pages to two windows.  Each time it has written a window's
 * worth, it waits for the writeback it started at the last window to end,
 * then starts writeback of what it dirtied since (sync_file_range over the
 * whole file: random writes too).  The device writes one window while the
 * worker fills the next, so a worker faster than its disk waits for it, as
 * the kernel's dirty throttling makes it wait on a machine whose limits are
 * larger than the file.
 *
 * Why: in a v1 memory cgroup the kernel's dirty limits are the whole
 * machine's, so a small group's page cache fills with dirty pages and then
 * with pages under writeback.  The write path's own allocations
 * (buffer heads, page cache) reclaim without __GFP_FS, which in a v1 group
 * may not wait for writeback to end: reclaim finds nothing it may free,
 * and the group's out-of-memory killer stops the worker (measured: at
 * -r 16 the group held 15.1 MiB under writeback, 20 KiB anonymous and
 * 460 KiB kernel memory when it struck).  cgroup v2 throttles a group's
 * dirtying itself, so only a v1 group takes this.
 */
struct ab_write_behind {
	uint64_t window;  /* bytes per window; 0: off */
	uint64_t pending; /* written since the last window closed */
	int fd;           /* the file written; another fd starts afresh */
	int in_flight;    /* writeback was started at the last window */
	uint64_t waits;   /* windows closed (for tests and the record) */
	/* sync_file_range(2); tests put a recorder here. */
	int (*sync_range)(int fd, int64_t off, int64_t len, unsigned flags);
};

/* Off when window is 0. */
void ab_write_behind_init(struct ab_write_behind *wb, uint64_t window);
/* After `len` bytes were written to fd through the page cache.  Returns 0,
 * or -1 with errno when sync_file_range failed (EIO from writeback is the
 * write's failure, reported now rather than at fsync). */
int ab_write_behind_note(struct ab_write_behind *wb, int fd, uint64_t len);
/* The file is written back and closed: the next note starts afresh, even
 * on a descriptor of the same number. */
void ab_write_behind_forget(struct ab_write_behind *wb);

/* The window of one of `workers` workers sharing a group limited to
 * `limit_bytes`: all their windows together (two each) stay within a
 * quarter of the limit, as the kernel's own dirty ratio (20 %) keeps a
 * v2 group's; at least 64 KiB, so a window still makes requests a disk
 * merges. */
uint64_t ab_write_behind_window(uint64_t limit_bytes, unsigned workers);

#endif
