/* SPDX-License-Identifier: GPL-2.0-or-later */
#include "steps.h"
#include "../../workloads/oltp.h"
#include "../../workloads/phase.h"
#include "../../workloads/sweep.h"
#include "../../workloads/wal.h"
#include "../base/timing.h"

#include <math.h>

/* The timing rule the three switches ask for (workloads/sweep.h). */
static unsigned sweep_timing(const struct ab_config *cfg)
{
	if (cfg->untimed_flush)
		return AB_SWEEP_TIME_NONE;
	if (cfg->include_fsync && cfg->include_close)
		return AB_SWEEP_TIME_FSYNC_CLOSE;
	if (cfg->include_fsync)
		return AB_SWEEP_TIME_FSYNC;
	if (cfg->include_close)
		return AB_SWEEP_TIME_CLOSE;
	return AB_SWEEP_TIME_FLUSH;
}

struct ab_step ab_step_from_config(const struct ab_config *cfg, const struct ab_phase *phase)
{
	return (struct ab_step){
		.phase = phase,
		.file_size = cfg->file_size,
		.io_chunk = cfg->io_chunk,
		.per_char_bytes = cfg->byte_io_size,
		.per_char = cfg->per_char,
		.seeks = cfg->seeks,
		.grow_seeks = !cfg->seeks_given,
		.seekers = cfg->seekers,
		.num_files_k = cfg->num_files,
		.file_max = cfg->file_max,
		.file_min = cfg->file_min,
		.num_dirs = cfg->num_dirs,
		.file_chunk = cfg->file_chunk,
		.data = cfg->data,
		.direct = cfg->direct,
		.sync_each_write = cfg->sync_each_write,
			/* --cache none leaves the page cache as bonnie++ does. */
		.evict_after_layout = cfg->cache != AB_CACHE_NONE,
		.sweep_grid = &cfg->sweep_grid,
		.sweep_tests = cfg->sweep_tests,
		.sweep_timing = sweep_timing(cfg),
		.stride = cfg->stride,
		.streams = 1,
		.stream_counts = cfg->stream_counts,
		.shared_file = cfg->shared_file,
		.files_per_stream = cfg->files_per_stream ? cfg->files_per_stream : 1,
		/* The deadline is the sweep's tests' only: the other phases of
		 * the run go on to their end. */
		.stonewall_ns = phase && phase->id == AB_PHASE_SWEEP
					? (uint64_t)llround(cfg->stonewall_time_s * AB_NS_PER_SEC) : 0,
		.wearout = phase && phase->id == AB_PHASE_SWEEP && cfg->wearout,
		.wal_syncs = cfg->wal_syncs,
		.wal_commits = cfg->wal_commits,
		.wal_writes = 1,
		.wal_write_size = AB_DEFAULT_CHUNK,
		.wal_writers = cfg->wal_writers ? cfg->wal_writers : 1,
		.wal_seconds = cfg->wal_seconds,
		.wal_count = cfg->wal_count,
		.wal_rewrite = cfg->wal_rewrite,
		.wal_log_size = AB_WAL_LOG_SIZE,
		/* The oltp phase: ab_config_finish set the data file's size. */
		.oltp_procs = cfg->oltp_proc_counts ? g_array_index(cfg->oltp_proc_counts, uint32_t, 0)
						    : AB_OLTP_DEFAULT_PROCS,
		.oltp_proc_counts = cfg->oltp_proc_counts,
		.oltp_block = cfg->oltp_block,
		.oltp_read_pct = cfg->oltp_read_pct,
		.oltp_size = cfg->oltp_size ? cfg->oltp_size : cfg->file_size,
		.oltp_sync_every = cfg->oltp_sync_every,
		.oltp_seconds = cfg->oltp_seconds,
		.curve_procs = cfg->curve_procs,
		.curve_block = cfg->curve_block,
		.curve_read_pct = cfg->curve_read_pct,
		.rate_start = cfg->rate_start,
		.rate_factor = cfg->rate_factor,
		.curve_seconds = cfg->curve_seconds,
		.p99_target_ns = cfg->p99_target_ns,
		.curve_steps = cfg->curve_steps,
		.curve_rate = cfg->rate_start,
		.curve_ios = 0,
	};
}

GArray *ab_steps_build(const struct ab_config *cfg)
{
	GArray *steps = g_array_new(FALSE, TRUE, sizeof(struct ab_step));
	for (guint i = 0; cfg->phase_ids && i < cfg->phase_ids->len; i++) {
		struct ab_step st = ab_step_from_config(cfg, ab_phase_by_id(g_array_index(cfg->phase_ids, unsigned, i)));
		g_array_append_val(steps, st);
	}
	return steps;
}
