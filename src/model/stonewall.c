/* SPDX-License-Identifier: GPL-2.0-or-later */
#include "stonewall.h"

#include <math.h>

#include "../base/timing.h"

/* Bytes over a span of ns as bytes/s; the caller made sure the span is > 0. */
static double rate_of(uint64_t bytes, uint64_t span_ns)
{
	return (double)bytes * AB_NS_PER_SEC / (double)span_ns;
}

void ab_stonewall_compute(const struct ab_stonewall_sample *w, size_t n,
			  struct ab_stonewall *out)
{
	*out = (struct ab_stonewall){
		.stonewall_rate = NAN,
		.end_to_end_rate = NAN,
		.min_rate = NAN,
		.max_rate = NAN,
		.min_bytes_at_stonewall = AB_UNSET,
		.stonewall_ns = AB_UNSET,
	};
	if (n == 0)
		return;

	uint64_t first_start = w[0].start_ns, first_end = w[0].end_ns;
	uint64_t last_end = w[0].end_ns, min_bytes = w[0].bytes_at_stonewall;
	uint64_t total = 0;
	for (size_t i = 0; i < n; i++) {
		if (w[i].start_ns < first_start)
			first_start = w[i].start_ns;
		if (w[i].end_ns < first_end)
			first_end = w[i].end_ns;
		if (w[i].end_ns > last_end)
			last_end = w[i].end_ns;
		if (w[i].bytes_at_stonewall < min_bytes)
			min_bytes = w[i].bytes_at_stonewall;
		total += w[i].bytes;
	}
	out->stonewall_ns = first_end;
	out->min_bytes_at_stonewall = min_bytes;
	out->total_bytes = total;
	if (last_end > first_start)
		out->end_to_end_rate = rate_of(total, last_end - first_start);

	size_t timed = 0;
	double sum = 0;
	for (size_t i = 0; i < n; i++) {
		if (first_end <= w[i].start_ns) {
			out->untimed++;
			continue;
		}
		double r = rate_of(w[i].bytes_at_stonewall, first_end - w[i].start_ns);
		sum += r;
		if (timed == 0 || r < out->min_rate)
			out->min_rate = r;
		if (timed == 0 || r > out->max_rate)
			out->max_rate = r;
		timed++;
	}
	if (timed)
		out->stonewall_rate = sum;
}

void ab_deadline_compute(const uint64_t *bytes_at_deadline, size_t n, double seconds,
			 struct ab_deadline *out)
{
	*out = (struct ab_deadline){ .min_bytes = AB_UNSET, .max_bytes = AB_UNSET, .rate = NAN };
	if (n == 0)
		return;
	out->min_bytes = out->max_bytes = bytes_at_deadline[0];
	for (size_t i = 0; i < n; i++) {
		out->min_bytes = MIN(out->min_bytes, bytes_at_deadline[i]);
		out->max_bytes = MAX(out->max_bytes, bytes_at_deadline[i]);
		out->sum_bytes += bytes_at_deadline[i];
	}
	if (seconds > 0)
		out->rate = (double)out->sum_bytes / seconds;
}

uint64_t ab_wearout_target(const uint64_t *counts, size_t n)
{
	uint64_t most = 0;
	for (size_t i = 0; i < n; i++)
		most = MAX(most, counts[i]);
	return most;
}
