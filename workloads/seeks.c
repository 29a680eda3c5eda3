/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * Random seeks: N forked seeker processes, each with its own descriptor and
 * random stream, take the seeks one at a time from one shared queue (an
 * atomic ticket counter), so a seeker the disk serves faster takes more and
 * none is left with a fixed share to finish alone.  Each seek reads one chunk
 * at a random chunk-aligned offset and about one in ten writes it back
 * changed.  The rate is seeks / (last seeker's end - first seeker's start).
 */
#include "phase.h"
#include "databuf.h"
#include "../src/base/rng.h"
#include "../src/base/timing.h"

#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <unistd.h>

static unsigned worker_count(const struct ab_step *step)
{
	return step->seekers;
}

static int run(struct ab_phase_ctx *ctx)
{
	const struct ab_step *step = ctx->step;
	uint64_t chunks = step->file_size / step->io_chunk;
	unsigned char *buf = ab_aligned_alloc(step->io_chunk);
	if (!buf)
		return ab_worker_fail(ctx, ENOMEM, "cannot allocate the seek buffer");
	struct ab_rng rng;
	ab_rng_init(&rng, ctx->seed, 0x5eec0000u + ctx->worker);
	int fd = ab_open_io(ctx, O_RDWR, step->direct);
	if (fd < 0)
		return -1;
	/* The tickets go to whichever worker is free, so no worker knows its
	 * own share: each claims an even one, and the sum is the whole count
	 * (only the parent's sum is shown). */
	ab_worker_progress_total(ctx, step->seeks / ctx->workers + (ctx->worker < step->seeks % ctx->workers));
	ab_worker_start(ctx);
	int rc = 0;
	uint64_t bytes = 0, done = 0, k;
	uint64_t prev = ctx->sample->start_ns;
	while (ab_worker_take_ticket(ctx, step->seeks, &k)) {
		uint64_t off = ab_io_offset(ctx, ab_rng_below(&rng, chunks) * step->io_chunk);
		if ((rc = ab_worker_pread_chunk(ctx, fd, buf, step->io_chunk, off)) != 0)
			break;
		bytes += step->io_chunk;
		if (ab_rng_below(&rng, 10) == 0) {
			buf[k % step->io_chunk]--;
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
			bytes += step->io_chunk;
		}
		done++;
		ab_worker_tick(ctx, &prev);
		ab_worker_progress(ctx, done);
	}
	rc = ab_worker_finish_fd(ctx, fd, rc, TRUE);
	ctx->sample->bytes = bytes;
	ctx->sample->ops = rc == 0 ? done : 0;
	free(buf);
	return rc;
}

const struct ab_phase ab_phase_seeks = {
	.id = AB_PHASE_SEEKS,
	.name = "seeks",
	.csv_name = "seeks",
	.csv_rate_col = 19,
	.csv_latency_col = 43,
	.sync_plain = "fsync-close-timed",
	.sync_each = "fsync-each-update+fsync-close-timed",
	.summary = "forked seekers read random chunks and write about 10% of them back",
	.flags = AB_PHASE_WRITES | AB_PHASE_MULTI | AB_PHASE_IO | AB_PHASE_NEEDS_FILE |
		 AB_PHASE_READS | AB_PHASE_DIRECT_OK,
	.unit = AB_UNIT_SEEKS_PER_SEC,
	.worker_count = worker_count,
	.run = run,
};
