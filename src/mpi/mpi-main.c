/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * arraybench-mpi: arraybench's commands on every rank of an MPI job.  MPI
 * is started here and only here (the main thread calls it; GLib's threads
 * never do), the ranks check that they run the same binary with the same
 * options, and the process's cluster (src/base/cluster.h) becomes the MPI
 * one; then the command runs on every rank as in arraybench, each rank's
 * runner meeting the others before each step.  A rank that fails on its
 * own tells the others as it leaves; MPI is finalized on every path.
 */
#include "cluster-mpi.h"
#include "same-run.h"
#include "../cmd/dispatch.h"
#include "../base/error.h"

#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

int main(int argc, char **argv)
{
	int provided = 0;
	if (MPI_Init_thread(&argc, &argv, MPI_THREAD_FUNNELED, &provided) != MPI_SUCCESS) {
		fprintf(stderr, "arraybench: error: cannot start MPI\n");
		return AB_ERROR_SKIPPED;
	}
	struct ab_cluster *cluster = NULL;
	g_autoptr(GError) error = NULL;
	if (!ab_cluster_mpi_init(&cluster, &error)) {
		fprintf(stderr, "arraybench: error: %s\n", error->message);
		MPI_Finalize();
		return ab_error_exit_status(error);
	}
	ab_cluster_set(cluster);
	int status;
	if (!ab_same_run_check(cluster, argc, argv, &error)) {
		/* Rank 0 says it for all; a rank that differs says it too. */
		if (cluster->rank == 0 || !cluster->peer_fault)
			fprintf(stderr, "arraybench: error: %s\n", error->message);
		status = ab_error_exit_status(error);
	} else {
		g_autofree char *failure = NULL;
		status = ab_main(argc, argv, &failure);
		/* A failure of this rank's own that no meeting carried: the
		 * others' next wait ends with it.  Not bad usage: every rank
		 * finds that alike, and no rank waits for another then. */
		if (status != 0 && status != AB_ERROR_USAGE && !cluster->peer_fault && !cluster->fault_said)
			ab_cluster_fault(failure ? failure : "failed");
	}
	fflush(stdout);
	fflush(stderr);
	MPI_Finalize();
	return status;
}
