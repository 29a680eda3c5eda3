/* SPDX-License-Identifier: GPL-2.0-or-later */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <cmocka.h>

#include <math.h>

#include "../../src/model/stonewall.h"

#define S 1000000000ull /* ns per second */
#define MB 1000000ull

/* Rates are computed in double from exact integers; allow rounding only. */
static void assert_rate(double got, double want)
{
	assert_false(isnan(got));
	assert_true(fabs(got - want) <= want * 1e-12);
}

static void test_three_workers(void **state)
{
	(void)state;
	/* Worked by hand.  a ends first, at 2 s: the stonewall.
	 *   a: 0..2 s, 200 MB, 200 MB by 2 s -> 200 MB / 2 s = 100 MB/s
	 *   b: 0..4 s, 400 MB, 100 MB by 2 s -> 100 MB / 2 s =  50 MB/s
	 *   c: 1..3 s, 300 MB, 150 MB by 2 s -> 150 MB / 1 s = 150 MB/s
	 * stonewall rate 300 MB/s; end to end 900 MB / (4 s - 0 s) = 225 MB/s. */
	const struct ab_stonewall_sample w[] = {
		{ .start_ns = 0, .end_ns = 2 * S, .bytes = 200 * MB, .bytes_at_stonewall = 200 * MB },
		{ .start_ns = 0, .end_ns = 4 * S, .bytes = 400 * MB, .bytes_at_stonewall = 100 * MB },
		{ .start_ns = 1 * S, .end_ns = 3 * S, .bytes = 300 * MB, .bytes_at_stonewall = 150 * MB },
	};
	struct ab_stonewall sw;
	ab_stonewall_compute(w, 3, &sw);
	assert_rate(sw.stonewall_rate, 300e6);
	assert_rate(sw.end_to_end_rate, 225e6);
	assert_rate(sw.min_rate, 50e6);
	assert_rate(sw.max_rate, 150e6);
	assert_int_equal(sw.min_bytes_at_stonewall, 100 * MB);
	assert_int_equal(sw.stonewall_ns, 2 * S);
	assert_int_equal(sw.total_bytes, 900 * MB);
	assert_int_equal(sw.untimed, 0);
}

static void test_order_does_not_matter(void **state)
{
	(void)state;
	/* Same workers, the first to end listed last, on a clock far from 0. */
	const uint64_t t0 = 123456789 * S;
	const struct ab_stonewall_sample w[] = {
		{ .start_ns = t0 + S, .end_ns = t0 + 3 * S, .bytes = 300 * MB, .bytes_at_stonewall = 150 * MB },
		{ .start_ns = t0, .end_ns = t0 + 4 * S, .bytes = 400 * MB, .bytes_at_stonewall = 100 * MB },
		{ .start_ns = t0, .end_ns = t0 + 2 * S, .bytes = 200 * MB, .bytes_at_stonewall = 200 * MB },
	};
	struct ab_stonewall sw;
	ab_stonewall_compute(w, 3, &sw);
	assert_rate(sw.stonewall_rate, 300e6);
	assert_rate(sw.end_to_end_rate, 225e6);
	assert_rate(sw.min_rate, 50e6);
	assert_rate(sw.max_rate, 150e6);
	assert_int_equal(sw.stonewall_ns, t0 + 2 * S);
}

static void test_one_worker(void **state)
{
	(void)state;
	/* Alone, a worker is its own stonewall: both rates are bytes / time. */
	const struct ab_stonewall_sample w = {
		.start_ns = 10 * S, .end_ns = 14 * S, .bytes = 1000 * MB, .bytes_at_stonewall = 1000 * MB,
	};
	struct ab_stonewall sw;
	ab_stonewall_compute(&w, 1, &sw);
	assert_rate(sw.stonewall_rate, 250e6);
	assert_rate(sw.end_to_end_rate, 250e6);
	assert_rate(sw.min_rate, 250e6);
	assert_rate(sw.max_rate, 250e6);
	assert_int_equal(sw.min_bytes_at_stonewall, 1000 * MB);
}

static void test_no_workers(void **state)
{
	(void)state;
	struct ab_stonewall sw;
	ab_stonewall_compute(NULL, 0, &sw);
	assert_true(isnan(sw.stonewall_rate));
	assert_true(isnan(sw.end_to_end_rate));
	assert_true(isnan(sw.min_rate));
	assert_true(isnan(sw.max_rate));
	assert_int_equal(sw.min_bytes_at_stonewall, AB_UNSET);
	assert_int_equal(sw.stonewall_ns, AB_UNSET);
	assert_int_equal(sw.total_bytes, 0);
	assert_int_equal(sw.untimed, 0);
}

static void test_zero_durations(void **state)
{
	(void)state;
	/* Every stamp equal (a coarse clock, or nothing to do): no span to
	 * divide by, so every rate is unknown, not 0 and not infinite. */
	const struct ab_stonewall_sample w[] = {
		{ .start_ns = 5 * S, .end_ns = 5 * S, .bytes = 4096, .bytes_at_stonewall = 4096 },
		{ .start_ns = 5 * S, .end_ns = 5 * S, .bytes = 0, .bytes_at_stonewall = 0 },
	};
	struct ab_stonewall sw;
	ab_stonewall_compute(w, 2, &sw);
	assert_true(isnan(sw.stonewall_rate));
	assert_true(isnan(sw.end_to_end_rate));
	assert_true(isnan(sw.min_rate));
	assert_true(isnan(sw.max_rate));
	assert_int_equal(sw.untimed, 2);
	assert_int_equal(sw.min_bytes_at_stonewall, 0);
	assert_int_equal(sw.total_bytes, 4096);
}

static void test_worker_started_after_stonewall(void **state)
{
	(void)state;
	/* b was released only when a had ended (at 2 s): it has no time before
	 * the stonewall, so it is left out of the stonewall rates and counted
	 * untimed, but its 0 bytes are still the least work at the stonewall
	 * and its bytes count end to end: 300 MB / (6 s - 0 s) = 50 MB/s. */
	const struct ab_stonewall_sample w[] = {
		{ .start_ns = 0, .end_ns = 2 * S, .bytes = 100 * MB, .bytes_at_stonewall = 100 * MB },
		{ .start_ns = 2 * S, .end_ns = 6 * S, .bytes = 200 * MB, .bytes_at_stonewall = 0 },
	};
	struct ab_stonewall sw;
	ab_stonewall_compute(w, 2, &sw);
	assert_rate(sw.stonewall_rate, 50e6);
	assert_rate(sw.min_rate, 50e6);
	assert_rate(sw.max_rate, 50e6);
	assert_rate(sw.end_to_end_rate, 50e6);
	assert_int_equal(sw.untimed, 1);
	assert_int_equal(sw.min_bytes_at_stonewall, 0);
}

/* IOR's stonewalling: worked by hand.  A 2 s deadline; three workers had
 * done 100, 40 and 60 MB by it: least 40, most 100, rate at the deadline
 * 200 MB / 2 s = 100 MB/s.  Wear-out takes every worker to 100 MB. */
static void test_deadline(void **state)
{
	(void)state;
	const uint64_t at[] = { 100 * MB, 40 * MB, 60 * MB };
	struct ab_deadline d;
	ab_deadline_compute(at, 3, 2.0, &d);
	assert_int_equal(d.min_bytes, 40 * MB);
	assert_int_equal(d.max_bytes, 100 * MB);
	assert_int_equal(d.sum_bytes, 200 * MB);
	assert_rate(d.rate, 100e6);
	assert_int_equal(ab_wearout_target(at, 3), 100 * MB);
	/* The ranks' own largest counts: the largest of those. */
	const uint64_t ranks[] = { 7 * MB, 0, 9 * MB, 8 * MB };
	assert_int_equal(ab_wearout_target(ranks, 4), 9 * MB);
	/* Nothing to say for no worker: unknown, never 0. */
	ab_deadline_compute(NULL, 0, 2.0, &d);
	assert_false(ab_known(d.min_bytes));
	assert_false(ab_known(d.max_bytes));
	assert_true(isnan(d.rate));
	assert_int_equal(ab_wearout_target(NULL, 0), 0);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_three_workers),
		cmocka_unit_test(test_order_does_not_matter),
		cmocka_unit_test(test_one_worker),
		cmocka_unit_test(test_no_workers),
		cmocka_unit_test(test_zero_durations),
		cmocka_unit_test(test_worker_started_after_stonewall),
		cmocka_unit_test(test_deadline),
	};
	return cmocka_run_group_tests_name("stonewall", tests, NULL, NULL);
}
