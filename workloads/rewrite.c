/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Rewrite: read each chunk, change it, write it back in place.  The rate
 * counts the file once, as bonnie++ does. */
#include "phase.h"
#include "databuf.h"
#include "../src/base/timing.h"

#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

static int run(struct ab_phase_ctx *ctx)
{
	const struct ab_step *step = ctx->step;
	uint64_t chunks = step->file_size / step->io_chunk;
	unsigned char *buf = ab_aligned_alloc(step->io_chunk);
	if (!buf)
		return ab_worker_fail(ctx, ENOMEM, "cannot allocate the data buffer");
	int fd = ab_open_io(ctx, O_RDWR, step->direct);
	if (fd < 0)
		return -1;
	uint64_t stamp = ctx->seed * 0x2545f4914f6cdd1dull;
	ab_worker_progress_total(ctx, chunks * step->io_chunk);
	ab_worker_start(ctx);
	int rc = 0;
	uint64_t prev = ctx->sample->start_ns;
	for (uint64_t i = 0; i < chunks; i++) {
		uint64_t off = ab_io_offset(ctx, i * step->io_chunk);
		if ((rc = ab_worker_pread_chunk(ctx, fd, buf, step->io_chunk, off)) != 0)
			break;
		if (step->data == AB_DATA_ZEROS) {
			buf[i % step->io_chunk]++;
		} else {
			uint64_t v = stamp ^ i;
			memcpy(buf + 8, &v, sizeof(v));
		}
		if (ab_pwrite_all(fd, buf, step->io_chunk, off) != 0) {
			rc = ab_worker_fail(ctx, errno, "cannot write '%s'", ctx->io_path);
			break;
		}
		if ((rc = ab_worker_wrote(ctx, fd, step->io_chunk)) != 0)
			break;
		if (step->sync_each_write && fsync(fd) != 0) {
			rc = ab_worker_fail(ctx, errno, "cannot fsync '%s'", ctx->io_path);
			break;
		}
		ab_worker_tick(ctx, &prev);
		ab_worker_progress(ctx, (i + 1) * step->io_chunk);
	}
	rc = ab_worker_finish_fd(ctx, fd, rc, TRUE);
	ctx->sample->bytes = step->file_size;
	ctx->sample->ops = chunks;
	free(buf);
	return rc;
}

const struct ab_phase ab_phase_rewrite = {
	.id = AB_PHASE_REWRITE,
	.name = "rewrite",
	.csv_name = "rewrite",
	.csv_rate_col = 13,
	.csv_latency_col = 40,
	.sync_plain = "fsync-close-timed",
	.sync_each = "fsync-each-write+fsync-close-timed",
	.summary = "read, change and write back every chunk in place, fsync and close timed",
	.flags = AB_PHASE_WRITES | AB_PHASE_IO | AB_PHASE_NEEDS_FILE | AB_PHASE_READS | AB_PHASE_DIRECT_OK |
		 AB_PHASE_ONE_PASS,
	.unit = AB_UNIT_KIB_PER_SEC,
	.run = run,
};
