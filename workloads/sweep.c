/* SPDX-License-Identifier: GPL-2.0-or-later */
/* The record-size sweep: one test of one cell (file size x record size) per
 * run of this phase.  The suite (src/suite/sweep-run.c) walks the grid, evicts
 * the file before the read tests and records what each cell held. */
#include "phase.h"
#include "sweep.h"
#include "databuf.h"
#include "record-order.h"
#include "../src/base/timing.h"

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
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

uint64_t ab_sweep_file_records(uint64_t written, uint64_t record, uint64_t per_file, uint64_t j)
{
	if (written == AB_SWEEP_WHOLE || !record)
		return per_file;
	uint64_t records = written / record, before = j * per_file;
	if (per_file && before / per_file != j)
		return 0; /* past any count */
	return records > before ? MIN(per_file, records - before) : 0;
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
	enum ab_sweep_timing timing;
	uint64_t record;
	uint64_t n;          /* records per file */
	uint64_t files;      /* files this worker goes through, one after another */
	struct ab_databuf db;
	gboolean have_db;
	unsigned char *buf;
	uint64_t *order;
	/* What the cell's creating test wrote of this stream, when its
	 * deadline cut it (AB_SWEEP_WHOLE: every file whole): later tests use
	 * those records only.  The random tests' order of the part file's
	 * records, when one file is cut short (`part` records of it). */
	uint64_t written;
	uint64_t part;
	uint64_t *part_order;
	/* The deadline (--stonewall-time): 0 none, else on the clock of
	 * start_ns once the clock starts; passed once it was reached or the
	 * work ended; the bytes to stop at (all, or the deadline's count, or
	 * with wear-out the largest any worker had). */
	uint64_t deadline_ns;
	gboolean deadline_passed;
	uint64_t stop_at;
	gboolean stopped;
	uint32_t delay_us;   /* test-only: a slow disk (step.h) */
	gboolean shared;     /* streams share the test file, a region each */
	gboolean truncate;   /* a creating test empties its file first */
	gboolean reads, stdio, time_fsync, time_close;
};

/* One open file of the worker's. */
struct io_file {
	int fd;
	FILE *f;
	char *stdio_buf;
	char *path;
	uint64_t base;       /* byte offset of the worker's region in it */
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
	ts->files = step->files_per_stream ? step->files_per_stream : 1;
	ts->written = step->stream_written ? step->stream_written[ctx->worker] : AB_SWEEP_WHOLE;
	ts->stop_at = UINT64_MAX;
	/* Test-only: a disk slow to write (reads stay as fast as they are). */
	ts->delay_us = step->test_stream_delay_us && !(ts->info->flags & AB_SWEEP_READS)
			       ? step->test_stream_delay_us[ctx->worker] : 0;
	if (ts->written != AB_SWEEP_WHOLE && ts->record) {
		uint64_t records = ts->written / ts->record;
		ts->part = ts->n && records / ts->n < ts->files ? records % ts->n : 0;
	}
	/* With --shared-file the suite empties the file before a creating
	 * test: a worker truncating it would cut the others' data. */
	ts->shared = step->shared_file && ctx->workers > 1;
	ts->truncate = (ts->info->flags & AB_SWEEP_CREATES) && !ts->shared;
	ts->reads = (ts->info->flags & AB_SWEEP_READS) != 0;
	ts->stdio = (ts->info->flags & AB_SWEEP_STDIO) != 0;
	ts->time_fsync = ab_sweep_times_fsync(ts->test, ts->timing);
	ts->time_close = ab_sweep_times_close(ts->timing);
	if (ts->reads) {
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
		/* The file a deadline cut short: an order of its own records,
		 * so that no read goes past what was written. */
		if (ts->part) {
			if (!(ts->part_order = malloc(sizeof(uint64_t) * ts->part)))
				return ab_worker_fail(ctx, ENOMEM, "cannot allocate the order of %" G_GUINT64_FORMAT
						      " records", ts->part);
			ab_record_shuffle(ts->part_order, ts->part, ctx->seed ^ ((uint64_t)ctx->worker << 32));
		}
	}
	return 0;
}

static void release(struct test_state *ts)
{
	if (ts->have_db)
		ab_databuf_clear(&ts->db);
	free(ts->buf);
	free(ts->order);
	free(ts->part_order);
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

/* The worker's j-th file is the cell's file number g = worker + j x workers:
 * number 0 is the run's test file, the others stream.G in the run's
 * directory (AB_STREAM_FILE_FMT), as the suite made them.  With a shared
 * file, g numbers the region of the test file instead. */
static int open_file(struct ab_phase_ctx *ctx, const struct test_state *ts, uint64_t j, gboolean before_clock,
		     struct io_file *io)
{
	const struct ab_step *step = ctx->step;
	uint64_t g = ctx->worker + j * ctx->workers;
	memset(io, 0, sizeof(*io));
	io->fd = -1;
	int dir_fd = ctx->dir_fd;
	char name[32];
	const char *at = ctx->io_name;
	if (ts->shared || g == 0) {
		io->path = g_strdup(ctx->io_path);
		io->base = ts->shared ? g * step->file_size : 0;
	} else {
		snprintf(name, sizeof(name), AB_STREAM_FILE_FMT, (unsigned)g);
		dir_fd = ctx->run_fd;
		at = name;
		io->path = g_strdup_printf("%s/%s", ctx->run_path ? ctx->run_path : "?", name);
	}
	int flags = ts->reads ? O_RDONLY : O_WRONLY | (ts->truncate ? O_TRUNC : 0);
	io->fd = ab_open_io_at(ctx, dir_fd, at, io->path, flags, step->direct && !ts->stdio);
	if (io->fd < 0)
		return -1;
	/* As iozone: what an earlier test left dirty is not this one's to pay
	 * (not under iozone -c, which never syncs the file at all).  Only
	 * before the clock: inside it, it would be. */
	if (before_clock && !ts->reads && ab_sweep_issues_fsync(ts->test, ts->timing) && fsync(io->fd) != 0)
		return ab_worker_fail(ctx, errno, "cannot fsync '%s'", io->path);
	if (!ts->stdio) {
		if (io->base && lseek(io->fd, (off_t)io->base, SEEK_SET) < 0)
			return ab_worker_fail(ctx, errno, "cannot seek in '%s'", io->path);
		return 0;
	}
	/* stdio with a buffer of one record, as iozone sets it. */
	io->f = fdopen(io->fd, ts->reads ? "r" : "w");
	if (io->f)
		io->fd = -1; /* the FILE owns it now */
	io->stdio_buf = io->f ? malloc(ts->record) : NULL;
	if (!io->f || !io->stdio_buf || setvbuf(io->f, io->stdio_buf, _IOFBF, ts->record) != 0)
		return ab_worker_fail(ctx, errno ? errno : ENOMEM, "cannot set up stdio on '%s'", io->path);
	if (io->base && fseeko(io->f, (off_t)io->base, SEEK_SET) != 0)
		return ab_worker_fail(ctx, errno, "cannot seek in '%s'", io->path);
	return 0;
}

/* Closes what is open, failing on a close error only when asked. */
static int close_file(struct ab_phase_ctx *ctx, struct io_file *io, int rc)
{
	int bad = 0;
	if (io->f)
		bad = fclose(io->f) != 0;
	else if (io->fd >= 0)
		bad = close(io->fd) != 0;
	if (bad && rc == 0)
		rc = ab_worker_fail(ctx, errno, "cannot close '%s'", io->path);
	free(io->stdio_buf);
	g_free(io->path);
	memset(io, 0, sizeof(*io));
	io->fd = -1;
	return rc;
}

static int sync_file(struct ab_phase_ctx *ctx, struct io_file *io)
{
	if (io->f && fflush(io->f) != 0)
		return ab_worker_fail(ctx, errno, "cannot flush '%s'", io->path);
	if (fsync(io->f ? fileno(io->f) : io->fd) != 0)
		return ab_worker_fail(ctx, errno, "cannot fsync '%s'", io->path);
	return 0;
}

/* After each record: at the deadline, the count goes to the sample and
 * the worker learns where to stop (there, or with wear-out the largest
 * count); past that, it stops.  `now` is the tick's clock reading. */
static inline void watch_deadline(struct ab_phase_ctx *ctx, struct test_state *ts, uint64_t now, uint64_t done)
{
	if (!ts->deadline_passed && now >= ts->deadline_ns) {
		ts->deadline_passed = TRUE;
		ts->stop_at = ab_worker_deadline(ctx, done, FALSE);
	}
	if (done >= ts->stop_at)
		ts->stopped = TRUE;
}

/* The records of one file (`n` of them: all, or what the cell's write
 * left): pread/pwrite at the record's offset, or stdio's fread/fwrite in
 * order.  `done` counts the worker's bytes so far. */
static int do_records(struct ab_phase_ctx *ctx, struct test_state *ts, struct io_file *io, uint64_t n,
		      uint64_t *prev, uint64_t *done)
{
	const struct ab_step *step = ctx->step;
	const uint64_t *order = n == ts->n ? ts->order : ts->part_order;
	for (uint64_t i = 0; i < n && !ts->stopped; i++) {
		if (io->f) {
			if (ts->reads ? fread(ts->buf, ts->record, 1, io->f) != 1
				      : fwrite(ab_databuf_block(&ts->db, *done / ts->record), ts->record,
					       1, io->f) != 1) {
				gboolean short_read = ts->reads && !ferror(io->f);
				return ab_worker_fail(ctx, short_read ? 0 : errno, "cannot %s '%s'%s",
						      ts->reads ? "read" : "write", io->path,
						      short_read ? ": it is shorter than the file size" : "");
			}
		} else {
			uint64_t off = io->base + record_of(ts->test, i, n, order, step->stride) * ts->record;
			if (ts->reads) {
				ssize_t got = ab_pread_full(io->fd, ts->buf, ts->record, off);
				if (got != (ssize_t)ts->record)
					return ab_worker_fail(ctx, got < 0 ? errno : 0, "cannot read '%s'%s", io->path,
							      got >= 0 ? ": it is shorter than the file size" : "");
			} else if (ab_pwrite_all(io->fd, ab_databuf_block(&ts->db, *done / ts->record),
						 ts->record, off) != 0) {
				return ab_worker_fail(ctx, errno, "cannot write '%s'", io->path);
			}
		}
		if (ts->delay_us)
			usleep(ts->delay_us);
		*done += ts->record;
		ab_worker_tick(ctx, prev);
		ab_worker_progress(ctx, *done);
		watch_stonewall(ctx, *done);
		if (ts->deadline_ns)
			watch_deadline(ctx, ts, *prev, *done);
	}
	return 0;
}

/*
 * The timed region: every file of the worker in turn, each ended as the
 * timing rule says (fsync, close).  The first file is opened before the
 * clock starts, as iozone opens its one file; the later ones inside it, as
 * dd's opens are (the RAID lab workload's ten files).  What the rule leaves untimed (the
 * close, iozone's default fsync) happens after the clock stops: for the last
 * file, and for the others only when an untimed fsync must follow (iozone's
 * default); else a file done with is closed at once, so that thousands of
 * files a stream never hold thousands of descriptors.
 */
static int run_files(struct ab_phase_ctx *ctx, struct test_state *ts)
{
	gboolean sync_after = !ts->time_fsync && ab_sweep_issues_fsync(ts->test, ts->timing);
	if (sync_after && ts->files > 1) {
		/* Every file stays open until after the clock: room for them. */
		struct rlimit rl;
		if (getrlimit(RLIMIT_NOFILE, &rl) == 0 && rl.rlim_cur < ts->files + 32) {
			rl.rlim_cur = MIN(rl.rlim_max, (rlim_t)ts->files + 32);
			setrlimit(RLIMIT_NOFILE, &rl);
		}
		if (getrlimit(RLIMIT_NOFILE, &rl) != 0 || rl.rlim_cur < ts->files + 32)
			return ab_worker_fail(ctx, EMFILE, "%" G_GUINT64_FORMAT " files a stream stay open until "
					      "the untimed fsync (--untimed-flush), more than the open-file limit",
					      ts->files);
	}
	struct io_file *io = g_new0(struct io_file, ts->files);
	for (uint64_t j = 0; j < ts->files; j++)
		io[j].fd = -1;
	int rc = open_file(ctx, ts, 0, TRUE, &io[0]);
	if (rc != 0) {
		close_file(ctx, &io[0], rc);
		g_free(io);
		return rc;
	}
	uint64_t total = 0;
	for (uint64_t j = 0; j < ts->files; j++)
		total += ab_sweep_file_records(ts->written, ts->record, ts->n, j) * ts->record;
	ab_worker_progress_total(ctx, total);
	ab_worker_start(ctx);
	uint64_t prev = ctx->sample->start_ns, done = 0;
	if (ctx->step->stonewall_ns)
		ts->deadline_ns = ctx->sample->start_ns + ctx->step->stonewall_ns;
	for (uint64_t j = 0; rc == 0 && j < ts->files && !ts->stopped; j++) {
		/* A file the cell's write never reached is left alone (the
		 * first is open already). */
		uint64_t n = ab_sweep_file_records(ts->written, ts->record, ts->n, j);
		if (j > 0 && !n)
			break;
		if (j > 0 && (rc = open_file(ctx, ts, j, FALSE, &io[j])) != 0)
			break;
		if ((rc = do_records(ctx, ts, &io[j], n, &prev, &done)) != 0)
			break;
		if (ts->time_fsync && (rc = sync_file(ctx, &io[j])) != 0)
			break;
		if (ts->time_close || (j + 1 < ts->files && !sync_after))
			rc = close_file(ctx, &io[j], rc);
	}
	/* The work ended before the deadline: its count is all of it, said
	 * without waiting (the others may wear out to it). */
	if (rc == 0 && ts->deadline_ns && !ts->deadline_passed) {
		ts->deadline_passed = TRUE;
		ab_worker_deadline(ctx, done, TRUE);
	}
	ab_worker_stop(ctx);
	if (rc == 0)
		ab_worker_stonewall_end(ctx, done);
	for (uint64_t j = 0; j < ts->files; j++) {
		gboolean open = io[j].f || io[j].fd >= 0;
		if (open && rc == 0 && sync_after)
			rc = sync_file(ctx, &io[j]);
		rc = close_file(ctx, &io[j], rc);
	}
	g_free(io);
	ctx->sample->bytes = done;
	ctx->sample->ops = ts->record ? done / ts->record : 0;
	return rc;
}

static int run(struct ab_phase_ctx *ctx)
{
	struct test_state ts;
	int rc = prepare(ctx, &ts);
	if (rc == 0)
		rc = run_files(ctx, &ts);
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
