/* SPDX-License-Identifier: GPL-2.0-or-later */
#ifndef AB_PIPELINE_H
#define AB_PIPELINE_H

#include <glib.h>
#include <stdint.h>

#include "config.h"
#include "run.h"

/* Where each finished run goes, once per repeat and in order.  FALSE (with
 * the error) stops the pipeline; the teardown still runs. */
typedef gboolean (*ab_run_sink_fn)(const struct ab_run *run, void *data, GError **error);

struct ab_pipeline {
	const struct ab_config *cfg; /* finished and checked; not changed */
	const char *run_id;
	const char *state_dir;       /* where the undo journal goes */
	int dir_fd;                  /* -d: DIR as the checks opened it (the pipeline closes it), else -1 */
	uint64_t ram_bytes;
	ab_run_sink_fn deliver;
	void *deliver_data;
	/* A matrix visit's: each run's cell label and workload (NULL: none),
	 * and the repeat number of its first run (0: 1, as -x counts). */
	const char *cell;
	const char *workload;
	uint64_t first_repeat;
};

/* Journal, build the target, make the run's directory and cache group, run
 * the steps cfg->repeats times (each run to deliver), and unwind all that was
 * made, on success, failure and Ctrl-C alike.  AB_ERROR_INTERRUPTED after a
 * stop request. */
gboolean ab_pipeline_run(const struct ab_pipeline *p, GError **error);

#endif
