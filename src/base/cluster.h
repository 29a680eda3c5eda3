/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * The ranks a run is made of, and how they talk: one rank in `arraybench`
 * (this file's own implementation), many in `arraybench-mpi` (src/mpi/,
 * which sets its own with ab_cluster_set() before any command runs).  The
 * same code path runs either way: the runner meets, gathers and reads the
 * clocks through these calls, and a cluster of one answers at once.
 *
 * Every call is collective: every rank makes the same calls in the same
 * order, in the parent process only (never in a worker, a timed loop or a
 * signal handler).  A rank that gives up outside a call says so with
 * ab_cluster_fault(), and the others' next call fails naming it.  Every
 * wait gives up when the stop check (a signal) says so, so nobody hangs.
 */
#ifndef AB_CLUSTER_H
#define AB_CLUSTER_H

#include <glib.h>
#include <stdint.h>

struct ab_cluster;

struct ab_cluster_ops {
	/* Every rank's status meets: TRUE when every rank is ok.  FALSE when
	 * any is not, with *error naming the first rank that is not and why
	 * (its own `why`); the rank's own fault is the caller's to say, so
	 * *error is then left alone on the rank that failed. */
	gboolean (*meet)(struct ab_cluster *c, gboolean ok_here, const char *why_here, GError **error);
	/* Every rank's bytes to every rank: `all` gets them in rank order,
	 * `lens[r]` the length of rank r's.  The status as in meet. */
	gboolean (*allgather)(struct ab_cluster *c, const void *buf, size_t len, gboolean ok_here,
			      const char *why_here, GByteArray *all, size_t *lens, GError **error);
	/* Rank 0's clock minus each rank's (ns) and the bound on that figure
	 * (half the smallest round trip), every rank getting all of them. */
	gboolean (*clock_offsets)(struct ab_cluster *c, int64_t *offset_ns, uint64_t *bound_ns, GError **error);
	/* This rank gives up outside a meeting: the others' next call fails
	 * with `why`, naming this rank. */
	void (*fault)(struct ab_cluster *c, const char *why);
	/* Has any rank given up?  Looks without waiting (a message may have
	 * come): the runner asks while its workers run, so that a failure
	 * elsewhere stops this rank's step now, not at its end. */
	gboolean (*gave_up)(struct ab_cluster *c);
	/* This rank's clock (CLOCK_MONOTONIC, save for a test's offset). */
	uint64_t (*now_ns)(struct ab_cluster *c);
	/* A meeting before a timed start: as meet, and *start_ns gets the
	 * moment every rank starts, on this rank's clock (rank 0 sets it a
	 * little after its verdict, each rank carries it over by its last
	 * measured offset), so that the ranks that heard the verdict first do
	 * not start, and take the CPU, before the others heard it. */
	gboolean (*meet_to_start)(struct ab_cluster *c, gboolean ok_here, const char *why_here, uint64_t *start_ns,
				  GError **error);
};

struct ab_cluster {
	const struct ab_cluster_ops *ops;
	void *data;
	unsigned rank;
	unsigned size;
	unsigned node;            /* which node this rank is on, 0-based */
	unsigned nodes;
	unsigned ranks_per_node;  /* on this rank's node */
	GPtrArray *hosts;         /* char *, one per rank */
	char *library;            /* the MPI library's version line, NULL for one rank */
	/* Set once a failure came from another rank (not this one's own):
	 * the rank that is not 0 leaves saying it to rank 0. */
	gboolean peer_fault;
	/* Set once this rank's own failure went to the others in a meeting
	 * (so it need not say it again as it leaves). */
	gboolean fault_said;
	/* Test-only switches of the MPI cluster (src/mpi/): stamps taken
	 * without the barrier's meeting, and a delay before it. */
	gboolean no_barrier;
	double delay_before_meet_s;
};

/* The process's cluster: one rank unless arraybench-mpi set its own. */
struct ab_cluster *ab_cluster_get(void);
void ab_cluster_set(struct ab_cluster *c);
/* The process's cluster set aside: until ab_cluster_put_back() the process
 * is one rank again, so that what runs meanwhile (a matrix visit on this
 * rank's own host, src/matrix/matrix-ranks.c) meets no other rank while
 * the others are busy with their own.  Returns what to put back. */
struct ab_cluster *ab_cluster_set_aside(void);
void ab_cluster_put_back(struct ab_cluster *c);
/* Many ranks (arraybench-mpi, even with one rank)? */
gboolean ab_cluster_is_mpi(void);
/* Does this rank write the results and the status line (rank 0)? */
gboolean ab_cluster_writes(void);
/* The stop check every wait polls: set by main (the runner's). */
void ab_cluster_set_stop_check(gboolean (*stopped)(void));
gboolean ab_cluster_stopped(void);

static inline gboolean ab_cluster_meet(gboolean ok_here, const char *why_here, GError **error)
{
	struct ab_cluster *c = ab_cluster_get();
	return c->ops->meet(c, ok_here, why_here, error);
}

static inline gboolean ab_cluster_gave_up(void)
{
	struct ab_cluster *c = ab_cluster_get();
	return c->ops->gave_up && c->ops->gave_up(c);
}

static inline void ab_cluster_fault(const char *why)
{
	struct ab_cluster *c = ab_cluster_get();
	c->ops->fault(c, why);
}

#endif
