/* SPDX-License-Identifier: GPL-2.0-or-later */
/* The wal phase: commits appended to a preallocated log, each synced by
 * the chosen method (workloads/wal.h); src/suite/wal-run.c runs one result per
 * method and commit shape. */
#include "wal.h"
#include "databuf.h"
#include "../src/base/rng.h"
#include "../src/base/timing.h"

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

static const struct ab_wal_sync_info methods[AB_WAL_SYNC_COUNT] = {
	[AB_WAL_OPEN_DATASYNC] = { "open_datasync", O_DSYNC, NULL, "O_DSYNC: each write returns once its data is stable" },
	[AB_WAL_FDATASYNC] = { "fdatasync", 0, "fdatasync", "fdatasync after each commit" },
	[AB_WAL_FSYNC] = { "fsync", 0, "fsync", "fsync after each commit" },
	[AB_WAL_OPEN_SYNC] = { "open_sync", O_SYNC, NULL, "O_SYNC: each write returns once data and metadata are stable" },
};

const struct ab_wal_sync_info *ab_wal_sync_info(unsigned sync)
{
	return sync < AB_WAL_SYNC_COUNT ? &methods[sync] : NULL;
}

gboolean ab_wal_sync_by_name(const char *name, unsigned *out)
{
	for (unsigned i = 0; i < AB_WAL_SYNC_COUNT; i++)
		if (strcmp(methods[i].name, name) == 0) {
			*out = i;
			return TRUE;
		}
	return FALSE;
}

static char *size_label(uint64_t bytes)
{
	if (bytes % (1024 * 1024) == 0)
		return g_strdup_printf("%" G_GUINT64_FORMAT "m", bytes / (1024 * 1024));
	if (bytes % 1024 == 0)
		return g_strdup_printf("%" G_GUINT64_FORMAT "k", bytes / 1024);
	return g_strdup_printf("%" G_GUINT64_FORMAT, bytes);
}

char *ab_wal_commit_label(const struct ab_wal_commit *c)
{
	g_autofree char *one = size_label(c->write_size);
	if (c->writes == 1)
		return g_steal_pointer(&one);
	return g_strdup_printf("%ux%s", c->writes, one);
}

char *ab_wal_test_name(unsigned sync, const struct ab_wal_commit *c, gboolean rewrite)
{
	const struct ab_wal_sync_info *m = ab_wal_sync_info(sync);
	if (!m)
		return NULL;
	const char *pattern = rewrite ? " rewrite" : "";
	if (c->writes == 1)
		return g_strconcat(m->name, pattern, NULL);
	g_autofree char *label = ab_wal_commit_label(c);
	return g_strdup_printf("%s %s%s", m->name, label, pattern);
}

char **ab_wal_timed_calls(unsigned sync, const struct ab_wal_commit *c)
{
	const struct ab_wal_sync_info *m = ab_wal_sync_info(sync);
	GPtrArray *calls = g_ptr_array_new();
	for (uint32_t i = 0; i < c->writes; i++)
		g_ptr_array_add(calls, g_strdup("pwrite"));
	if (m && m->call)
		g_ptr_array_add(calls, g_strdup(m->call));
	g_ptr_array_add(calls, NULL);
	return (char **)g_ptr_array_free(calls, FALSE);
}

/* Allocates the whole log and writes it once, untimed, then makes it
 * stable: the timed appends then neither allocate blocks nor convert
 * unwritten extents, as in a recycled WAL segment. */
static int lay_out(struct ab_phase_ctx *ctx, struct ab_wal_log *log, int fd, struct ab_rng *rng)
{
	const size_t chunk = AB_WAL_LAYOUT_CHUNK;
	unsigned char *buf = ab_aligned_alloc(chunk);
	if (!buf)
		return ab_worker_fail(ctx, ENOMEM, "cannot allocate the log's lay-out buffer");
	ab_rng_fill(rng, buf, chunk);
	int rc = 0;
	/* Not every file system allocates ahead (the writes below do then). */
	int e = posix_fallocate(fd, 0, (off_t)log->size);
	if (e != 0 && e != EOPNOTSUPP && e != EINVAL)
		rc = ab_worker_fail(ctx, e, "cannot allocate %" G_GUINT64_FORMAT " bytes for '%s'", log->size,
				    log->path);
	for (uint64_t off = 0; rc == 0 && off < log->size; off += chunk) {
		size_t len = (size_t)MIN((uint64_t)chunk, log->size - off);
		if (ab_pwrite_all(fd, buf, len, off) != 0)
			rc = ab_worker_fail(ctx, errno, "cannot write '%s'", log->path);
		else
			/* Under oltp+wal this runs in the memory group: 16 MiB
			 * dirty at once would fill a small v1 group. */
			rc = ab_worker_wrote_file(ctx, fd, len, log->path);
	}
	if (rc == 0 && ftruncate(fd, (off_t)log->size) != 0)
		rc = ab_worker_fail(ctx, errno, "cannot size '%s'", log->path);
	if (rc == 0 && fsync(fd) != 0)
		rc = ab_worker_fail(ctx, errno, "cannot fsync '%s'", log->path);
	ab_worker_wrote_end(ctx); /* closed next; the log reopens under its number */
	free(buf);
	return rc;
}

int ab_wal_log_open(struct ab_phase_ctx *ctx, const struct ab_step *step, unsigned k, struct ab_wal_log *log)
{
	memset(log, 0, sizeof(*log));
	log->fd = -1;
	log->sync = step->wal_sync;
	log->commit = (struct ab_wal_commit){ step->wal_writes, step->wal_write_size };
	log->rewrite = step->wal_rewrite;
	log->size = step->wal_log_size ? step->wal_log_size : AB_WAL_LOG_SIZE;
	const struct ab_wal_sync_info *m = ab_wal_sync_info(log->sync);
	uint64_t bytes = (uint64_t)log->commit.writes * log->commit.write_size;
	if (!m || !bytes || bytes > log->size)
		return ab_worker_fail(ctx, EINVAL, "bad wal step: method %u, %u writes of %u bytes", log->sync,
				      log->commit.writes, log->commit.write_size);
	char name[32];
	snprintf(name, sizeof(name), AB_STREAM_FILE_FMT, k + 1);
	log->path = g_strdup_printf("%s/%s", ctx->run_path ? ctx->run_path : "?", name);
	struct ab_rng rng;
	ab_rng_init(&rng, ctx->seed, k);
	if (!(log->buf = ab_aligned_alloc(bytes)))
		return ab_worker_fail(ctx, ENOMEM, "cannot allocate the commit buffer");
	ab_rng_fill(&rng, log->buf, bytes);
	int fd = ab_open_io_at(ctx, ctx->run_fd, name, log->path, O_RDWR, FALSE);
	if (fd < 0)
		return -1;
	int rc = lay_out(ctx, log, fd, &rng);
	/* A recycled WAL segment is not in the page cache: PostgreSQL drops
	 * a closed segment's pages (posix_fadvise DONTNEED).  It matters: on
	 * ext4 here, fdatasync after an 8k write took about half as long
	 * again with the other 16 MiB of the file cached. */
	if (rc == 0 && step->evict_after_layout && posix_fadvise(fd, 0, 0, POSIX_FADV_DONTNEED) != 0)
		rc = ab_worker_fail(ctx, errno, "cannot drop the cached pages of '%s'", log->path);
	close(fd);
	if (rc != 0)
		return rc;
	/* Opened again as the method asks: strace sees the flags here. */
	log->fd = ab_open_io_at(ctx, ctx->run_fd, name, log->path, O_WRONLY | m->open_flags, step->direct);
	return log->fd < 0 ? -1 : 0;
}

void ab_wal_log_close(struct ab_wal_log *log)
{
	if (log->fd >= 0)
		close(log->fd);
	free(log->buf);
	g_free(log->path);
	memset(log, 0, sizeof(*log));
	log->fd = -1;
}

int ab_wal_commit(struct ab_phase_ctx *ctx, struct ab_wal_log *log)
{
	uint64_t bytes = (uint64_t)log->commit.writes * log->commit.write_size;
	if (log->rewrite || log->off + bytes > log->size)
		log->off = 0; /* the log wraps, as a recycled segment; or pg_test_fsync's one spot */
	for (uint32_t i = 0; i < log->commit.writes; i++) {
		if (ab_pwrite_all(log->fd, log->buf + (size_t)i * log->commit.write_size, log->commit.write_size,
				  log->off) != 0)
			return ab_worker_fail(ctx, errno, "cannot write '%s'", log->path);
		log->off += log->commit.write_size;
	}
	int r = 0;
	switch (log->sync) {
	case AB_WAL_FDATASYNC: r = fdatasync(log->fd); break;
	case AB_WAL_FSYNC: r = fsync(log->fd); break;
	default: break; /* O_DSYNC / O_SYNC: each write was synchronous */
	}
	if (r != 0)
		return ab_worker_fail(ctx, errno, "cannot %s '%s'", methods[log->sync].call, log->path);
	return 0;
}

int ab_wal_committer(struct ab_phase_ctx *ctx, const struct ab_step *step, struct ab_wal_log *log,
		     struct ab_sample *sample)
{
	uint64_t count = step->wal_count;
	double seconds = step->wal_seconds > 0 ? step->wal_seconds : AB_WAL_DEFAULT_SECONDS;
	uint64_t deadline = sample->start_ns + (uint64_t)(seconds * AB_NS_PER_SEC);
	uint64_t bytes = (uint64_t)log->commit.writes * log->commit.write_size;
	uint64_t prev = sample->start_ns, done = 0;
	int rc = 0;
	while (count ? done < count : prev < deadline) {
		/* A changing stamp: no two commits carry the same bytes. */
		memcpy(log->buf, &done, sizeof(done));
		if ((rc = ab_wal_commit(ctx, log)) != 0)
			break;
		uint64_t now = ab_now_ns();
		ab_histogram_record(&sample->latency, now - prev);
		prev = now;
		done++;
		ab_worker_progress(ctx, done);
	}
	sample->ops = done;
	sample->bytes = done * bytes;
	return rc;
}

static int run(struct ab_phase_ctx *ctx)
{
	struct ab_wal_log log;
	int rc = ab_wal_log_open(ctx, ctx->step, ctx->worker, &log);
	if (rc == 0) {
		if (ctx->step->wal_count)
			ab_worker_progress_total(ctx, ctx->step->wal_count);
		ab_worker_start(ctx);
		rc = ab_wal_committer(ctx, ctx->step, &log, ctx->sample);
		ab_worker_stop(ctx);
	}
	ab_wal_log_close(&log);
	return rc;
}

static unsigned worker_count(const struct ab_step *step)
{
	return step->wal_writers ? step->wal_writers : 1;
}

const struct ab_phase ab_phase_wal = {
	.id = AB_PHASE_WAL,
	.name = "wal",
	.csv_name = "",
	.csv_rate_col = -1,
	.csv_latency_col = -1,
	/* Each result says its method (src/suite/wal-run.c sets it). */
	.sync_plain = "per-method",
	.sync_each = "per-method",
	.summary = "WAL commits: appends to a preallocated log, each synced (--wal-sync, --wal-records, --wal-writers)",
	.flags = AB_PHASE_WRITES | AB_PHASE_DIRECT_OK,
	.unit = AB_UNIT_COMMITS_PER_SEC,
	.worker_count = worker_count,
	.run = run,
};
