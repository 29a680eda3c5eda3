/* SPDX-License-Identifier: GPL-2.0-or-later */
#ifndef AB_PHASE_DRIVER_H
#define AB_PHASE_DRIVER_H

/*
 * What the suite (src/suite/suite.c) hands a phase family's driver, and the
 * driver itself: a phase whose step is more than one timed run of its
 * workers (the sweep's grid, the wal's methods, oltp's process counts,
 * oltp+wal, the latency curve's steps) has a row of
 * src/suite/phase-drivers.c's table, defined beside its driver.  The suite
 * reaches a driver only through its row, never by its phase id; the
 * family's rules before anything runs (room, results, finishing the
 * config) are its other row, src/options/phase-family.h.
 */

#include <glib.h>
#include <stdint.h>

#include "../runner/cache.h"
#include "../model/result.h"
#include "../runner/rundir.h"
#include "../../workloads/phase.h"

struct ab_config;
struct ab_runner;
struct ab_run;

/* One pass over the steps: what the suite and its drivers share. */
struct ab_suite {
	const struct ab_config *cfg;
	const struct ab_cache *cache;
	struct ab_run_dir *run_dir; /* where the files go: made by the caller */
	/* --reorder on many ranks: the run directory of the rank one node on,
	 * where bonnie++'s phases that work on data made before them (reads,
	 * rewrite, seeks, stat) work instead, so that no rank reads from its
	 * own page cache; NULL otherwise. */
	struct ab_run_dir *other_dir;
	/* --mpi-layout shared on many ranks: the ranks' directory, in whose
	 * files/ tree the file phases of every rank work, each rank with names
	 * of its own (its file sets' indexes from rank x count on); stat under
	 * --reorder stats the names of rank `partner` (else this rank).  NULL:
	 * the file phases work in run_dir. */
	struct ab_run_dir *shared_dir;
	/* --mpi-layout shared-file: the ranks' one I/O file (its dir_fd and
	 * io_name, io_shared set), where bonnie++'s I/O phases work, each rank
	 * in its segment (io_base, set for each step: the rank's, or with
	 * --reorder the partner's for the phases that read).  NULL otherwise. */
	struct ab_run_dir *shared_io;
	unsigned rank, ranks, partner;
	GPtrArray *disk_names; /* devices whose I/O each phase records, or NULL */
	const struct ab_target *target; /* for --cache remount */
	/* The test file now holds what the untimed layout wrote (kept across
	 * repeats: the next pass reads the same file). */
	gboolean io_from_layout;
};

struct ab_phase_driver {
	unsigned phase_id; /* enum ab_phase_id: the family's phase */
	/* Runs one step into `run`: its untimed layout, its cold cache, each
	 * timed run and the results keyed.  The suite has laid the test file
	 * out first when the phase has AB_PHASE_NEEDS_FILE. */
	gboolean (*run)(struct ab_suite *s, struct ab_runner *r, const struct ab_step *step, uint64_t seed,
			struct ab_run *run, GError **error);
};

/* Each family's row, defined at the end of its src/suite/<family>-run.c. */
extern const struct ab_phase_driver ab_sweep_driver, ab_wal_driver, ab_oltp_driver, ab_oltp_wal_driver,
	ab_curve_driver;
/* The rows, NULL-terminated. */
extern const struct ab_phase_driver *const ab_phase_drivers[];
/* The driver of phase `id` (enum ab_phase_id), or NULL: one timed run of
 * its workers, by the suite itself (bonnie++'s phases). */
const struct ab_phase_driver *ab_phase_driver_of(unsigned id);
#endif
