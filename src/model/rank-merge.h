/* SPDX-License-Identifier: GPL-2.0-or-later */
#ifndef AB_RANK_MERGE_H
#define AB_RANK_MERGE_H

/* A result measured on many ranks at once (arraybench-mpi): each rank's
 * share, from the samples the gather brought together (workloads/phase.h's
 * rank fields), the spread of the ranks' starts and the clock bound. */

#include "run.h"
#include "../../workloads/phase.h"

/* Fills res->per_rank, res->clock_bound_s and res->start_spread_s when the
 * samples carry ranks (else leaves them empty and NAN), and marks the
 * result too short to measure when it lasted less than
 * AB_CLOCK_MARGIN x (bound + spread): the ranks' common timebase is good
 * only to that.  After the rest of ab_result_merge(). */
void ab_result_merge_ranks(const struct ab_phase *phase, const struct ab_sample *samples, unsigned n,
			   struct ab_result *res);

/* How many times the timebase's uncertainty a phase must last. */
#define AB_CLOCK_MARGIN 100.0

#endif
