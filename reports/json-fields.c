/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Member tables of our JSON (json-fields.h); each ends with a NULL key. */
#include "json-fields.h"

#define END { NULL, AB_JSON_STR, 0, 0 }

const struct ab_json_field ab_json_run_fields[] = {
	AB_JF("tool", STR, struct ab_run, tool),
	AB_JF("tool_version", STR, struct ab_run, tool_version),
	AB_JF("run_id", STR, struct ab_run, run_id),
	AB_JF("repeat", U64, struct ab_run, repeat),
	AB_JF("seed", U64, struct ab_run, seed),
	AB_JF("seed_text", STR, struct ab_run, seed_text),
	AB_JF("concurrency", U64, struct ab_run, concurrency),
	AB_JF("cell", STR, struct ab_run, cell),
	AB_JF("workload", STR, struct ab_run, workload),
	AB_JF("failure", STR, struct ab_run, failure),
	END,
};

const struct ab_json_field ab_json_config_fields[] = {
	AB_JF("dir", STR, struct ab_conditions, dir),
	AB_JF("file_size_bytes", U64, struct ab_conditions, file_size),
	AB_JF("io_chunk_bytes", U64, struct ab_conditions, io_chunk),
	AB_JF("seeks", U64, struct ab_conditions, seeks),
	AB_JF("seeks_given", FLAG, struct ab_conditions, seeks_given),
	AB_JF("seekers", U64, struct ab_conditions, seekers),
	AB_JF("per_char_bytes", U64, struct ab_conditions, per_char_bytes),
	AB_JF("per_char_mode", STR, struct ab_conditions, per_char_mode),
	AB_JF("num_files_k", U64, struct ab_conditions, num_files_k),
	AB_JF("file_kind", STR, struct ab_conditions, file_kind),
	AB_JF("file_max_bytes", U64, struct ab_conditions, file_max),
	AB_JF("file_min_bytes", U64, struct ab_conditions, file_min),
	AB_JF("num_dirs", U64, struct ab_conditions, num_dirs),
	AB_JF("file_chunk_bytes", U64, struct ab_conditions, file_chunk),
	AB_JF("ram_mib", U64, struct ab_conditions, ram_mib),
	AB_JF("ram_given", FLAG, struct ab_conditions, ram_given),
	AB_JF("repeats", U64, struct ab_conditions, repeats),
	AB_JF("data", STR, struct ab_conditions, data),
	AB_JF("direct", FLAG, struct ab_conditions, direct),
	AB_JF("sync_each_write", FLAG, struct ab_conditions, sync_each_write),
	AB_JF("cache_mode", STR, struct ab_conditions, cache_mode),
	AB_JF("cold_metadata", FLAG, struct ab_conditions, cold_metadata),
	AB_JF("stride", U64, struct ab_conditions, stride),
	AB_JF("files_per_stream", U64, struct ab_conditions, files_per_stream),
	AB_JF("shared_file", FLAG, struct ab_conditions, shared_file),
	AB_JF("stonewall_time_s", DBL, struct ab_conditions, stonewall_time_s),
	AB_JF("wearout", FLAG, struct ab_conditions, wearout),
	END,
};

const struct ab_json_field ab_json_environment_fields[] = {
	AB_JF("machine", STR, struct ab_run, machine),
	AB_JF("host", STR, struct ab_run, host),
	AB_JF("kernel", STR, struct ab_run, kernel),
	AB_JF("cpus", U64, struct ab_run, cpus),
	AB_JF("ram_bytes", U64, struct ab_run, ram_bytes),
	AB_JF("fs_type", STR, struct ab_run, fs_type),
	END,
};

const struct ab_json_field ab_json_target_fields[] = {
	AB_JF("backend", STR, struct ab_target_desc, backend),
	AB_JF("mount_dir", STR, struct ab_target_desc, mount_dir),
	AB_JF("level", STR, struct ab_target_desc, level),
	AB_JF("chunk_bytes", U64, struct ab_target_desc, chunk_bytes),
	AB_JF("layout", STR, struct ab_target_desc, layout),
	AB_JF("fs", STR, struct ab_target_desc, fs),
	AB_JF("source", STR, struct ab_target_desc, source),
	AB_JF("mkfs_command", STR, struct ab_target_desc, mkfs_command),
	AB_JF("mount_options", STR, struct ab_target_desc, mount_options),
	AB_JF("mount_options_effective", STR, struct ab_target_desc, mount_effective),
	AB_JF("label", STR, struct ab_target_desc, label),
	AB_JF("image_count", U64, struct ab_target_desc, image_count),
	AB_JF("image_size_bytes", U64, struct ab_target_desc, image_size),
	AB_JF("image_dir", STR, struct ab_target_desc, image_dir),
	AB_JF("image_dir_fs", STR, struct ab_target_desc, image_dir_fs),
	END,
};

const struct ab_json_field ab_json_cache_fields[] = {
	AB_JF("description", STR, struct ab_run, cache_desc),
	AB_JF("limit_bytes", U64, struct ab_run, cache_limit_bytes),
	AB_JF("controlled", FLAG, struct ab_run, cache_controlled),
	AB_JF("warning", STR, struct ab_run, cache_warning),
	AB_JF("limits", STR, struct ab_run, cond.cache_limits),
	END,
};

const struct ab_json_field ab_json_queue_fields[] = {
	AB_JF("name", STR, struct ab_queue_desc, name),
	AB_JF("scheduler", STR, struct ab_queue_desc, scheduler),
	AB_JF_I64("read_ahead_kb", struct ab_queue_desc, read_ahead_kb, INT64_MIN),
	AB_JF_I64("rotational", struct ab_queue_desc, rotational, INT64_MIN),
	AB_JF_I64("logical_block_size", struct ab_queue_desc, logical_block_size, INT64_MIN),
	AB_JF_I64("physical_block_size", struct ab_queue_desc, physical_block_size, INT64_MIN),
	END,
};

const struct ab_json_field ab_json_key_fields[] = {
	AB_JF("file_size_bytes", U64, struct ab_cell_key, file_size),
	AB_JF("record_size_bytes", U64, struct ab_cell_key, record_size),
	AB_JF("streams", U64, struct ab_cell_key, streams),
	AB_JF("test", STR, struct ab_cell_key, test),
	AB_JF("pass", U64, struct ab_cell_key, pass),
	END,
};

const struct ab_json_field ab_json_result_fields[] = {
	AB_JF("measurable", BOOL, struct ab_result, measurable),
	AB_JF("min_measurable_s", DBL, struct ab_result, min_measurable_s),
	AB_JF("rate", DBL, struct ab_result, rate),
	AB_JF("offered_rate", DBL, struct ab_result, offered_rate),
	AB_JF("stonewall_rate", DBL, struct ab_result, stonewall_rate),
	AB_JF("end_to_end_rate", DBL, struct ab_result, end_to_end_rate),
	AB_JF("min_worker_rate", DBL, struct ab_result, min_worker_rate),
	AB_JF("max_worker_rate", DBL, struct ab_result, max_worker_rate),
	AB_JF("min_bytes_at_stonewall", U64, struct ab_result, min_bytes_at_stonewall),
	AB_JF("stonewall_time_s", DBL, struct ab_result, stonewall_time_s),
	AB_JF("wearout", FLAG, struct ab_result, wearout),
	AB_JF("min_bytes_at_deadline", U64, struct ab_result, min_bytes_at_deadline),
	AB_JF("max_bytes_at_deadline", U64, struct ab_result, max_bytes_at_deadline),
	AB_JF("deadline_rate", DBL, struct ab_result, deadline_rate),
	AB_JF("deadline_counted_s", DBL, struct ab_result, deadline_counted_s),
	AB_JF("elapsed_s", DBL, struct ab_result, elapsed_s),
	AB_JF("bytes", U64, struct ab_result, bytes),
	AB_JF("ops", U64, struct ab_result, ops),
	AB_JF("workers", U64, struct ab_result, workers),
	AB_JF("cpu_percent", DBL, struct ab_result, cpu_percent),
	/* CPU of the timed regions only; the workers' whole lives apart. */
	AB_JF("user_s", DBL, struct ab_result, user_s),
	AB_JF("sys_s", DBL, struct ab_result, sys_s),
	AB_JF("worker_life_user_s", DBL, struct ab_result, life_user_s),
	AB_JF("worker_life_sys_s", DBL, struct ab_result, life_sys_s),
	AB_JF("system_busy_percent", DBL, struct ab_result, sys_busy_percent),
	AB_JF("iowait_percent", DBL, struct ab_result, iowait_percent),
	AB_JF_I64("worker_max_rss_kib", struct ab_result, max_rss_kib, -1),
	AB_JF("cache_mode", STR, struct ab_result, cache_mode),
	AB_JF("cache_state", STR, struct ab_result, cache_state),
	AB_JF("timed", STRV, struct ab_result, timed),
	AB_JF("laid_out_untimed", FLAG, struct ab_result, laid_out_untimed),
	AB_JF("resident_at_start", DBL, struct ab_result, resident_at_start),
	AB_JF("interpolated", FLAG, struct ab_result, interpolated),
	AB_JF("late_ops", U64, struct ab_result, late_ops),
	AB_JF("max_late_s", DBL, struct ab_result, max_late_s),
	AB_JF("sync_mode", STR, struct ab_result, sync_mode),
	AB_JF("direct", FLAG, struct ab_result, direct),
	END,
};

const struct ab_json_field ab_json_worker_fields[] = {
	AB_JF_I64("pid", struct ab_worker_stat, pid, INT64_MIN),
	AB_JF("ops", U64, struct ab_worker_stat, ops),
	AB_JF("bytes", U64, struct ab_worker_stat, bytes),
	AB_JF("elapsed_s", DBL, struct ab_worker_stat, elapsed_s),
	AB_JF("cpu_s", DBL, struct ab_worker_stat, cpu_s),
	AB_JF("bytes_at_stonewall", U64, struct ab_worker_stat, bytes_at_stonewall),
	AB_JF("stonewall_rate", DBL, struct ab_worker_stat, stonewall_rate),
	AB_JF("bytes_at_deadline", U64, struct ab_worker_stat, bytes_at_deadline),
	END,
};

const struct ab_json_field ab_json_device_fields[] = {
	AB_JF("name", STR, struct ab_device_io, name),
	AB_JF("read_bytes", U64, struct ab_device_io, read_bytes),
	AB_JF("written_bytes", U64, struct ab_device_io, written_bytes),
	AB_JF("read_ios", U64, struct ab_device_io, read_ios),
	AB_JF("write_ios", U64, struct ab_device_io, write_ios),
	AB_JF("busy_ms", U64, struct ab_device_io, busy_ms),
	END,
};

const struct ab_json_field ab_json_latency_fields[] = {
	AB_JF("samples", U64, struct ab_latency, samples),
	AB_JF("min", U64, struct ab_latency, min_ns),
	AB_JF("mean", DBL, struct ab_latency, mean_ns),
	AB_JF("p50", U64, struct ab_latency, p50_ns),
	AB_JF("p90", U64, struct ab_latency, p90_ns),
	AB_JF("p99", U64, struct ab_latency, p99_ns),
	AB_JF("p99_9", U64, struct ab_latency, p99_9_ns),
	AB_JF("max", U64, struct ab_latency, max_ns),
	END,
};

const struct ab_json_field ab_json_mpi_fields[] = {
	AB_JF("ranks", U64, struct ab_mpi_desc, ranks),
	AB_JF("nodes", U64, struct ab_mpi_desc, nodes),
	AB_JF("library", STR, struct ab_mpi_desc, library),
	AB_JF("layout", STR, struct ab_mpi_desc, layout),
	AB_JF("reorder", FLAG, struct ab_mpi_desc, reorder),
	AB_JF("clock_bound_s", DBL, struct ab_mpi_desc, clock_bound_s),
	AB_JF("start_spread_s", DBL, struct ab_mpi_desc, start_spread_s),
	END,
};

const struct ab_json_field ab_json_result_rank_fields[] = {
	AB_JF("clock_bound_s", DBL, struct ab_result, clock_bound_s),
	AB_JF("start_spread_s", DBL, struct ab_result, start_spread_s),
	END,
};

const struct ab_json_field ab_json_rank_fields[] = {
	AB_JF("rank", U64, struct ab_rank_stat, rank),
	AB_JF("host", STR, struct ab_rank_stat, host),
	AB_JF("workers", U64, struct ab_rank_stat, workers),
	AB_JF("ops", U64, struct ab_rank_stat, ops),
	AB_JF("bytes", U64, struct ab_rank_stat, bytes),
	AB_JF("rate", DBL, struct ab_rank_stat, rate),
	/* From the earliest barrier exit: a clock's offset may put a start a
	 * hair before it. */
	AB_JF("start_s", SDBL, struct ab_rank_stat, start_s),
	AB_JF("stop_s", SDBL, struct ab_rank_stat, stop_s),
	AB_JF("cpu_s", DBL, struct ab_rank_stat, cpu_s),
	AB_JF("barrier_wait_s", DBL, struct ab_rank_stat, barrier_wait_s),
	AB_JF("outlier", FLAG, struct ab_rank_stat, outlier),
	END,
};

/* A finding (src/model/findings.h; its severity is written by name apart):
 * derived from the run or set, written and never read back. */
const struct ab_json_field ab_json_finding_fields[] = {
	AB_JF("id", STR, struct ab_finding, id),
	AB_JF("group", STR, struct ab_finding, group),
	AB_JF("run_id", STR, struct ab_finding, run_id),
	AB_JF("repeat", U64, struct ab_finding, repeat),
	AB_JF("subject", STR, struct ab_finding, subject),
	AB_JF("text", STR, struct ab_finding, text),
	AB_JF("advice", STR, struct ab_finding, advice),
	END,
};

const struct ab_json_field ab_json_finding_figure_fields[] = {
	AB_JF("name", STR, struct ab_finding_figure, name),
	AB_JF("value", DBL, struct ab_finding_figure, value),
	AB_JF("unit", STR, struct ab_finding_figure, unit),
	END,
};

const struct ab_json_field ab_json_tune_fields[] = {
	AB_JF("objective", STR, struct ab_tune_stamp, objective),
	AB_JF("direction", STR, struct ab_tune_stamp, direction),
	AB_JF("stage", STR, struct ab_tune_stamp, stage),
	AB_JF("round", U64, struct ab_tune_stamp, round),
	AB_JF("candidate", STR, struct ab_tune_stamp, candidate),
	AB_JF("index", U64, struct ab_tune_stamp, index),
	AB_JF("words", STRV, struct ab_tune_stamp, words),
	AB_JF("alpha", DBL, struct ab_tune_stamp, alpha),
	AB_JF("min_rounds", U64, struct ab_tune_stamp, min_rounds),
	END,
};
