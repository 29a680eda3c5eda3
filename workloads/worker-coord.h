/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * The worker's end of the runner's coordinator (src/runner/coordinator.h): what
 * one step's workers on this host share while they run.  A phase never
 * includes this header: it reaches these words only through the
 * ab_worker_*() functions of phase.h (start barrier, tickets, stonewall,
 * progress, the schedule's origin, the deadline's wall), whose bodies are
 * in worker-coord.c.
 *
 * The worker's end is the same under every coordinator: workers make no
 * MPI call (design.md), so a coordinator over MPI forks its rank's workers
 * onto this same mapping and differs only on the parent's side.
 */
#ifndef AB_WORKER_COORD_H
#define AB_WORKER_COORD_H

#include <stdint.h>

/* The words all the step's workers share, at the head of the mapping. */
struct ab_coord_shared {
	/* The next work ticket (ab_worker_take_ticket()). */
	uint64_t tickets;
	/* 0 until the first worker of the step ends, then its end stamp
	 * (ab_worker_stonewall_end()). */
	uint64_t stonewall_ns;
	/* 0 until the first worker sets the origin of a schedule all follow
	 * (ab_worker_schedule_origin(): the latency curve's). */
	uint64_t origin_ns;
	/* Wear-out (--wearout): the count every worker goes on to after the
	 * deadline, the largest any worker of any rank had by it; set by the
	 * parent before it releases them. */
	uint64_t wall_target;
};

/* One worker's progress for the parent's status line, in the phase's unit
 * of work (bytes for a KiB/s phase, else operations).  Each on a cache line
 * of its own: a worker stores here after every operation, and a line shared
 * with another worker's counter would bounce between their CPUs. */
struct ab_coord_progress {
	uint64_t total;
	uint64_t done;
	/* Wear-out: the worker's count at its deadline, and AB_DEADLINE_CUT
	 * (it waits for the target) or AB_DEADLINE_FINISHED (it ended first)
	 * once that count is there; 0 before. */
	uint64_t wall_bytes;
	uint64_t wall_state;
	uint64_t pad[4];
};

/* A worker's end, made by the coordinator in the worker's process after
 * fork (ab_coordinator_worker_end()). */
struct ab_worker_coord {
	struct ab_coord_shared *shared;
	struct ab_coord_progress *progress; /* this worker's */
	int ready_fd; /* the barrier: one byte written here says "set up" */
	int go_fd;    /* the barrier: end of file here means "start" */
	/* Wear-out's wall, -1 without it: a byte written to wall_ready_fd
	 * wakes the parent; end of file on wall_go_fd releases the worker. */
	int wall_ready_fd;
	int wall_go_fd;
};

/* The start barrier, from ab_worker_start(): says this worker is set up,
 * then blocks until the parent releases every worker at once.  Closes both
 * descriptors. */
void ab_worker_coord_wait_go(struct ab_worker_coord *wc);

#endif
