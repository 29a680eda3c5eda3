/* SPDX-License-Identifier: GPL-2.0-or-later */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <cmocka.h>

#include <stdlib.h>

#include "../../src/base/histogram.h"

static struct ab_histogram *new_hist(void)
{
	struct ab_histogram *h = malloc(sizeof(*h));
	ab_histogram_init(h);
	return h;
}

static void test_buckets_cover_values(void **state)
{
	(void)state;
	/* Every value falls in a bucket whose bounds contain it, the bucket
	 * index grows with the value, and the width is at most 1/32 of it. */
	unsigned last = 0;
	for (uint64_t v = 0; v < (1ull << 43); v = v < 4096 ? v + 1 : v + v / 97) {
		unsigned b = ab_histogram_bucket_of(v);
		assert_true(b < AB_HIST_BUCKETS);
		assert_true(b >= last);
		last = b;
		assert_true(ab_histogram_bucket_low(b) <= v);
		assert_true(ab_histogram_bucket_high(b) >= v);
		uint64_t width = ab_histogram_bucket_high(b) - ab_histogram_bucket_low(b) + 1;
		if (v >= 64)
			assert_true(width * 32 <= v * 2);
	}
	assert_int_equal(ab_histogram_bucket_of(UINT64_MAX), AB_HIST_BUCKETS - 1);
}

static void test_percentiles(void **state)
{
	(void)state;
	struct ab_histogram *h = new_hist();
	assert_int_equal(ab_histogram_percentile(h, 50), 0);
	/* 1..10000 us */
	for (uint64_t i = 1; i <= 10000; i++)
		ab_histogram_record(h, i * 1000);
	assert_int_equal(h->count, 10000);
	assert_int_equal(h->max_ns, 10000000);
	assert_int_equal(h->min_ns, 1000);
	const double pct[] = { 50, 90, 99, 99.9 };
	for (int i = 0; i < 4; i++) {
		double want = pct[i] * 100 * 1000; /* ns */
		double got = (double)ab_histogram_percentile(h, pct[i]);
		assert_true(got >= want);
		assert_true(got <= want * (1 + 1.0 / 32) + 1);
	}
	assert_int_equal(ab_histogram_percentile(h, 100), 10000000);
	free(h);
}

static void test_merge(void **state)
{
	(void)state;
	struct ab_histogram *a = new_hist(), *b = new_hist(), *all = new_hist();
	for (uint64_t i = 0; i < 1000; i++) {
		ab_histogram_record(i % 2 ? a : b, 50000 + i * 37);
		ab_histogram_record(all, 50000 + i * 37);
	}
	ab_histogram_record(b, 7000000000ull);
	ab_histogram_record(all, 7000000000ull);
	struct ab_histogram *m = new_hist();
	ab_histogram_merge(m, a);
	ab_histogram_merge(m, b);
	assert_int_equal(m->count, all->count);
	assert_int_equal(m->max_ns, 7000000000ull);
	assert_int_equal(m->min_ns, all->min_ns);
	assert_int_equal(m->sum_ns, all->sum_ns);
	for (double p = 1; p <= 100; p += 1.5)
		assert_int_equal(ab_histogram_percentile(m, p), ab_histogram_percentile(all, p));
	free(a), free(b), free(all), free(m);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_buckets_cover_values),
		cmocka_unit_test(test_percentiles),
		cmocka_unit_test(test_merge),
	};
	return cmocka_run_group_tests_name("histogram", tests, NULL, NULL);
}
