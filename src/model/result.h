/* SPDX-License-Identifier: GPL-2.0-or-later */
#ifndef AB_RESULT_H
#define AB_RESULT_H

/* From the workers' samples to a result of the model (run.h). */

#include <glib.h>
#include <stdint.h>

#include "../base/histogram.h"
#include "run.h"
#include "../../fs-setup/diskstats.h"
#include "../../workloads/phase.h"

/* Phases under this wall time are "too fast to measure", as in bonnie++. */
#define AB_MIN_MEASURABLE_S 0.5

/* Merges n workers' samples into res (a fresh ab_result_new of the phase):
 * rate = work / (last stop - first start), CPU = the sum of each worker's
 * timed-region CPU over that span, latency percentiles of the merged
 * histogram, and each worker's own figures. */
void ab_result_merge(const struct ab_phase *phase, const struct ab_sample *samples, unsigned n,
		     struct ab_result *res);
/* After ab_result_merge, for a step run with a deadline of `seconds`
 * (--stonewall-time): the least and most bytes any worker had done by its
 * deadline and the rate at the deadline: their sum over the time until
 * the last count was taken (deadline_counted_s: the seconds or a little
 * more when a worker was cut, as a record under way at the deadline ends
 * after it; less when every worker ended its work first). */
void ab_result_merge_deadline(const struct ab_phase *phase, const struct ab_sample *samples, unsigned n,
			       double seconds, struct ab_result *res);
/* The summary of a histogram (all unknown when it is empty). */
void ab_latency_from_histogram(const struct ab_histogram *h, struct ab_latency *out);
/* Per-device I/O during the phase, appended to res->devices. */
void ab_result_add_devices(struct ab_result *res, const struct ab_disk_set *delta);

#endif
