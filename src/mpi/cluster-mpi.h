/* SPDX-License-Identifier: GPL-2.0-or-later */
#ifndef AB_CLUSTER_MPI_H
#define AB_CLUSTER_MPI_H

/* The cluster over MPI ranks (arraybench-mpi only): after MPI_Init. */

#include "../base/cluster.h"

gboolean ab_cluster_mpi_init(struct ab_cluster **out, GError **error);
/* Why the ranks gave up (a fault of any rank), or NULL. */
const char *ab_cluster_mpi_dead(struct ab_cluster *c);

#endif
