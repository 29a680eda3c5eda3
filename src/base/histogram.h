/* SPDX-License-Identifier: GPL-2.0-or-later */
#ifndef AB_HISTOGRAM_H
#define AB_HISTOGRAM_H

#include <stdint.h>

/*
 * Log-linear latency histogram in nanoseconds: values below 64 ns are exact,
 * above that every power of two is split into 32 linear buckets, so a
 * reported percentile is within 1/32 (3.1%) of the true value.  It is plain
 * data with no pointers so it can live in a shared-memory worker slot, and
 * histograms of several workers merge by adding counts.
 */
#define AB_HIST_SUB_BITS 5
#define AB_HIST_SUB (1u << AB_HIST_SUB_BITS)
#define AB_HIST_MAX_BIT 44 /* 2^44 ns is about 4.9 hours: clamp above */
#define AB_HIST_BUCKETS (2 * AB_HIST_SUB + (AB_HIST_MAX_BIT - AB_HIST_SUB_BITS - 1) * AB_HIST_SUB)

struct ab_histogram {
	uint64_t count;
	uint64_t sum_ns;
	uint64_t min_ns;
	uint64_t max_ns;
	uint64_t buckets[AB_HIST_BUCKETS];
};

void ab_histogram_init(struct ab_histogram *h);
unsigned ab_histogram_bucket_of(uint64_t ns);
uint64_t ab_histogram_bucket_low(unsigned idx);
uint64_t ab_histogram_bucket_high(unsigned idx); /* inclusive */

static inline void ab_histogram_record(struct ab_histogram *h, uint64_t ns)
{
	h->buckets[ab_histogram_bucket_of(ns)]++;
	h->count++;
	h->sum_ns += ns;
	if (ns > h->max_ns)
		h->max_ns = ns;
	if (ns < h->min_ns)
		h->min_ns = ns;
}

void ab_histogram_merge(struct ab_histogram *into, const struct ab_histogram *from);
/* Value at or below which pct percent of samples fall (0 < pct <= 100);
 * the bucket's upper bound, never above the exact maximum.  0 if empty. */
uint64_t ab_histogram_percentile(const struct ab_histogram *h, double pct);

#endif
