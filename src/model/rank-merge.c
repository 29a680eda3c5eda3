/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Each rank's share of a result measured on many ranks (rank-merge.h). */
#include "rank-merge.h"
#include "../base/timing.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

static int compare_doubles(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;
	return (x > y) - (x < y);
}

void ab_result_merge_ranks(const struct ab_phase *phase, const struct ab_sample *samples, unsigned n,
			   struct ab_result *res)
{
	g_array_set_size(res->per_rank, 0);
	res->clock_bound_s = res->start_spread_s = NAN;
	uint32_t ranks = 0;
	for (unsigned i = 0; i < n; i++) {
		if (!samples[i].rank_plus_one)
			return; /* one host: no ranks */
		ranks = MAX(ranks, samples[i].rank_plus_one);
	}
	if (!n)
		return;
	uint64_t first_exit = UINT64_MAX, last_exit = 0, bound = 0;
	for (unsigned i = 0; i < n; i++) {
		first_exit = MIN(first_exit, samples[i].barrier_exit_ns);
		last_exit = MAX(last_exit, samples[i].barrier_exit_ns);
		bound = MAX(bound, samples[i].clock_bound_ns);
	}
	/* A rank's samples need not be next to each other (a driver may have
	 * picked some of each rank's workers): walk them by rank. */
	for (uint32_t r = 0; r < ranks; r++) {
		uint64_t start = UINT64_MAX, end = 0, ops = 0, bytes = 0, cpu = 0, workers = 0, wait = 0;
		const char *host = NULL;
		for (unsigned i = 0; i < n; i++) {
			const struct ab_sample *sm = &samples[i];
			if (sm->rank_plus_one != r + 1)
				continue;
			start = MIN(start, sm->start_ns);
			end = MAX(end, sm->end_ns);
			ops += sm->ops;
			bytes += sm->bytes;
			cpu += sm->user_ns + sm->sys_ns;
			workers++;
			wait = sm->barrier_wait_ns;
			host = sm->rank_host;
		}
		if (!workers)
			continue;
		double elapsed = end > start ? (double)(end - start) / AB_NS_PER_SEC : 0;
		struct ab_rank_stat rs = {
			.rank = r,
			.host = g_strndup(host, sizeof(samples[0].rank_host)),
			.workers = workers,
			.ops = ops,
			.bytes = bytes,
			.rate = ab_phase_rate(phase, bytes, ops, elapsed),
			.start_s = ((double)start - (double)first_exit) / AB_NS_PER_SEC,
			.stop_s = ((double)end - (double)first_exit) / AB_NS_PER_SEC,
			.cpu_s = (double)cpu / AB_NS_PER_SEC,
			.barrier_wait_s = (double)wait / AB_NS_PER_SEC,
			.outlier = AB_FLAG_UNKNOWN,
		};
		g_array_append_val(res->per_rank, rs);
	}
	res->clock_bound_s = (double)bound / AB_NS_PER_SEC;
	res->start_spread_s = (double)(last_exit - first_exit) / AB_NS_PER_SEC;
	/* Outliers against the median of the ranks' own rates. */
	guint m = res->per_rank->len;
	g_autofree double *rates = g_new(double, m);
	guint known = 0;
	for (guint i = 0; i < m; i++) {
		double r = g_array_index(res->per_rank, struct ab_rank_stat, i).rate;
		if (isfinite(r))
			rates[known++] = r;
	}
	if (known >= 2) {
		qsort(rates, known, sizeof(double), compare_doubles);
		double median = known % 2 ? rates[known / 2] : (rates[known / 2 - 1] + rates[known / 2]) / 2;
		for (guint i = 0; i < m; i++) {
			struct ab_rank_stat *rs = &g_array_index(res->per_rank, struct ab_rank_stat, i);
			if (isfinite(rs->rate) && median > 0)
				rs->outlier = fabs(rs->rate / median - 1) > AB_RANK_OUTLIER_SHARE;
		}
	}
	/* The common timebase is good to bound + spread: a phase must last a
	 * hundred times that for its rate to mean something. */
	double least = AB_CLOCK_MARGIN * (res->clock_bound_s + res->start_spread_s);
	if (least > res->min_measurable_s) {
		res->min_measurable_s = least;
		res->measurable = res->elapsed_s >= least;
	}
}
