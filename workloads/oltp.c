/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * The oltp phase (workloads/oltp.h): each worker is one connection's
 * process.  It opens the data file read-write (O_DIRECT with --direct),
 * gets its own random stream, and after the barrier runs for the step's
 * seconds: a block-aligned uniform offset, a read or a write by the mix,
 * each timed into its own histogram; every K-th write is followed by an
 * fdatasync, timed with that write (a commit's write is not done until it
 * is durable).
 */
#include "phase.h"
#include "databuf.h"
#include "oltp.h"
#include "../src/base/timing.h"

#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

static unsigned worker_count(const struct ab_step *step)
{
	return step->oltp_procs ? step->oltp_procs : 1;
}

uint32_t ab_oltp_most_procs(const struct ab_step *step)
{
	uint32_t most = step->oltp_procs;
	for (guint i = 0; step->oltp_proc_counts && i < step->oltp_proc_counts->len; i++)
		most = MAX(most, g_array_index(step->oltp_proc_counts, uint32_t, i));
	return most;
}

static unsigned most_workers(const struct ab_step *step)
{
	uint32_t most = ab_oltp_most_procs(step);
	return most ? most : 1;
}

int ab_oltp_process(struct ab_phase_ctx *ctx)
{
	const struct ab_step *step = ctx->step;
	const uint32_t block = step->oltp_block;
	uint64_t blocks = ab_oltp_blocks(step->oltp_size, block);
	if (!blocks)
		return ab_worker_fail(ctx, EINVAL, "the data file holds no whole %u-byte block", block);
	/* Two blocks a process, not a data pool each: 256 processes must fit
	 * a memory cgroup's cap too. */
	unsigned char *rbuf = ab_aligned_alloc(block), *wbuf = ab_aligned_alloc(block);
	if (!rbuf || !wbuf) {
		free(rbuf);
		free(wbuf);
		return ab_worker_fail(ctx, ENOMEM, "cannot allocate the block buffers");
	}
	struct ab_rng rng;
	ab_rng_init(&rng, ctx->seed, 0x01790000u + ctx->worker);
	if (step->data == AB_DATA_RANDOM)
		ab_rng_fill(&rng, wbuf, block);
	else
		memset(wbuf, 0, block);
	int fd = ab_open_io(ctx, O_RDWR, step->direct);
	if (fd < 0) {
		free(rbuf);
		free(wbuf);
		return -1;
	}
	const uint64_t span_ns = (uint64_t)step->oltp_seconds * AB_NS_PER_SEC;
	/* Done is operations; the total, what the time allows, is unknown:
	 * the status line shows the count alone. */
	ab_worker_start(ctx);
	struct ab_sample *sm = ctx->sample;
	const uint64_t end = sm->start_ns + span_ns;
	uint64_t prev = sm->start_ns, done = 0, writes = 0;
	int rc = 0;
	while (prev < end) {
		uint64_t off = ab_oltp_offset(&rng, blocks, block);
		enum ab_op_kind_id kind;
		if (ab_oltp_is_read(&rng, step->oltp_read_pct)) {
			kind = AB_OP_READ;
			if ((rc = ab_worker_pread_chunk(ctx, fd, rbuf, block, off)) != 0)
				break;
		} else {
			kind = AB_OP_WRITE;
			ab_oltp_stamp(wbuf, block, ctx->worker, writes);
			if (ab_pwrite_all(fd, wbuf, block, off) != 0) {
				rc = ab_worker_fail(ctx, errno, "cannot write '%s'", ctx->io_path);
				break;
			}
			if ((rc = ab_worker_wrote(ctx, fd, block)) != 0)
				break;
			writes++;
			if (ab_oltp_syncs_after(writes, step->oltp_sync_every) && fdatasync(fd) != 0) {
				rc = ab_worker_fail(ctx, errno, "cannot fdatasync '%s'", ctx->io_path);
				break;
			}
		}
		uint64_t now = ab_now_ns();
		ab_histogram_record(&sm->latency, now - prev);
		ab_histogram_record(&sm->kind[kind].latency, now - prev);
		sm->kind[kind].ops++;
		sm->kind[kind].bytes += block;
		prev = now;
		done++;
		ab_worker_progress(ctx, done);
	}
	/* The data file stays as it is: no sync of what the processes left
	 * dirty is timed beyond their own fdatasyncs. */
	rc = ab_worker_finish_fd(ctx, fd, rc, FALSE);
	sm->ops = rc == 0 ? done : 0;
	sm->bytes = rc == 0 ? done * block : 0;
	free(rbuf);
	free(wbuf);
	return rc;
}

static int run(struct ab_phase_ctx *ctx)
{
	return ab_oltp_process(ctx);
}

const struct ab_phase ab_phase_oltp = {
	.id = AB_PHASE_OLTP,
	.name = "oltp",
	.csv_name = "",
	.csv_rate_col = -1,
	.csv_latency_col = -1,
	.sync_plain = "none",
	.sync_each = "none",
	.summary = "forked processes pread and pwrite random blocks of a big file at a read:write mix",
	.flags = AB_PHASE_WRITES | AB_PHASE_MULTI | AB_PHASE_IO | AB_PHASE_DIRECT_OK,
	.unit = AB_UNIT_IOPS,
	.worker_count = worker_count,
	.worker_bytes = ab_oltp_process_bytes,
	.workers_at_most = most_workers,
	.run = run,
};
