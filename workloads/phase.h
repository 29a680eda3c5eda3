/* SPDX-License-Identifier: GPL-2.0-or-later */
#ifndef AB_PHASE_H
#define AB_PHASE_H

#include <glib.h>
#include <stdint.h>

#include "../src/base/histogram.h"
#include "step.h"


/* The registry, in bonnie++'s run order: X(id, stem), the phase's
 * definition being ab_phase_<stem> (not always its file's name:
 * per_char_write is in per_char.c, seq_create in files_create.c). */
#define AB_PHASE_LIST(X)                     \
	X(PER_CHAR_WRITE, per_char_write)    \
	X(BLOCK_WRITE, block_write)          \
	X(REWRITE, rewrite)                  \
	X(PER_CHAR_READ, per_char_read)      \
	X(BLOCK_READ, block_read)            \
	X(SEEKS, seeks)                      \
	X(SEQ_CREATE, seq_create)            \
	X(SEQ_STAT, seq_stat)                \
	X(SEQ_DELETE, seq_delete)            \
	X(RAND_CREATE, rand_create)          \
	X(RAND_STAT, rand_stat)              \
	X(RAND_DELETE, rand_delete)

/* Phases beyond bonnie++'s: they run only when named (--phases, or their
 * own command), never in the default list, `all` or the bonnie++ CSV line. */
#define AB_EXTRA_PHASE_LIST(X) \
	X(SWEEP, sweep)              \
	X(RAW_READ, raw_read)        \
	X(RAW_WRITE, raw_write)      \
	X(WAL, wal)                  \
	X(OLTP, oltp)                \
	X(OLTP_WAL, oltp_wal)                \
	X(LATENCY_CURVE, latency_curve)

enum ab_phase_id {
#define AB_X(id, stem) AB_PHASE_##id,
	AB_PHASE_LIST(AB_X)
#undef AB_X
	/* bonnie++'s phases are ids 0 .. AB_PHASE_COUNT - 1. */
	AB_PHASE_COUNT,
	AB_PHASE_LAYOUT = AB_PHASE_COUNT, /* the untimed layout (ab_phase_layout) */
#define AB_X(id, stem) AB_PHASE_##id,
	AB_EXTRA_PHASE_LIST(AB_X)
#undef AB_X
	/* Every id, the layout's included: the size of per-id tables. */
	AB_PHASE_ID_COUNT
};

enum ab_phase_flags {
	AB_PHASE_WRITES = 1u << 0,
	AB_PHASE_MULTI = 1u << 1,       /* several worker processes */
	AB_PHASE_NEEDS_FILE = 1u << 2,  /* reads the I/O file an earlier phase wrote */
	AB_PHASE_IO = 1u << 3,          /* runs only with -s > 0 */
	AB_PHASE_PER_CHAR = 1u << 4,    /* runs only with a per-char size (no -f) */
	AB_PHASE_FILES = 1u << 5,       /* runs only with -n > 0 */
	AB_PHASE_NEEDS_FILES = 1u << 6, /* needs the small files a create phase made */
	/* Reads data that bonnie++, with its file twice the RAM, reads from
	 * disk: the cache is made cold before it (per-char read, rewrite,
	 * block read, seeks). */
	AB_PHASE_READS = 1u << 7,
	AB_PHASE_DIRECT_OK = 1u << 8,   /* honours --direct */
	AB_PHASE_RANDOM_ORDER = 1u << 9,/* file phases on the random-name set */
	/* Reads the metadata the create phase just left in the cache: warm,
	 * as bonnie++ measures it, unless --cold-metadata (stat, delete). */
	AB_PHASE_METADATA = 1u << 10,
	/* Measures a block device, not the test file: only `arraybench raw`
	 * (and run --raw-baseline) runs it, never a --phases step. */
	AB_PHASE_DEVICE = 1u << 11,
	/* Sends its I/Os at scheduled times, not as fast as they complete:
	 * its samples count the late ones (late_ops, max_late_ns). */
	AB_PHASE_OPEN_LOOP = 1u << 12,
	/* Goes through the I/O file once, in order, touching each block at
	 * most once (a rewrite reads a block and writes that block back): once
	 * the file is evicted before it, the page cache has nothing to serve
	 * it whatever the RAM, so it needs no memory group.  Under --cache
	 * cgroup it runs outside the group, its writers writing behind
	 * (src/runner/cache.h says why). */
	AB_PHASE_ONE_PASS = 1u << 13,
};

enum ab_rate_unit {
	AB_UNIT_KIB_PER_SEC,
	AB_UNIT_SEEKS_PER_SEC,
	AB_UNIT_FILES_PER_SEC,
	AB_UNIT_COMMITS_PER_SEC, /* the database phases: ops are commits */
	AB_UNIT_IOPS,            /* ops are single reads and writes */
};

enum ab_op_kind_id { AB_OP_READ, AB_OP_WRITE };

/* Shared-memory slot a worker fills: plain data, no pointers. */
struct ab_sample {
	uint64_t start_ns;
	uint64_t end_ns;
	uint64_t bytes;
	uint64_t ops;
	/* The worker's own CPU time (getrusage(RUSAGE_SELF)) between its start
	 * and stop stamps: set-up before the barrier is not counted.  Between
	 * the two stamps they hold the start readings. */
	uint64_t user_ns;
	uint64_t sys_ns;
	/* Phases run as concurrent streams (the sweep): the bytes this worker
	 * had done when it saw the stonewall fall, or all of them if it ended
	 * first; `stonewalled` says the figure is there. */
	uint64_t bytes_at_stonewall;
	int32_t stonewalled;
	int32_t pid;       /* the worker's process id */
	/* A step with a deadline (the sweep's --stonewall-time): the bytes
	 * this worker had done at its deadline, or all of them if it ended
	 * before it; `deadline_state` says which (AB_DEADLINE_*), 0 none. */
	uint64_t bytes_at_deadline;
	int32_t deadline_state;
	int32_t pad_deadline;
	/* When that count was taken, from the worker's start: at or after
	 * the deadline (the record under way at it ends first), or the end of
	 * its work when that came first. */
	uint64_t deadline_counted_ns;
	/* A phase that times two kinds of operation apart (oltp: reads and
	 * writes) also counts each kind here, AB_OP_READ and AB_OP_WRITE;
	 * ops, bytes and latency above hold both. */
	struct ab_op_kind {
		uint64_t ops;
		uint64_t bytes;
		struct ab_histogram latency;
	} kind[2];
	int error_code;    /* errno of the failure, 0 when fine; AB_SAMPLE_UNSAFE:
			    * a refusal (ab_worker_refuse()) */
	char error[256];
	/* Open-loop phases (the latency curve): I/Os sent later than their
	 * due time, and the most any was late (workloads/curve-math.h). */
	uint64_t late_ops;
	uint64_t max_late_ns;
	/* Not the worker's: set when the step ran on many ranks
	 * (arraybench-mpi), by the gather that brought every rank's samples
	 * together.  Its rank plus one (0: one host); start_ns and end_ns are
	 * then in rank 0's timebase, as are its rank's exit from the phase's
	 * barrier and the bound on its rank's clock offset; how long its rank
	 * waited at the barrier; its rank's host name. */
	uint32_t rank_plus_one;
	uint64_t barrier_exit_ns;
	uint64_t barrier_wait_ns;
	uint64_t clock_bound_ns;
	char rank_host[64];
	struct ab_histogram latency;
};

/* The file phases' tree, in the run's directory (src/runner/rundir.h).  Workers
 * reach it and the I/O file through directory descriptors, not by path, so
 * nothing swapped into DIR can redirect them. */
#define AB_FILES_NAME "files"

/* What a worker's deadline did (struct ab_sample's deadline_state). */
#define AB_DEADLINE_CUT 1      /* reached: its I/O stopped there (or wore out) */
#define AB_DEADLINE_FINISHED 2 /* it ended its work before the deadline */

/* A worker's refusal of what it found (the run's exit status 4). */
#define AB_SAMPLE_UNSAFE (-1)

/* Names of the small files, made by the parent before the phase is timed. */
struct ab_file_set {
	uint32_t count;
	uint32_t dirs;
	/* The index in the first name: 0, or, in a files/ tree the ranks
	 * share (arraybench-mpi --mpi-layout shared), the first of the rank's
	 * own range, so that no two ranks' names clash. */
	uint64_t base;
	gboolean random_names; /* the index last in the name, not first */
	/* files/ and its subdirectories are the ranks': a create takes them as
	 * another rank made them, stat and delete touch only this set's
	 * names, and nobody but the run's end removes a directory. */
	gboolean shared;
	char *blob;        /* NUL-separated relative paths */
	uint32_t *offset;  /* count entries into blob */
	uint32_t *order;   /* shuffled indexes for the random-order phases */
	/* blob offsets in that shuffled order: the timed loop then reads one
	 * array in sequence and the names, with no extra random lookup */
	uint32_t *order_offset;
	uint64_t *size;    /* bytes to write into each file */
};

struct ab_phase;
struct ab_worker_coord;
struct ab_write_behind;

struct ab_phase_ctx {
	const struct ab_phase *phase;
	const struct ab_step *step; /* the phase and its parameters */
	int dir_fd;             /* DIR, holding the I/O file: */
	const char *io_name;    /* its name there */
	int run_fd;             /* the run's directory, holding files/ */
	const char *io_path;    /* the one big file of the I/O phases (for messages) */
	const char *files_dir;  /* directory of the file phases (for messages) */
	const char *run_path;   /* the run's directory (for messages) */
	/* One I/O file shared by many ranks, each its own segment of it
	 * (arraybench-mpi's shared-file layout): the file is never truncated
	 * and this worker's offsets start at io_base. */
	gboolean io_shared;
	uint64_t io_base;
	struct ab_file_set *files;
	uint64_t seed;
	unsigned worker;
	unsigned workers;
	struct ab_sample *sample; /* this worker's record, which it fills */
	/* This worker's end of the runner's coordinator: the start barrier,
	 * the ticket queue, the stonewall and the progress counters the
	 * step's workers share.  Opaque here: a phase reaches them only
	 * through the ab_worker_*() functions below (workloads/worker-coord.h
	 * says why). */
	struct ab_worker_coord *coord;
	/* Bounds this worker's dirty pages in a v1 memory cgroup, or a
	 * one-pass writer's outside the group under --cache cgroup
	 * (workloads/write-behind.h, src/runner/cache.h; NULL elsewhere):
	 * every buffered write of an AB_PHASE_IO phase goes through
	 * ab_worker_wrote(). */
	struct ab_write_behind *write_behind;
};

struct ab_phase {
	enum ab_phase_id id;
	const char *name;      /* kebab-case, also the --phases name */
	const char *csv_name;  /* bonnie++ column name */
	const char *summary;
	unsigned flags;
	enum ab_rate_unit unit;
	/* Its columns in a bonnie++ 1.98 CSV line (0-based): the rate (the CPU
	 * follows it) and the maximum latency. */
	int csv_rate_col;
	int csv_latency_col;
	/* What syncing its timed region holds, without and with -b. */
	const char *sync_plain;
	const char *sync_each;
	/* Worker processes for this phase; NULL means one. */
	unsigned (*worker_count)(const struct ab_step *step);
	/* The buffers one worker holds, for the memory group's room
	 * (ab_phase_group_bytes()); NULL means one I/O chunk.  A phase whose
	 * worker count varies over a pass (oltp's --oltp-procs list) gives
	 * all its workers' at the largest count here and sets workers_at_most. */
	uint64_t (*worker_bytes)(const struct ab_step *step);
	unsigned (*workers_at_most)(const struct ab_step *step);
	/* In the worker: set up untimed, pass ab_worker_start(), do the timed
	 * work, end with ab_worker_stop().  Returns 0, or -1 after
	 * ab_worker_fail(). */
	int (*run)(struct ab_phase_ctx *ctx);
};

/* What a worker holds besides its buffers, measured: about 16 KiB of stack,
 * heap and page tables (64 seekers of 8 KiB chunks: 1.8 MiB in the group
 * with block-write's 1 MiB pool), rounded up. */
#define AB_WORKER_SLACK_BYTES (64u * 1024u)
/* The most the step's workers hold at once in the memory group: each its
 * buffers and AB_WORKER_SLACK_BYTES.  The smallest -r is twice it, the
 * other half left for the page cache the phase reads and writes through
 * (src/options/config-finish.c). */
uint64_t ab_phase_group_bytes(const struct ab_phase *phase, const struct ab_step *step);
/* Whether --cache cgroup puts this phase's workers in the memory group: an
 * I/O phase that may touch a block twice (not AB_PHASE_ONE_PASS). */
gboolean ab_phase_in_memory_group(const struct ab_phase *phase);
/* Any phase but the layout by id (bonnie++'s and the extra ones), or NULL. */
const struct ab_phase *ab_phase_by_id(unsigned id);
/* By its --phases name, bonnie++'s or an extra one; NULL when unknown. */
const struct ab_phase *ab_phase_by_name(const char *name);
/* The names --phases takes (no layout, no device phase), NULL-ended: the
 * phases a tune's --objective may name. */
const char *const *ab_phase_names(void);
/* "KiB/s", "seeks/s", "files/s", "commits/s", "IOPS". */
const char *ab_rate_unit_name(enum ab_rate_unit unit);
/* Rate from bytes/ops and elapsed time, as bonnie++ computes it. */
double ab_phase_rate(const struct ab_phase *phase, uint64_t bytes, uint64_t ops, double elapsed_s);
/* Writes the I/O file untimed: for read phases asked for without a write,
 * and for oltp's data file (src/suite/oltp-run.c). */
extern const struct ab_phase ab_phase_layout;

/* Worker helpers (workloads/worker.c). */
/* Passes the start barrier with the step's other workers, then takes the
 * start stamps. */
int ab_worker_start(struct ab_phase_ctx *ctx);
void ab_worker_stop(struct ab_phase_ctx *ctx);
int ab_worker_fail(struct ab_phase_ctx *ctx, int errnum, const char *fmt, ...) G_GNUC_PRINTF(3, 4);
/* The same for what the worker refuses to touch (AB_SAMPLE_UNSAFE). */
int ab_worker_refuse(struct ab_phase_ctx *ctx, const char *fmt, ...) G_GNUC_PRINTF(2, 3);

/* What the step's workers share, through the coordinator
 * (workloads/worker-coord.c): direct calls with no system call, lock or
 * fence, cheap enough for every operation of a timed loop. */
/* Takes the next of `total` shared tickets: TRUE and its number in *ticket,
 * FALSE once all are taken.  A worker that runs faster takes more, as
 * bonnie++'s seekers do. */
gboolean ab_worker_take_ticket(struct ab_phase_ctx *ctx, uint64_t total, uint64_t *ticket);
/* Has another worker ended yet?  One relaxed load. */
gboolean ab_worker_stonewall_fell(const struct ab_phase_ctx *ctx);
/* At the end of a worker's timed region (after ab_worker_stop): the first
 * to get here makes the stonewall fall at its end stamp; a worker that
 * never saw it fall counts all its bytes as done by then. */
void ab_worker_stonewall_end(struct ab_phase_ctx *ctx, uint64_t bytes_done);
/* A step with a deadline (the sweep's --stonewall-time): the worker calls
 * this once, at its deadline (`finished` FALSE) or at the end of its work
 * if that came first (TRUE), with the bytes it had done; they go to its
 * sample.  Returns the bytes to stop at: without wear-out, `done`; with
 * it (--wearout), a worker at the deadline blocks until the parent has
 * every worker's count here and on every rank, and gets the largest (the
 * parent mediates: no worker makes a cluster call).  A worker that ended
 * first says so without waiting. */
uint64_t ab_worker_deadline(struct ab_phase_ctx *ctx, uint64_t done, gboolean finished);
/* One schedule for all the workers: the first to call sets its origin to
 * `proposed_ns`; returns the origin in force (the latency curve's). */
uint64_t ab_worker_schedule_origin(struct ab_phase_ctx *ctx, uint64_t proposed_ns);
/* Progress for the parent's status line, in the phase's unit of work
 * (bytes for a KiB/s phase, else operations), one relaxed store each: the
 * total before ab_worker_start(); the done count after each operation. */
void ab_worker_progress_total(struct ab_phase_ctx *ctx, uint64_t total);
void ab_worker_progress(struct ab_phase_ctx *ctx, uint64_t done);
/* Opens `name` in dir_fd as ab_open_io() opens the test file (a regular
 * file of ours with one link, never created here); `path` for messages. */
int ab_open_io_at(struct ab_phase_ctx *ctx, int dir_fd, const char *name, const char *path, int flags,
		  gboolean direct);
/* Latency of the operation that just ended: now - *prev, then *prev = now.
 * One clock read per operation; start *prev at ctx->sample->start_ns, the
 * stamp ab_worker_start() took, rather than reading the clock again. */
void ab_worker_tick(struct ab_phase_ctx *ctx, uint64_t *prev);
/* The timed end of an I/O phase: fsync (when asked and nothing failed yet),
 * close, stop the clock.  Returns rc, or -1 if fsync or close failed. */
int ab_worker_finish_fd(struct ab_phase_ctx *ctx, int fd, int rc, gboolean do_fsync);
/* One whole chunk at off, or fail naming the file ("shorter than the file
 * size" on a short read). */
int ab_worker_pread_chunk(struct ab_phase_ctx *ctx, int fd, void *buf, size_t len, uint64_t off);
/* After each buffered write of `len` bytes to fd (write(), pwrite(), or a
 * stdio stream's fileno() every so many bytes): the write-behind
 * (workloads/write-behind.h).  Returns 0, or -1 after ab_worker_fail(). */
int ab_worker_wrote(struct ab_phase_ctx *ctx, int fd, size_t len);
/* The same for a file other than the run's I/O file, named `path` in the
 * message. */
int ab_worker_wrote_file(struct ab_phase_ctx *ctx, int fd, size_t len, const char *path);
/* The file written through ab_worker_wrote*() is written back and about
 * to be closed: the write-behind forgets it, so a file opened next under
 * the same descriptor number starts afresh. */
void ab_worker_wrote_end(struct ab_phase_ctx *ctx);
/* Full-length write/read, retrying short transfers and EINTR; -1 + errno. */
int ab_write_all(int fd, const void *buf, size_t len);
int ab_pwrite_all(int fd, const void *buf, size_t len, uint64_t off);
ssize_t ab_read_full(int fd, void *buf, size_t len);
ssize_t ab_pread_full(int fd, void *buf, size_t len, uint64_t off);
/* Opens the I/O file the run claimed (never creates one: write phases pass
 * O_TRUNC, so its name stays held), with O_DIRECT when asked, naming the
 * file system in the error.  A file shared by many ranks is never
 * truncated, and is opened at this worker's segment (ctx->io_base): the
 * sequential phases then stay in it; those that seek add ab_io_offset(). */
int ab_open_io(struct ab_phase_ctx *ctx, int flags, gboolean direct);
/* An offset in the I/O phases' file, from the start of this worker's
 * segment: the same offset on a file of its own. */
static inline uint64_t ab_io_offset(const struct ab_phase_ctx *ctx, uint64_t off)
{
	return ctx->io_base + off;
}
/* Opens the file phases' directory (not a symlink), or fails naming it. */
int ab_open_files_dir(struct ab_phase_ctx *ctx);

#endif
