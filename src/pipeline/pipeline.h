/* SPDX-License-Identifier: GPL-2.0-or-later */
#ifndef AB_PIPELINE_H
#define AB_PIPELINE_H

#include <glib.h>
#include <stdint.h>

#include "../options/config.h"
#include "../model/run.h"

/* Where each finished run goes, once per repeat and in order.  The run is
 * the sink's from then on: it may change it (a matrix stamps its cell,
 * workload and repeat), keep it or free it.  FALSE (with the error) stops
 * the pipeline; the teardown still runs. */
typedef gboolean (*ab_run_sink_fn)(struct ab_run *run, void *data, GError **error);

struct ab_pipeline {
	const struct ab_config *cfg; /* finished and checked; not changed */
	const char *run_id;          /* this rank's: its journal, run directory, cgroup */
	const char *shared_run_id;   /* the run's (the same on one rank), in its results */
	const char *state_dir;       /* where the undo journal goes */
	int dir_fd;                  /* -d: DIR as the checks opened it (the pipeline closes it), else -1 */
	uint64_t ram_bytes;
	ab_run_sink_fn deliver;
	void *deliver_data;
};

/* Journal, build the target, make the run's directory and cache group, run
 * the steps cfg->repeats times (each run to deliver), and unwind all that was
 * made, on success, failure and Ctrl-C alike.  AB_ERROR_INTERRUPTED after a
 * stop request. */
gboolean ab_pipeline_run(const struct ab_pipeline *p, GError **error);

#endif
