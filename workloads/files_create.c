/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * Sequential and random create: N x 1024 files in index order, each created
 * O_EXCL, filled to its size in file-chunk writes, closed; then sync(), timed,
 * as bonnie++ does.  -b adds fsync of the file and its directory per file.
 * With -n N:-1 / N:-2 file 0 is empty and the others are hard or symbolic
 * links to it.  The directories are made before the timer starts (in a
 * tree the ranks share, by whichever rank comes first).
 */
#include "phase.h"
#include "databuf.h"
#include "fileset.h"
#include "../src/base/timing.h"

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

/* mkdir `name` in `at`, or, in a tree the ranks share, take the one
 * another rank made first: a directory of this user's, reached without
 * following a symlink (anything else is refused). */
static int make_dir(struct ab_phase_ctx *ctx, int at, const char *name, const char *path)
{
	if (mkdirat(at, name, 0700) == 0)
		return 0;
	if (errno != EEXIST || !ctx->files->shared)
		return ab_worker_fail(ctx, errno, "cannot create directory '%s'", path);
	struct stat st;
	int fd = openat(at, name, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
	gboolean ours = fd >= 0 && fstat(fd, &st) == 0 && S_ISDIR(st.st_mode) && st.st_uid == geteuid();
	if (fd >= 0)
		close(fd);
	if (!ours)
		return ab_worker_refuse(ctx, "refusing '%s' in the ranks' shared directory: not a directory of "
				       "this user's (a symlink or another user's)", path);
	return 0;
}

static int make_dirs(struct ab_phase_ctx *ctx, int *top)
{
	if (make_dir(ctx, ctx->run_fd, AB_FILES_NAME, ctx->files_dir) != 0)
		return -1;
	if ((*top = ab_open_files_dir(ctx)) < 0)
		return -1;
	if (ctx->files->dirs > 1)
		for (uint32_t d = 0; d < ctx->files->dirs; d++) {
			char name[8];
			ab_file_set_dir_name(d, name);
			g_autofree char *path = g_strdup_printf("%s/%s", ctx->files_dir, name);
			if (make_dir(ctx, *top, name, path) != 0)
				return -1;
		}
	return 0;
}

/* fsync the directory holding entry i (-b). */
static int sync_parent(struct ab_phase_ctx *ctx, int top, uint32_t i)
{
	if (ctx->files->dirs <= 1)
		return fsync(top);
	char name[8];
	ab_file_set_dir_name(ab_file_set_dir_of(ctx->files, i), name);
	int fd = openat(top, name, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	if (fd < 0)
		return -1;
	int rc = fsync(fd);
	close(fd);
	return rc;
}

static int create_one(struct ab_phase_ctx *ctx, int top, uint32_t i, struct ab_databuf *db,
		      uint64_t *bytes)
{
	const struct ab_step *step = ctx->step;
	const struct ab_file_set *set = ctx->files;
	const char *rel = ab_file_set_path(set, i);
	if (step->file_max < 0 && i > 0) {
		int rc;
		if (step->file_max == AB_FILES_HARDLINK) {
			rc = linkat(top, ab_file_set_path(set, 0), top, rel, 0);
		} else {
			/* Absolute target: bonnie++'s basename-only links dangle in
			 * subdirectories. */
			char target[4096];
			snprintf(target, sizeof(target), "%s/%s", ctx->files_dir, ab_file_set_path(set, 0));
			rc = symlinkat(target, top, rel);
		}
		if (rc != 0)
			return ab_worker_fail(ctx, errno, "cannot link '%s/%s'", ctx->files_dir, rel);
		if (step->sync_each_write && sync_parent(ctx, top, i) != 0)
			return ab_worker_fail(ctx, errno, "cannot fsync directory of '%s'", rel);
		return 0;
	}
	int fd = openat(top, rel, O_CREAT | O_EXCL | O_WRONLY | O_CLOEXEC, 0600);
	if (fd < 0)
		return ab_worker_fail(ctx, errno, "cannot create '%s/%s'", ctx->files_dir, rel);
	uint64_t left = set->size[i];
	for (uint64_t k = 0; left; k++) {
		size_t n = left < step->file_chunk ? (size_t)left : step->file_chunk;
		if (ab_write_all(fd, ab_databuf_block(db, ((uint64_t)i << 20) + k), n) != 0) {
			int e = errno;
			close(fd);
			return ab_worker_fail(ctx, e, "cannot write '%s/%s'", ctx->files_dir, rel);
		}
		left -= n;
		*bytes += n;
	}
	if (step->sync_each_write && (fsync(fd) != 0 || sync_parent(ctx, top, i) != 0)) {
		int e = errno;
		close(fd);
		return ab_worker_fail(ctx, e, "cannot fsync '%s/%s'", ctx->files_dir, rel);
	}
	if (close(fd) != 0)
		return ab_worker_fail(ctx, errno, "cannot close '%s/%s'", ctx->files_dir, rel);
	return 0;
}

static int run(struct ab_phase_ctx *ctx)
{
	struct ab_databuf db;
	if (ab_databuf_init(&db, ctx->step->data, ctx->step->file_chunk, ctx->seed) != 0)
		return ab_worker_fail(ctx, ENOMEM, "cannot allocate the data buffer");
	int top = -1;
	if (make_dirs(ctx, &top) != 0)
		return -1;
	ab_worker_progress_total(ctx, ctx->files->count);
	ab_worker_start(ctx);
	int rc = 0;
	uint64_t bytes = 0;
	uint64_t prev = ctx->sample->start_ns;
	for (uint32_t i = 0; i < ctx->files->count; i++) {
		if ((rc = create_one(ctx, top, i, &db, &bytes)) != 0)
			break;
		ab_worker_tick(ctx, &prev);
		ab_worker_progress(ctx, i + 1);
	}
	sync();
	ab_worker_stop(ctx);
	close(top);
	ctx->sample->ops = rc == 0 ? ctx->files->count : 0;
	ctx->sample->bytes = bytes;
	ab_databuf_clear(&db);
	return rc;
}

const struct ab_phase ab_phase_seq_create = {
	.id = AB_PHASE_SEQ_CREATE,
	.name = "seq-create",
	.csv_name = "seq_create",
	.csv_rate_col = 26,
	.csv_latency_col = 44,
	.sync_plain = "sync-timed",
	.sync_each = "fsync-file+dir-each+sync-timed",
	.summary = "create the files in name order, index first in the name; sync() timed",
	.flags = AB_PHASE_WRITES | AB_PHASE_FILES,
	.unit = AB_UNIT_FILES_PER_SEC,
	.run = run,
};

const struct ab_phase ab_phase_rand_create = {
	.id = AB_PHASE_RAND_CREATE,
	.name = "rand-create",
	.csv_name = "ran_create",
	.csv_rate_col = 32,
	.csv_latency_col = 47,
	.sync_plain = "sync-timed",
	.sync_each = "fsync-file+dir-each+sync-timed",
	.summary = "create the files with random name prefixes; sync() timed",
	.flags = AB_PHASE_WRITES | AB_PHASE_FILES | AB_PHASE_RANDOM_ORDER,
	.unit = AB_UNIT_FILES_PER_SEC,
	.run = run,
};
