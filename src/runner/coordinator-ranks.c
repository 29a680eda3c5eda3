/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * One step over the process's ranks (coordinator-ranks.h).  The barrier:
 * every rank's workers are set up, then the ranks meet carrying their
 * status, and each stamps its own exit from the meeting.  After the step:
 * rank 0 reads every rank's clock offset (round trips), and every rank's
 * samples go to every rank with their stamps moved from the rank's own
 * clock into rank 0's.  Every rank then merges the same samples, so every
 * rank sees the same result and takes the same decisions after it (a
 * count that grows, a curve that stops): their calls stay in step.
 */
#include "coordinator-ranks.h"
#include "../base/cluster.h"
#include "../base/error.h"
#include "../base/timing.h"
#include "../model/stonewall.h"

#include <string.h>
#include <time.h>

gboolean ab_coordinator_ranks_meet(struct ab_coordinator *c, gboolean ready_here, GError **error)
{
	struct ab_cluster *cl = ab_cluster_get();
	/* Test-only: this rank comes late to the meeting. */
	if (cl->delay_before_meet_s > 0 && ready_here) {
		struct timespec ts = { (time_t)cl->delay_before_meet_s,
				       (long)((cl->delay_before_meet_s - (double)(time_t)cl->delay_before_meet_s) * 1e9) };
		while (nanosleep(&ts, &ts) != 0 && !ab_cluster_stopped())
			;
	}
	/* Test-only: no meeting, so each rank starts when it is ready (the
	 * gather still carries every rank's status). */
	uint64_t enter = cl->ops->now_ns(cl), start = enter;
	gboolean ok = cl->no_barrier ? ready_here
				     : cl->ops->meet_to_start(cl, ready_here, "not ready", &start, error);
	/* Every rank starts at the same moment: until then, sleep; never
	 * more than a second after hearing the verdict, whatever an offset
	 * gone wrong would make of it (rank 0 sets it 20 ms on). */
	uint64_t heard = cl->ops->now_ns(cl);
	if (start > heard + 1000000000u)
		start = heard + 1000000000u;
	while (ok && !ab_cluster_stopped()) {
		uint64_t now = cl->ops->now_ns(cl);
		if (now >= start)
			break;
		uint64_t left = start - now;
		struct timespec ts = { (time_t)(left / 1000000000u), (long)(left % 1000000000u) };
		nanosleep(&ts, NULL);
	}
	c->barrier_exit_ns = ab_now_ns();
	c->barrier_exit_cluster_ns = cl->ops->now_ns(cl);
	c->barrier_wait_ns = c->barrier_exit_cluster_ns - enter;
	return ok;
}

/* What a rank sends: its outcome's figures, then its samples with their
 * stamps counted from its exit from the barrier. */
struct rank_head {
	uint64_t exit_ns;    /* on the rank's cluster clock */
	uint64_t wait_ns;
	uint32_t samples;
	uint32_t points;     /* progress points per worker that follow the samples */
	char host[64];
};

/* Worker w's work done at `t` (rank 0's timebase), read off the points its
 * rank's parent noted (t_ns in the same timebase): the line between the two
 * points around t, from nothing at its start; all of it from its end on. */
static uint64_t done_at(const struct ab_sample *sm, const struct ab_progress_point *pts, unsigned n, uint64_t t)
{
	if (t >= sm->end_ns)
		return sm->bytes;
	struct ab_progress_point before = { sm->start_ns, 0 }, after = { sm->end_ns, sm->bytes };
	for (unsigned i = 0; i < n; i++) {
		if (pts[i].t_ns <= t && pts[i].t_ns >= before.t_ns)
			before = pts[i];
		if (pts[i].t_ns > t && pts[i].t_ns < after.t_ns)
			after = pts[i];
	}
	if (t <= before.t_ns || after.t_ns <= before.t_ns)
		return MIN(before.done, sm->bytes);
	double share = (double)(t - before.t_ns) / (double)(after.t_ns - before.t_ns);
	double done = (double)before.done + share * ((double)after.done - (double)before.done);
	return MIN((uint64_t)done, sm->bytes);
}

/* Streams on many ranks: the stonewall falls when the first worker of any
 * rank ends.  Each worker saw only its own rank's, so its work at the first
 * end anywhere is read off its rank's progress points instead. */
static void stonewall_across(struct ab_sample *all, unsigned n, const struct ab_progress_point *pts, unsigned per,
			     unsigned points)
{
	uint64_t first_end = UINT64_MAX;
	for (unsigned i = 0; i < n; i++) {
		if (!all[i].stonewalled)
			return;
		first_end = MIN(first_end, all[i].end_ns);
	}
	for (unsigned i = 0; i < n; i++) {
		unsigned r = i / per, w = i % per;
		const struct ab_progress_point *mine = pts + ((size_t)r * per + w) * AB_PROGRESS_POINTS;
		all[i].bytes_at_stonewall = done_at(&all[i], mine, points ? MIN(points, AB_PROGRESS_POINTS) : 0,
						    first_end);
	}
}

gboolean ab_coordinator_ranks_gather(struct ab_coordinator *c, gboolean ok_here, const char *why_here,
				     GError **error)
{
	struct ab_cluster *cl = ab_cluster_get();
	if (!ab_cluster_is_mpi())
		return ok_here;
	unsigned size = cl->size;
	/* This rank's step failed (or it was stopped): the others are still
	 * in theirs; tell them now, so that they stop too (their reaping
	 * wait looks), rather than at the end of their step. */
	if (!ok_here && why_here && size > 1)
		ab_cluster_fault(why_here);
	g_autofree int64_t *offset = g_new0(int64_t, size);
	g_autofree uint64_t *bound = g_new0(uint64_t, size);
	/* Every rank takes part, whatever its outcome: the others wait.  The
	 * round trips fail only when the ranks gave up (a stop, a fault). */
	if (!cl->ops->clock_offsets(cl, offset, bound, error))
		return FALSE;
	size_t series = sizeof(struct ab_progress_point) * AB_PROGRESS_POINTS * c->workers;
	size_t len = sizeof(struct rank_head) + sizeof(struct ab_sample) * c->workers + series;
	g_autofree char *mine = g_malloc0(len);
	struct rank_head *head = (struct rank_head *)mine;
	head->exit_ns = c->barrier_exit_cluster_ns;
	head->wait_ns = c->barrier_wait_ns;
	head->samples = c->workers;
	head->points = c->series ? c->series_len : 0;
	g_strlcpy(head->host, g_ptr_array_index(cl->hosts, cl->rank), sizeof(head->host));
	struct ab_sample *out = (struct ab_sample *)(mine + sizeof(*head));
	memcpy(out, c->samples, sizeof(struct ab_sample) * c->workers);
	for (unsigned i = 0; i < c->workers; i++) {
		/* Counted from the exit, on the clock the workers stamped with. */
		out[i].start_ns = out[i].start_ns - c->barrier_exit_ns;
		out[i].end_ns = out[i].end_ns - c->barrier_exit_ns;
	}
	struct ab_progress_point *pts = (struct ab_progress_point *)(out + c->workers);
	if (c->series)
		for (size_t k = 0; k < (size_t)AB_PROGRESS_POINTS * c->workers; k++)
			pts[k] = (struct ab_progress_point){ c->series[k].t_ns - c->barrier_exit_ns, c->series[k].done };
	g_autoptr(GByteArray) all = g_byte_array_new();
	g_autofree size_t *lens = g_new0(size_t, size);
	GError *peer = NULL;
	if (!cl->ops->allgather(cl, mine, len, ok_here, why_here, all, lens, &peer)) {
		if (peer)
			g_propagate_error(error, peer);
		return FALSE;
	}
	/* Every rank forked as many workers (the same step): check it. */
	unsigned per = c->workers;
	for (unsigned r = 0; r < size; r++)
		if (lens[r] != len) {
			g_set_error(error, AB_ERROR, AB_ERROR_PHASE,
				    "rank %u ran %zu bytes of samples where rank %u ran %zu: not the same step", r,
				    lens[r], cl->rank, len);
			return FALSE;
		}
	struct ab_sample *gathered = g_new(struct ab_sample, (gsize)per * size);
	g_autofree struct ab_progress_point *points = g_new0(struct ab_progress_point, (gsize)AB_PROGRESS_POINTS * per * size);
	for (unsigned r = 0; r < size; r++) {
		const char *at = (const char *)all->data + (size_t)r * len;
		struct rank_head h;
		memcpy(&h, at, sizeof(h));
		/* The rank's exit in rank 0's timebase: its own clock plus its
		 * measured offset. */
		uint64_t exit0 = (uint64_t)((int64_t)h.exit_ns + offset[r]);
		for (unsigned i = 0; i < per; i++) {
			struct ab_sample *sm = &gathered[r * per + i];
			memcpy(sm, at + sizeof(h) + sizeof(struct ab_sample) * i, sizeof(*sm));
			sm->start_ns += exit0;
			sm->end_ns += exit0;
			sm->rank_plus_one = r + 1;
			sm->barrier_exit_ns = exit0;
			sm->barrier_wait_ns = h.wait_ns;
			sm->clock_bound_ns = bound[r];
			memcpy(sm->rank_host, h.host, sizeof(sm->rank_host));
			sm->rank_host[sizeof(sm->rank_host) - 1] = '\0';
		}
		/* Its progress points, into the same timebase (unnoted ones stay
		 * at time 0, before any start, and are passed over). */
		const struct ab_progress_point *theirs =
			(const struct ab_progress_point *)(at + sizeof(h) + sizeof(struct ab_sample) * per);
		for (size_t k = 0; k < (size_t)AB_PROGRESS_POINTS * per; k++)
			if (k % AB_PROGRESS_POINTS < h.points)
				points[(size_t)r * AB_PROGRESS_POINTS * per + k] =
					(struct ab_progress_point){ theirs[k].t_ns + exit0, theirs[k].done };
	}
	stonewall_across(gathered, per * size, points, per, AB_PROGRESS_POINTS);
	g_free(c->gathered);
	c->gathered = gathered;
	c->samples = gathered;
	c->sample_count = per * size;
	c->ranks = size;
	return TRUE;
}

gboolean ab_coordinator_ranks_wall(struct ab_coordinator *c, gboolean ok_here, const char *why_here, uint64_t mine,
				   uint64_t *target, GError **error)
{
	(void)c;
	/* The one-rank cluster answers at once: the same path in arraybench. */
	struct ab_cluster *cl = ab_cluster_get();
	g_autoptr(GByteArray) all = g_byte_array_new();
	g_autofree size_t *lens = g_new0(size_t, cl->size);
	GError *peer = NULL;
	if (!cl->ops->allgather(cl, &mine, sizeof(mine), ok_here, why_here, all, lens, &peer)) {
		if (peer)
			g_propagate_error(error, peer);
		return FALSE;
	}
	g_autofree uint64_t *counts = g_new0(uint64_t, cl->size);
	for (unsigned r = 0; r < cl->size; r++) {
		if (lens[r] != sizeof(uint64_t)) {
			g_set_error(error, AB_ERROR, AB_ERROR_PHASE,
				    "rank %u sent %zu bytes for the wear-out's count: not the same step", r, lens[r]);
			return FALSE;
		}
		memcpy(&counts[r], all->data + (size_t)r * sizeof(uint64_t), sizeof(uint64_t));
	}
	*target = ab_wearout_target(counts, cl->size);
	return TRUE;
}

static gboolean ranks_meet(void *data, struct ab_coordinator *c, gboolean ready_here, GError **error)
{
	(void)data;
	return ab_coordinator_ranks_meet(c, ready_here, error);
}

static gboolean ranks_gather(void *data, struct ab_coordinator *c, gboolean ok_here, const char *why_here,
			     GError **error)
{
	(void)data;
	return ab_coordinator_ranks_gather(c, ok_here, why_here, error);
}

static gboolean ranks_wall(void *data, struct ab_coordinator *c, gboolean ok_here, const char *why_here,
			   uint64_t mine, uint64_t *target, GError **error)
{
	(void)data;
	return ab_coordinator_ranks_wall(c, ok_here, why_here, mine, target, error);
}

const struct ab_coordinator_ops ab_coordinator_ranks = {
	.name = "ranks",
	.meet = ranks_meet,
	.gather = ranks_gather,
	.wall = ranks_wall,
};
