/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Untimed layout of the I/O file for read phases asked for on their own:
 * 1 MiB writes, then written back and, unless --cache none (which evicts
 * nothing, so the phase after it starts as warm as it says), dropped from
 * the cache. */
#include "phase.h"
#include "databuf.h"

#include <errno.h>
#include <fcntl.h>
#include <unistd.h>

static int run(struct ab_phase_ctx *ctx)
{
	const struct ab_step *step = ctx->step;
	struct ab_databuf db;
	if (ab_databuf_init(&db, step->data, AB_MIB, ctx->seed) != 0)
		return ab_worker_fail(ctx, ENOMEM, "cannot allocate the data buffer");
	int fd = ab_open_io(ctx, O_WRONLY | O_TRUNC, FALSE);
	if (fd < 0)
		return -1;
	ab_worker_progress_total(ctx, step->file_size / AB_MIB * AB_MIB);
	ab_worker_start(ctx);
	int rc = 0;
	for (uint64_t i = 0; i < step->file_size / AB_MIB; i++) {
		if (ab_write_all(fd, ab_databuf_block(&db, i), AB_MIB) != 0) {
			rc = ab_worker_fail(ctx, errno, "cannot write '%s'", ctx->io_path);
			break;
		}
		if ((rc = ab_worker_wrote(ctx, fd, AB_MIB)) != 0)
			break;
		ab_worker_progress(ctx, (i + 1) * AB_MIB);
	}
	if (rc == 0 && fdatasync(fd) != 0)
		rc = ab_worker_fail(ctx, errno, "cannot fsync '%s'", ctx->io_path);
	if (step->evict_after_layout)
		posix_fadvise(fd, 0, 0, POSIX_FADV_DONTNEED);
	close(fd);
	ab_worker_stop(ctx);
	ab_databuf_clear(&db);
	return rc;
}

const struct ab_phase ab_phase_layout = {
	.id = AB_PHASE_LAYOUT,
	.name = "layout",
	.csv_name = "",
	.csv_rate_col = -1,
	.csv_latency_col = -1,
	.sync_plain = "fsync-close-timed",
	.sync_each = "fsync-close-timed",
	.summary = "write the I/O file untimed for read phases run on their own",
	.flags = AB_PHASE_WRITES | AB_PHASE_IO,
	.unit = AB_UNIT_KIB_PER_SEC,
	.run = run,
};
