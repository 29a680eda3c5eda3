/* SPDX-License-Identifier: GPL-2.0-or-later */
/* One versioned JSON object per run: config, environment, and every phase
 * with its rate, CPU, latency percentiles, and cache and sync mode. */
#include "report.h"

#include <json-glib/json-glib.h>

#define AB_JSON_FORMAT_VERSION 1

static void member_str(JsonBuilder *b, const char *key, const char *value)
{
	json_builder_set_member_name(b, key);
	if (value)
		json_builder_add_string_value(b, value);
	else
		json_builder_add_null_value(b);
}

static void member_int(JsonBuilder *b, const char *key, int64_t value)
{
	json_builder_set_member_name(b, key);
	json_builder_add_int_value(b, value);
}

static void member_double(JsonBuilder *b, const char *key, double value)
{
	json_builder_set_member_name(b, key);
	json_builder_add_double_value(b, value);
}

static void member_bool(JsonBuilder *b, const char *key, gboolean value)
{
	json_builder_set_member_name(b, key);
	json_builder_add_boolean_value(b, value);
}

static void add_config(JsonBuilder *b, const struct ab_run *run)
{
	const struct ab_config *cfg = run->cfg;
	json_builder_set_member_name(b, "config");
	json_builder_begin_object(b);
	member_str(b, "dir", cfg->dir);
	member_int(b, "file_size_bytes", (int64_t)cfg->file_size);
	member_int(b, "io_chunk_bytes", cfg->io_chunk);
	member_int(b, "seeks", (int64_t)ab_run_seeks(run));
	member_bool(b, "seeks_given", cfg->seeks_given);
	member_int(b, "seekers", cfg->seekers);
	member_int(b, "per_char_bytes", (int64_t)cfg->byte_io_size);
	member_str(b, "per_char_mode", ab_per_char_mode_name(cfg->per_char));
	member_int(b, "num_files_k", cfg->num_files);
	member_int(b, "file_count", (int64_t)cfg->num_files * 1024);
	member_str(b, "file_kind", cfg->file_max == AB_FILES_HARDLINK ? "hardlink"
				   : cfg->file_max == AB_FILES_SYMLINK ? "symlink" : "file");
	member_int(b, "file_max_bytes", cfg->file_max > 0 ? cfg->file_max : 0);
	member_int(b, "file_min_bytes", (int64_t)cfg->file_min);
	member_int(b, "num_dirs", cfg->num_dirs);
	member_int(b, "file_chunk_bytes", cfg->file_chunk);
	member_int(b, "ram_mib", (int64_t)cfg->ram_mib);
	member_bool(b, "ram_given", cfg->ram_given);
	member_int(b, "repeats", cfg->repeats);
	member_str(b, "data", ab_data_mode_name(cfg->data));
	member_bool(b, "direct", cfg->direct);
	member_bool(b, "sync_each_write", cfg->sync_each_write);
	member_str(b, "cache_mode", ab_cache_mode_name(cfg->cache));
	member_bool(b, "cold_metadata", cfg->cold_metadata);
	json_builder_end_object(b);
}

static void add_environment(JsonBuilder *b, const struct ab_run *run)
{
	json_builder_set_member_name(b, "environment");
	json_builder_begin_object(b);
	member_str(b, "machine", run->machine);
	member_str(b, "kernel", run->kernel);
	member_int(b, "cpus", run->cpus);
	member_int(b, "ram_bytes", (int64_t)run->ram_bytes);
	member_str(b, "dir", run->dir);
	member_str(b, "fs_type", run->fs_type);
	json_builder_end_object(b);
	const struct ab_target *t = run->target;
	json_builder_set_member_name(b, "target");
	json_builder_begin_object(b);
	member_str(b, "backend", t && t->backend ? t->backend : "dir");
	member_str(b, "mount_dir", t && t->mount_dir ? t->mount_dir : run->dir);
	if (t && t->backend && !g_str_equal(t->backend, "dir")) {
		member_str(b, "level", t->level);
		member_int(b, "chunk_bytes", t->chunk_bytes);
		member_str(b, "layout", t->layout);
		member_str(b, "fs", t->fs);
		member_str(b, "source", t->source);
		json_builder_set_member_name(b, "members");
		json_builder_begin_array(b);
		for (guint i = 0; t->members && i < t->members->len; i++)
			json_builder_add_string_value(b, g_ptr_array_index(t->members, i));
		json_builder_end_array(b);
		member_str(b, "mkfs_command", t->mkfs_command);
		member_str(b, "mount_options", t->mount_options);
		member_str(b, "mount_options_effective", t->mount_effective);
		member_str(b, "label", t->label);
		if (run->cfg->target.loop_count) {
			/* Images on a RAM file system would make the "array" RAM. */
			member_str(b, "image_dir", run->cfg->target.loop_dir);
			member_str(b, "image_dir_fs", run->image_dir_fs);
		}
		json_builder_set_member_name(b, "queues");
		json_builder_begin_array(b);
		for (guint i = 0; t->queues && i < t->queues->len; i++) {
			const struct ab_queue_info *q = &g_array_index(t->queues, struct ab_queue_info, i);
			json_builder_begin_object(b);
			member_str(b, "name", q->name);
			member_str(b, "scheduler", q->scheduler);
			member_int(b, "read_ahead_kb", q->read_ahead_kb);
			member_int(b, "rotational", q->rotational);
			member_int(b, "logical_block_size", q->logical_block_size);
			member_int(b, "physical_block_size", q->physical_block_size);
			json_builder_end_object(b);
		}
		json_builder_end_array(b);
	}
	json_builder_end_object(b);
	json_builder_set_member_name(b, "cache");
	json_builder_begin_object(b);
	member_str(b, "mode", ab_cache_mode_name(run->cfg->cache));
	member_str(b, "description", run->cache_desc);
	member_bool(b, "controlled", run->cache_controlled);
	member_str(b, "warning", run->cache_warning);
	json_builder_end_object(b);
}

static void add_phase(JsonBuilder *b, const struct ab_result *r)
{
	json_builder_begin_object(b);
	member_str(b, "name", r->phase->name);
	member_str(b, "csv_name", r->phase->csv_name);
	member_bool(b, "measurable", r->measurable);
	member_double(b, "rate", r->rate);
	member_str(b, "unit", ab_rate_unit_name(r->phase->unit));
	member_double(b, "elapsed_s", r->elapsed_s);
	member_int(b, "bytes", (int64_t)r->bytes);
	member_int(b, "ops", (int64_t)r->ops);
	member_int(b, "workers", r->workers);
	member_double(b, "cpu_percent", r->cpu_percent);
	/* CPU of the timed regions only; the workers' whole lives apart. */
	member_double(b, "user_s", r->user_s);
	member_double(b, "sys_s", r->sys_s);
	member_double(b, "worker_life_user_s", r->life_user_s);
	member_double(b, "worker_life_sys_s", r->life_sys_s);
	member_double(b, "system_busy_percent", r->sys_busy_percent);
	member_double(b, "iowait_percent", r->iowait_percent);
	member_int(b, "worker_max_rss_kib", r->max_rss_kib);
	member_str(b, "cache_mode", r->cache_mode);
	member_str(b, "cache_state", r->cold ? "cold" : "warm");
	member_bool(b, "laid_out_untimed", r->laid_out_untimed);
	member_double(b, "min_measurable_s", AB_MIN_MEASURABLE_S);
	member_str(b, "sync_mode", r->sync_mode);
	member_bool(b, "direct", r->direct);
	json_builder_set_member_name(b, "per_worker");
	json_builder_begin_array(b);
	for (unsigned i = 0; r->per_worker && i < r->workers; i++) {
		const struct ab_worker_stat *w = &r->per_worker[i];
		json_builder_begin_object(b);
		member_int(b, "pid", w->pid);
		member_int(b, "ops", (int64_t)w->ops);
		member_double(b, "elapsed_s", w->elapsed_s);
		member_double(b, "cpu_s", w->cpu_s);
		json_builder_end_object(b);
	}
	json_builder_end_array(b);
	json_builder_set_member_name(b, "devices");
	json_builder_begin_array(b);
	for (unsigned i = 0; i < r->disks.count; i++) {
		const struct ab_disk_counters *d = &r->disks.disk[i];
		json_builder_begin_object(b);
		member_str(b, "name", d->name);
		member_int(b, "read_bytes", (int64_t)(d->read_sectors * 512));
		member_int(b, "written_bytes", (int64_t)(d->write_sectors * 512));
		member_int(b, "read_ios", (int64_t)d->read_ios);
		member_int(b, "write_ios", (int64_t)d->write_ios);
		member_int(b, "busy_ms", (int64_t)d->busy_ms);
		json_builder_end_object(b);
	}
	json_builder_end_array(b);
	json_builder_set_member_name(b, "latency_us");
	json_builder_begin_object(b);
	const struct ab_histogram *h = &r->latency;
	member_int(b, "samples", (int64_t)h->count);
	member_double(b, "min", h->count ? h->min_ns / 1e3 : 0);
	member_double(b, "mean", h->count ? (double)h->sum_ns / (double)h->count / 1e3 : 0);
	member_double(b, "p50", ab_histogram_percentile(h, 50) / 1e3);
	member_double(b, "p90", ab_histogram_percentile(h, 90) / 1e3);
	member_double(b, "p99", ab_histogram_percentile(h, 99) / 1e3);
	member_double(b, "p99_9", ab_histogram_percentile(h, 99.9) / 1e3);
	member_double(b, "max", h->max_ns / 1e3);
	json_builder_end_object(b);
	json_builder_end_object(b);
}

char *ab_json_format(const struct ab_run *run)
{
	g_autoptr(JsonBuilder) b = json_builder_new();
	json_builder_begin_object(b);
	member_str(b, "format", "arraybench-run");
	member_int(b, "format_version", AB_JSON_FORMAT_VERSION);
	member_str(b, "tool_version", AB_VERSION);
	member_int(b, "repeat", run->repeat_index + 1);
	member_int(b, "seed", (int64_t)run->seed);
	member_str(b, "run_id", run->run_id);
	g_autoptr(GDateTime) t = g_date_time_new_from_unix_utc(run->start_unix);
	g_autofree char *when = t ? g_date_time_format_iso8601(t) : NULL;
	member_str(b, "start_time", when);
	add_config(b, run);
	add_environment(b, run);
	json_builder_set_member_name(b, "phases");
	json_builder_begin_array(b);
	for (unsigned id = 0; id < AB_PHASE_COUNT; id++)
		if (run->results[id].ran)
			add_phase(b, &run->results[id]);
	json_builder_end_array(b);
	json_builder_end_object(b);
	g_autoptr(JsonGenerator) gen = json_generator_new();
	g_autoptr(JsonNode) root = json_builder_get_root(b);
	json_generator_set_root(gen, root);
	return json_generator_to_data(gen, NULL);
}
