/* SPDX-License-Identifier: GPL-2.0-or-later */
#ifndef AB_STEP_H
#define AB_STEP_H

/* One step of a run: a phase and the parameters it runs with.  A run is an
 * ordered list of steps (src/options/steps.c builds it from the options); phases
 * read their parameters here, never from the config. */

#include <glib.h>
#include <stdint.h>

#include "../src/base/units.h"

enum ab_per_char_mode {
	AB_PER_CHAR_SYSCALL, /* bonnie++ 2.00: 1-byte write()/read() over the per-char size */
	AB_PER_CHAR_STDIO,   /* bonnie++ 1.03: putc()/getc() */
};

enum ab_data_mode {
	AB_DATA_RANDOM,
	AB_DATA_ZEROS,
};

/* Special values of file_max, as in bonnie++'s -n. */
#define AB_FILES_HARDLINK (-1)
#define AB_FILES_SYMLINK (-2)

struct ab_phase;
struct ab_sweep_grid;

struct ab_step {
	const struct ab_phase *phase;
	/* The big test file of the I/O phases. */
	uint64_t file_size;        /* bytes */
	uint32_t io_chunk;         /* bytes per read or write */
	uint64_t per_char_bytes;   /* bytes the per-char phases move */
	enum ab_per_char_mode per_char;
	uint64_t seeks;            /* seeks of this pass */
	gboolean grow_seeks;       /* no count given: passes grow until one lasts long enough */
	uint32_t seekers;
	/* The small files of the file phases. */
	uint32_t num_files_k;      /* units of 1024 files */
	int64_t file_max;          /* bytes, or AB_FILES_HARDLINK / AB_FILES_SYMLINK */
	uint64_t file_min;
	uint32_t num_dirs;
	uint32_t file_chunk;
	/* How the data is written. */
	enum ab_data_mode data;
	gboolean direct;           /* O_DIRECT where the phase honours it */
	gboolean sync_each_write;  /* -b */
	gboolean evict_after_layout; /* an untimed layout leaves no pages cached */
	/* The record-size sweep (workloads/sweep.h).  The sweep step names
	 * its grid and tests; the suite runs one step per cell and test, with
	 * file_size and io_chunk set to the cell and sweep_test to the test. */
	const struct ab_sweep_grid *sweep_grid; /* src/options/sweep-grid.h */
	uint32_t sweep_tests;      /* bit per enum ab_sweep_test */
	unsigned sweep_test;       /* enum ab_sweep_test of this cell's step */
	unsigned sweep_timing;     /* enum ab_sweep_timing */
	uint64_t stride;           /* records between stride-read's reads (17) */
	uint64_t streams;          /* concurrent workers of this cell's step */
	const GArray *stream_counts; /* uint64_t: --streams, each a pass over the grid */
	gboolean shared_file;      /* streams share one file, each its own region */
	uint64_t files_per_stream; /* files each stream goes through in turn (1) */
	/* IOR's stonewalling (--stonewall-time, --wearout): each worker stops
	 * its timed I/O this long after its own start (0: never), then with
	 * wear-out goes on to the largest count any worker of any rank had. */
	uint64_t stonewall_ns;
	gboolean wearout;
	/* The bytes each of this rank's streams wrote in the cell's last
	 * creating test when a deadline cut it (whole records; with several
	 * files a stream, whole files then a part): the later tests of the
	 * cell work on that only.  NULL: every file whole.  Set by the suite
	 * per test, `streams` entries. */
	const uint64_t *stream_written;
	/* Test-only (ARRAYBENCH_TEST_STREAM_DELAY_US, src/suite/sweep-run.c):
	 * microseconds each of this rank's streams sleeps after every record
	 * it writes, a disk slow to write made to order; NULL: none. */
	const uint32_t *test_stream_delay_us;
	/* The wal phase (workloads/wal.h).  The step names its methods and
	 * commit shapes; src/suite/wal-run.c runs one step per pair, with wal_sync
	 * and the commit's writes and write size set to that pair. */
	const GArray *wal_syncs;   /* unsigned enum ab_wal_sync, in the order run */
	const GArray *wal_commits; /* struct ab_wal_commit, --wal-records */
	unsigned wal_sync;         /* this result's method */
	uint32_t wal_writes;       /* writes per commit */
	uint32_t wal_write_size;   /* bytes per write */
	uint32_t wal_writers;      /* concurrent committers, a log file each */
	double wal_seconds;        /* timed length of each method, when wal_count is 0 */
	uint64_t wal_count;        /* commits per committer, or 0: by time */
	gboolean wal_rewrite;      /* each commit overwrites the log's start (pg_test_fsync) */
	uint64_t wal_log_size;     /* bytes of each log file */
	/* The oltp phase (workloads/oltp.h): oltp_procs processes of this
	 * step (src/suite/oltp-run.c runs one step per count of the list), each
	 * doing oltp_block-byte preads and pwrites, oltp_read_pct of them
	 * reads, at uniform block-aligned offsets of an oltp_size file, with
	 * an fdatasync every oltp_sync_every writes (0: none), for
	 * oltp_seconds. */
	uint32_t oltp_procs;
	const GArray *oltp_proc_counts; /* uint32_t: --oltp-procs */
	uint32_t oltp_block;
	uint32_t oltp_read_pct;
	uint64_t oltp_size;
	uint64_t oltp_sync_every;
	uint32_t oltp_seconds;
	/* The latency curve (workloads/curve-math.h): --curve-procs processes
	 * read (and write, by --curve-mix) random blocks of the test file at
	 * scheduled times.  src/suite/curve-run.c runs one step per offered rate,
	 * with curve_rate and curve_ios set to it. */
	uint32_t curve_procs;
	uint32_t curve_block;      /* bytes per I/O */
	uint32_t curve_read_pct;   /* share of reads, 0..100 */
	double rate_start;         /* IOPS of the first step */
	double rate_factor;        /* each step's rate over the one before */
	double curve_seconds;      /* the length of each step */
	uint64_t p99_target_ns;
	uint32_t curve_steps;      /* the most steps */
	double curve_rate;         /* this step's offered IOPS, all processes */
	uint64_t curve_ios;        /* this step's I/Os, all processes */
};

/* The file of stream k (0-based) of a sweep cell run by more than one
 * worker, in the run's directory; stream 0 uses the run's test file. */
#define AB_STREAM_FILE_FMT "stream.%u"

/* The largest count of a --streams list (stream_counts), 1 for none. */
static inline uint64_t ab_most_streams(const GArray *stream_counts)
{
	uint64_t most = 1;
	for (guint i = 0; stream_counts && i < stream_counts->len; i++)
		most = MAX(most, g_array_index(stream_counts, uint64_t, i));
	return most;
}
#define AB_MAX_STREAMS 256u
/* Files of one cell (streams x files per stream): stream.1 .. stream.4095. */
#define AB_MAX_SWEEP_FILES 4096u

#endif
