/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Block read: the whole file in chunk-sized read()s; fsync and close timed,
 * as bonnie++ 2.00a times them. */
#include "phase.h"
#include "databuf.h"
#include "../src/base/timing.h"

#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <unistd.h>

static int run(struct ab_phase_ctx *ctx)
{
	const struct ab_step *step = ctx->step;
	uint64_t chunks = step->file_size / step->io_chunk;
	unsigned char *buf = ab_aligned_alloc(step->io_chunk);
	if (!buf)
		return ab_worker_fail(ctx, ENOMEM, "cannot allocate the read buffer");
	int fd = ab_open_io(ctx, O_RDONLY, step->direct);
	if (fd < 0)
		return -1;
	ab_worker_progress_total(ctx, chunks * step->io_chunk);
	ab_worker_start(ctx);
	int rc = 0;
	uint64_t prev = ctx->sample->start_ns;
	for (uint64_t i = 0; i < chunks; i++) {
		ssize_t n = ab_read_full(fd, buf, step->io_chunk);
		if (n != (ssize_t)step->io_chunk) {
			rc = ab_worker_fail(ctx, n < 0 ? errno : 0, "cannot read '%s'%s", ctx->io_path,
					    n >= 0 ? ": it is shorter than the file size" : "");
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

const struct ab_phase ab_phase_block_read = {
	.id = AB_PHASE_BLOCK_READ,
	.name = "block-read",
	.csv_name = "get_block",
	.csv_rate_col = 17,
	.csv_latency_col = 42,
	.sync_plain = "fsync-close-timed",
	.sync_each = "fsync-close-timed",
	.summary = "read the file in chunk-sized blocks, fsync and close timed",
	.flags = AB_PHASE_IO | AB_PHASE_NEEDS_FILE | AB_PHASE_READS | AB_PHASE_DIRECT_OK | AB_PHASE_ONE_PASS,
	.unit = AB_UNIT_KIB_PER_SEC,
	.run = run,
};
