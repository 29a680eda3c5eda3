/* SPDX-License-Identifier: GPL-2.0-or-later */
#ifndef AB_PHASE_DRIVER_H
#define AB_PHASE_DRIVER_H

/*
 * What the suite (src/suite.c) hands a phase family's driver, and the
 * driver itself: a phase whose step is more than one timed run of its
 * workers (the sweep's grid, the wal's methods, oltp's process counts,
 * oltp+wal, the latency curve's steps) has a row of
 * src/phase-drivers.c's table, defined beside its driver.  The suite,
 * the room check (src/step-space.c) and the config's checks (src/config.c)
 * reach a family only through its row, never by its phase id.
 */

#include <glib.h>
#include <stdint.h>

#include "cache.h"
#include "result.h"
#include "rundir.h"
#include "step-space.h"
#include "../workloads/phase.h"

struct ab_config;
struct ab_runner;
struct ab_run;

/* One pass over the steps: what the suite and its drivers share. */
struct ab_suite {
	const struct ab_config *cfg;
	const struct ab_cache *cache;
	struct ab_run_dir *run_dir; /* where the files go: made by the caller */
	GPtrArray *disk_names; /* devices whose I/O each phase records, or NULL */
	const struct ab_target *target; /* for --cache remount */
	/* The test file now holds what the untimed layout wrote (kept across
	 * repeats: the next pass reads the same file). */
	gboolean io_from_layout;
};

/* What a family's `finish` is given besides the config: the machine's
 * RAM, and the RAM the cache rule is checked against (-r, a cgroup's
 * default, or all of it). */
struct ab_family_env {
	uint64_t physical_ram_bytes;
	uint64_t ram_mib;
};

struct ab_phase_driver {
	unsigned phase_id; /* enum ab_phase_id: the family's phase */
	/* Runs one step into `run`: its untimed layout, its cold cache, each
	 * timed run and the results keyed.  The suite has laid the test file
	 * out first when the phase has AB_PHASE_NEEDS_FILE. */
	gboolean (*run)(struct ab_suite *s, struct ab_runner *r, const struct ab_step *step, uint64_t seed,
			struct ab_run *run, GError **error);
	/* What one step lays out (src/step-space.h); NULL: what its flags
	 * say, as for bonnie++'s phases. */
	ab_step_space_fn space;
	/* How many results one step of the phase makes (cfg finished). */
	uint64_t (*results)(const struct ab_config *cfg);
	/* Once per config, whether the family's phase is asked for or not:
	 * its defaults and checks (an option of a family no step asks for
	 * is an error), and what its steps add to `results` beyond the one
	 * result each phase of cfg->phase_ids was counted for.  NULL for a
	 * phase whose options are other families' (oltp+wal: wal's and
	 * oltp's finish check them). */
	gboolean (*finish)(struct ab_config *cfg, const struct ab_family_env *env, uint64_t *results,
			   GError **error);
	/* The first of the family's options cfg holds ("--wal-sync"), or
	 * NULL; NULL for a phase with no options of its own. */
	const char *(*option_given)(const struct ab_config *cfg);
	/* Its options give its file a size of its own (oltp's --oltp-size):
	 * -s 0 does not keep it from running.  NULL: never. */
	gboolean (*own_file_size)(const struct ab_config *cfg);
	/* Its steps size their own files: a run of it without bonnie++'s I/O
	 * phases gets no default -s file (the sweep, wal). */
	gboolean sizes_own_files;
};

/* Each family's row, defined at the end of its src/<family>-run.c. */
extern const struct ab_phase_driver ab_sweep_driver, ab_wal_driver, ab_oltp_driver, ab_oltp_wal_driver,
	ab_curve_driver;
/* The rows, in the order their finish runs (sweep, wal, oltp, oltp+wal,
 * latency curve), NULL-terminated. */
extern const struct ab_phase_driver *const ab_phase_drivers[];
/* The driver of phase `id` (enum ab_phase_id), or NULL: one timed run of
 * its workers, by the suite itself (bonnie++'s phases). */
const struct ab_phase_driver *ab_phase_driver_of(unsigned id);
/* How many of cfg's phases are `d`'s. */
guint ab_phase_driver_count(const struct ab_phase_driver *d, const struct ab_config *cfg);
/* What cfg's steps of `d`'s phase add beyond the one result each was
 * counted for: count x (d->results(cfg) - 1); 0 when it has none (its
 * results are then never asked: its options may have no defaults yet). */
uint64_t ab_phase_driver_more_results(const struct ab_phase_driver *d, const struct ab_config *cfg);

#endif
