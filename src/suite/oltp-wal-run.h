/* SPDX-License-Identifier: GPL-2.0-or-later */
#ifndef AB_OLTP_WAL_RUN_H
#define AB_OLTP_WAL_RUN_H

#include <glib.h>

#include "../runner/runner.h"
#include "phase-driver.h"

/*
 * Runs an oltp+wal step (workloads/oltp-wal.c): for each commit size and
 * sync method, the committers alone for --oltp-seconds (wal rows keyed as
 * the wal phase keys them, test "fdatasync"), then for each --oltp-procs
 * count the committers and the oltp processes together, released at one
 * barrier and timed over the same window, the data file cold before: the
 * commits as wal rows with test "fdatasync under oltp" ("... under oltp
 * x32" when several counts ran) and the load as oltp rows "read under
 * wal", "write under wal", "all under wal".
 */
gboolean ab_oltp_wal_run(struct ab_suite *s, struct ab_runner *r, const struct ab_step *step, uint64_t seed,
			 struct ab_run *run, GError **error);

#endif
