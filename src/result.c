/* SPDX-License-Identifier: GPL-2.0-or-later */
#include "result.h"

#include "timing.h"

#include <string.h>

void ab_result_clear(struct ab_result *res)
{
	g_free(res->per_worker);
	memset(res, 0, sizeof(*res));
}

void ab_result_merge(const struct ab_phase *phase, const struct ab_sample *samples, unsigned n,
		     struct ab_result *res)
{
	ab_result_clear(res);
	ab_histogram_init(&res->latency);
	res->per_worker = g_new0(struct ab_worker_stat, n ? n : 1);
	uint64_t start = UINT64_MAX, end = 0, user = 0, sys = 0;
	for (unsigned i = 0; i < n; i++) {
		const struct ab_sample *sm = &samples[i];
		start = MIN(start, sm->start_ns);
		end = MAX(end, sm->end_ns);
		res->bytes += sm->bytes;
		res->ops += sm->ops;
		user += sm->user_ns;
		sys += sm->sys_ns;
		ab_histogram_merge(&res->latency, &sm->latency);
		res->per_worker[i] = (struct ab_worker_stat){
			.pid = sm->pid,
			.ops = sm->ops,
			.elapsed_s = sm->end_ns > sm->start_ns ? (double)(sm->end_ns - sm->start_ns) / AB_NS_PER_SEC : 0,
			.cpu_s = (double)(sm->user_ns + sm->sys_ns) / AB_NS_PER_SEC,
		};
	}
	res->ran = TRUE;
	res->phase = phase;
	res->workers = n;
	res->elapsed_s = end > start ? (double)(end - start) / AB_NS_PER_SEC : 0;
	res->measurable = res->elapsed_s >= AB_MIN_MEASURABLE_S;
	res->rate = ab_result_rate(phase, res->bytes, res->ops, res->elapsed_s);
	res->user_s = (double)user / AB_NS_PER_SEC;
	res->sys_s = (double)sys / AB_NS_PER_SEC;
	res->cpu_percent = res->elapsed_s > 0 ? 100.0 * (res->user_s + res->sys_s) / res->elapsed_s : 0;
}

void ab_run_clear(struct ab_run *run)
{
	for (unsigned i = 0; i < AB_PHASE_COUNT; i++)
		ab_result_clear(&run->results[i]);
	g_free(run->machine);
	g_free(run->dir);
	g_free(run->fs_type);
	g_free(run->image_dir_fs);
	g_free(run->kernel);
	g_free(run->cache_desc);
	g_free(run->cache_warning);
	memset(run, 0, sizeof(*run));
}

gboolean ab_run_ran_any(const struct ab_run *run, unsigned phase_flags)
{
	for (unsigned i = 0; i < AB_PHASE_COUNT; i++)
		if (run->results[i].ran && (run->results[i].phase->flags & phase_flags))
			return TRUE;
	return FALSE;
}

uint64_t ab_run_seeks(const struct ab_run *run)
{
	return run->results[AB_PHASE_SEEKS].ran && run->seeks_done ? run->seeks_done : run->cfg->seeks;
}

const char *ab_rate_unit_name(enum ab_rate_unit unit)
{
	switch (unit) {
	case AB_UNIT_KIB_PER_SEC: return "KiB/s";
	case AB_UNIT_SEEKS_PER_SEC: return "seeks/s";
	case AB_UNIT_FILES_PER_SEC: return "files/s";
	}
	return "?";
}

double ab_result_rate(const struct ab_phase *phase, uint64_t bytes, uint64_t ops, double elapsed_s)
{
	if (elapsed_s <= 0)
		return 0;
	if (phase->unit == AB_UNIT_KIB_PER_SEC)
		return (double)bytes / 1024.0 / elapsed_s;
	return (double)ops / elapsed_s;
}

void ab_result_describe_sync(const struct ab_phase *phase, const struct ab_config *cfg, char *out,
			     size_t len)
{
	const char *s;
	gboolean each = cfg->sync_each_write;
	switch (phase->id) {
	case AB_PHASE_BLOCK_WRITE:
	case AB_PHASE_REWRITE:
		s = each ? "fsync-each-write+fsync-close-timed" : "fsync-close-timed";
		break;
	case AB_PHASE_SEEKS:
		s = each ? "fsync-each-update+fsync-close-timed" : "fsync-close-timed";
		break;
	case AB_PHASE_SEQ_CREATE:
	case AB_PHASE_RAND_CREATE:
		s = each ? "fsync-file+dir-each+sync-timed" : "sync-timed";
		break;
	case AB_PHASE_SEQ_DELETE:
	case AB_PHASE_RAND_DELETE:
		s = each ? "fsync-dir-each+sync-timed" : "sync-timed";
		break;
	case AB_PHASE_SEQ_STAT:
	case AB_PHASE_RAND_STAT:
		s = "none";
		break;
	default:
		s = "fsync-close-timed";
		break;
	}
	g_strlcpy(out, s, len);
}
