/* SPDX-License-Identifier: GPL-2.0-or-later */
#ifndef AB_RUN_CAPTURE_H
#define AB_RUN_CAPTURE_H

/* A live run's record (run.h) starts as a copy of the conditions, the
 * machine and the target: from here on nothing points back at them. */

#include "../runner/cache.h"
#include "../options/config.h"
#include "../model/run.h"
#include "../../fs-setup/target.h"

/* Repeat `index` (0-based) of a run: conditions, environment, target
 * description and seed, with no results yet. */
struct ab_run *ab_run_capture(const struct ab_config *cfg, const struct ab_cache *cache,
			      const struct ab_target *target, const char *run_id, unsigned index,
			      uint64_t ram_bytes);
/* The warning a run carries when the page cache could hold the test file
 * that one of its steps reads back (a READS phase); NULL when none does. */
char *ab_run_cache_warning(const struct ab_config *cfg, uint64_t ram_bytes);

/* After the steps: the run's clock bound and start spread, the largest of
 * its results' (on many ranks). */
void ab_run_finish_ranks(struct ab_run *run);

#endif
