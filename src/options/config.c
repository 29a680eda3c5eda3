/* SPDX-License-Identifier: GPL-2.0-or-later */
/* struct ab_config's defaults, its clearing and its modes' names (its
 * finishing is src/options/config-finish.c's). */
#include "config.h"
#include "../../workloads/oltp.h"
#include "../../workloads/sweep.h"
#include "../../workloads/curve-math.h"

#include <string.h>
#include <unistd.h>

void ab_config_init(struct ab_config *cfg)
{
	memset(cfg, 0, sizeof(*cfg));
	cfg->io_chunk = AB_DEFAULT_CHUNK;
	cfg->seeks = AB_DEFAULT_SEEKS;
	cfg->seekers = AB_DEFAULT_SEEKERS;
	cfg->num_files = AB_DEFAULT_NUM_FILES;
	cfg->num_dirs = 1;
	cfg->file_chunk = AB_DEFAULT_CHUNK;
	cfg->repeats = 1;
	cfg->byte_io_size = UINT64_MAX; /* "not given" until finished */
	cfg->per_char = AB_PER_CHAR_SYSCALL;
	cfg->data = AB_DATA_RANDOM;
	cfg->cache = AB_CACHE_AUTO;
	cfg->sweep_tests = AB_SWEEP_ALL_TESTS;
	cfg->stride = AB_DEFAULT_STRIDE;
	cfg->oltp_block = AB_OLTP_DEFAULT_BLOCK;
	cfg->oltp_read_pct = AB_OLTP_DEFAULT_READ_PCT;
	cfg->oltp_seconds = AB_OLTP_DEFAULT_SECONDS;
	cfg->curve_procs = AB_CURVE_DEFAULT_PROCS;
	cfg->curve_block = AB_CURVE_DEFAULT_BLOCK;
	cfg->curve_read_pct = AB_CURVE_DEFAULT_READ_PCT;
	cfg->rate_start = AB_CURVE_DEFAULT_RATE_START;
	cfg->rate_factor = AB_CURVE_DEFAULT_RATE_FACTOR;
	cfg->curve_seconds = AB_CURVE_DEFAULT_SECONDS;
	cfg->p99_target_ns = AB_CURVE_DEFAULT_P99_TARGET_NS;
	cfg->curve_steps = AB_CURVE_DEFAULT_STEPS;
}

void ab_config_clear(struct ab_config *cfg)
{
	g_free(cfg->dir);
	g_free(cfg->machine_name);
	g_free(cfg->csv_path);
	g_free(cfg->json_path);
	g_free(cfg->size_text);
	g_free(cfg->files_text);
	g_free(cfg->sweep_csv_path);
	ab_sweep_grid_clear(&cfg->sweep_grid);
	if (cfg->stream_counts)
		g_array_unref(cfg->stream_counts);
	if (cfg->wal_syncs)
		g_array_unref(cfg->wal_syncs);
	if (cfg->wal_commits)
		g_array_unref(cfg->wal_commits);
	if (cfg->oltp_proc_counts)
		g_array_unref(cfg->oltp_proc_counts);
	ab_target_spec_clear(&cfg->target);
	if (cfg->phase_ids)
		g_array_unref(cfg->phase_ids);
	if (cfg->steps)
		g_array_unref(cfg->steps);
	g_free(cfg->workload);
	g_free(cfg->step_where);
	if (cfg->step_configs)
		g_ptr_array_unref(cfg->step_configs);
	memset(cfg, 0, sizeof(*cfg));
}

void ab_config_free(gpointer cfg)
{
	ab_config_clear(cfg);
	g_free(cfg);
}

const char *ab_cache_mode_name(enum ab_cache_mode mode)
{
	switch (mode) {
	case AB_CACHE_CGROUP: return "cgroup";
	case AB_CACHE_DROP: return "drop";
	case AB_CACHE_NONE: return "none";
	case AB_CACHE_REMOUNT: return "remount";
	case AB_CACHE_FADVISE: return "fadvise";
	case AB_CACHE_AUTO: break;
	}
	return "auto";
}

const char *ab_mpi_layout_name(enum ab_mpi_layout layout)
{
	return layout == AB_MPI_LAYOUT_SHARED ? "shared" : layout == AB_MPI_LAYOUT_SHARED_FILE ? "shared-file" : "private";
}

const char *ab_per_char_mode_name(enum ab_per_char_mode mode)
{
	return mode == AB_PER_CHAR_STDIO ? "stdio" : "syscall";
}

const char *ab_data_mode_name(enum ab_data_mode mode)
{
	return mode == AB_DATA_ZEROS ? "zeros" : "random";
}
