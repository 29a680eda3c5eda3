/* SPDX-License-Identifier: GPL-2.0-or-later */
/* The oltp step: a cold data file, then each process count timed, its
 * reads and writes made results of their own. */
#include "oltp-run.h"
#include "../options/oltp-options.h"
#include "../base/error.h"
#include "../runner/progress.h"
#include "../base/rng.h"
#include "step-files.h"
#include "../../workloads/oltp.h"

#include <errno.h>
#include <fcntl.h>
#include <math.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/statvfs.h>
#include <unistd.h>

static const struct ab_phase *ab_oltp_phase(void)
{
	return ab_phase_by_id(AB_PHASE_OLTP);
}

char *ab_oltp_sync_mode(uint64_t sync_every)
{
	if (!sync_every)
		return g_strdup("none");
	return g_strdup_printf("fdatasync every %" G_GUINT64_FORMAT " write%s per process, timed with that write",
			       sync_every, sync_every == 1 ? "" : "s");
}

/* Is the test file already at least the data file's size? */
static gboolean data_ready(const struct ab_suite *s, uint64_t size)
{
	struct stat st;
	return fstatat(s->run_dir->dir_fd, s->run_dir->io_name, &st, AT_SYMLINK_NOFOLLOW) == 0 &&
	       S_ISREG(st.st_mode) && (uint64_t)st.st_size >= size;
}

/* The data file must fit (what the test file holds now is freed by the
 * layout, which truncates it): a layout that ends in ENOSPC after minutes
 * helps no one. */
static gboolean check_space(const struct ab_suite *s, const struct ab_step *step, GError **error)
{
	uint64_t free_bytes;
	if (!ab_step_files_room(s, TRUE, &free_bytes) || step->oltp_size <= free_bytes)
		return TRUE;
	g_autofree char *dir = ab_one_line(s->run_dir->dir);
	g_set_error(error, AB_ERROR, AB_ERROR_SKIPPED,
		    "%s: the %" G_GUINT64_FORMAT " MiB data file does not fit in '%s', which has %" G_GUINT64_FORMAT
		    " MiB free: give a smaller --oltp-size", step->phase->name, step->oltp_size / AB_MIB, dir,
		    free_bytes / AB_MIB);
	return FALSE;
}


/* What the workers of one role did: their own figures in `row`, which
 * holds the step's (system CPU, iowait, devices, the workers' lives). */
static void take_workers(struct ab_result *row, struct ab_result *merged)
{
	row->ops = merged->ops;
	row->bytes = merged->bytes;
	row->rate = merged->rate;
	row->workers = merged->workers;
	row->elapsed_s = merged->elapsed_s;
	row->measurable = merged->measurable;
	row->user_s = merged->user_s;
	row->sys_s = merged->sys_s;
	row->cpu_percent = merged->cpu_percent;
	row->latency = merged->latency;
	GArray *tmp = row->per_worker;
	row->per_worker = merged->per_worker;
	merged->per_worker = tmp;
	/* On many ranks: each rank's share of these workers, not of the step. */
	tmp = row->per_rank;
	row->per_rank = merged->per_rank;
	merged->per_rank = tmp;
	row->clock_bound_s = merged->clock_bound_s;
	row->start_spread_s = merged->start_spread_s;
	row->min_measurable_s = merged->min_measurable_s;
}

struct ab_sample *ab_samples_pick(const struct ab_sample *samples, unsigned n, unsigned ranks, unsigned from,
				  unsigned count)
{
	struct ab_sample *picked = g_new(struct ab_sample, (gsize)ranks * count + 1);
	for (unsigned r = 0; r < ranks; r++)
		memcpy(&picked[r * count], &samples[r * n + from], sizeof(struct ab_sample) * count);
	return picked;
}

void ab_oltp_split_samples(const struct ab_sample *all, unsigned per_rank, unsigned ranks, void *data)
{
	struct ab_oltp_split *sp = data;
	if (sp->from + sp->count > per_rank)
		return;
	g_autofree struct ab_sample *samples = ab_samples_pick(all, per_rank, ranks, sp->from, sp->count);
	unsigned n = sp->count * ranks;
	struct ab_sample *one = g_new(struct ab_sample, n);
	for (unsigned k = 0; k < 3; k++) {
		for (unsigned i = 0; i < n; i++) {
			one[i] = samples[i];
			if (k < 2) {
				one[i].ops = samples[i].kind[k].ops;
				one[i].bytes = samples[i].kind[k].bytes;
				one[i].latency = samples[i].kind[k].latency;
			}
		}
		g_clear_pointer(&sp->merged[k], ab_result_free);
		sp->merged[k] = ab_result_new(ab_oltp_phase()->name);
		ab_result_merge(ab_oltp_phase(), one, n, sp->merged[k]);
	}
	g_free(one);
}

void ab_oltp_split_clear(struct ab_oltp_split *sp)
{
	for (unsigned k = 0; k < 3; k++)
		g_clear_pointer(&sp->merged[k], ab_result_free);
}

static void describe(const struct ab_step *st, gboolean cold, struct ab_result *res)
{
	g_free(res->cache_state);
	g_free(res->cache_mode);
	g_free(res->sync_mode);
	res->cache_state = g_strdup(cold || st->direct ? "cold" : "warm");
	if (st->direct)
		res->cache_mode = g_strdup(cold ? "cold: the data file was written back and evicted, and O_DIRECT "
						  "bypasses the page cache"
						: "cold: O_DIRECT bypasses the page cache");
	else
		res->cache_mode = g_strdup(cold ? "cold: the data file was written back and evicted (fdatasync, "
						  "posix_fadvise DONTNEED) before the processes started"
						: "warm: --cache none evicts nothing");
	res->sync_mode = ab_oltp_sync_mode(st->oltp_sync_every);
	res->direct = st->direct;
	res->key.file_size = st->oltp_size;
	res->key.record_size = st->oltp_block;
	res->key.streams = st->oltp_procs;
}

void ab_oltp_add_rows(const struct ab_oltp_split *sp, const struct ab_result *step_res, const struct ab_step *st,
		      const struct ab_oltp_cold *cold, gboolean laid_out, const char *suffix, struct ab_run *run)
{
	static const char *const tests[3] = { "read", "write", "all" };
	for (unsigned k = 0; k < 3; k++) {
		if (!sp->merged[k])
			continue;
		struct ab_result *row = ab_result_dup(step_res);
		g_free(row->phase);
		row->phase = g_strdup(ab_oltp_phase()->name);
		take_workers(row, sp->merged[k]);
		describe(st, cold->evicted, row);
		row->resident_at_start = cold->resident;
		row->laid_out_untimed = laid_out;
		g_free(row->key.test);
		row->key.test = g_strconcat(tests[k], suffix, NULL);
		ab_run_add_result(run, row);
	}
}

gboolean ab_oltp_make_cold(struct ab_suite *s, const struct ab_step *st, struct ab_oltp_cold *out, GError **error)
{
	/* The file's dirty pages (the last count's writes) written back, then
	 * all its pages dropped: the processes start from the device, as the
	 * sweep's cold reads do. */
	const struct ab_run_dir *rd = s->run_dir;
	out->evicted = s->cfg->cache != AB_CACHE_NONE;
	if (out->evicted && !ab_step_files_evict(rd->dir_fd, rd->io_name, rd->io_path, rd->io_owner, error))
		return FALSE;
	out->resident = ab_step_files_share(rd->dir_fd, rd->io_name, rd->io_path, rd->io_owner, st->oltp_size, NULL);
	return TRUE;
}

static gboolean run_count(struct ab_suite *s, struct ab_runner *r, const struct ab_step *st, uint64_t seed,
			  gboolean laid_out, struct ab_run *run, GError **error)
{
	struct ab_oltp_cold cold;
	if (!ab_oltp_make_cold(s, st, &cold, error))
		return FALSE;
	g_autoptr(ab_result) res = ab_result_new(st->phase->name);
	struct ab_oltp_split sp = { .from = 0, .count = st->oltp_procs };
	g_autofree char *detail = g_strdup_printf("%u process%s, %us", st->oltp_procs,
						  st->oltp_procs == 1 ? "" : "es", st->oltp_seconds);
	ab_progress_phase_begin(st->phase->name, detail, "I/Os");
	gboolean ok = ab_runner_run_step_samples(r, st, seed, res, ab_oltp_split_samples, &sp, error);
	ab_progress_phase_end(ok, ok ? res->rate : NAN);
	if (ok)
		ab_oltp_add_rows(&sp, res, st, &cold, laid_out, "", run);
	else
		g_prefix_error(error, "oltp with %u process%s: ", st->oltp_procs, st->oltp_procs == 1 ? "" : "es");
	ab_oltp_split_clear(&sp);
	return ok;
}

gboolean ab_oltp_lay_out(struct ab_suite *s, struct ab_runner *r, const struct ab_step *step, uint64_t seed,
			 gboolean *laid_out, GError **error)
{
	if (data_ready(s, step->oltp_size)) {
		*laid_out = s->io_from_layout;
		return TRUE;
	}
	if (!check_space(s, step, error))
		return FALSE;
	/* Incompressible blocks (unless --data zeros), as every phase's file:
	 * a compressing file system must not answer from air. */
	struct ab_step lay = *step;
	lay.phase = &ab_phase_layout;
	lay.file_size = step->oltp_size;
	lay.evict_after_layout = TRUE;
	g_autoptr(ab_result) scratch = ab_result_new(ab_phase_layout.name);
	g_autofree char *detail = g_strdup_printf("(untimed, for '%s')", step->phase->name);
	ab_progress_phase_begin(ab_phase_layout.name, detail, NULL);
	gboolean ok = ab_runner_run_step(r, &lay, seed ^ 1, scratch, error);
	ab_progress_phase_end(ok, NAN);
	if (ok)
		s->io_from_layout = *laid_out = TRUE;
	else
		g_prefix_error(error, "%s: laying out the %" G_GUINT64_FORMAT " MiB data file: ", step->phase->name,
			       step->oltp_size / AB_MIB);
	return ok;
}

gboolean ab_oltp_run(struct ab_suite *s, struct ab_runner *r, const struct ab_step *step, uint64_t seed,
		     struct ab_run *run, GError **error)
{
	gboolean laid_out = FALSE;
	if (!ab_oltp_lay_out(s, r, step, seed, &laid_out, error))
		return FALSE;
	const GArray *counts = step->oltp_proc_counts;
	guint n = counts && counts->len ? counts->len : 1;
	for (guint i = 0; i < n; i++) {
		struct ab_step st = *step;
		st.oltp_procs = counts && counts->len ? g_array_index(counts, uint32_t, i) : step->oltp_procs;
		uint64_t state = seed ^ ((uint64_t)st.oltp_procs << 32);
		if (!run_count(s, r, &st, ab_rng_splitmix(&state), laid_out, run, error))
			return FALSE;
	}
	return TRUE;
}

const struct ab_phase_driver ab_oltp_driver = {
	.phase_id = AB_PHASE_OLTP,
	.run = ab_oltp_run,
};
