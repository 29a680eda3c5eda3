/* SPDX-License-Identifier: GPL-2.0-or-later */
#include "write-behind.h"

#include <fcntl.h>
#include <stddef.h>

#define AB_WRITE_BEHIND_MIN (64u * 1024u)

static int real_sync_range(int fd, int64_t off, int64_t len, unsigned flags)
{
	return sync_file_range(fd, off, len, flags);
}

void ab_write_behind_init(struct ab_write_behind *wb, uint64_t window)
{
	*wb = (struct ab_write_behind){ .window = window, .fd = -1, .sync_range = real_sync_range };
}

void ab_write_behind_forget(struct ab_write_behind *wb)
{
	wb->fd = -1;
	wb->pending = 0;
	wb->in_flight = 0;
}

uint64_t ab_write_behind_window(uint64_t limit_bytes, unsigned workers)
{
	uint64_t w = limit_bytes / 8 / (workers ? workers : 1);
	w &= ~(uint64_t)4095; /* whole pages */
	return w < AB_WRITE_BEHIND_MIN ? AB_WRITE_BEHIND_MIN : w;
}

int ab_write_behind_note(struct ab_write_behind *wb, int fd, uint64_t len)
{
	if (!wb->window)
		return 0;
	if (fd != wb->fd) {
		/* Another file: the last one was closed (its own fsync
		 * wrote it back) or is another stream's; start afresh. */
		wb->fd = fd;
		wb->pending = 0;
		wb->in_flight = 0;
	}
	/* O_DIRECT files too: a file system may serve them through the page
	 * cache (ext4 with data=journal does), and a window's call on a file
	 * with nothing dirty costs next to nothing. */
	wb->pending += len;
	if (wb->pending < wb->window)
		return 0;
	wb->pending = 0;
	wb->waits++;
	/* Wait for the window handed to writeback last time (and any other
	 * writeback of the file), then hand over what was dirtied since.  Both
	 * over the whole file: a random writer's pages lie anywhere in it. */
	unsigned flags = SYNC_FILE_RANGE_WRITE | (wb->in_flight ? SYNC_FILE_RANGE_WAIT_BEFORE : 0);
	wb->in_flight = 1;
	return wb->sync_range(fd, 0, 0, flags);
}
