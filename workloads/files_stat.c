/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * Sequential stat: readdir each directory and stat every entry, reading the
 * whole file when it has data ("Read" in bonnie++'s tables); the count must
 * match.  Random stat: the same by name in a shuffled order.  In a files/
 * tree the ranks share, each stats only its set's names (the readdir still
 * passes over the other ranks').
 */
#include "phase.h"
#include "databuf.h"
#include "fileset.h"
#include "../src/base/timing.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <sys/stat.h>
#include <unistd.h>

static int stat_one(struct ab_phase_ctx *ctx, int dirfd, const char *name, void *buf, uint64_t *bytes)
{
	struct stat st;
	if (fstatat(dirfd, name, &st, 0) != 0)
		return ab_worker_fail(ctx, errno, "cannot stat '%s'", name);
	if (st.st_size > 0) {
		/* O_NONBLOCK: a FIFO swapped in after the stat must not hang
		 * the phase; on a regular file it changes nothing. */
		int fd = openat(dirfd, name, O_RDONLY | O_NONBLOCK | O_CLOEXEC);
		if (fd < 0)
			return ab_worker_fail(ctx, errno, "cannot open '%s'", name);
		ssize_t n;
		while ((n = ab_read_full(fd, buf, ctx->step->file_chunk)) > 0)
			*bytes += (uint64_t)n;
		int e = errno;
		close(fd);
		if (n < 0)
			return ab_worker_fail(ctx, e, "cannot read '%s'", name);
	}
	return 0;
}

static int stat_dir(struct ab_phase_ctx *ctx, int dirfd, void *buf, uint64_t *seen, uint64_t *bytes,
		    uint64_t *prev)
{
	int fd = dup(dirfd);
	DIR *dir = fd >= 0 ? fdopendir(fd) : NULL;
	if (!dir)
		return ab_worker_fail(ctx, errno, "cannot read directory in '%s'", ctx->files_dir);
	struct dirent *de;
	int rc = 0;
	while ((de = readdir(dir))) {
		if (de->d_name[0] == '.')
			continue;
		/* A tree the ranks share: the others' names are read past. */
		if (ctx->files->shared && !ab_file_set_holds_name(ctx->files, de->d_name))
			continue;
		if ((rc = stat_one(ctx, dirfd, de->d_name, buf, bytes)) != 0)
			break;
		(*seen)++;
		ab_worker_tick(ctx, prev);
		ab_worker_progress(ctx, *seen);
	}
	closedir(dir);
	return rc;
}

static int run_seq(struct ab_phase_ctx *ctx, int top, void *buf, uint64_t *bytes)
{
	uint64_t seen = 0, prev = ctx->sample->start_ns;
	const struct ab_file_set *set = ctx->files;
	if (set->dirs <= 1) {
		if (stat_dir(ctx, top, buf, &seen, bytes, &prev) != 0)
			return -1;
	} else {
		for (uint32_t d = 0; d < set->dirs; d++) {
			char name[8];
			ab_file_set_dir_name(d, name);
			int fd = openat(top, name, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
			if (fd < 0)
				return ab_worker_fail(ctx, errno, "cannot open '%s/%s'", ctx->files_dir, name);
			int rc = stat_dir(ctx, fd, buf, &seen, bytes, &prev);
			close(fd);
			if (rc != 0)
				return -1;
		}
	}
	if (seen != set->count)
		return ab_worker_fail(ctx, 0, "found %" G_GUINT64_FORMAT " files in '%s', expected %u", seen,
				      ctx->files_dir, set->count);
	return 0;
}

static int run_random(struct ab_phase_ctx *ctx, int top, void *buf, uint64_t *bytes)
{
	uint64_t prev = ctx->sample->start_ns;
	for (uint32_t k = 0; k < ctx->files->count; k++) {
		if (stat_one(ctx, top, ctx->files->blob + ctx->files->order_offset[k], buf, bytes) != 0)
			return -1;
		ab_worker_tick(ctx, &prev);
		ab_worker_progress(ctx, k + 1);
	}
	return 0;
}

static int run(struct ab_phase_ctx *ctx)
{
	void *buf = ab_aligned_alloc(ctx->step->file_chunk);
	if (!buf)
		return ab_worker_fail(ctx, ENOMEM, "cannot allocate the read buffer");
	int top = ab_open_files_dir(ctx);
	if (top < 0)
		return -1;
	gboolean random_order = (ctx->phase->flags & AB_PHASE_RANDOM_ORDER) != 0;
	uint64_t bytes = 0;
	ab_worker_progress_total(ctx, ctx->files->count);
	ab_worker_start(ctx);
	int rc = random_order ? run_random(ctx, top, buf, &bytes) : run_seq(ctx, top, buf, &bytes);
	ab_worker_stop(ctx);
	close(top);
	free(buf);
	ctx->sample->ops = rc == 0 ? ctx->files->count : 0;
	ctx->sample->bytes = bytes;
	return rc;
}

const struct ab_phase ab_phase_seq_stat = {
	.id = AB_PHASE_SEQ_STAT,
	.name = "seq-stat",
	.csv_name = "seq_stat",
	.csv_rate_col = 28,
	.csv_latency_col = 45,
	.sync_plain = "none",
	.sync_each = "none",
	.summary = "readdir and stat every file in directory order, reading any data",
	.flags = AB_PHASE_FILES | AB_PHASE_NEEDS_FILES | AB_PHASE_METADATA,
	.unit = AB_UNIT_FILES_PER_SEC,
	.run = run,
};

const struct ab_phase ab_phase_rand_stat = {
	.id = AB_PHASE_RAND_STAT,
	.name = "rand-stat",
	.csv_name = "ran_stat",
	.csv_rate_col = 34,
	.csv_latency_col = 48,
	.sync_plain = "none",
	.sync_each = "none",
	.summary = "stat every file by name in a shuffled order, reading any data",
	.flags = AB_PHASE_FILES | AB_PHASE_NEEDS_FILES | AB_PHASE_METADATA | AB_PHASE_RANDOM_ORDER,
	.unit = AB_UNIT_FILES_PER_SEC,
	.run = run,
};
