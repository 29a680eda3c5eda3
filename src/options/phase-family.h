/* SPDX-License-Identifier: GPL-2.0-or-later */
#ifndef AB_PHASE_FAMILY_H
#define AB_PHASE_FAMILY_H
/*
 * A phase family's rules, known before anything runs: the room one of its
 * steps takes, how many results it makes, and its part of finishing a
 * config (defaults, checks).  One row per family of phases beyond
 * bonnie++'s (the sweep, wal, oltp, oltp+wal, the latency curve), defined
 * in its src/options/<family>-options.c beside its option rows; config.c and the
 * room check (src/options/step-space.c) reach a family only through its row,
 * never by its phase id.  Running a step is the driver's
 * (src/suite/phase-driver.h), a layer above.
 */
#include <glib.h>
#include <stdint.h>

#include "step-room.h"

struct ab_config;

/* What a family's `finish` is given besides the config: the machine's
 * RAM, and the RAM the cache rule is checked against (-r, a cgroup's
 * default, or all of it). */
struct ab_family_env {
	uint64_t physical_ram_bytes;
	uint64_t ram_mib;
};

struct ab_phase_family {
	unsigned phase_id; /* enum ab_phase_id: the family's phase */
	/* What one step lays out (src/options/step-space.h); NULL: what its flags
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

/* Each family's row, defined in its src/options/<family>-options.c. */
extern const struct ab_phase_family ab_sweep_family, ab_wal_family, ab_oltp_family, ab_oltp_wal_family,
	ab_curve_family;
/* The rows, in the order their finish runs (sweep, wal, oltp, oltp+wal,
 * latency curve), NULL-terminated. */
extern const struct ab_phase_family *const ab_phase_families[];
/* The family of phase `id` (enum ab_phase_id), or NULL: bonnie++'s phases
 * and the raw ones have none. */
const struct ab_phase_family *ab_phase_family_of(unsigned id);
/* How many of cfg's phases are `d`'s. */
guint ab_phase_family_count(const struct ab_phase_family *d, const struct ab_config *cfg);
/* What cfg's steps of `d`'s phase add beyond the one result each was
 * counted for: count x (d->results(cfg) - 1); 0 when it has none (its
 * results are then never asked: its options may have no defaults yet). */
uint64_t ab_phase_family_more_results(const struct ab_phase_family *d, const struct ab_config *cfg);

#endif
