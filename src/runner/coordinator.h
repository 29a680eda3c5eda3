/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * The coordinator of one step's workers, owned by the runner (runner.c
 * forks and reaps; this holds what the workers share and starts them
 * together): one mapping with the words they share (the ticket queue, the
 * stonewall, the schedule's origin), a progress counter and a sample slot
 * per worker, and the start barrier (two pipes).  The workers reach it
 * through their end, workloads/worker-coord.h, and the ab_worker_*()
 * functions of workloads/phase.h; never through pointers of their own.
 *
 * What differs when the step runs on many ranks at once (arraybench-mpi)
 * is behind `struct ab_coordinator_ops`: how the ranks meet at the start
 * barrier, how their samples come together after the step and what the
 * status line shows.  The default, `ab_coordinator_ranks`, does it through
 * the process's cluster (src/base/cluster.h): one rank in arraybench, the
 * MPI ranks in arraybench-mpi; the same path either way.  The worker's
 * end stays the same: workers make no MPI call.
 */
#ifndef AB_COORDINATOR_H
#define AB_COORDINATOR_H

#include <glib.h>
#include <signal.h>
#include <stdint.h>

#include "../../workloads/phase.h"
#include "../../workloads/worker-coord.h"

struct ab_coordinator;

/* One worker's work done at a moment, as the parent saw its counter while
 * it reaped (the monotonic clock the workers stamp with). */
struct ab_progress_point {
	uint64_t t_ns;
	uint64_t done;
};

/* Points kept per worker: when full, every other one goes, so a long phase
 * keeps its whole span at a coarser step. */
#define AB_PROGRESS_POINTS 128

/* What a kind of coordinator decides, in the parent only: never from a
 * worker, a timed loop or a signal handler. */
struct ab_coordinator_ops {
	const char *name;
	/* Every worker on this host has said it is set up (`ready_here`), or
	 * one could not be (a failed set-up or fork, a stop request): meet the
	 * other hosts, carrying that status.  TRUE when every host is ready;
	 * FALSE when any is not, and then every host skips the step (with
	 * *error set when the fault is another host's). */
	gboolean (*meet)(void *data, struct ab_coordinator *c, gboolean ready_here, GError **error);
	/* After the step, every worker reaped, on every rank: `ok_here` and
	 * `why_here` this rank's outcome.  Replaces c->samples and c->workers
	 * with every rank's samples (in rank order, each rank's in worker
	 * order, as many from each; rank_plus_one and the barrier fields set, stamps in rank 0's
	 * timebase; c->sample_count their number) when every rank went well; FALSE, with *error naming the
	 * other rank, when one did not (on the rank whose fault it is, *error
	 * is left to the caller).  NULL: the samples stay as they are. */
	gboolean (*gather)(void *data, struct ab_coordinator *c, gboolean ok_here, const char *why_here,
			   GError **error);
	/* Wear-out (--wearout), once every worker here is at its deadline or
	 * done (or gone): `mine` the largest count of this rank's workers at
	 * their deadlines; *target gets the largest of every rank's.  Every
	 * rank makes this call once in a step with wear-out whose workers
	 * were released, whatever its outcome (`ok_here`, `why_here` as in
	 * gather); FALSE when any rank's is not ok (*error naming another
	 * rank's fault).  NULL: this host's. */
	gboolean (*wall)(void *data, struct ab_coordinator *c, gboolean ok_here, const char *why_here, uint64_t mine,
			 uint64_t *target, GError **error);
	/* The status line's figures: this host's sums in, what to show out
	 * (every host's, under MPI).  NULL: this host's. */
	void (*progress)(void *data, uint64_t *done, uint64_t *total);
};

/* The process's cluster's ranks (one in arraybench). */
extern const struct ab_coordinator_ops ab_coordinator_ranks;

struct ab_coordinator {
	const struct ab_coordinator_ops *ops;
	void *ops_data;
	unsigned workers;
	unsigned ranks;                     /* whose samples `samples` holds: 1 until a gather */
	unsigned sample_count;              /* `workers` until a gather, then every rank's */
	/* This rank's exit from the barrier's meeting, on the monotonic clock
	 * the workers stamp with and on its cluster's clock, and how long it
	 * waited there for the other ranks. */
	uint64_t barrier_exit_ns;
	uint64_t barrier_exit_cluster_ns;
	uint64_t barrier_wait_ns;
	gboolean ready_here;                /* every worker here was set up */
	/* Each worker's progress over the step, AB_PROGRESS_POINTS each (the
	 * stonewall across ranks is read off it after the step), and how
	 * many points each holds and how many reads go by between two kept. */
	struct ab_progress_point *series;
	unsigned series_len;
	unsigned series_every, series_skipped;
	struct ab_sample *gathered;         /* every rank's, once gathered: samples points here */
	void *map;
	size_t map_len;
	struct ab_coord_shared *shared;
	struct ab_coord_progress *progress; /* one per worker */
	struct ab_sample *samples;          /* one per worker, zeroed */
	int ready[2];                       /* workers write, the parent reads */
	int go[2];                          /* the parent closes [1]: start */
	/* Wear-out's wall (ab_coordinator_init_wall()), -1 without: the
	 * workers write a byte to [1] of wall_ready as they get there, the
	 * parent closes [1] of wall_go to release them. */
	int wall_ready[2];
	int wall_go[2];
	struct ab_worker_coord worker;      /* in a worker: its end */
};

/* Maps the shared words, counters and `workers` sample slots and makes the
 * barrier.  AB_ERROR_SKIPPED when the system refuses either. */
gboolean ab_coordinator_init(struct ab_coordinator *c, const struct ab_coordinator_ops *ops, void *ops_data,
			     unsigned workers, GError **error);
/* For a step with wear-out, before the fork: the wall's two pipes.
 * AB_ERROR_SKIPPED when the system refuses them. */
gboolean ab_coordinator_init_wall(struct ab_coordinator *c, GError **error);
/* The descriptor the parent polls for workers reaching the wall (-1 for
 * none); what it holds is only a wake-up, read by the next call. */
int ab_coordinator_wall_fd(const struct ab_coordinator *c);
/* Has every worker here reached its deadline or ended its work, or gone
 * (`gone[i]`: reaped or never forked)?  Then *mine is the largest count at
 * their deadlines. */
gboolean ab_coordinator_wall_reached(struct ab_coordinator *c, const gboolean *gone, uint64_t *mine);
/* Every rank's largest count meets (the ops' wall); on TRUE every worker
 * waiting at the wall is released to go on to *target. */
gboolean ab_coordinator_wall(struct ab_coordinator *c, gboolean ok_here, const char *why_here, uint64_t mine,
			     uint64_t *target, GError **error);
/* Releases the workers waiting at the wall (they read the target). */
void ab_coordinator_wall_release(struct ab_coordinator *c, uint64_t target);
/* In worker `i`'s process, just after fork: drops the parent's ends of the
 * barrier and gives the worker its end (the phase's ctx->coord). */
struct ab_worker_coord *ab_coordinator_worker_end(struct ab_coordinator *c, unsigned i);
/* The descriptors a worker keeps (its ends of the barrier and of the
 * wall; -1 for none). */
#define AB_WORKER_COORD_FDS 4
void ab_coordinator_worker_fds(const struct ab_coordinator *c, int fds[AB_WORKER_COORD_FDS]);
/* In the parent, once every fork was tried: drops the workers' ends. */
void ab_coordinator_forked(struct ab_coordinator *c);
/* Waits until every worker here is set up, then meets the other hosts:
 * TRUE when all are ready.  `forked_all` FALSE (a fork failed) goes
 * straight to the meeting.  The wait wakes at least every 200 ms with
 * `unblocked` as the signal mask, and gives up when `stopped()` says so
 * or a worker leaves before it is set up.  The caller stops the workers
 * on FALSE, then releases them. */
gboolean ab_coordinator_wait_ready(struct ab_coordinator *c, gboolean forked_all, const sigset_t *unblocked,
				   gboolean (*stopped)(void), GError **error);
/* After the step (every worker reaped): every rank's samples come
 * together (the ops' gather); TRUE when every rank's step went well. */
gboolean ab_coordinator_gather(struct ab_coordinator *c, gboolean ok_here, const char *why_here, GError **error);
/* Releases every worker at once: the start. */
void ab_coordinator_go(struct ab_coordinator *c);
/* The workers' progress summed (relaxed loads of relaxed stores: a figure
 * a moment old is good enough), as the status line should show it. */
void ab_coordinator_progress(const struct ab_coordinator *c, uint64_t *done, uint64_t *total);
/* Notes every worker's counter now (the reaping wait calls it at each
 * wake): the series the stonewall across ranks is read from. */
void ab_coordinator_note_progress(struct ab_coordinator *c);
/* Unmaps; the samples (and the gathered ones) go with it. */
void ab_coordinator_clear(struct ab_coordinator *c);

#endif
