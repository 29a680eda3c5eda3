/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * Sequential delete: unlink every entry in readdir order; random delete:
 * unlink by name in a shuffled order.  Both then remove the directories and
 * call sync(), all timed, as bonnie++ does.  -b fsyncs the directory after
 * each unlink.  In a files/ tree the ranks share, each removes only its
 * set's names and no directory.
 */
#include "phase.h"
#include "fileset.h"
#include "../src/base/timing.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <string.h>
#include <unistd.h>

static int unlink_dir_entries(struct ab_phase_ctx *ctx, int dirfd, uint64_t *seen, uint64_t *prev)
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
		if (ctx->files->shared && !ab_file_set_holds_name(ctx->files, de->d_name))
			continue;
		if (unlinkat(dirfd, de->d_name, 0) != 0) {
			rc = ab_worker_fail(ctx, errno, "cannot remove '%s'", de->d_name);
			break;
		}
		if (ctx->step->sync_each_write && fsync(dirfd) != 0) {
			rc = ab_worker_fail(ctx, errno, "cannot fsync directory in '%s'", ctx->files_dir);
			break;
		}
		(*seen)++;
		ab_worker_tick(ctx, prev);
		ab_worker_progress(ctx, *seen);
	}
	closedir(dir);
	return rc;
}

static int run_seq(struct ab_phase_ctx *ctx, int top, uint64_t *prev)
{
	const struct ab_file_set *set = ctx->files;
	uint64_t seen = 0;
	if (set->dirs <= 1)
		return unlink_dir_entries(ctx, top, &seen, prev) != 0 ? -1
		       : seen == set->count ? 0
					    : ab_worker_fail(ctx, 0, "removed %" G_GUINT64_FORMAT " files, expected %u",
							     seen, set->count);
	for (uint32_t d = 0; d < set->dirs; d++) {
		char name[8];
		ab_file_set_dir_name(d, name);
		int fd = openat(top, name, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
		if (fd < 0)
			return ab_worker_fail(ctx, errno, "cannot open '%s/%s'", ctx->files_dir, name);
		int rc = unlink_dir_entries(ctx, fd, &seen, prev);
		close(fd);
		if (rc != 0)
			return -1;
	}
	if (seen != set->count)
		return ab_worker_fail(ctx, 0, "removed %" G_GUINT64_FORMAT " files, expected %u", seen, set->count);
	return 0;
}

static int run_random(struct ab_phase_ctx *ctx, int top, uint64_t *prev)
{
	const struct ab_file_set *set = ctx->files;
	for (uint32_t k = 0; k < set->count; k++) {
		const char *rel = set->blob + set->order_offset[k];
		if (unlinkat(top, rel, 0) != 0)
			return ab_worker_fail(ctx, errno, "cannot remove '%s/%s'", ctx->files_dir, rel);
		if (ctx->step->sync_each_write) {
			int dfd = top;
			if (set->dirs > 1) {
				char name[8];
				ab_file_set_dir_name(ab_file_set_dir_of(set, set->order[k]), name);
				dfd = openat(top, name, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
			}
			int rc = dfd >= 0 ? fsync(dfd) : -1;
			int e = errno;
			if (dfd >= 0 && dfd != top)
				close(dfd);
			if (rc != 0)
				return ab_worker_fail(ctx, e, "cannot fsync directory of '%s'", rel);
		}
		ab_worker_tick(ctx, prev);
		ab_worker_progress(ctx, k + 1);
	}
	return 0;
}

static int run(struct ab_phase_ctx *ctx)
{
	int top = ab_open_files_dir(ctx);
	if (top < 0)
		return -1;
	gboolean random_order = (ctx->phase->flags & AB_PHASE_RANDOM_ORDER) != 0;
	ab_worker_progress_total(ctx, ctx->files->count);
	ab_worker_start(ctx);
	uint64_t prev = ctx->sample->start_ns;
	int rc = random_order ? run_random(ctx, top, &prev) : run_seq(ctx, top, &prev);
	/* A tree the ranks share keeps its directories: another rank may be
	 * working in them (the run's end removes them). */
	gboolean own_tree = !ctx->files->shared;
	for (uint32_t d = 0; rc == 0 && own_tree && ctx->files->dirs > 1 && d < ctx->files->dirs; d++) {
		char name[8];
		ab_file_set_dir_name(d, name);
		if (unlinkat(top, name, AT_REMOVEDIR) != 0)
			rc = ab_worker_fail(ctx, errno, "cannot remove directory '%s/%s'", ctx->files_dir, name);
	}
	close(top);
	if (rc == 0 && own_tree && unlinkat(ctx->run_fd, AB_FILES_NAME, AT_REMOVEDIR) != 0)
		rc = ab_worker_fail(ctx, errno, "cannot remove directory '%s'", ctx->files_dir);
	sync();
	ab_worker_stop(ctx);
	ctx->sample->ops = rc == 0 ? ctx->files->count : 0;
	return rc;
}

const struct ab_phase ab_phase_seq_delete = {
	.id = AB_PHASE_SEQ_DELETE,
	.name = "seq-delete",
	.csv_name = "seq_del",
	.csv_rate_col = 30,
	.csv_latency_col = 46,
	.sync_plain = "sync-timed",
	.sync_each = "fsync-dir-each+sync-timed",
	.summary = "unlink every file in directory order, remove the directories; sync() timed",
	.flags = AB_PHASE_WRITES | AB_PHASE_FILES | AB_PHASE_NEEDS_FILES | AB_PHASE_METADATA,
	.unit = AB_UNIT_FILES_PER_SEC,
	.run = run,
};

const struct ab_phase ab_phase_rand_delete = {
	.id = AB_PHASE_RAND_DELETE,
	.name = "rand-delete",
	.csv_name = "ran_del",
	.csv_rate_col = 36,
	.csv_latency_col = 49,
	.sync_plain = "sync-timed",
	.sync_each = "fsync-dir-each+sync-timed",
	.summary = "unlink every file by name in a shuffled order, remove the directories; sync() timed",
	.flags = AB_PHASE_WRITES | AB_PHASE_FILES | AB_PHASE_NEEDS_FILES | AB_PHASE_METADATA | AB_PHASE_RANDOM_ORDER,
	.unit = AB_UNIT_FILES_PER_SEC,
	.run = run,
};
