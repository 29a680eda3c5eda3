/* SPDX-License-Identifier: GPL-2.0-or-later */
#include "suite.h"
#include "fsutil.h"
#include "rng.h"
#include "runner.h"
#include "../workloads/fileset.h"

#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

void ab_suite_init(struct ab_suite *s, const struct ab_config *cfg, const struct ab_cache *cache, FILE *progress)
{
	memset(s, 0, sizeof(*s));
	s->cfg = cfg;
	s->cache = cache;
	s->progress = progress;
	s->io_path = g_strdup_printf("%s/arraybench.%d", cfg->dir, (int)getpid());
	s->files_dir = g_strdup_printf("%s/arraybench.%d.d", cfg->dir, (int)getpid());
}

void ab_suite_cleanup_files(struct ab_suite *s)
{
	if (s->io_path)
		unlink(s->io_path);
	if (s->files_dir)
		ab_remove_tree(s->files_dir);
}

void ab_suite_clear(struct ab_suite *s)
{
	ab_suite_cleanup_files(s);
	g_free(s->io_path);
	g_free(s->files_dir);
	memset(s, 0, sizeof(*s));
}

static gboolean exists(const char *path)
{
	struct stat st;
	return lstat(path, &st) == 0;
}

static uint64_t phase_seed(uint64_t run_seed, unsigned id)
{
	uint64_t st = run_seed ^ ((uint64_t)id << 40);
	return ab_rng_splitmix(&st);
}

static gboolean run_untimed(struct ab_runner *r, const struct ab_phase *ph, uint64_t seed, GError **error)
{
	g_autofree struct ab_result *scratch = g_new0(struct ab_result, 1);
	return ab_runner_run_phase(r, ph, seed, scratch, error);
}

gboolean ab_suite_run(struct ab_suite *s, struct ab_run *run, GError **error)
{
	const struct ab_config *cfg = s->cfg;
	struct ab_runner r = {
		.cfg = cfg, .cache = s->cache, .io_path = s->io_path, .files_dir = s->files_dir,
		.disk_names = s->disk_names,
	};
	struct ab_file_set *seq = NULL, *rnd = NULL;
	gboolean ok = TRUE;
	for (unsigned id = 0; ok && id < AB_PHASE_COUNT; id++) {
		if (!(cfg->phase_mask & (1u << id)))
			continue;
		const struct ab_phase *ph = ab_phase_by_id(id);
		uint64_t seed = phase_seed(run->seed, id);
		if ((ph->flags & AB_PHASE_NEEDS_FILE) && !exists(s->io_path))
			ok = run_untimed(&r, &ab_phase_layout, seed, error);
		if (ok && (ph->flags & AB_PHASE_FILES)) {
			gboolean random_order = (ph->flags & AB_PHASE_RANDOM_ORDER) != 0;
			struct ab_file_set **set = random_order ? &rnd : &seq;
			if (random_order && seq) {
				/* Leftovers of the sequential group (no seq-delete asked for). */
				ab_remove_tree(s->files_dir);
				ab_file_set_free(g_steal_pointer(&seq));
			}
			if (!*set)
				*set = ab_file_set_new(cfg, random_order, seed);
			r.files = *set;
			if ((ph->flags & AB_PHASE_NEEDS_FILES) && !exists(s->files_dir))
				ok = run_untimed(&r, ab_phase_by_id(random_order ? AB_PHASE_RAND_CREATE
										  : AB_PHASE_SEQ_CREATE),
						 seed, error);
			if (random_order)
				ab_file_set_shuffle(*set, seed);
		}
		if (ok && (ph->flags & AB_PHASE_READS))
			ok = ab_cache_before_read(s->cache, (ph->flags & AB_PHASE_IO) ? s->io_path : NULL, error);
		if (ok && cfg->cache == AB_CACHE_REMOUNT && s->target)
			ok = ab_target_remount(s->target, error);
		if (!ok)
			break;
		if (s->progress) {
			fprintf(s->progress, "arraybench: phase '%s'...", ph->name);
			fflush(s->progress);
		}
		ok = ab_runner_run_phase(&r, ph, seed, &run->results[id], error);
		if (s->progress) {
			fprintf(s->progress, ok ? " done\n" : " failed\n");
			fflush(s->progress);
		}
	}
	ab_suite_cleanup_files(s);
	ab_file_set_free(seq);
	ab_file_set_free(rnd);
	return ok;
}
