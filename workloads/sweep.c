/* SPDX-License-Identifier: GPL-2.0-or-later */
/* The record-size sweep: one test of one cell (file size x record size) per
 * run of this phase.  The suite (src/sweep-run.c) walks the grid, evicts
 * the file before the read tests and records what each cell held. */
#include "phase.h"
#include "sweep.h"
#include "databuf.h"
#include "record-order.h"
#include "../src/timing.h"

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

enum { NONE = -1 };

static const struct ab_sweep_test_info tests[AB_SWEEP_TEST_COUNT] = {
	[AB_SWEEP_WRITE] = { "write", "write", "write", AB_SWEEP_CREATES, NONE },
	[AB_SWEEP_REWRITE] = { "rewrite", "rewrite", "write", 0, NONE },
	[AB_SWEEP_READ] = { "read", "read", "read", AB_SWEEP_READS, NONE },
	[AB_SWEEP_REREAD] = { "reread", "reread", "read", AB_SWEEP_READS | AB_SWEEP_WARM, AB_SWEEP_READ },
	[AB_SWEEP_RANDOM_READ] = { "random-read", "random read", "read", AB_SWEEP_READS, NONE },
	[AB_SWEEP_RANDOM_WRITE] = { "random-write", "random write", "write", 0, NONE },
	[AB_SWEEP_BACKWARD_READ] = { "backward-read", "bkwd read", "read", AB_SWEEP_READS, NONE },
	[AB_SWEEP_RECORD_REWRITE] = { "record-rewrite", "record rewrite", "write", 0, NONE },
	[AB_SWEEP_STRIDE_READ] = { "stride-read", "stride read", "read", AB_SWEEP_READS, NONE },
	[AB_SWEEP_FWRITE] = { "fwrite", "fwrite", "fwrite", AB_SWEEP_CREATES | AB_SWEEP_STDIO, NONE },
	[AB_SWEEP_FREWRITE] = { "frewrite", "frewrite", "fwrite", AB_SWEEP_STDIO, NONE },
	[AB_SWEEP_FREAD] = { "fread", "fread", "fread", AB_SWEEP_READS | AB_SWEEP_STDIO, NONE },
	[AB_SWEEP_FREREAD] = { "freread", "freread", "fread", AB_SWEEP_READS | AB_SWEEP_STDIO | AB_SWEEP_WARM,
			       AB_SWEEP_FREAD },
};

const struct ab_sweep_test_info *ab_sweep_test_info(enum ab_sweep_test t)
{
	return (unsigned)t < AB_SWEEP_TEST_COUNT ? &tests[t] : NULL;
}

gboolean ab_sweep_test_by_name(const char *name, enum ab_sweep_test *out)
{
	for (unsigned i = 0; i < AB_SWEEP_TEST_COUNT; i++)
		if (strcmp(tests[i].name, name) == 0) {
			*out = (enum ab_sweep_test)i;
			return TRUE;
		}
	return FALSE;
}

const char *ab_sweep_timing_name(enum ab_sweep_timing timing)
{
	switch (timing) {
	case AB_SWEEP_TIME_FLUSH: return "fsync-timed-on-writes";
	case AB_SWEEP_TIME_FSYNC: return "fsync-timed";
	case AB_SWEEP_TIME_CLOSE: return "close-timed-no-fsync";
	case AB_SWEEP_TIME_FSYNC_CLOSE: return "fsync-close-timed";
	case AB_SWEEP_TIME_NONE: return "fsync-close-untimed";
	}
	return "?";
}

gboolean ab_sweep_times_fsync(enum ab_sweep_test t, enum ab_sweep_timing timing)
{
	if (timing == AB_SWEEP_TIME_FSYNC || timing == AB_SWEEP_TIME_FSYNC_CLOSE)
		return TRUE;
	return timing == AB_SWEEP_TIME_FLUSH && !(tests[t].flags & AB_SWEEP_READS);
}

gboolean ab_sweep_times_close(enum ab_sweep_timing timing)
{
	return timing == AB_SWEEP_TIME_CLOSE || timing == AB_SWEEP_TIME_FSYNC_CLOSE;
}

gboolean ab_sweep_issues_fsync(enum ab_sweep_test t, enum ab_sweep_timing timing)
{
	if (ab_sweep_times_fsync(t, timing))
		return TRUE;
	/* iozone without -c syncs a written file after the clock stops; with
	 * -c alone it never does (its NFS close-to-open test). */
	return timing == AB_SWEEP_TIME_NONE && !(tests[t].flags & AB_SWEEP_READS);
}

char **ab_sweep_timed_calls(enum ab_sweep_test t, enum ab_sweep_timing timing)
{
	gboolean stdio = (tests[t].flags & AB_SWEEP_STDIO) != 0;
	GPtrArray *calls = g_ptr_array_new();
	g_ptr_array_add(calls, g_strdup(tests[t].op));
	if (ab_sweep_times_fsync(t, timing)) {
		if (stdio)
			g_ptr_array_add(calls, g_strdup("fflush"));
		g_ptr_array_add(calls, g_strdup("fsync"));
	}
	if (ab_sweep_times_close(timing))
		g_ptr_array_add(calls, g_strdup(stdio ? "fclose" : "close"));
	g_ptr_array_add(calls, NULL);
	return (char **)g_ptr_array_free(calls, FALSE);
}

/* The record the i-th operation of test t touches, of n. */
static uint64_t record_of(enum ab_sweep_test t, uint64_t i, uint64_t n, const uint64_t *order, uint64_t stride)
{
	switch (t) {
	case AB_SWEEP_RANDOM_READ:
	case AB_SWEEP_RANDOM_WRITE:
		return order[i];
	case AB_SWEEP_BACKWARD_READ:
		return n - 1 - i;
	case AB_SWEEP_RECORD_REWRITE:
		return 0; /* iozone's hot spot: one record, rewritten n times */
	case AB_SWEEP_STRIDE_READ:
		return ab_stride_record(i, n, stride);
	default:
		return i;
	}
}

/* The I/O, buffers and order a test needs, made before the clock starts. */
struct test_state {
	enum ab_sweep_test test;
	const struct ab_sweep_test_info *info;
	uint64_t record;
	uint64_t n;
	struct ab_databuf db;
	gboolean have_db;
	unsigned char *buf;
	uint64_t *order;
	enum ab_sweep_timing timing;
	/* Where this worker works: its own file, or its region of a shared one. */
	int dir_fd;
	const char *name;
	char *path;
	char stream_name[32];
	uint64_t base;       /* byte offset of its region */
	gboolean truncate;   /* a creating test empties the file first */
};

static int prepare(struct ab_phase_ctx *ctx, struct test_state *ts)
{
	const struct ab_step *step = ctx->step;
	memset(ts, 0, sizeof(*ts));
	ts->test = (enum ab_sweep_test)step->sweep_test;
	ts->info = ab_sweep_test_info(ts->test);
	if (!ts->info)
		return ab_worker_fail(ctx, EINVAL, "unknown sweep test %u", step->sweep_test);
	ts->timing = (enum ab_sweep_timing)step->sweep_timing;
	ts->record = step->io_chunk;
	ts->n = ts->record ? step->file_size / ts->record : 0;
	/* One stream: the run's test file.  More: stream k has its own file in
	 * the run's directory, or with --shared-file the k-th region of the
	 * test file, which the suite empties before a creating test (a worker
	 * truncating it would cut the others' data). */
	gboolean shared = step->shared_file && ctx->workers > 1;
	ts->dir_fd = ctx->dir_fd;
	ts->name = ctx->io_name;
	if (ctx->workers > 1 && !shared && ctx->worker > 0) {
		snprintf(ts->stream_name, sizeof(ts->stream_name), AB_STREAM_FILE_FMT, ctx->worker);
		ts->dir_fd = ctx->run_fd;
		ts->name = ts->stream_name;
		ts->path = g_strdup_printf("%s/%s", ctx->run_path ? ctx->run_path : "?", ts->stream_name);
	}
	ts->base = shared ? (uint64_t)ctx->worker * step->file_size : 0;
	ts->truncate = (ts->info->flags & AB_SWEEP_CREATES) && !shared;
	if (ts->info->flags & AB_SWEEP_READS) {
		if (!(ts->buf = ab_aligned_alloc(ts->record)))
			return ab_worker_fail(ctx, ENOMEM, "cannot allocate the read buffer");
	} else {
		if (ab_databuf_init(&ts->db, step->data, ts->record, ctx->seed + ctx->worker) != 0)
			return ab_worker_fail(ctx, ENOMEM, "cannot allocate the data buffer");
		ts->have_db = TRUE;
	}
	if (ts->test == AB_SWEEP_RANDOM_READ || ts->test == AB_SWEEP_RANDOM_WRITE) {
		/* n entries: 8 bytes per record (32 MiB for 16 GiB in 4 KiB
		 * records), filled untimed so the loop only indexes it. */
		if (!(ts->order = malloc(sizeof(uint64_t) * (ts->n ? ts->n : 1))))
			return ab_worker_fail(ctx, ENOMEM, "cannot allocate the order of %" G_GUINT64_FORMAT " records",
					      ts->n);
		ab_record_shuffle(ts->order, ts->n, ctx->seed ^ ((uint64_t)ctx->worker << 32));
	}
	return 0;
}

static void release(struct test_state *ts)
{
	if (ts->have_db)
		ab_databuf_clear(&ts->db);
	free(ts->buf);
	free(ts->order);
	g_free(ts->path);
}

static const char *path_of(const struct ab_phase_ctx *ctx, const struct test_state *ts)
{
	return ts->path ? ts->path : ctx->io_path;
}

static int open_file(struct ab_phase_ctx *ctx, const struct test_state *ts, int flags, gboolean direct)
{
	return ab_open_io_at(ctx, ts->dir_fd, ts->name, path_of(ctx, ts), flags, direct);
}

/* After each operation: the bytes done when another stream's end made the
 * stonewall fall. */
static inline void watch_stonewall(struct ab_phase_ctx *ctx, uint64_t done)
{
	if (!ctx->sample->stonewalled && ab_worker_stonewall_fell(ctx)) {
		ctx->sample->bytes_at_stonewall = done;
		ctx->sample->stonewalled = 1;
	}
}

static int open_flags(const struct test_state *ts)
{
	if (ts->info->flags & AB_SWEEP_READS)
		return O_RDONLY;
	return O_WRONLY | (ts->truncate ? O_TRUNC : 0);
}

/* read/write tests: pread and pwrite of one record at a time. */
static int run_fd(struct ab_phase_ctx *ctx, struct test_state *ts)
{
	const struct ab_step *step = ctx->step;
	gboolean reads = (ts->info->flags & AB_SWEEP_READS) != 0;
	const char *path = path_of(ctx, ts);
	int fd = open_file(ctx, ts, open_flags(ts), step->direct);
	if (fd < 0)
		return -1;
	/* As iozone: what an earlier test left dirty is not this one's to pay.
	 * Not under iozone -c, which never syncs the file at all. */
	if (!reads && ab_sweep_issues_fsync(ts->test, ts->timing) && fsync(fd) != 0) {
		int e = errno;
		close(fd);
		return ab_worker_fail(ctx, e, "cannot fsync '%s'", path);
	}
	gboolean time_fsync = ab_sweep_times_fsync(ts->test, ts->timing);
	gboolean time_close = ab_sweep_times_close(ts->timing);
	ab_worker_start(ctx);
	int rc = 0;
	uint64_t prev = ctx->sample->start_ns;
	for (uint64_t i = 0; i < ts->n; i++) {
		uint64_t off = ts->base + record_of(ts->test, i, ts->n, ts->order, step->stride) * ts->record;
		if (reads) {
			ssize_t got = ab_pread_full(fd, ts->buf, ts->record, off);
			if (got != (ssize_t)ts->record) {
				rc = ab_worker_fail(ctx, got < 0 ? errno : 0, "cannot read '%s'%s", path,
						    got >= 0 ? ": it is shorter than the file size" : "");
				break;
			}
		} else if (ab_pwrite_all(fd, ab_databuf_block(&ts->db, i), ts->record, off) != 0) {
			rc = ab_worker_fail(ctx, errno, "cannot write '%s'", path);
			break;
		}
		ab_worker_tick(ctx, &prev);
		watch_stonewall(ctx, (i + 1) * ts->record);
	}
	if (rc == 0 && time_fsync && fsync(fd) != 0)
		rc = ab_worker_fail(ctx, errno, "cannot fsync '%s'", path);
	if (time_close) {
		if (close(fd) != 0 && rc == 0)
			rc = ab_worker_fail(ctx, errno, "cannot close '%s'", path);
		fd = -1;
	}
	ab_worker_stop(ctx);
	if (rc == 0)
		ab_worker_stonewall_end(ctx, ts->n * ts->record);
	if (fd >= 0) {
		if (rc == 0 && !time_fsync && ab_sweep_issues_fsync(ts->test, ts->timing) && fsync(fd) != 0)
			rc = ab_worker_fail(ctx, errno, "cannot fsync '%s'", path);
		if (close(fd) != 0 && rc == 0)
			rc = ab_worker_fail(ctx, errno, "cannot close '%s'", path);
	}
	return rc;
}

/* fwrite/fread tests: stdio with a buffer of one record, as iozone sets it;
 * never O_DIRECT (the suite records them as buffered). */
static int run_stdio(struct ab_phase_ctx *ctx, struct test_state *ts)
{
	gboolean reads = (ts->info->flags & AB_SWEEP_READS) != 0;
	const char *path = path_of(ctx, ts);
	int fd = open_file(ctx, ts, open_flags(ts), FALSE);
	if (fd < 0)
		return -1;
	if (!reads && ab_sweep_issues_fsync(ts->test, ts->timing) && fsync(fd) != 0) {
		int e = errno;
		close(fd);
		return ab_worker_fail(ctx, e, "cannot fsync '%s'", path);
	}
	FILE *f = fdopen(fd, reads ? "r" : "w");
	char *stdio_buf = f ? malloc(ts->record) : NULL;
	if (!f || !stdio_buf || setvbuf(f, stdio_buf, _IOFBF, ts->record) != 0) {
		int e = errno ? errno : ENOMEM;
		if (f)
			fclose(f);
		else
			close(fd);
		free(stdio_buf);
		return ab_worker_fail(ctx, e, "cannot set up stdio on '%s'", path);
	}
	gboolean time_fsync = ab_sweep_times_fsync(ts->test, ts->timing);
	gboolean time_close = ab_sweep_times_close(ts->timing);
	int rc = 0;
	if (ts->base && fseeko(f, (off_t)ts->base, SEEK_SET) != 0)
		rc = ab_worker_fail(ctx, errno, "cannot seek in '%s'", path);
	ab_worker_start(ctx);
	uint64_t prev = ctx->sample->start_ns;
	for (uint64_t i = 0; rc == 0 && i < ts->n; i++) {
		if (reads) {
			if (fread(ts->buf, ts->record, 1, f) != 1) {
				rc = ab_worker_fail(ctx, ferror(f) ? errno : 0, "cannot read '%s'%s", path,
						    ferror(f) ? "" : ": it is shorter than the file size");
				break;
			}
		} else if (fwrite(ab_databuf_block(&ts->db, i), ts->record, 1, f) != 1) {
			rc = ab_worker_fail(ctx, errno, "cannot write '%s'", path);
			break;
		}
		ab_worker_tick(ctx, &prev);
		watch_stonewall(ctx, (i + 1) * ts->record);
	}
	if (rc == 0 && time_fsync && (fflush(f) != 0 || fsync(fileno(f)) != 0))
		rc = ab_worker_fail(ctx, errno, "cannot flush '%s'", path);
	if (time_close) {
		if (fclose(f) != 0 && rc == 0)
			rc = ab_worker_fail(ctx, errno, "cannot close '%s'", path);
		f = NULL;
	}
	ab_worker_stop(ctx);
	if (rc == 0)
		ab_worker_stonewall_end(ctx, ts->n * ts->record);
	if (f) {
		if (rc == 0 && !time_fsync && ab_sweep_issues_fsync(ts->test, ts->timing) &&
		    (fflush(f) != 0 || fsync(fileno(f)) != 0))
			rc = ab_worker_fail(ctx, errno, "cannot flush '%s'", path);
		if (fclose(f) != 0 && rc == 0)
			rc = ab_worker_fail(ctx, errno, "cannot close '%s'", path);
	}
	free(stdio_buf);
	return rc;
}

static int run(struct ab_phase_ctx *ctx)
{
	struct test_state ts;
	int rc = prepare(ctx, &ts);
	if (rc == 0)
		rc = (ts.info->flags & AB_SWEEP_STDIO) ? run_stdio(ctx, &ts) : run_fd(ctx, &ts);
	ctx->sample->bytes = ts.n * ts.record;
	ctx->sample->ops = ts.n;
	release(&ts);
	return rc;
}

/* A cell run as concurrent streams has a worker per stream. */
static unsigned worker_count(const struct ab_step *step)
{
	return step->streams ? (unsigned)step->streams : 1;
}

const struct ab_phase ab_phase_sweep = {
	.id = AB_PHASE_SWEEP,
	.name = "sweep",
	.csv_name = "",
	.csv_rate_col = -1,
	.csv_latency_col = -1,
	/* Each cell says what it timed (its `timed` list); the suite sets it. */
	.sync_plain = "per-cell",
	.sync_each = "per-cell",
	.summary = "iozone's grid: file sizes x record sizes x tests (write, read, random, stride, stdio...)",
	.flags = AB_PHASE_WRITES | AB_PHASE_DIRECT_OK,
	.unit = AB_UNIT_KIB_PER_SEC,
	.worker_count = worker_count,
	.run = run,
};
