/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Block write: the whole file in chunk-sized write()s; fsync + close timed. */
#include "phase.h"
#include "databuf.h"
#include "../src/base/timing.h"

#include <errno.h>
#include <fcntl.h>
#include <unistd.h>

/* Its chunk of the data pool (workloads/databuf.h): the chunk and 1 MiB. */
static uint64_t worker_bytes(const struct ab_step *step)
{
	return ab_databuf_bytes(step->io_chunk);
}

static int run(struct ab_phase_ctx *ctx)
{
	const struct ab_step *step = ctx->step;
	uint64_t chunks = step->file_size / step->io_chunk;
	struct ab_databuf db;
	if (ab_databuf_init(&db, step->data, step->io_chunk, ctx->seed) != 0)
		return ab_worker_fail(ctx, ENOMEM, "cannot allocate the data buffer");
	int fd = ab_open_io(ctx, O_WRONLY | O_TRUNC, step->direct);
	if (fd < 0)
		return -1;
	ab_worker_progress_total(ctx, chunks * step->io_chunk);
	ab_worker_start(ctx);
	int rc = 0;
	uint64_t prev = ctx->sample->start_ns;
	for (uint64_t i = 0; i < chunks; i++) {
		if (ab_write_all(fd, ab_databuf_block(&db, i), step->io_chunk) != 0) {
			rc = ab_worker_fail(ctx, errno, "cannot write '%s'", ctx->io_path);
			break;
		}
		if ((rc = ab_worker_wrote(ctx, fd, step->io_chunk)) != 0)
			break;
		/* -b: what bonnie++'s man page promises, an fsync per write. */
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
	ab_databuf_clear(&db);
	return rc;
}

const struct ab_phase ab_phase_block_write = {
	.id = AB_PHASE_BLOCK_WRITE,
	.name = "block-write",
	.csv_name = "put_block",
	.csv_rate_col = 11,
	.csv_latency_col = 39,
	.sync_plain = "fsync-close-timed",
	.sync_each = "fsync-each-write+fsync-close-timed",
	.summary = "write the file in chunk-sized blocks, fsync and close timed",
	.flags = AB_PHASE_WRITES | AB_PHASE_IO | AB_PHASE_DIRECT_OK | AB_PHASE_ONE_PASS,
	.unit = AB_UNIT_KIB_PER_SEC,
	.worker_bytes = worker_bytes,
	.run = run,
};
