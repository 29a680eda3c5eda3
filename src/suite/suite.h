/* SPDX-License-Identifier: GPL-2.0-or-later */
#ifndef AB_SUITE_H
#define AB_SUITE_H

#include <glib.h>

#include "../runner/cache.h"
#include "phase-driver.h"
#include "../model/result.h"
#include "../runner/rundir.h"

/* One pass over the run's steps in their order (cfg->steps: --phases as
 * given, or a profile's steps in file order), with the untimed
 * preparation each needs (layout, file names, cold cache); a phase with a
 * driver (src/suite/phase-driver.h: struct ab_suite is there) is run by it. */

void ab_suite_init(struct ab_suite *s, const struct ab_config *cfg, const struct ab_cache *cache,
		   struct ab_run_dir *run_dir);
void ab_suite_clear(struct ab_suite *s);
/* One pass; whatever happens, it ends by removing the files it made, by name. */
gboolean ab_suite_run(struct ab_suite *s, struct ab_run *run, GError **error);

#endif
