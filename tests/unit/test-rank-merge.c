/* SPDX-License-Identifier: GPL-2.0-or-later */
/* A result measured on many ranks (src/model/rank-merge.c, through
 * ab_result_merge): samples made by hand for 4 ranks of 2 workers each,
 * as the gather leaves them (rank 0's timebase, each rank's barrier exit,
 * wait and clock bound, its host), and the figures checked against
 * arithmetic done here: the aggregate over the ranks' whole span, each
 * rank's own row, the outlier, the timebase's figures and what they do to
 * measurable; and a plain merge leaving all of it empty and unknown. */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <cmocka.h>

#include <math.h>
#include <stdio.h>
#include <string.h>

#include "../../src/model/result.h"

#define RANKS 4
#define WORKERS 2 /* per rank */
#define N (RANKS * WORKERS)
#define GIB ((uint64_t)1 << 30)
#define T0 1000000000000ull /* the earliest barrier exit, ns in rank 0's timebase */
#define US 1000ull
#define MS 1000000ull
#define SEC 1000000000ull
#define SLOW 2 /* the rank that takes twice as long */

#define assert_near(a, b) assert_true(fabs((a) - (b)) <= 1e-9 * MAX(1.0, fabs(b)))

/* Rank r leaves the barrier 100 us after rank r-1 and waited there 100 us
 * less; its workers start 10 us after its exit and write 1 GiB each, in
 * `run` ns (twice that on rank SLOW), the second worker ending 1 ms after
 * the first.  bound_ns: the largest rank's clock bound. */
static struct ab_sample *make_samples(uint64_t run, uint64_t bound_ns)
{
	struct ab_sample *s = g_new0(struct ab_sample, N);
	for (unsigned i = 0; i < N; i++) {
		unsigned r = i / WORKERS, w = i % WORKERS;
		struct ab_sample *sm = &s[i];
		ab_histogram_init(&sm->latency);
		sm->rank_plus_one = r + 1;
		sm->barrier_exit_ns = T0 + r * 100 * US;
		sm->barrier_wait_ns = (300 - 100 * r) * US;
		sm->clock_bound_ns = r == 0 ? 0 : bound_ns * r / (RANKS - 1);
		snprintf(sm->rank_host, sizeof(sm->rank_host), "node-%c", r < 2 ? 'a' : 'b');
		sm->start_ns = sm->barrier_exit_ns + 10 * US;
		sm->end_ns = sm->start_ns + (r == SLOW ? 2 * run : run) + w * MS;
		sm->bytes = GIB;
		sm->ops = GIB / 8192;
		sm->user_ns = 100 * MS;
		sm->sys_ns = 400 * MS;
		sm->pid = (int32_t)(1000 + i);
	}
	return s;
}

static struct ab_result *merged(const struct ab_sample *s, unsigned n)
{
	const struct ab_phase *ph = ab_phase_by_name("block-write");
	assert_non_null(ph);
	struct ab_result *res = ab_result_new("block-write");
	ab_result_merge(ph, s, n, res);
	return res;
}

/* Rank r's start and stop, seconds from the earliest barrier exit. */
static double start_of(unsigned r, uint64_t run)
{
	(void)run;
	return (double)(r * 100 * US + 10 * US) / SEC;
}

static double stop_of(unsigned r, uint64_t run)
{
	return start_of(r, run) + (double)((r == SLOW ? 2 * run : run) + (WORKERS - 1) * MS) / SEC;
}

static void test_four_ranks(void **state)
{
	(void)state;
	const uint64_t run = 2 * SEC;
	g_autofree struct ab_sample *s = make_samples(run, 30 * US);
	g_autoptr(ab_result) res = merged(s, N);
	/* The aggregate: every rank's bytes, over the latest stop less the
	 * earliest start (rank SLOW's stop, rank 0's start). */
	assert_int_equal(res->bytes, N * GIB);
	uint64_t sum = 0;
	for (guint i = 0; i < res->per_rank->len; i++)
		sum += g_array_index(res->per_rank, struct ab_rank_stat, i).bytes;
	assert_int_equal(res->bytes, sum);
	double span = stop_of(SLOW, run) - start_of(0, run);
	assert_near(res->elapsed_s, span);
	assert_near(res->rate, (double)(N * GIB) / 1024.0 / span);
	assert_int_equal(res->workers, N);
	/* One row per rank, each its own. */
	assert_int_equal(res->per_rank->len, RANKS);
	for (unsigned r = 0; r < RANKS; r++) {
		const struct ab_rank_stat *rs = &g_array_index(res->per_rank, struct ab_rank_stat, r);
		assert_int_equal(rs->rank, r);
		assert_string_equal(rs->host, r < 2 ? "node-a" : "node-b");
		assert_int_equal(rs->workers, WORKERS);
		assert_int_equal(rs->bytes, WORKERS * GIB);
		assert_int_equal(rs->ops, WORKERS * (GIB / 8192));
		assert_near(rs->start_s, start_of(r, run));
		assert_near(rs->stop_s, stop_of(r, run));
		assert_near(rs->rate, (double)(WORKERS * GIB) / 1024.0 / (stop_of(r, run) - start_of(r, run)));
		assert_near(rs->cpu_s, WORKERS * 0.5);
		assert_near(rs->barrier_wait_s, (double)((300 - 100 * r) * US) / SEC);
		/* Twice as slow: half the median's rate, an outlier; the others
		 * are within a few parts in a thousand of it. */
		assert_int_equal(rs->outlier, r == SLOW);
	}
	assert_near(res->start_spread_s, 300e-6);
	assert_near(res->clock_bound_s, 30e-6);
	/* Lasting 4 s, far more than 100 x (30 us + 300 us): measurable, and
	 * bonnie++'s 0.5 s stays the bar. */
	assert_true(res->measurable);
	assert_near(res->min_measurable_s, AB_MIN_MEASURABLE_S);
}

/* The ranks' timebase is good to bound + spread: a phase must last 100
 * times that.  A 10 ms bound asks 1.03 s: 0.8 s (above bonnie++'s 0.5 s)
 * is too short, 2 s is not. */
static void test_too_short_for_timebase(void **state)
{
	(void)state;
	g_autofree struct ab_sample *s = make_samples(400 * MS, 10 * MS);
	g_autoptr(ab_result) res = merged(s, N);
	assert_true(res->elapsed_s > AB_MIN_MEASURABLE_S);
	assert_near(res->min_measurable_s, 100.0 * (10e-3 + 300e-6));
	assert_false(res->measurable);
	assert_int_equal(res->per_rank->len, RANKS);

	g_autofree struct ab_sample *longer = make_samples(1 * SEC, 10 * MS);
	g_autoptr(ab_result) ok = merged(longer, N);
	assert_near(ok->min_measurable_s, 100.0 * (10e-3 + 300e-6));
	assert_true(ok->measurable);
}

/* On one host (rank_plus_one 0): no rows, the two figures unknown, and
 * measurable by bonnie++'s bar alone. */
static void test_plain_merge(void **state)
{
	(void)state;
	g_autofree struct ab_sample *s = make_samples(2 * SEC, 30 * US);
	for (unsigned i = 0; i < N; i++)
		s[i].rank_plus_one = 0;
	g_autoptr(ab_result) res = merged(s, N);
	assert_int_equal(res->per_rank->len, 0);
	assert_true(isnan(res->clock_bound_s));
	assert_true(isnan(res->start_spread_s));
	assert_true(res->measurable);
	assert_near(res->min_measurable_s, AB_MIN_MEASURABLE_S);
	assert_int_equal(res->bytes, N * GIB);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_four_ranks),
		cmocka_unit_test(test_too_short_for_timebase),
		cmocka_unit_test(test_plain_merge),
	};
	return cmocka_run_group_tests_name("rank-merge", tests, NULL, NULL);
}
