/* SPDX-License-Identifier: GPL-2.0-or-later */
#include "result.h"
#include "rank-merge.h"

#include "stonewall.h"
#include "../base/timing.h"

#include <math.h>
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

/* Bytes/s in the phase's unit (KiB/s; the others count operations, which
 * no phase runs as streams). */
static double unit_rate(const struct ab_phase *phase, double bytes_per_s)
{
	return phase->unit == AB_UNIT_KIB_PER_SEC ? bytes_per_s / 1024.0 : NAN;
}

/* The two figures of concurrent streams, when the workers kept a stonewall. */
static void merge_stonewall(const struct ab_phase *phase, const struct ab_sample *samples, unsigned n,
			    struct ab_result *res)
{
	for (unsigned i = 0; i < n; i++)
		if (!samples[i].stonewalled)
			return;
	if (!n)
		return;
	g_autofree struct ab_stonewall_sample *w = g_new(struct ab_stonewall_sample, n);
	for (unsigned i = 0; i < n; i++)
		w[i] = (struct ab_stonewall_sample){ samples[i].start_ns, samples[i].end_ns, samples[i].bytes,
						      samples[i].bytes_at_stonewall };
	struct ab_stonewall sw;
	ab_stonewall_compute(w, n, &sw);
	res->stonewall_rate = unit_rate(phase, sw.stonewall_rate);
	/* The same span and bytes as rate, which ab_result_merge set: the same
	 * figure to the last bit, whichever way it is rounded. */
	res->end_to_end_rate = isnan(sw.end_to_end_rate) ? NAN : res->rate;
	res->min_worker_rate = unit_rate(phase, sw.min_rate);
	res->max_worker_rate = unit_rate(phase, sw.max_rate);
	res->min_bytes_at_stonewall = sw.min_bytes_at_stonewall;
	for (unsigned i = 0; i < n && i < res->per_worker->len; i++) {
		struct ab_worker_stat *ws = &g_array_index(res->per_worker, struct ab_worker_stat, i);
		if (ab_known(sw.stonewall_ns) && sw.stonewall_ns > samples[i].start_ns)
			ws->stonewall_rate = unit_rate(phase, (double)samples[i].bytes_at_stonewall * AB_NS_PER_SEC /
							      (double)(sw.stonewall_ns - samples[i].start_ns));
	}
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
			.bytes = sm->bytes,
			.elapsed_s = sm->end_ns > sm->start_ns ? (double)(sm->end_ns - sm->start_ns) / AB_NS_PER_SEC : 0,
			.cpu_s = (double)(sm->user_ns + sm->sys_ns) / AB_NS_PER_SEC,
			.bytes_at_stonewall = sm->stonewalled ? sm->bytes_at_stonewall : AB_UNSET,
			.stonewall_rate = NAN,
			.bytes_at_deadline = sm->deadline_state ? sm->bytes_at_deadline : AB_UNSET,
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
	merge_stonewall(phase, samples, n, res);
	if (phase->flags & AB_PHASE_OPEN_LOOP) {
		uint64_t late = 0, most = 0;
		for (unsigned i = 0; i < n; i++) {
			late += samples[i].late_ops;
			most = MAX(most, samples[i].max_late_ns);
		}
		res->late_ops = late;
		res->max_late_s = (double)most / AB_NS_PER_SEC;
	}
	ab_result_merge_ranks(phase, samples, n, res);
}

void ab_result_merge_deadline(const struct ab_phase *phase, const struct ab_sample *samples, unsigned n,
			       double seconds, struct ab_result *res)
{
	g_autofree uint64_t *at = g_new0(uint64_t, n ? n : 1);
	/* The rate is over the time until the last count was taken, never
	 * the deadline's seconds alone: a worker's count is taken when its
	 * record under way at the deadline ends (a large record on a slow
	 * disk ends well after it), and one that ended its work first counts
	 * at its end (with no worker cut, the deadline's seconds would be a
	 * rate of a time nobody took).  A cut worker's time is S at least. */
	double counted = 0;
	for (unsigned i = 0; i < n; i++) {
		/* A worker with no deadline noted failed before it: no figure. */
		if (!samples[i].deadline_state)
			return;
		at[i] = samples[i].bytes_at_deadline;
		double t = (double)samples[i].deadline_counted_ns / AB_NS_PER_SEC;
		counted = MAX(counted, samples[i].deadline_state == AB_DEADLINE_CUT ? MAX(t, seconds) : t);
	}
	struct ab_deadline d;
	ab_deadline_compute(at, n, counted, &d);
	res->deadline_counted_s = counted;
	res->min_bytes_at_deadline = d.min_bytes;
	res->max_bytes_at_deadline = d.max_bytes;
	res->deadline_rate = unit_rate(phase, d.rate);
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
