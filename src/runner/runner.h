/* SPDX-License-Identifier: GPL-2.0-or-later */
#ifndef AB_RUNNER_H
#define AB_RUNNER_H

#include <glib.h>
#include <signal.h>

#include "cache.h"
#include "../model/result.h"

struct ab_coordinator_ops;

/* Set by SIGINT/SIGTERM/SIGHUP; the parent stops workers and cleans up. */
extern volatile sig_atomic_t ab_stop_requested;
void ab_runner_install_signals(void);
/* The same as a function, for fs-setup's stop check. */
gboolean ab_runner_stop_requested(void);

struct ab_runner {
	const struct ab_config *cfg; /* for -u: the user the workers run as */
	const struct ab_cache *cache;
	int dir_fd;                /* DIR, holding the I/O file */
	const char *io_name;
	int run_fd;                /* the run's directory, holding files/ */
	const char *io_path;
	const char *files_dir;
	const char *run_path;      /* the run's directory, holding the stream files */
	/* The I/O file is one many ranks share, this rank's segment at
	 * io_base (workloads/phase.h's ab_phase_ctx says what it changes). */
	gboolean io_shared;
	uint64_t io_base;
	struct ab_file_set *files; /* the set of the current file phase */
	GPtrArray *disk_names;     /* kernel names of the array and members, or NULL */
	/* How the hosts meet at each step's start (src/runner/coordinator.h): NULL
	 * for this host alone; arraybench-mpi's own over its ranks. */
	const struct ab_coordinator_ops *coordinator;
	void *coordinator_data;
};

/* Fork the step's workers, start them together at a barrier, reap them
 * with wait4() and merge their samples into `res`.  AB_ERROR_PHASE when a
 * worker failed, AB_ERROR_INTERRUPTED on a stop request. */
gboolean ab_runner_run_step(const struct ab_runner *r, const struct ab_step *step, uint64_t seed,
			    struct ab_result *res, GError **error);
/* The same, and then, when the step went well, `each` is called with the
 * workers' raw samples (before the mapping goes) for a caller that makes
 * several results of one step: the oltp phase's reads and writes apart.
 * On many ranks `samples` holds every rank's, `n` each (rank r's are
 * samples[r * n ... r * n + n - 1]), in rank 0's timebase. */
typedef void (*ab_samples_fn)(const struct ab_sample *samples, unsigned n, unsigned ranks, void *data);
gboolean ab_runner_run_step_samples(const struct ab_runner *r, const struct ab_step *step, uint64_t seed,
				    struct ab_result *res, ab_samples_fn each, void *data, GError **error);

#endif
