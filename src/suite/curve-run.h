/* SPDX-License-Identifier: GPL-2.0-or-later */
#ifndef AB_CURVE_RUN_H
#define AB_CURVE_RUN_H

#include <glib.h>

#include "../runner/runner.h"
#include "phase-driver.h"

/*
 * Runs a latency-curve step (workloads/curve.c): steps of --curve-seconds
 * at --rate-start IOPS, each --rate-factor times the last, the test file
 * made cold before each (as any read phase's), until a step's p99 is over
 * --p99-target, it falls more than 5 % behind its rate, or --curve-steps
 * ran.  Each step is a result (test "step N": offered_rate, the achieved
 * rate, latency from the due times, late_ops); then the "sizing" result,
 * the highest rate meeting the target (workloads/curve-math.h says how it
 * is read off).  The suite lays the test file out first when it is
 * short (s->io_from_layout then says so in each result).
 */
gboolean ab_curve_run(struct ab_suite *s, struct ab_runner *r, const struct ab_step *step, uint64_t seed,
		      struct ab_run *run, GError **error);

#endif
