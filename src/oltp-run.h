/* SPDX-License-Identifier: GPL-2.0-or-later */
#ifndef AB_OLTP_RUN_H
#define AB_OLTP_RUN_H

#include <glib.h>

#include "runner.h"
#include "suite.h"

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

/* The sync_mode of an oltp result: "none", or what --oltp-sync-every
 * issues and what it times.  Newly allocated. */
char *ab_oltp_sync_mode(uint64_t sync_every);

#endif
