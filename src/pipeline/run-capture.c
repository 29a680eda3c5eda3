/* SPDX-License-Identifier: GPL-2.0-or-later */
#include "run-capture.h"
#include "../base/cluster.h"
#include "../base/rng.h"
#include "../base/sysinfo.h"
#include "../../fs-setup/backend.h"
#include "../../workloads/phase.h"

static const char *file_kind(int64_t file_max)
{
	return file_max == AB_FILES_HARDLINK ? "hardlink" : file_max == AB_FILES_SYMLINK ? "symlink" : "file";
}

static gboolean runs_bonnie_phase(const struct ab_config *cfg)
{
	for (guint i = 0; cfg->phase_ids && i < cfg->phase_ids->len; i++)
		if (g_array_index(cfg->phase_ids, unsigned, i) < AB_PHASE_COUNT)
			return TRUE;
	return FALSE;
}

/* Whose sizes a run states (JSON "config", the bonnie++ CSV line): a
 * profile's first step that runs one of bonnie++'s phases, else its first
 * step; without a profile the one config there is. */
static const struct ab_config *stated_config(const struct ab_config *cfg)
{
	if (runs_bonnie_phase(cfg))
		return cfg;
	for (guint i = 0; cfg->step_configs && i < cfg->step_configs->len; i++) {
		const struct ab_config *sub = g_ptr_array_index(cfg->step_configs, i);
		if (runs_bonnie_phase(sub))
			return sub;
	}
	return cfg;
}

/* The run's own facts from cfg, the sizes from the step that states them. */
static void capture_conditions(struct ab_conditions *c, const struct ab_config *run_cfg)
{
	const struct ab_config *cfg = stated_config(run_cfg);
	c->dir = g_strdup(run_cfg->dir);
	c->file_size = cfg->file_size;
	c->io_chunk = cfg->io_chunk;
	c->seeks = cfg->seeks; /* the seeks phase sets the count it reported */
	c->seeks_given = cfg->seeks_given;
	c->seekers = cfg->seekers;
	c->per_char_bytes = cfg->byte_io_size;
	c->per_char_mode = g_strdup(ab_per_char_mode_name(cfg->per_char));
	c->num_files_k = cfg->num_files;
	c->file_kind = g_strdup(file_kind(cfg->file_max));
	c->file_max = cfg->file_max > 0 ? (uint64_t)cfg->file_max : 0;
	c->file_min = cfg->file_min;
	c->num_dirs = cfg->num_dirs;
	c->file_chunk = cfg->file_chunk;
	c->ram_mib = cfg->ram_mib;
	c->ram_given = cfg->ram_given;
	c->repeats = cfg->repeats;
	c->data = g_strdup(ab_data_mode_name(cfg->data));
	c->direct = cfg->direct;
	c->sync_each_write = cfg->sync_each_write;
	c->cache_mode = g_strdup(ab_cache_mode_name(cfg->cache));
	c->cache_limits = g_strdup(ab_cache_limits(cfg->cache));
	c->cold_metadata = cfg->cold_metadata;
	c->stride = cfg->stride;
	c->files_per_stream = cfg->files_per_stream ? cfg->files_per_stream : 1;
	c->shared_file = cfg->shared_file;
	c->stonewall_time_s = cfg->stonewall_time_s;
	c->wearout = cfg->wearout;
}

static void capture_target(struct ab_target_desc *d, const struct ab_target *t, const struct ab_config *cfg)
{
	/* A target never built is what its spec makes of -d. */
	const struct ab_backend_ops *ops = t && t->backend ? t->backend : ab_backend_pick(&cfg->target, AB_FS_COUNT);
	gboolean built = ops->shape != AB_BACKEND_DIRECTORY;
	d->backend = g_strdup(ops->name);
	d->mount_dir = g_strdup(t && t->mount_dir ? t->mount_dir : cfg->dir);
	if (!built)
		return;
	d->level = g_strdup(t->level);
	d->chunk_bytes = t->chunk_bytes;
	d->layout = g_strdup(t->layout);
	d->fs = g_strdup(t->fs);
	d->source = g_strdup(t->source);
	for (guint i = 0; t->members && i < t->members->len; i++)
		g_ptr_array_add(d->members, g_strdup(g_ptr_array_index(t->members, i)));
	d->mkfs_command = g_strdup(t->mkfs_command);
	d->mount_options = g_strdup(t->mount_options);
	d->mount_effective = g_strdup(t->mount_effective);
	d->label = g_strdup(t->label);
	for (guint i = 0; t->queues && i < t->queues->len; i++) {
		const struct ab_queue_info *q = &g_array_index(t->queues, struct ab_queue_info, i);
		struct ab_queue_desc qd = {
			.name = g_strdup(q->name),
			.scheduler = g_strdup(q->scheduler),
			.read_ahead_kb = q->read_ahead_kb,
			.rotational = q->rotational,
			.logical_block_size = q->logical_block_size,
			.physical_block_size = q->physical_block_size,
		};
		g_array_append_val(d->queues, qd);
	}
}

char *ab_run_cache_warning(const struct ab_config *cfg, uint64_t ram_bytes)
{
	if (cfg->cache == AB_CACHE_CGROUP)
		return NULL;
	/* Only a step that reads the test file back can read it from the
	 * cache; of those, the smallest file is the one most likely held. */
	uint64_t smallest = 0;
	for (guint i = 0; cfg->steps && i < cfg->steps->len; i++) {
		const struct ab_step *st = &g_array_index(cfg->steps, struct ab_step, i);
		if ((st->phase->flags & AB_PHASE_READS) && st->file_size && (!smallest || st->file_size < smallest))
			smallest = st->file_size;
	}
	if (!smallest || smallest >= 2 * ram_bytes)
		return NULL;
	return g_strdup_printf("file %" G_GUINT64_FORMAT "M is under twice the RAM (%" G_GUINT64_FORMAT
			       "M) and --cache %s does not cap the page cache: read and seek rates may "
			       "measure memory, not the disk",
			       smallest / AB_MIB, ram_bytes / AB_MIB, ab_cache_mode_name(cfg->cache));
}

/* How the ranks ran: only on many ranks (arraybench-mpi). */
static void capture_ranks(struct ab_mpi_desc *m, const struct ab_config *cfg)
{
	if (!ab_cluster_is_mpi())
		return;
	const struct ab_cluster *c = ab_cluster_get();
	m->ranks = c->size;
	m->nodes = c->nodes;
	for (guint i = 0; i < c->hosts->len; i++)
		g_ptr_array_add(m->hosts, g_strdup(c->hosts->pdata[i]));
	m->library = g_strdup(c->library);
	m->layout = g_strdup(ab_mpi_layout_name(cfg->mpi_layout));
	m->reorder = cfg->reorder;
}

struct ab_run *ab_run_capture(const struct ab_config *cfg, const struct ab_cache *cache,
			      const struct ab_target *target, const char *run_id, unsigned index,
			      uint64_t ram_bytes)
{
	struct ab_run *run = ab_run_new();
	run->tool = g_strdup("arraybench");
	run->tool_version = g_strdup(AB_VERSION);
	run->run_id = g_strdup(run_id);
	run->repeat = index + 1;
	uint64_t st = cfg->seed + index;
	/* -x: a fresh seed each time, so repeats do not replay the same offsets
	 * and names into a warm cache as bonnie++'s do. */
	run->seed = index == 0 ? cfg->seed : ab_rng_splitmix(&st) >> 32;
	run->start_unix = g_get_real_time() / G_USEC_PER_SEC;
	run->concurrency = 1;
	run->machine = g_strdup(cfg->machine_name);
	run->host = g_strdup(g_get_host_name());
	run->workload = g_strdup(cfg->workload); /* NULL: no profile */
	run->kernel = ab_sysinfo_kernel();
	run->cpus = ab_sysinfo_cpu_count();
	run->ram_bytes = ram_bytes;
	run->fs_type = ab_sysinfo_fs_type(cfg->dir);
	run->cache_desc = ab_cache_describe(cache);
	run->cache_limit_bytes = cache->mode == AB_CACHE_CGROUP ? cache->limit_bytes : AB_UNSET;
	run->cache_warning = ab_run_cache_warning(cfg, ram_bytes); /* over every step */
	run->cache_controlled = run->cache_warning == NULL;
	capture_conditions(&run->cond, cfg);
	capture_target(&run->target, target, cfg);
	if (cfg->target.loop_count) {
		/* Images on a RAM file system would make the "array" RAM. */
		run->target.image_count = cfg->target.loop_count;
		run->target.image_size = cfg->target.loop_size;
		run->target.image_dir = g_strdup(cfg->target.loop_dir);
		run->target.image_dir_fs = ab_sysinfo_fs_type(cfg->target.loop_dir);
	} else {
		run->target.image_count = 0;
	}
	capture_ranks(&run->mpi, cfg);
	return run;
}

void ab_run_finish_ranks(struct ab_run *run)
{
	if (!ab_known(run->mpi.ranks))
		return;
	double bound = NAN, spread = NAN;
	for (guint i = 0; i < run->results->len; i++) {
		const struct ab_result *res = run->results->pdata[i];
		if (isfinite(res->clock_bound_s))
			bound = isnan(bound) ? res->clock_bound_s : MAX(bound, res->clock_bound_s);
		if (isfinite(res->start_spread_s))
			spread = isnan(spread) ? res->start_spread_s : MAX(spread, res->start_spread_s);
	}
	run->mpi.clock_bound_s = bound;
	run->mpi.start_spread_s = spread;
}
