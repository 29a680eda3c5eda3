/* SPDX-License-Identifier: GPL-2.0-or-later */
#ifndef AB_SUITE_H
#define AB_SUITE_H

#include <glib.h>

#include "cache.h"
#include "result.h"
#include "rundir.h"

/* One pass over the chosen phases in bonnie++'s order, with the untimed
 * preparation each needs (layout, file names, cold cache). */
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

void ab_suite_init(struct ab_suite *s, const struct ab_config *cfg, const struct ab_cache *cache,
		   struct ab_run_dir *run_dir);
void ab_suite_clear(struct ab_suite *s);
/* One pass; whatever happens, it ends by removing the files it made, by name. */
gboolean ab_suite_run(struct ab_suite *s, struct ab_run *run, GError **error);

struct ab_runner;
struct ab_step;
/* For a driver of a step with many results (src/curve-run.c): before each
 * timed run, the cache made what the phase starts with (*cold says whether
 * it was made cold) and the share of the test file cached then; after it,
 * the result told what the cache held. */
gboolean ab_suite_prepare_cache(struct ab_suite *s, struct ab_runner *r, const struct ab_step *step,
				 gboolean *cold, double *resident, GError **error);
void ab_suite_describe_cache(const struct ab_suite *s, const struct ab_phase *ph, gboolean cold,
			     struct ab_result *res);

#endif
