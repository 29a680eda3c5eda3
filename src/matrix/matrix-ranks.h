/* SPDX-License-Identifier: GPL-2.0-or-later */
#ifndef AB_MATRIX_RANKS_H
#define AB_MATRIX_RANKS_H

/*
 * A matrix's visits over the process's cluster (src/base/cluster.h): the
 * only matrix code that talks to other ranks.  With one rank (arraybench)
 * it is ab_matrix_visits_run() as ever.  On many (arraybench-mpi) rank 0
 * hands the visits out, each rank makes its own on its own host as one
 * rank (the cluster set aside: a visit meets nobody) and rank 0, the only
 * one with the results directory, appends every run to it.
 */

#include <glib.h>

#include "matrix-file.h"
#include "matrix-visits.h"

/* Before rank 0 touches DIR: every rank must hold the same matrix file
 * and profiles (their digests; a rank that does not is named, bad input).
 * `status` is this rank's so far (its profiles read).  0 when all agree,
 * else the exit status (the error says why). */
int ab_matrix_ranks_agree(const struct ab_matrix *m, GPtrArray *profiles, int status, GError **error);
/* Every rank's start meets (rank 0's status: the results directory
 * opened): 0 when every rank is ready, else the exit status. */
int ab_matrix_ranks_ready(int status, GError **error);
/* Runs the visits not done yet, as ab_matrix_visits_run(): 0 when all ran
 * or their failures are recorded, else the exit status that stopped them. */
int ab_matrix_ranks_run(struct ab_matrix_visits *v, GError **error);

#endif
