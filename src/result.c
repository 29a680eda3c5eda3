/* SPDX-License-Identifier: GPL-2.0-or-later */
#include "result.h"

#include "timing.h"

#include <string.h>

void ab_latency_from_histogram(const struct ab_histogram *h, struct ab_latency *out)
{
	if (!h->count) {
		*out = (struct ab_latency){ AB_UNSET, AB_UNSET, NAN, AB_UNSET, AB_UNSET, AB_UNSET, AB_UNSET, AB_UNSET };
		return;
	}
	*out = (struct ab_latency){
		.samples = h->count,
		.min_ns = h->min_ns,
		.mean_ns = (double)h->sum_ns / (double)h->count,
		.p50_ns = ab_histogram_percentile(h, 50),
		.p90_ns = ab_histogram_percentile(h, 90),
		.p99_ns = ab_histogram_percentile(h, 99),
		.p99_9_ns = ab_histogram_percentile(h, 99.9),
		.max_ns = h->max_ns,
	};
}

void ab_result_merge(const struct ab_phase *phase, const struct ab_sample *samples, unsigned n,
		     struct ab_result *res)
{
	g_autofree struct ab_histogram *merged = g_new(struct ab_histogram, 1);
	ab_histogram_init(merged);
	g_array_set_size(res->per_worker, 0);
	uint64_t start = UINT64_MAX, end = 0, user = 0, sys = 0, bytes = 0, ops = 0;
	for (unsigned i = 0; i < n; i++) {
		const struct ab_sample *sm = &samples[i];
		start = MIN(start, sm->start_ns);
		end = MAX(end, sm->end_ns);
		bytes += sm->bytes;
		ops += sm->ops;
		user += sm->user_ns;
		sys += sm->sys_ns;
		ab_histogram_merge(merged, &sm->latency);
		struct ab_worker_stat w = {
			.pid = sm->pid,
			.ops = sm->ops,
			.elapsed_s = sm->end_ns > sm->start_ns ? (double)(sm->end_ns - sm->start_ns) / AB_NS_PER_SEC : 0,
			.cpu_s = (double)(sm->user_ns + sm->sys_ns) / AB_NS_PER_SEC,
		};
		g_array_append_val(res->per_worker, w);
	}
	res->bytes = bytes;
	res->ops = ops;
	res->workers = n;
	res->elapsed_s = end > start ? (double)(end - start) / AB_NS_PER_SEC : 0;
	res->min_measurable_s = AB_MIN_MEASURABLE_S;
	res->measurable = res->elapsed_s >= AB_MIN_MEASURABLE_S;
	res->rate = ab_phase_rate(phase, bytes, ops, res->elapsed_s);
	res->user_s = (double)user / AB_NS_PER_SEC;
	res->sys_s = (double)sys / AB_NS_PER_SEC;
	res->cpu_percent = res->elapsed_s > 0 ? 100.0 * (res->user_s + res->sys_s) / res->elapsed_s : 0;
	ab_latency_from_histogram(merged, &res->latency);
}

void ab_result_add_devices(struct ab_result *res, const struct ab_disk_set *delta)
{
	for (unsigned i = 0; i < delta->count; i++) {
		const struct ab_disk_counters *d = &delta->disk[i];
		struct ab_device_io io = {
			.name = g_strdup(d->name),
			.read_bytes = d->read_sectors * 512,
			.written_bytes = d->write_sectors * 512,
			.read_ios = d->read_ios,
			.write_ios = d->write_ios,
			.busy_ms = d->busy_ms,
		};
		g_array_append_val(res->devices, io);
	}
}
