/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * Per-char write and read.  Default: bonnie++ 2.00's one-byte write()/read()
 * system calls over the per-char size (3 MiB unless -fN).  --per-char stdio:
 * bonnie++ 1.03's putc()/getc() over the whole file (over N MiB with -fN),
 * which is what older published figures mean.  Both stay buffered under --direct: one-byte O_DIRECT
 * transfers are not possible.  Latency is per chunk-sized group of bytes.
 */
#include "phase.h"
#include "databuf.h"
#include "../src/base/timing.h"

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <unistd.h>

static int write_syscall(struct ab_phase_ctx *ctx, int fd, struct ab_databuf *db, uint64_t groups)
{
	size_t chunk = ctx->step->io_chunk;
	uint64_t prev = ctx->sample->start_ns;
	for (uint64_t g = 0; g < groups; g++) {
		const unsigned char *p = ab_databuf_block(db, g);
		for (size_t j = 0; j < chunk; j++) {
			ssize_t n;
			do
				n = write(fd, p + j, 1);
			while (n < 0 && errno == EINTR);
			if (n != 1)
				return ab_worker_fail(ctx, n < 0 ? errno : ENOSPC, "cannot write '%s'", ctx->io_path);
		}
		if (ab_worker_wrote(ctx, fd, chunk) != 0)
			return -1;
		ab_worker_tick(ctx, &prev);
		ab_worker_progress(ctx, (g + 1) * chunk);
	}
	return 0;
}

static int write_stdio(struct ab_phase_ctx *ctx, FILE *f, struct ab_databuf *db, uint64_t groups)
{
	size_t chunk = ctx->step->io_chunk;
	uint64_t prev = ctx->sample->start_ns;
	for (uint64_t g = 0; g < groups; g++) {
		const unsigned char *p = ab_databuf_block(db, g);
		for (size_t j = 0; j < chunk; j++)
			if (putc(p[j], f) == EOF)
				return ab_worker_fail(ctx, errno, "cannot write '%s'", ctx->io_path);
		/* What stdio has handed to the kernel so far, give or take its
		 * buffer. */
		if (ab_worker_wrote(ctx, fileno(f), chunk) != 0)
			return -1;
		ab_worker_tick(ctx, &prev);
		ab_worker_progress(ctx, (g + 1) * chunk);
	}
	if (fflush(f) != 0)
		return ab_worker_fail(ctx, errno, "cannot write '%s'", ctx->io_path);
	return 0;
}

/* Its data pool (workloads/databuf.h). */
static uint64_t write_bytes(const struct ab_step *step)
{
	return ab_databuf_bytes(step->io_chunk);
}

static int run_write(struct ab_phase_ctx *ctx)
{
	const struct ab_step *step = ctx->step;
	uint64_t groups = step->per_char_bytes / step->io_chunk;
	struct ab_databuf db;
	if (ab_databuf_init(&db, step->data, step->io_chunk, ctx->seed) != 0)
		return ab_worker_fail(ctx, ENOMEM, "cannot allocate the data buffer");
	int fd = ab_open_io(ctx, O_RDWR | O_TRUNC, FALSE);
	if (fd < 0) {
		ab_databuf_clear(&db);
		return -1;
	}
	FILE *f = NULL;
	if (step->per_char == AB_PER_CHAR_STDIO && !(f = fdopen(fd, "w"))) {
		ab_databuf_clear(&db);
		return ab_worker_fail(ctx, errno, "cannot open '%s'", ctx->io_path);
	}
	ab_worker_progress_total(ctx, groups * step->io_chunk);
	ab_worker_start(ctx);
	int rc = f ? write_stdio(ctx, f, &db, groups) : write_syscall(ctx, fd, &db, groups);
	if (rc == 0 && fsync(fd) != 0)
		rc = ab_worker_fail(ctx, errno, "cannot fsync '%s'", ctx->io_path);
	if (f ? fclose(f) != 0 : close(fd) != 0)
		if (rc == 0)
			rc = ab_worker_fail(ctx, errno, "cannot close '%s'", ctx->io_path);
	ab_worker_stop(ctx);
	ctx->sample->bytes = ctx->sample->ops = step->per_char_bytes;
	ab_databuf_clear(&db);
	return rc;
}

static int run_read(struct ab_phase_ctx *ctx)
{
	const struct ab_step *step = ctx->step;
	uint64_t groups = step->per_char_bytes / step->io_chunk;
	size_t chunk = step->io_chunk;
	int fd = ab_open_io(ctx, O_RDONLY, FALSE);
	if (fd < 0)
		return -1;
	FILE *f = NULL;
	if (step->per_char == AB_PER_CHAR_STDIO && !(f = fdopen(fd, "r")))
		return ab_worker_fail(ctx, errno, "cannot open '%s'", ctx->io_path);
	ab_worker_progress_total(ctx, groups * step->io_chunk);
	ab_worker_start(ctx);
	int rc = 0;
	uint64_t prev = ctx->sample->start_ns;
	for (uint64_t g = 0; g < groups && rc == 0; g++) {
		for (size_t j = 0; j < chunk; j++) {
			if (f) {
				if (getc(f) == EOF) {
					rc = ab_worker_fail(ctx, ferror(f) ? errno : 0, "'%s' ended early", ctx->io_path);
					break;
				}
				continue;
			}
			unsigned char c;
			ssize_t n;
			do
				n = read(fd, &c, 1);
			while (n < 0 && errno == EINTR);
			if (n != 1) {
				rc = ab_worker_fail(ctx, n < 0 ? errno : 0, "cannot read '%s'%s", ctx->io_path,
						    n == 0 ? ": it ended early" : "");
				break;
			}
		}
		ab_worker_tick(ctx, &prev);
		ab_worker_progress(ctx, (g + 1) * chunk);
	}
	if (rc == 0 && fsync(fd) != 0)
		rc = ab_worker_fail(ctx, errno, "cannot fsync '%s'", ctx->io_path);
	if (f)
		fclose(f);
	else
		close(fd);
	ab_worker_stop(ctx);
	ctx->sample->bytes = ctx->sample->ops = step->per_char_bytes;
	return rc;
}

const struct ab_phase ab_phase_per_char_write = {
	.id = AB_PHASE_PER_CHAR_WRITE,
	.name = "per-char-write",
	.csv_name = "putc",
	.csv_rate_col = 9,
	.csv_latency_col = 38,
	.sync_plain = "fsync-close-timed",
	.sync_each = "fsync-close-timed",
	.summary = "write the per-char size one byte per call (stdio: putc over the whole file, or -fSIZE)",
	.flags = AB_PHASE_WRITES | AB_PHASE_IO | AB_PHASE_PER_CHAR | AB_PHASE_ONE_PASS,
	.unit = AB_UNIT_KIB_PER_SEC,
	.worker_bytes = write_bytes,
	.run = run_write,
};

const struct ab_phase ab_phase_per_char_read = {
	.id = AB_PHASE_PER_CHAR_READ,
	.name = "per-char-read",
	.csv_name = "getc",
	.csv_rate_col = 15,
	.csv_latency_col = 41,
	.sync_plain = "fsync-close-timed",
	.sync_each = "fsync-close-timed",
	.summary = "read the per-char size one byte per call (stdio: getc over the whole file, or -fSIZE)",
	.flags = AB_PHASE_IO | AB_PHASE_PER_CHAR | AB_PHASE_NEEDS_FILE | AB_PHASE_READS | AB_PHASE_ONE_PASS,
	.unit = AB_UNIT_KIB_PER_SEC,
	.run = run_read,
};
