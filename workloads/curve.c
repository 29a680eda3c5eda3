/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * The latency curve's worker: one step of it, at one offered rate.  Each of
 * the step's --curve-procs processes reads (or, by --curve-mix, writes) one
 * random block of the test file at each of its due times, one I/O in
 * flight; the loop and its arithmetic are workloads/curve-math.c's, given
 * the real clock here.  src/suite/curve-run.c runs the steps and decides when the
 * curve ends.
 */
#include "phase.h"
#include "curve-math.h"
#include "databuf.h"
#include "../src/base/rng.h"
#include "../src/base/timing.h"

#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <time.h>
#include <unistd.h>

static unsigned worker_count(const struct ab_step *step)
{
	return step->curve_procs ? step->curve_procs : 1;
}

static uint64_t worker_bytes(const struct ab_step *step)
{
	return step->curve_block;
}

struct io_state {
	struct ab_phase_ctx *ctx;
	int fd;
	unsigned char *buf;
	uint64_t blocks;
	uint64_t bytes;
	struct ab_rng rng;
};

static uint64_t real_now(void *arg)
{
	(void)arg;
	return ab_now_ns();
}

static void real_sleep_until(void *arg, uint64_t t_ns)
{
	(void)arg;
	struct timespec ts = { .tv_sec = (time_t)(t_ns / 1000000000u), .tv_nsec = (long)(t_ns % 1000000000u) };
	while (clock_nanosleep(CLOCK_MONOTONIC, TIMER_ABSTIME, &ts, NULL) == EINTR)
		;
}

static int real_io(void *arg, uint64_t i)
{
	struct io_state *io = arg;
	struct ab_phase_ctx *ctx = io->ctx;
	const struct ab_step *step = ctx->step;
	uint64_t off = ab_rng_below(&io->rng, io->blocks) * step->curve_block;
	gboolean write = step->curve_read_pct < 100 && ab_rng_below(&io->rng, 100) >= step->curve_read_pct;
	if (!write) {
		if (ab_worker_pread_chunk(ctx, io->fd, io->buf, step->curve_block, off) != 0)
			return -1;
	} else {
		if (ab_pwrite_all(io->fd, io->buf, step->curve_block, off) != 0)
			return ab_worker_fail(ctx, errno, "cannot write '%s'", ctx->io_path);
		if (ab_worker_wrote(ctx, io->fd, step->curve_block) != 0)
			return -1;
		if (step->sync_each_write && fdatasync(io->fd) != 0)
			return ab_worker_fail(ctx, errno, "cannot fdatasync '%s'", ctx->io_path);
	}
	io->bytes += step->curve_block;
	ab_worker_progress(ctx, i + 1);
	return 0;
}

static int run(struct ab_phase_ctx *ctx)
{
	const struct ab_step *step = ctx->step;
	struct io_state io = { .ctx = ctx, .fd = -1 };
	io.blocks = step->curve_block ? step->file_size / step->curve_block : 0;
	if (!io.blocks || !(step->curve_rate > 0))
		return ab_worker_fail(ctx, EINVAL, "no block of %u bytes in '%s', or no rate", step->curve_block,
				      ctx->io_path);
	if (!(io.buf = ab_aligned_alloc(step->curve_block)))
		return ab_worker_fail(ctx, ENOMEM, "cannot allocate the I/O buffer");
	ab_rng_init(&io.rng, ctx->seed, 0xc0e7e000u + ctx->worker);
	ab_rng_fill(&io.rng, io.buf, step->curve_block);
	io.fd = ab_open_io(ctx, step->curve_read_pct < 100 ? O_RDWR : O_RDONLY, step->direct);
	if (io.fd < 0) {
		free(io.buf);
		return -1;
	}
	ab_worker_progress_total(ctx, ab_curve_share(step->curve_ios, ctx->worker, ctx->workers));
	ab_worker_start(ctx);
	/* One schedule for all the processes: the first to start sets its
	 * origin (a millisecond ahead, so none begins behind). */
	uint64_t mine = ab_worker_schedule_origin(ctx, ctx->sample->start_ns + 1000000u);
	struct ab_curve_world world = { real_now, real_sleep_until, real_io, NULL, &io };
	struct ab_curve_lateness late = { 0 };
	int rc = ab_curve_issue(&world, mine, step->curve_rate, ctx->worker, ctx->workers, step->curve_ios,
				&ctx->sample->latency, &late);
	rc = ab_worker_finish_fd(ctx, io.fd, rc, FALSE);
	ctx->sample->bytes = io.bytes;
	ctx->sample->ops = rc == 0 ? late.done : 0;
	ctx->sample->late_ops = late.late;
	ctx->sample->max_late_ns = late.max_late_ns;
	free(io.buf);
	return rc;
}

const struct ab_phase ab_phase_latency_curve = {
	.id = AB_PHASE_LATENCY_CURVE,
	.name = "latency-curve",
	.csv_name = NULL,
	.csv_rate_col = -1,
	.csv_latency_col = -1,
	.sync_plain = "no-fsync",
	.sync_each = "fdatasync-each-write",
	.summary = "random I/O at scheduled rates, stepped up until p99 misses --p99-target: latency from "
		   "the due time, the highest rate meeting it",
	.flags = AB_PHASE_MULTI | AB_PHASE_IO | AB_PHASE_NEEDS_FILE | AB_PHASE_READS | AB_PHASE_DIRECT_OK |
		 AB_PHASE_OPEN_LOOP,
	.unit = AB_UNIT_IOPS,
	.worker_count = worker_count,
	.worker_bytes = worker_bytes,
	.run = run,
};
