/* SPDX-License-Identifier: GPL-2.0-or-later */
#ifndef AB_COORDINATOR_RANKS_H
#define AB_COORDINATOR_RANKS_H

/* The coordinator's meeting and gather over the process's cluster
 * (src/base/cluster.h): the default ops, ab_coordinator_ranks (declared in
 * coordinator.h, defined here). */

#include "coordinator.h"

/* The start barrier's meeting: stamps this rank's exit from it. */
gboolean ab_coordinator_ranks_meet(struct ab_coordinator *c, gboolean ready_here, GError **error);
/* Every rank's samples to every rank, in rank 0's timebase. */
gboolean ab_coordinator_ranks_gather(struct ab_coordinator *c, gboolean ok_here, const char *why_here,
				     GError **error);
/* Wear-out: every rank's largest count at the deadline to every rank (one
 * allgather), *target the largest of all. */
gboolean ab_coordinator_ranks_wall(struct ab_coordinator *c, gboolean ok_here, const char *why_here, uint64_t mine,
				   uint64_t *target, GError **error);

#endif
