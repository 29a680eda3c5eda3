/* SPDX-License-Identifier: GPL-2.0-or-later */
#include "histogram.h"

#include <math.h>
#include <string.h>

void ab_histogram_init(struct ab_histogram *h)
{
	memset(h, 0, sizeof(*h));
	h->min_ns = UINT64_MAX;
}

unsigned ab_histogram_bucket_of(uint64_t ns)
{
	if (ns < 2 * AB_HIST_SUB)
		return (unsigned)ns;
	unsigned msb = 63 - (unsigned)__builtin_clzll(ns);
	if (msb >= AB_HIST_MAX_BIT)
		return AB_HIST_BUCKETS - 1;
	unsigned shift = msb - AB_HIST_SUB_BITS;
	return 2 * AB_HIST_SUB + (shift - 1) * AB_HIST_SUB + (unsigned)((ns >> shift) - AB_HIST_SUB);
}

uint64_t ab_histogram_bucket_low(unsigned idx)
{
	if (idx < 2 * AB_HIST_SUB)
		return idx;
	unsigned shift = (idx - 2 * AB_HIST_SUB) / AB_HIST_SUB + 1;
	uint64_t sub = (idx - 2 * AB_HIST_SUB) % AB_HIST_SUB + AB_HIST_SUB;
	return sub << shift;
}

uint64_t ab_histogram_bucket_high(unsigned idx)
{
	if (idx < 2 * AB_HIST_SUB)
		return idx;
	unsigned shift = (idx - 2 * AB_HIST_SUB) / AB_HIST_SUB + 1;
	return ab_histogram_bucket_low(idx) + (1ull << shift) - 1;
}

void ab_histogram_merge(struct ab_histogram *into, const struct ab_histogram *from)
{
	if (!from->count)
		return;
	for (unsigned i = 0; i < AB_HIST_BUCKETS; i++)
		into->buckets[i] += from->buckets[i];
	into->count += from->count;
	into->sum_ns += from->sum_ns;
	if (from->max_ns > into->max_ns)
		into->max_ns = from->max_ns;
	if (from->min_ns < into->min_ns)
		into->min_ns = from->min_ns;
}

uint64_t ab_histogram_percentile(const struct ab_histogram *h, double pct)
{
	if (!h->count)
		return 0;
	uint64_t target = (uint64_t)ceil(pct / 100.0 * (double)h->count);
	if (target < 1)
		target = 1;
	uint64_t seen = 0;
	for (unsigned i = 0; i < AB_HIST_BUCKETS; i++) {
		seen += h->buckets[i];
		if (seen >= target) {
			uint64_t v = ab_histogram_bucket_high(i);
			if (v > h->max_ns)
				v = h->max_ns;
			if (v < h->min_ns)
				v = h->min_ns;
			return v;
		}
	}
	return h->max_ns;
}
