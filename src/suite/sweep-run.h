/* SPDX-License-Identifier: GPL-2.0-or-later */
#ifndef AB_SWEEP_RUN_H
#define AB_SWEEP_RUN_H

#include <glib.h>

#include "../runner/runner.h"
#include "phase-driver.h"

/*
 * Runs a sweep step (workloads/sweep.h) over its grid: for each cell, in
 * row order, each test asked for in iozone's order.  A test that reads a
 * file no earlier test of the cell wrote gets one laid out untimed first.
 * Before each cold read test the file is written back and evicted (not
 * under --cache none); reread and freread are warm by definition.  Every
 * cell becomes a result of the sweep phase keyed by file size, record,
 * streams and test, with the share of the file cached as it started, the
 * calls its timed region held and whether O_DIRECT applied.  The test file
 * is emptied at the end.
 */
gboolean ab_sweep_run(struct ab_suite *s, struct ab_runner *r, const struct ab_step *step, uint64_t seed,
		      struct ab_run *run, GError **error);

#endif
