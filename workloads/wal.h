/* SPDX-License-Identifier: GPL-2.0-or-later */
#ifndef AB_WAL_H
#define AB_WAL_H

/*
 * The wal phase: a database's write-ahead log.  Each committer appends
 * commits (one or more writes, then the sync method's call) to a log file
 * of its own that was allocated and written once untimed, so the appends
 * overwrite allocated blocks as a database recycling its WAL segments does;
 * the log wraps to its start when full.  The committer loop is a function
 * of its own (ab_wal_committer) so that a combined phase can run it beside
 * other load.
 */

#include <glib.h>
#include <stdint.h>

#include "phase.h"
#include "step.h"

/* pg_test_fsync's order, which `--wal-sync all` runs in. */
enum ab_wal_sync {
	AB_WAL_OPEN_DATASYNC,
	AB_WAL_FDATASYNC,
	AB_WAL_FSYNC,
	AB_WAL_OPEN_SYNC,
	AB_WAL_SYNC_COUNT
};

struct ab_wal_sync_info {
	const char *name;      /* the --wal-sync word, PostgreSQL's wal_sync_method */
	int open_flags;        /* O_DSYNC, O_SYNC or 0 */
	const char *call;      /* "fdatasync", "fsync", or NULL: the open flag syncs each write */
	const char *sync_mode; /* what the result's sync_mode says */
};

/* One commit: `writes` writes of `write_size` bytes, then the sync. */
struct ab_wal_commit {
	uint32_t writes;
	uint32_t write_size;
};

/* Each log file: PostgreSQL's WAL segment size. */
#define AB_WAL_LOG_SIZE ((uint64_t)16 << 20)
/* The log is laid out in writes of this size: within a worker's slack in
 * the memory group (AB_WORKER_SLACK_BYTES), since under oltp+wal the
 * committers lay out their logs inside the group. */
#define AB_WAL_LAYOUT_CHUNK ((size_t)64 << 10)
#define AB_WAL_DEFAULT_SECONDS 5.0
#define AB_WAL_MIN_SECONDS 0.1
#define AB_WAL_MAX_SECONDS 3600.0
#define AB_WAL_MAX_COMMITS ((uint64_t)1 << 30)
#define AB_WAL_MAX_WRITERS 256u
#define AB_WAL_MAX_WRITES 64u          /* writes in one commit */
#define AB_WAL_MIN_WRITE 512u
#define AB_WAL_MAX_WRITE ((uint32_t)1 << 20)
/* A commit is at most a quarter of the log, so it wraps often enough. */
#define AB_WAL_MAX_COMMIT (AB_WAL_LOG_SIZE / 4)

const struct ab_wal_sync_info *ab_wal_sync_info(unsigned sync);
gboolean ab_wal_sync_by_name(const char *name, unsigned *out);
/* A result's test: the method, and for a commit of several writes their
 * shape ("fdatasync 2x8k"); a commit of one write is the method alone. */
char *ab_wal_test_name(unsigned sync, const struct ab_wal_commit *c, gboolean rewrite);
/* "8k", "2x8k", "16k", "1536" (bytes when not whole KiB). */
char *ab_wal_commit_label(const struct ab_wal_commit *c);
/* The calls a commit's timed region holds ("pwrite", "pwrite", "fdatasync"). */
char **ab_wal_timed_calls(unsigned sync, const struct ab_wal_commit *c);

/* One committer's log: opened, allocated and written once untimed by
 * ab_wal_log_open, then appended to by ab_wal_commit. */
struct ab_wal_log {
	int fd;
	unsigned sync;
	struct ab_wal_commit commit;
	uint64_t size;
	uint64_t off;          /* where the next commit goes */
	gboolean rewrite;      /* every commit at offset 0, not appended */
	unsigned char *buf;    /* one commit's bytes, aligned for O_DIRECT */
	char *path;
};

/* The log file of committer k (0-based): AB_STREAM_FILE_FMT k + 1 in the
 * run's directory (the parent makes them), so the I/O file of bonnie++'s
 * phases is left alone.  Untimed: allocated, written whole and fsynced,
 * its pages dropped from the cache unless --cache none
 * (step->evict_after_layout), then opened again for the method (O_DSYNC,
 * O_SYNC, O_DIRECT). */
int ab_wal_log_open(struct ab_phase_ctx *ctx, const struct ab_step *step, unsigned k, struct ab_wal_log *log);
void ab_wal_log_close(struct ab_wal_log *log);
/* One commit: its writes at the log's end (at its start with rewrite),
 * then the method's sync call. */
int ab_wal_commit(struct ab_phase_ctx *ctx, struct ab_wal_log *log);
/* The timed loop from sample->start_ns: commits until the step's commit
 * count or seconds, each commit's latency (write(s) + sync, one
 * CLOCK_MONOTONIC read per commit) into the sample's histogram, its ops
 * (commits) and bytes filled.  The caller stops the clock. */
int ab_wal_committer(struct ab_phase_ctx *ctx, const struct ab_step *step, struct ab_wal_log *log,
		     struct ab_sample *sample);

#endif
