/* SPDX-License-Identifier: GPL-2.0-or-later */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <cmocka.h>

#include <stdlib.h>
#include <string.h>

#include "../../workloads/record-order.h"

/* Record counts that catch off-by-ones and gcd cases: 0, 1, small, primes,
 * powers of two, multiples of the default stride 17. */
static const uint64_t sizes[] = {
	0, 1, 2, 3, 4, 5, 7, 8, 16, 17, 31, 34, 64, 97, 100, 127, 128,
	255, 256, 289, 1000, 1024, 4093, 4096, 65536,
};
#define N_SIZES (sizeof(sizes) / sizeof(sizes[0]))

/* Whether order[0..n-1] holds each of 0..n-1 exactly once. */
static int is_permutation(const uint64_t *order, uint64_t n)
{
	unsigned char *seen = calloc(n ? n : 1, 1);
	int ok = 1;
	for (uint64_t i = 0; i < n && ok; i++) {
		if (order[i] >= n || seen[order[i]])
			ok = 0;
		else
			seen[order[i]] = 1;
	}
	free(seen);
	return ok;
}

static void test_shuffle_is_permutation(void **state)
{
	(void)state;
	for (size_t k = 0; k < N_SIZES; k++) {
		uint64_t n = sizes[k];
		/* One guard entry past the end: n = 0 must write nothing and
		 * no n may write past order[n - 1]. */
		uint64_t *order = malloc((n + 1) * sizeof(*order));
		order[n] = 0xdeadbeef;
		for (uint64_t seed = 0; seed < 3; seed++) {
			ab_record_shuffle(order, n, seed);
			assert_true(is_permutation(order, n));
			assert_int_equal(order[n], 0xdeadbeef);
		}
		free(order);
	}
}

static void test_shuffle_shuffles(void **state)
{
	(void)state;
	/* A shuffle that left the identity would pass the permutation test;
	 * for 1000 records most of them must have moved. */
	uint64_t n = 1000, moved = 0;
	uint64_t *order = malloc(n * sizeof(*order));
	ab_record_shuffle(order, n, 42);
	for (uint64_t i = 0; i < n; i++)
		moved += order[i] != i;
	assert_true(moved > n / 2);
	free(order);
}

static void test_shuffle_uniform(void **state)
{
	(void)state;
	/* Fisher-Yates makes each of the 3! = 6 orders of 3 records equally
	 * likely; an off-by-one (Sattolo's variant) would never leave a record
	 * in place and makes only the 2 cyclic orders.  6000 seeds: each order
	 * about 1000 times; 800..1200 is over six standard deviations wide. */
	unsigned count[3][3][3] = { 0 };
	uint64_t o[3];
	for (uint64_t seed = 0; seed < 6000; seed++) {
		ab_record_shuffle(o, 3, seed);
		count[o[0]][o[1]][o[2]]++;
	}
	const uint64_t perms[6][3] = {
		{ 0, 1, 2 }, { 0, 2, 1 }, { 1, 0, 2 }, { 1, 2, 0 }, { 2, 0, 1 }, { 2, 1, 0 },
	};
	for (int p = 0; p < 6; p++) {
		unsigned c = count[perms[p][0]][perms[p][1]][perms[p][2]];
		assert_in_range(c, 800, 1200);
	}
}

static void test_shuffle_seed(void **state)
{
	(void)state;
	uint64_t n = 4096;
	uint64_t *a = malloc(n * sizeof(*a)), *b = malloc(n * sizeof(*b));

	ab_record_shuffle(a, n, 7);
	ab_record_shuffle(b, n, 7);
	assert_memory_equal(a, b, n * sizeof(*a));

	ab_record_shuffle(b, n, 8);
	assert_memory_not_equal(a, b, n * sizeof(*a));
	/* Not merely a rotation or a swap: most positions differ. */
	uint64_t same = 0;
	for (uint64_t i = 0; i < n; i++)
		same += a[i] == b[i];
	assert_true(same < n / 16);
	free(a);
	free(b);
}

/* The reads of a whole stride pass. */
static uint64_t *stride_pass(uint64_t n, uint64_t stride)
{
	uint64_t *order = malloc((n ? n : 1) * sizeof(*order));
	for (uint64_t i = 0; i < n; i++)
		order[i] = ab_stride_record(i, n, stride);
	return order;
}

static void test_stride_visits_each_once(void **state)
{
	(void)state;
	/* Strides coprime with n and sharing factors with it (2 with the
	 * powers of two, 17 with 34 and 289, 4096 = n), 0 and above n. */
	const uint64_t strides[] = { 0, 1, 2, 3, 4, 16, 17, 34, 64, 100, 4096, 70001 };
	for (size_t k = 0; k < N_SIZES; k++) {
		for (size_t s = 0; s < sizeof(strides) / sizeof(strides[0]); s++) {
			uint64_t *order = stride_pass(sizes[k], strides[s]);
			assert_true(is_permutation(order, sizes[k]));
			free(order);
		}
	}
}

static void test_stride_coprime_is_plain_modulo(void **state)
{
	(void)state;
	/* gcd(17, 100) = 1: the documented rule is (i * 17) mod 100. */
	for (uint64_t i = 0; i < 100; i++)
		assert_int_equal(ab_stride_record(i, 100, 17), i * 17 % 100);
	/* The first reads, worked by hand: 0, 17, ..., 85, then wrap to 2. */
	const uint64_t want[] = { 0, 17, 34, 51, 68, 85, 2, 19 };
	for (uint64_t i = 0; i < 8; i++)
		assert_int_equal(ab_stride_record(i, 100, 17), want[i]);
}

static void test_stride_wrap_advances_one(void **state)
{
	(void)state;
	/* n = 34, stride 17: gcd 17, 17 cycles of 2 reads; each cycle starts
	 * one record after the previous cycle's start. */
	const uint64_t want34[] = { 0, 17, 1, 18, 2, 19 };
	for (uint64_t i = 0; i < 6; i++)
		assert_int_equal(ab_stride_record(i, 34, 17), want34[i]);
	assert_int_equal(ab_stride_record(33, 34, 17), 33);

	/* n = 12, stride 8: s = 8, gcd 4, 4 cycles of 3 reads. */
	const uint64_t want12[] = { 0, 8, 4, 1, 9, 5, 2, 10, 6, 3, 11, 7 };
	for (uint64_t i = 0; i < 12; i++)
		assert_int_equal(ab_stride_record(i, 12, 8), want12[i]);

	/* A stride that is a multiple of n, and 0, read in order. */
	for (uint64_t i = 0; i < 16; i++) {
		assert_int_equal(ab_stride_record(i, 16, 16), i);
		assert_int_equal(ab_stride_record(i, 16, 0), i);
	}
}

static void test_stride_edges(void **state)
{
	(void)state;
	assert_int_equal(ab_stride_record(0, 0, 17), 0);
	assert_int_equal(ab_stride_record(5, 1, 17), 0);
	/* i past the pass repeats it. */
	assert_int_equal(ab_stride_record(100 + 3, 100, 17), ab_stride_record(3, 100, 17));
	/* Huge files: k * s would overflow 64 bits without 128-bit help.
	 * n = 2^63 + 1 (odd, so gcd with 2^62 is 1); read i is (i * 2^62) mod n,
	 * and 2^62 * 4 = 2^64 = 2 * (2^63 + 1) - 2, so read 4 is n - 2. */
	uint64_t n = (1ull << 63) + 1;
	assert_int_equal(ab_stride_record(4, n, 1ull << 62), n - 2);
	assert_int_equal(ab_stride_record(2, n, 1ull << 62), 1ull << 63);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_shuffle_is_permutation),
		cmocka_unit_test(test_shuffle_shuffles),
		cmocka_unit_test(test_shuffle_uniform),
		cmocka_unit_test(test_shuffle_seed),
		cmocka_unit_test(test_stride_visits_each_once),
		cmocka_unit_test(test_stride_coprime_is_plain_modulo),
		cmocka_unit_test(test_stride_wrap_advances_one),
		cmocka_unit_test(test_stride_edges),
	};
	return cmocka_run_group_tests_name("record-order", tests, NULL, NULL);
}
