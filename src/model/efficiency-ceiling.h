/* SPDX-License-Identifier: GPL-2.0-or-later */
#ifndef AB_EFFICIENCY_CEILING_H
#define AB_EFFICIENCY_CEILING_H

/*
 * What an array's members can deliver to a phase, from their raw reads
 * (run --raw-baseline's raw-read rows, one per member): the ceiling the
 * text's efficiency lines (reports/efficiency.c) set each rate against,
 * and the findings' rule of a rate above it (src/model/finding-ceiling.c).
 * Here, in the model, so that both read the same arithmetic.  What the
 * members allow depends on the level: every member can serve reads, but a
 * write puts each block on as many members as there are copies.
 */

#include <glib.h>

#include "run.h"

enum ab_efficiency_dir { AB_EFFICIENCY_READ, AB_EFFICIENCY_WRITE, AB_EFFICIENCY_REWRITE };

/* What the members' raw reads allow a phase, by direction and level, in the
 * rates' unit; NAN when the level is unknown.  level: as a run records it,
 * in any spelling --array takes ("10", "raid10", "1+0":
 * src/base/raid-level.h).  sum and slowest: of the members' raw read rates. */
double ab_efficiency_ceiling(const char *backend, const char *level, unsigned n, double sum, double slowest,
			     enum ab_efficiency_dir dir);
/* The recorded level in its canonical form ("10" -> "raid10"); a word that
 * is no md level ("single", NULL) as it is. */
const char *ab_efficiency_level(const char *recorded);
/* Facts of a backend by the name a run records (src/model/backend-list.h):
 * does a raid1 write every block on every member (md), and does the file
 * system go on a device of its own (md's array)?  FALSE for a name not in
 * the list. */
gboolean ab_efficiency_raid1_every_member(const char *backend);
gboolean ab_efficiency_own_device(const char *backend);
/* The raw-read row of one device (its key's test), or NULL. */
const struct ab_result *ab_efficiency_raw_row(const struct ab_run *run, const char *device);
/* The members' raw reads: TRUE with their count, sum and slowest when the
 * run holds a raw-read row for every member of its target; FALSE (a member
 * not measured: no honest total) otherwise. */
gboolean ab_efficiency_members(const struct ab_run *run, unsigned *n, double *sum, double *slowest);
/* Which ceiling a phase's rate is set against: READ for a phase that only
 * reads, WRITE for one that only writes, REWRITE for both; FALSE for a phase
 * with no such ceiling (no bonnie++ I/O phase in KiB/s, a raw row). */
gboolean ab_efficiency_dir_of(const char *phase, enum ab_efficiency_dir *dir);

#endif
