/* SPDX-License-Identifier: GPL-2.0-or-later */
#ifndef AB_OLTP_RUN_H
#define AB_OLTP_RUN_H

#include <glib.h>

#include "../runner/runner.h"
#include "phase-driver.h"

/*
 * Runs an oltp step (workloads/oltp.h): the data file laid out untimed at
 * the step's size when the test file is not already that big, then per
 * count of --oltp-procs, the file written back and evicted (not under
 * --cache none), its cached share noted, and one timed run of that many
 * processes.  Each count gives three results of the oltp phase keyed by the
 * data file's size, the block, the processes and the test: "read" and
 * "write" (each kind's IOPS and latency) and "all" (their sum, every
 * operation's latency), all over the same window.
 */
gboolean ab_oltp_run(struct ab_suite *s, struct ab_runner *r, const struct ab_step *step, uint64_t seed,
		     struct ab_run *run, GError **error);

/* The pieces, for the oltp+wal step (src/suite/oltp-wal-run.c) too. */
/* The data file at the step's size: laid out untimed unless the test file
 * already is that big; *laid_out says whether it holds a layout's data. */
gboolean ab_oltp_lay_out(struct ab_suite *s, struct ab_runner *r, const struct ab_step *step, uint64_t seed,
			 gboolean *laid_out, GError **error);
/* Before a timed run: evicted (unless --cache none) and its cached share. */
struct ab_oltp_cold {
	gboolean evicted;
	double resident;
};
gboolean ab_oltp_make_cold(struct ab_suite *s, const struct ab_step *st, struct ab_oltp_cold *out, GError **error);
/* The oltp workers of a step are samples [from, from + count): an
 * ab_samples_fn merging their reads, writes and all into merged[]. */
struct ab_oltp_split {
	unsigned from, count;
	struct ab_result *merged[3]; /* read, write, all; NULL until made */
};
/* The workers [from, from + count) of each rank's n (ab_samples_fn). */
void ab_oltp_split_samples(const struct ab_sample *samples, unsigned n, unsigned ranks, void *data);
/* Those workers of every rank, side by side (ranks x count); g_free. */
struct ab_sample *ab_samples_pick(const struct ab_sample *samples, unsigned n, unsigned ranks, unsigned from,
				  unsigned count);
void ab_oltp_split_clear(struct ab_oltp_split *sp);
/* The rows "read", "write", "all" (each + suffix) into the run: the step's
 * result (system CPU, iowait, devices) with the oltp workers' own figures,
 * keyed by the data file's size, the block and the processes. */
void ab_oltp_add_rows(const struct ab_oltp_split *sp, const struct ab_result *step_res, const struct ab_step *st,
		      const struct ab_oltp_cold *cold, gboolean laid_out, const char *suffix, struct ab_run *run);

/* The sync_mode of an oltp result: "none", or what --oltp-sync-every
 * issues and what it times.  Newly allocated. */
char *ab_oltp_sync_mode(uint64_t sync_every);

#endif
