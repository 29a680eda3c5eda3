/* SPDX-License-Identifier: GPL-2.0-or-later */
/* The worker's end of the coordinator: start barrier, ticket queue,
 * stonewall, progress counters and the schedule's origin, on the words of
 * the step's mapping (worker-coord.h).  Direct calls with no system call
 * but the barrier's, cheap enough for every operation of a timed loop. */
#include "phase.h"
#include "worker-coord.h"
#include "../src/base/timing.h"

#include <errno.h>
#include <unistd.h>

void ab_worker_coord_wait_go(struct ab_worker_coord *wc)
{
	char c = 1;
	ssize_t n;
	do
		n = write(wc->ready_fd, &c, 1);
	while (n < 0 && errno == EINTR);
	close(wc->ready_fd);
	/* All workers block here until the parent closes the write end, so they
	 * leave together. */
	do
		n = read(wc->go_fd, &c, 1);
	while (n < 0 && errno == EINTR);
	close(wc->go_fd);
}

gboolean ab_worker_take_ticket(struct ab_phase_ctx *ctx, uint64_t total, uint64_t *ticket)
{
	/* Relaxed: the counter orders nothing else; each number goes once. */
	uint64_t t = __atomic_fetch_add(&ctx->coord->shared->tickets, 1, __ATOMIC_RELAXED);
	if (t >= total)
		return FALSE;
	*ticket = t;
	return TRUE;
}

gboolean ab_worker_stonewall_fell(const struct ab_phase_ctx *ctx)
{
	return __atomic_load_n(&ctx->coord->shared->stonewall_ns, __ATOMIC_RELAXED) != 0;
}

void ab_worker_stonewall_end(struct ab_phase_ctx *ctx, uint64_t bytes_done)
{
	struct ab_sample *sm = ctx->sample;
	uint64_t none = 0;
	__atomic_compare_exchange_n(&ctx->coord->shared->stonewall_ns, &none, sm->end_ns ? sm->end_ns : 1, FALSE,
				    __ATOMIC_RELAXED, __ATOMIC_RELAXED);
	if (!sm->stonewalled) {
		sm->bytes_at_stonewall = bytes_done;
		sm->stonewalled = 1;
	}
}

uint64_t ab_worker_deadline(struct ab_phase_ctx *ctx, uint64_t done, gboolean finished)
{
	struct ab_worker_coord *wc = ctx->coord;
	struct ab_sample *sm = ctx->sample;
	sm->bytes_at_deadline = done;
	sm->deadline_counted_ns = ab_now_ns() - sm->start_ns;
	sm->deadline_state = finished ? AB_DEADLINE_FINISHED : AB_DEADLINE_CUT;
	if (wc->wall_ready_fd < 0)
		return done; /* no wear-out: the deadline ends the I/O */
	__atomic_store_n(&wc->progress->wall_bytes, done, __ATOMIC_RELAXED);
	/* Release: the parent that sees the state sees the count. */
	__atomic_store_n(&wc->progress->wall_state, (uint64_t)sm->deadline_state, __ATOMIC_RELEASE);
	char c = 1;
	ssize_t n;
	do
		n = write(wc->wall_ready_fd, &c, 1);
	while (n < 0 && errno == EINTR);
	close(wc->wall_ready_fd);
	wc->wall_ready_fd = -1;
	if (finished) {
		close(wc->wall_go_fd);
		wc->wall_go_fd = -1;
		return done;
	}
	/* Blocks until the parent closes the other end: after it wrote the
	 * target, or because it is gone (then the target may be 0: stop). */
	do
		n = read(wc->wall_go_fd, &c, 1);
	while (n < 0 && errno == EINTR);
	close(wc->wall_go_fd);
	wc->wall_go_fd = -1;
	return __atomic_load_n(&ctx->coord->shared->wall_target, __ATOMIC_ACQUIRE);
}

uint64_t ab_worker_schedule_origin(struct ab_phase_ctx *ctx, uint64_t proposed_ns)
{
	uint64_t origin = 0;
	if (__atomic_compare_exchange_n(&ctx->coord->shared->origin_ns, &origin, proposed_ns, FALSE,
					__ATOMIC_ACQ_REL, __ATOMIC_ACQUIRE))
		return proposed_ns;
	return origin;
}

void ab_worker_progress_total(struct ab_phase_ctx *ctx, uint64_t total)
{
	__atomic_store_n(&ctx->coord->progress->total, total, __ATOMIC_RELAXED);
}

void ab_worker_progress(struct ab_phase_ctx *ctx, uint64_t done)
{
	__atomic_store_n(&ctx->coord->progress->done, done, __ATOMIC_RELAXED);
}
