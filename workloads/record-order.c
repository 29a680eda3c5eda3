/* SPDX-License-Identifier: GPL-2.0-or-later */
#include "record-order.h"

#include "../src/base/rng.h"

/* The rng stream of record orders, apart from the data buffers' and the
 * seekers', so the order is not correlated with what is written. */
#define RECORD_ORDER_STREAM 0x0d3e5u

void ab_record_shuffle(uint64_t *order, uint64_t n, uint64_t seed)
{
	struct ab_rng rng;

	ab_rng_init(&rng, seed, RECORD_ORDER_STREAM);
	for (uint64_t i = 0; i < n; i++)
		order[i] = i;
	/* Fisher-Yates from the top: each of the n! orders equally likely
	 * (up to ab_rng_below()'s negligible bias). */
	for (uint64_t i = n; i > 1; i--) {
		uint64_t j = ab_rng_below(&rng, i);
		uint64_t t = order[i - 1];
		order[i - 1] = order[j];
		order[j] = t;
	}
}

static uint64_t gcd(uint64_t a, uint64_t b)
{
	while (b) {
		uint64_t t = a % b;
		a = b;
		b = t;
	}
	return a;
}

uint64_t ab_stride_record(uint64_t i, uint64_t n, uint64_t stride)
{
	if (n == 0)
		return 0;
	uint64_t s = stride % n;
	uint64_t g = s ? gcd(n, s) : n;
	uint64_t cycle_len = n / g;

	i %= n;
	uint64_t cycle = i / cycle_len;
	uint64_t k = i % cycle_len;
	/* k and s are below n, so k * s needs up to 128 bits for huge n. */
	uint64_t step = (uint64_t)(((unsigned __int128)k * s) % n);
	/* step is a multiple of g below n, so at most n - g, and cycle < g:
	 * the sum is below n without another reduction. */
	return cycle + step;
}
