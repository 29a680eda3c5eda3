/* SPDX-License-Identifier: GPL-2.0-or-later */
#ifndef AB_SWEEP_H
#define AB_SWEEP_H

/*
 * The tests of the record-size sweep (iozone's -i 0..7), in the order they
 * run within a cell, and what each one is: which call it times, whether it
 * reads, whether it needs the file an earlier test wrote, whether it goes
 * through stdio (so O_DIRECT cannot apply), and whether it is warm by
 * definition (reread and freread read what the test before them just read).
 */

#include <glib.h>
#include <stdint.h>

enum ab_sweep_test {
	AB_SWEEP_WRITE,
	AB_SWEEP_REWRITE,
	AB_SWEEP_READ,
	AB_SWEEP_REREAD,
	AB_SWEEP_RANDOM_READ,
	AB_SWEEP_RANDOM_WRITE,
	AB_SWEEP_BACKWARD_READ,
	AB_SWEEP_RECORD_REWRITE,
	AB_SWEEP_STRIDE_READ,
	AB_SWEEP_FWRITE,
	AB_SWEEP_FREWRITE,
	AB_SWEEP_FREAD,
	AB_SWEEP_FREREAD,
	AB_SWEEP_TEST_COUNT
};

#define AB_SWEEP_ALL_TESTS ((1u << AB_SWEEP_TEST_COUNT) - 1)

enum ab_sweep_test_flags {
	AB_SWEEP_READS = 1u << 0,      /* reads the file (else writes it) */
	AB_SWEEP_CREATES = 1u << 1,    /* writes the file anew: needs nothing before it */
	AB_SWEEP_STDIO = 1u << 2,      /* fopen/fwrite/fread: buffered, never O_DIRECT */
	AB_SWEEP_WARM = 1u << 3,       /* reads what the test before it just read */
};

struct ab_sweep_test_info {
	const char *name;    /* --sweep-tests word and JSON key.test */
	const char *column;  /* iozone's table heading, two words at most */
	const char *op;      /* the call it times: "write", "read", "fwrite", "fread" */
	unsigned flags;
	/* The test a warm one re-reads after: it must run in the same cell. */
	int after;
};

const struct ab_sweep_test_info *ab_sweep_test_info(enum ab_sweep_test t);
/* By --sweep-tests name; FALSE when there is none. */
gboolean ab_sweep_test_by_name(const char *name, enum ab_sweep_test *out);

/*
 * What a test's timed region holds besides the I/O calls.
 *  FLUSH (default): tests that write time the fsync (fflush+fsync for
 *    stdio) that puts their data on stable storage; reads time only reads.
 *  FSYNC (--include-fsync, iozone -e): every test times an fsync.
 *  CLOSE (--include-close, iozone -c): close (fclose) is timed and no fsync
 *    is issued at all, as iozone does.
 *  FSYNC_CLOSE (both): fsync then close, timed.
 *  NONE (--untimed-flush, iozone's default): only the I/O calls; an untimed
 *    fsync and close follow, so small writes measure the page cache.
 */
enum ab_sweep_timing {
	AB_SWEEP_TIME_FLUSH,
	AB_SWEEP_TIME_FSYNC,
	AB_SWEEP_TIME_CLOSE,
	AB_SWEEP_TIME_FSYNC_CLOSE,
	AB_SWEEP_TIME_NONE,
};

const char *ab_sweep_timing_name(enum ab_sweep_timing timing);

/* Does test t, under this timing, time an fsync?  A close? */
gboolean ab_sweep_times_fsync(enum ab_sweep_test t, enum ab_sweep_timing timing);
gboolean ab_sweep_times_close(enum ab_sweep_timing timing);
/* Does it issue an fsync at all (timed or after the clock stops)?  Not
 * under CLOSE (iozone -c), nor for reads unless timed. */
gboolean ab_sweep_issues_fsync(enum ab_sweep_test t, enum ab_sweep_timing timing);

/* What the timed region held, as a NULL-terminated list of call names
 * ("write", "fsync", "close"; "fwrite", "fflush", "fsync", "fclose"), for
 * g_strfreev. */
char **ab_sweep_timed_calls(enum ab_sweep_test t, enum ab_sweep_timing timing);

/* A stream's j-th file (0-based) of `per_file` records of `record` bytes,
 * after a creating test wrote `written` bytes in all (files in turn: whole
 * files, then a part): the records of it a later test may use, whole ones
 * only.  AB_SWEEP_WHOLE for `written`: the file is whole. */
#define AB_SWEEP_WHOLE UINT64_MAX
uint64_t ab_sweep_file_records(uint64_t written, uint64_t record, uint64_t per_file, uint64_t j);

#endif
