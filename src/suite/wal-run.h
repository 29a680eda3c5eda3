/* SPDX-License-Identifier: GPL-2.0-or-later */
#ifndef AB_WAL_RUN_H
#define AB_WAL_RUN_H

#include <glib.h>

#include "../runner/runner.h"
#include "phase-driver.h"

/*
 * Runs a wal step (workloads/wal.h): for each commit size in the order
 * given, each sync method in the order given (`all`: pg_test_fsync's), one
 * timed run of the step's committers, released at one barrier, each on its
 * own log file (stream.1 ... in the run's directory).  Each becomes a
 * result of the wal phase keyed by log size, bytes per commit, committers
 * and test (the method, "fdatasync 2x8k" for a group commit), with the
 * method as its sync mode and the calls of a commit as its timed list.  The
 * logs are emptied at the end.
 */
gboolean ab_wal_run(struct ab_suite *s, struct ab_runner *r, const struct ab_step *step, uint64_t seed,
		    struct ab_run *run, GError **error);
/* The committers' logs emptied (their names stay until the run directory
 * goes); also at the end of oltp+wal. */
void ab_wal_empty_logs(const struct ab_suite *s, unsigned writers);
/* A commit row's cache state: cold when the layout dropped the log's
 * pages (any --cache but none), warm otherwise; O_DIRECT said so. */
void ab_wal_set_cache(struct ab_result *res, const struct ab_step *st);

#endif
