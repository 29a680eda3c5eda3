/* SPDX-License-Identifier: GPL-2.0-or-later */
/* `arraybench run` options: bonnie++'s letters and meanings, plus long ones. */
#include "run-options.h"
#include "error.h"
#include "profile.h"
#include "../fs-setup/backend.h"
#include "../fs-setup/safety.h"
#include "cmd-options.h"
#include "../workloads/oltp.h"
#include "../workloads/phase.h"
#include "../workloads/sweep.h"
#include "../workloads/wal.h"
#include "wal-options.h"
#include "../workloads/curve-math.h"

#include <math.h>
#include <string.h>

static gboolean bad_option(GError **error, const char *option, const char *value, const char *why)
{
	g_set_error(error, AB_ERROR, AB_ERROR_USAGE, "invalid %s '%s': %s", option, value, why);
	return FALSE;
}

static gboolean opt_size(const char *name, const char *value, gpointer data, GError **error)
{
	(void)name;
	return ab_parse_size_spec(value, data, error);
}

static gboolean opt_files(const char *name, const char *value, gpointer data, GError **error)
{
	(void)name;
	return ab_parse_files_spec(value, data, error);
}

static gboolean opt_machine(const char *name, const char *value, gpointer data, GError **error)
{
	(void)name;
	return ab_parse_machine_name(value, data, error);
}

static gboolean opt_user(const char *name, const char *value, gpointer data, GError **error)
{
	(void)name;
	return ab_parse_user_spec(value, data, error);
}

/* Every option that keeps its text: refuse empty, replace what was there. */
static gboolean set_string(const char *name, const char *value, const char *what, char **slot, GError **error)
{
	if (!*value) {
		g_autofree char *why = g_strdup_printf("empty %s", what);
		return bad_option(error, name, value, why);
	}
	g_free(*slot);
	*slot = g_strdup(value);
	return TRUE;
}

static gboolean opt_dir(const char *name, const char *value, gpointer data, GError **error)
{
	return set_string(name, value, "directory name", &((struct ab_config *)data)->dir, error);
}

static gboolean opt_ram(const char *name, const char *value, gpointer data, GError **error)
{
	struct ab_config *cfg = data;
	uint64_t bytes;
	if (!ab_parse_size(value, AB_MIB, &bytes, error)) {
		g_prefix_error(error, "%s: ", name);
		return FALSE;
	}
	if (bytes % AB_MIB)
		return bad_option(error, name, value, "must be a whole number of MiB");
	cfg->ram_mib = bytes / AB_MIB;
	cfg->ram_given = TRUE;
	return TRUE;
}

static gboolean opt_repeats(const char *name, const char *value, gpointer data, GError **error)
{
	struct ab_config *cfg = data;
	uint64_t n;
	if (!ab_parse_count(value, 10000, &n, error)) {
		g_prefix_error(error, "%s: ", name);
		return FALSE;
	}
	if (n == 0)
		return bad_option(error, name, value, "must be at least 1");
	cfg->repeats = (uint32_t)n;
	return TRUE;
}

static gboolean opt_seed(const char *name, const char *value, gpointer data, GError **error)
{
	struct ab_config *cfg = data;
	guint64 seed;
	if (!g_ascii_string_to_unsigned(value, 10, 0, G_MAXUINT64, &seed, NULL))
		return bad_option(error, name, value, "not a non-negative whole number");
	cfg->seed = seed;
	cfg->seed_given = TRUE;
	return TRUE;
}

static gboolean opt_fast(const char *name, const char *value, gpointer data, GError **error)
{
	struct ab_config *cfg = data;
	if (!value) {
		cfg->byte_io_size = 0;
		return TRUE;
	}
	uint64_t bytes;
	if (!ab_parse_size(value, AB_MIB, &bytes, error)) {
		g_prefix_error(error, "%s: ", name);
		return FALSE;
	}
	if (bytes == 0 || bytes % AB_MIB)
		return bad_option(error, name, value, "per-char size must be a whole number of MiB, at least 1");
	cfg->byte_io_size = bytes;
	return TRUE;
}

static gboolean opt_seekers(const char *name, const char *value, gpointer data, GError **error)
{
	struct ab_config *cfg = data;
	uint64_t n;
	if (!ab_parse_count(value, AB_MAX_SEEKERS, &n, error)) {
		g_prefix_error(error, "%s: ", name);
		return FALSE;
	}
	if (n == 0)
		return bad_option(error, name, value, "must be at least 1");
	cfg->seekers = (uint32_t)n;
	return TRUE;
}

static gboolean opt_seeks(const char *name, const char *value, gpointer data, GError **error)
{
	struct ab_config *cfg = data;
	uint64_t n;
	if (!ab_parse_count(value, 1ull << 40, &n, error)) {
		g_prefix_error(error, "%s: ", name);
		return FALSE;
	}
	if (n == 0)
		return bad_option(error, name, value, "must be at least 1");
	cfg->seeks = n;
	cfg->seeks_given = TRUE;
	return TRUE;
}

static gboolean opt_per_char(const char *name, const char *value, gpointer data, GError **error)
{
	struct ab_config *cfg = data;
	if (g_str_equal(value, "syscall"))
		cfg->per_char = AB_PER_CHAR_SYSCALL;
	else if (g_str_equal(value, "stdio"))
		cfg->per_char = AB_PER_CHAR_STDIO;
	else
		return bad_option(error, name, value, "expected 'syscall' or 'stdio'");
	return TRUE;
}

static gboolean opt_data(const char *name, const char *value, gpointer data, GError **error)
{
	struct ab_config *cfg = data;
	if (g_str_equal(value, "random"))
		cfg->data = AB_DATA_RANDOM;
	else if (g_str_equal(value, "zeros"))
		cfg->data = AB_DATA_ZEROS;
	else
		return bad_option(error, name, value, "expected 'random' or 'zeros'");
	return TRUE;
}

static gboolean opt_cache(const char *name, const char *value, gpointer data, GError **error)
{
	struct ab_config *cfg = data;
	static const struct { const char *name; enum ab_cache_mode mode; } modes[] = {
		{ "auto", AB_CACHE_AUTO }, { "cgroup", AB_CACHE_CGROUP },
		{ "drop", AB_CACHE_DROP }, { "none", AB_CACHE_NONE }, { "remount", AB_CACHE_REMOUNT },
		{ "fadvise", AB_CACHE_FADVISE },
	};
	for (size_t i = 0; i < G_N_ELEMENTS(modes); i++)
		if (g_str_equal(value, modes[i].name)) {
			cfg->cache = modes[i].mode;
			return TRUE;
		}
	return bad_option(error, name, value, "expected 'auto', 'cgroup', 'drop', 'fadvise', 'remount' or 'none'");
}

gboolean ab_parse_phase_list(const char *text, struct ab_config *cfg, GError **error)
{
	g_auto(GStrv) names = g_strsplit(text, ",", 0);
	/* In the order given; a phase named twice runs twice. */
	g_autoptr(GArray) ids = g_array_new(FALSE, FALSE, sizeof(unsigned));
	gboolean all = FALSE;
	for (char **n = names; *n; n++) {
		if (g_str_equal(*n, "all")) {
			for (unsigned id = 0; id < AB_PHASE_COUNT; id++)
				g_array_append_val(ids, id);
			all = TRUE;
			continue;
		}
		const struct ab_phase *ph = ab_phase_by_name(*n);
		if (!ph)
			return bad_option(error, "phase", *n, "unknown (see 'arraybench list')");
		if (ph->flags & AB_PHASE_DEVICE)
			return bad_option(error, "phase", *n, "it measures a block device: use 'arraybench raw'");
		unsigned id = ph->id;
		g_array_append_val(ids, id);
	}
	if (!ids->len)
		return bad_option(error, "--phases", text, "no phase named");
	if (ids->len > AB_MAX_STEPS) {
		/* The count, not the list: that would be a line of kilobytes. */
		g_autofree char *of_all = all ? g_strdup_printf(" ('all' is %d)", AB_PHASE_COUNT) : g_strdup("");
		g_set_error(error, AB_ERROR, AB_ERROR_USAGE, "invalid --phases: %u steps%s, more than %d", ids->len,
			    of_all, AB_MAX_STEPS);
		return FALSE;
	}
	if (cfg->phase_ids)
		g_array_unref(cfg->phase_ids);
	cfg->phase_ids = g_steal_pointer(&ids);
	cfg->phases_given = TRUE;
	return TRUE;
}

static gboolean opt_phases(const char *name, const char *value, gpointer data, GError **error)
{
	(void)name;
	return ab_parse_phase_list(value, data, error);
}

static gboolean opt_csv(const char *name, const char *value, gpointer data, GError **error)
{
	return set_string(name, value, "file name", &((struct ab_config *)data)->csv_path, error);
}

static gboolean opt_json(const char *name, const char *value, gpointer data, GError **error)
{
	return set_string(name, value, "file name", &((struct ab_config *)data)->json_path, error);
}

static gboolean opt_direct(const char *name, const char *value, gpointer data, GError **error)
{
	(void)name, (void)value, (void)error;
	((struct ab_config *)data)->direct = TRUE;
	return TRUE;
}

static gboolean opt_sync(const char *name, const char *value, gpointer data, GError **error)
{
	(void)name, (void)value, (void)error;
	((struct ab_config *)data)->sync_each_write = TRUE;
	return TRUE;
}

static gboolean opt_quiet(const char *name, const char *value, gpointer data, GError **error)
{
	(void)name, (void)value, (void)error;
	((struct ab_config *)data)->quiet = TRUE;
	return TRUE;
}

static gboolean opt_verbose(const char *name, const char *value, gpointer data, GError **error)
{
	(void)name, (void)value, (void)error;
	((struct ab_config *)data)->verbose = TRUE;
	return TRUE;
}

static gboolean opt_device(const char *name, const char *value, gpointer data, GError **error)
{
	return set_string(name, value, "value", &((struct ab_config *)data)->target.device, error);
}

static gboolean opt_array(const char *name, const char *value, gpointer data, GError **error)
{
	return set_string(name, value, "value", &((struct ab_config *)data)->target.array_level, error);
}

static gboolean opt_fs(const char *name, const char *value, gpointer data, GError **error)
{
	enum ab_fs_type fs;
	if (!ab_fs_type_parse(value, &fs, error))
		return FALSE;
	return set_string(name, value, "value", &((struct ab_config *)data)->target.fs, error);
}

static gboolean opt_layout(const char *name, const char *value, gpointer data, GError **error)
{
	if (!g_str_equal(value, "n2") && !g_str_equal(value, "f2") && !g_str_equal(value, "o2"))
		return bad_option(error, name, value, "expected n2, f2 or o2");
	return set_string(name, value, "value", &((struct ab_config *)data)->target.layout, error);
}

static gboolean opt_mkfs_opts(const char *name, const char *value, gpointer data, GError **error)
{
	return set_string(name, value, "value", &((struct ab_config *)data)->target.mkfs_opts, error);
}

static gboolean opt_mount_opts(const char *name, const char *value, gpointer data, GError **error)
{
	return set_string(name, value, "value", &((struct ab_config *)data)->target.mount_opts, error);
}

static gboolean opt_members(const char *name, const char *value, gpointer data, GError **error)
{
	struct ab_target_spec *t = &((struct ab_config *)data)->target;
	g_auto(GStrv) parts = g_strsplit(value, ",", 0);
	for (char **p = parts; *p; p++)
		if (!**p)
			return bad_option(error, name, value, "empty device name in the list");
	g_strfreev(t->members);
	t->members = g_steal_pointer(&parts);
	return TRUE;
}

static gboolean opt_backend(const char *name, const char *value, gpointer data, GError **error)
{
	struct ab_target_spec *t = &((struct ab_config *)data)->target;
	const struct ab_backend_ops *backend = ab_backend_by_word(value);
	if (!backend) {
		g_autofree char *words = ab_backend_words();
		g_autofree char *why = g_strdup_printf("expected %s", words);
		return bad_option(error, name, value, why);
	}
	t->backend = backend;
	return TRUE;
}

static gboolean opt_chunk(const char *name, const char *value, gpointer data, GError **error)
{
	uint64_t bytes;
	if (!ab_parse_size(value, 1024, &bytes, error)) {
		g_prefix_error(error, "%s: ", name);
		return FALSE;
	}
	if (bytes < 4096 || bytes > (1ull << 30) || (bytes & (bytes - 1)))
		return bad_option(error, name, value, "a power of two from 4k to 1g (KiB without a suffix)");
	((struct ab_config *)data)->target.chunk_bytes = (uint32_t)bytes;
	return TRUE;
}

static gboolean opt_loop(const char *name, const char *value, gpointer data, GError **error)
{
	(void)name;
	return ab_target_spec_parse_loop(value, &((struct ab_config *)data)->target, error);
}

static gboolean opt_yes_destroy(const char *name, const char *value, gpointer data, GError **error)
{
	return ab_safety_replace_confirmed(name, value, &((struct ab_config *)data)->target.confirmed, error);
}

static gboolean opt_no_stripe_hint(const char *name, const char *value, gpointer data, GError **error)
{
	(void)name, (void)value, (void)error;
	((struct ab_config *)data)->target.no_stripe_hint = TRUE;
	return TRUE;
}

static gboolean opt_raw_baseline(const char *name, const char *value, gpointer data, GError **error)
{
	(void)name, (void)value, (void)error;
	((struct ab_config *)data)->target.raw_baseline = TRUE;
	return TRUE;
}

static gboolean opt_images_in_ram(const char *name, const char *value, gpointer data, GError **error)
{
	(void)name, (void)value, (void)error;
	((struct ab_config *)data)->target.images_in_ram = TRUE;
	return TRUE;
}

static gboolean opt_cold_metadata(const char *name, const char *value, gpointer data, GError **error)
{
	(void)name, (void)value, (void)error;
	((struct ab_config *)data)->cold_metadata = TRUE;
	return TRUE;
}

static gboolean opt_dry_run(const char *name, const char *value, gpointer data, GError **error)
{
	(void)name, (void)value, (void)error;
	((struct ab_config *)data)->target.dry_run = TRUE;
	return TRUE;
}

static gboolean opt_sweep_sizes(const char *name, const char *value, gpointer data, GError **error)
{
	struct ab_sweep_grid *g = &((struct ab_config *)data)->sweep_grid;
	GArray *sizes;
	if (!ab_sweep_parse_sizes(name, value, 4 * AB_SWEEP_KIB, AB_SWEEP_FILE_LIMIT, &sizes, error))
		return FALSE;
	if (g->file_sizes)
		g_array_unref(g->file_sizes);
	g->file_sizes = sizes;
	return TRUE;
}

static gboolean opt_sweep_records(const char *name, const char *value, gpointer data, GError **error)
{
	struct ab_sweep_grid *g = &((struct ab_config *)data)->sweep_grid;
	GArray *records;
	if (!ab_sweep_parse_records(name, value, AB_SWEEP_RECORD_MIN, AB_SWEEP_RECORD_LIMIT, &records, error))
		return FALSE;
	if (g->records)
		g_array_unref(g->records);
	g->records = records;
	g->records_given = TRUE; /* iozone's -y/-q/-r: no crossover */
	return TRUE;
}

static gboolean opt_sweep_tests(const char *name, const char *value, gpointer data, GError **error)
{
	struct ab_config *cfg = data;
	g_auto(GStrv) words = g_strsplit(value, ",", 0);
	uint32_t mask = 0;
	for (char **w = words; *w; w++) {
		enum ab_sweep_test t;
		if (g_str_equal(*w, "all"))
			mask |= AB_SWEEP_ALL_TESTS;
		else if (ab_sweep_test_by_name(*w, &t))
			mask |= 1u << t;
		else
			return bad_option(error, name, **w ? *w : value,
					  **w ? "unknown sweep test (write, rewrite, read, reread, random-read, "
						"random-write, backward-read, record-rewrite, stride-read, fwrite, "
						"frewrite, fread, freread or all)"
					      : "empty test name in the list");
	}
	if (!mask)
		return bad_option(error, name, value, "no test named");
	cfg->sweep_tests = mask;
	cfg->sweep_tests_given = TRUE;
	return TRUE;
}

static gboolean opt_stride(const char *name, const char *value, gpointer data, GError **error)
{
	uint64_t n;
	if (!ab_parse_count(value, (uint64_t)1 << 32, &n, error)) {
		g_prefix_error(error, "%s: ", name);
		return FALSE;
	}
	if (n == 0)
		return bad_option(error, name, value, "must be at least 1");
	((struct ab_config *)data)->stride = n;
	return TRUE;
}

static gboolean opt_include_fsync(const char *name, const char *value, gpointer data, GError **error)
{
	(void)name, (void)value, (void)error;
	((struct ab_config *)data)->include_fsync = TRUE;
	return TRUE;
}

static gboolean opt_include_close(const char *name, const char *value, gpointer data, GError **error)
{
	(void)name, (void)value, (void)error;
	((struct ab_config *)data)->include_close = TRUE;
	return TRUE;
}

static gboolean opt_untimed_flush(const char *name, const char *value, gpointer data, GError **error)
{
	(void)name, (void)value, (void)error;
	((struct ab_config *)data)->untimed_flush = TRUE;
	return TRUE;
}

/* "4" or "1,2,4,8,16": each a pass of the sweep with that many streams,
 * in the order given (iozone's -t, and its -l/-u as a list). */
static gboolean opt_streams(const char *name, const char *value, gpointer data, GError **error)
{
	struct ab_config *cfg = data;
	g_auto(GStrv) words = g_strsplit(value, ",", 0);
	g_autoptr(GArray) counts = g_array_new(FALSE, FALSE, sizeof(uint64_t));
	for (char **w = words; *w; w++) {
		uint64_t n;
		if (!**w)
			return bad_option(error, name, value, "empty count in the list");
		if (!ab_parse_count(*w, AB_MAX_STREAMS, &n, NULL) || n == 0) {
			g_autofree char *why = g_strdup_printf("a stream count from 1 to %u", AB_MAX_STREAMS);
			return bad_option(error, name, *w, why);
		}
		for (guint i = 0; i < counts->len; i++)
			if (g_array_index(counts, uint64_t, i) == n)
				return bad_option(error, name, *w, "given twice in the list");
		g_array_append_val(counts, n);
	}
	if (!counts->len)
		return bad_option(error, name, value, "no count given");
	if (cfg->stream_counts)
		g_array_unref(cfg->stream_counts);
	cfg->stream_counts = g_steal_pointer(&counts);
	return TRUE;
}

static gboolean opt_sweep_files(const char *name, const char *value, gpointer data, GError **error)
{
	uint64_t n;
	if (!ab_parse_count(value, AB_MAX_SWEEP_FILES, &n, NULL) || n == 0) {
		g_autofree char *why = g_strdup_printf("a file count from 1 to %u", AB_MAX_SWEEP_FILES);
		return bad_option(error, name, value, why);
	}
	((struct ab_config *)data)->files_per_stream = n;
	return TRUE;
}

static gboolean opt_shared_file(const char *name, const char *value, gpointer data, GError **error)
{
	(void)name, (void)value, (void)error;
	((struct ab_config *)data)->shared_file = TRUE;
	return TRUE;
}

/* --oltp-procs "8" or "8,32": one timed run of the oltp phase per count. */
static gboolean opt_oltp_procs(const char *name, const char *value, gpointer data, GError **error)
{
	struct ab_config *cfg = data;
	g_auto(GStrv) words = g_strsplit(value, ",", 0);
	g_autoptr(GArray) counts = g_array_new(FALSE, FALSE, sizeof(uint32_t));
	for (char **w = words; *w; w++) {
		uint64_t n;
		if (!**w)
			return bad_option(error, name, value, "empty count in the list");
		if (!ab_parse_count(*w, AB_OLTP_MAX_PROCS, &n, NULL) || n == 0) {
			g_autofree char *why = g_strdup_printf("a process count from 1 to %u", AB_OLTP_MAX_PROCS);
			return bad_option(error, name, *w, why);
		}
		uint32_t c = (uint32_t)n;
		for (guint i = 0; i < counts->len; i++)
			if (g_array_index(counts, uint32_t, i) == c)
				return bad_option(error, name, *w, "given twice in the list");
		g_array_append_val(counts, c);
	}
	if (!counts->len)
		return bad_option(error, name, value, "no count given");
	if (cfg->oltp_proc_counts)
		g_array_unref(cfg->oltp_proc_counts);
	cfg->oltp_proc_counts = g_steal_pointer(&counts);
	cfg->oltp_given = TRUE;
	return TRUE;
}

static gboolean opt_oltp_block(const char *name, const char *value, gpointer data, GError **error)
{
	struct ab_config *cfg = data;
	uint64_t v;
	if (!ab_parse_size(value, 1, &v, NULL) || v < AB_OLTP_MIN_BLOCK || v > AB_OLTP_MAX_BLOCK || (v & (v - 1)))
		return bad_option(error, name, value, "must be a power of two from 512 to 1m");
	cfg->oltp_block = (uint32_t)v;
	cfg->oltp_given = TRUE;
	return TRUE;
}

/* "70:30": reads to writes, two whole percentages that add up to 100. */
static gboolean opt_oltp_mix(const char *name, const char *value, gpointer data, GError **error)
{
	struct ab_config *cfg = data;
	const char *why = "expected READ:WRITE, two whole percentages adding up to 100 (70:30)";
	const char *colon = strchr(value, ':');
	if (!colon)
		return bad_option(error, name, value, why);
	g_autofree char *left = g_strndup(value, (gsize)(colon - value));
	uint64_t r, w;
	if (!ab_parse_count(left, 100, &r, NULL) || !g_ascii_isdigit(colon[1]) ||
	    !ab_parse_count(colon + 1, 100, &w, NULL) || r + w != 100)
		return bad_option(error, name, value, why);
	cfg->oltp_read_pct = (uint32_t)r;
	cfg->oltp_given = TRUE;
	return TRUE;
}

static gboolean opt_oltp_size(const char *name, const char *value, gpointer data, GError **error)
{
	struct ab_config *cfg = data;
	uint64_t v;
	/* Laid out in whole MiB, as the -s file is. */
	if (!ab_parse_size(value, AB_MIB, &v, NULL) || v == 0 || v % AB_MIB || v > (1ull << 50))
		return bad_option(error, name, value, "a whole number of MiB from 1m to 1p (MiB without a suffix)");
	cfg->oltp_size = v;
	cfg->oltp_given = TRUE;
	return TRUE;
}

static gboolean opt_oltp_sync_every(const char *name, const char *value, gpointer data, GError **error)
{
	struct ab_config *cfg = data;
	uint64_t v;
	if (!ab_parse_count(value, AB_OLTP_MAX_SYNC_EVERY, &v, NULL) || v == 0)
		return bad_option(error, name, value, "a count of writes from 1 to 1000000000");
	cfg->oltp_sync_every = v;
	cfg->oltp_given = TRUE;
	return TRUE;
}

static gboolean opt_oltp_seconds(const char *name, const char *value, gpointer data, GError **error)
{
	struct ab_config *cfg = data;
	uint64_t v;
	if (!ab_parse_count(value, AB_OLTP_MAX_SECONDS, &v, NULL) || v == 0) {
		g_autofree char *why = g_strdup_printf("whole seconds from 1 to %u", AB_OLTP_MAX_SECONDS);
		return bad_option(error, name, value, why);
	}
	cfg->oltp_seconds = (uint32_t)v;
	cfg->oltp_given = TRUE;
	return TRUE;
}

/* The profile was read before any option (see ab_run_options_parse):
 * nothing is left to do with the name here. */
static gboolean opt_workload(const char *name, const char *value, gpointer data, GError **error)
{
	(void)name, (void)value, (void)data, (void)error;
	return TRUE;
}

static gboolean opt_sweep_csv(const char *name, const char *value, gpointer data, GError **error)
{
	return set_string(name, value, "file name", &((struct ab_config *)data)->sweep_csv_path, error);
}

/* The wal phase's (workloads/wal.h). */
static gboolean opt_wal_sync(const char *name, const char *value, gpointer data, GError **error)
{
	struct ab_config *cfg = data;
	GArray *list;
	if (!ab_wal_parse_syncs(name, value, &list, error))
		return FALSE;
	if (cfg->wal_syncs)
		g_array_unref(cfg->wal_syncs);
	cfg->wal_syncs = list;
	return TRUE;
}

static gboolean opt_wal_records(const char *name, const char *value, gpointer data, GError **error)
{
	struct ab_config *cfg = data;
	GArray *list;
	if (!ab_wal_parse_commits(name, value, &list, error))
		return FALSE;
	if (cfg->wal_commits)
		g_array_unref(cfg->wal_commits);
	cfg->wal_commits = list;
	return TRUE;
}

static gboolean opt_wal_writers(const char *name, const char *value, gpointer data, GError **error)
{
	uint64_t n;
	if (!ab_parse_count(value, AB_WAL_MAX_WRITERS, &n, NULL) || n == 0) {
		g_autofree char *why = g_strdup_printf("a writer count from 1 to %u", AB_WAL_MAX_WRITERS);
		return bad_option(error, name, value, why);
	}
	((struct ab_config *)data)->wal_writers = (uint32_t)n;
	return TRUE;
}

static gboolean opt_wal_seconds(const char *name, const char *value, gpointer data, GError **error)
{
	return ab_wal_parse_seconds(name, value, &((struct ab_config *)data)->wal_seconds, error);
}

static gboolean opt_wal_rewrite(const char *name, const char *value, gpointer data, GError **error)
{
	(void)name, (void)value, (void)error;
	((struct ab_config *)data)->wal_rewrite = TRUE;
	return TRUE;
}

static gboolean opt_wal_commits(const char *name, const char *value, gpointer data, GError **error)
{
	uint64_t n;
	if (!ab_parse_count(value, AB_WAL_MAX_COMMITS, &n, NULL) || n == 0) {
		g_autofree char *why = g_strdup_printf("a commit count from 1 to %" G_GUINT64_FORMAT, AB_WAL_MAX_COMMITS);
		return bad_option(error, name, value, why);
	}
	((struct ab_config *)data)->wal_count = n;
	return TRUE;
}

/* The latency curve's options: each notes that it was given, for the
 * message when no curve is asked for. */
static void curve_given(struct ab_config *cfg, const char *name)
{
	if (!cfg->curve_option_given)
		cfg->curve_option_given = g_intern_string(name);
}

/* A positive finite number, all of `value`. */
static gboolean parse_positive(const char *name, const char *value, double *out, GError **error)
{
	char *end = NULL;
	double v = g_ascii_strtod(value, &end);
	/* Decimal only: strtod would take hex ("0x10") and "infinity". */
	if (!*value || value[strspn(value, "0123456789.eE+-")] || !end || *end || !isfinite(v) || v <= 0)
		return bad_option(error, name, value, "not a positive number");
	*out = v;
	return TRUE;
}

static gboolean opt_curve_procs(const char *name, const char *value, gpointer data, GError **error)
{
	struct ab_config *cfg = data;
	uint64_t n;
	if (!ab_parse_count(value, AB_CURVE_MAX_PROCS, &n, error)) {
		g_prefix_error(error, "%s: ", name);
		return FALSE;
	}
	if (n == 0)
		return bad_option(error, name, value, "must be at least 1");
	cfg->curve_procs = (uint32_t)n;
	curve_given(cfg, "--curve-procs");
	return TRUE;
}

static gboolean opt_curve_block(const char *name, const char *value, gpointer data, GError **error)
{
	struct ab_config *cfg = data;
	if (!ab_parse_chunk(value, &cfg->curve_block, error)) {
		g_prefix_error(error, "%s: ", name);
		return FALSE;
	}
	curve_given(cfg, "--curve-block");
	return TRUE;
}

static gboolean opt_curve_mix(const char *name, const char *value, gpointer data, GError **error)
{
	struct ab_config *cfg = data;
	g_auto(GStrv) parts = g_strsplit(value, ":", 0);
	guint64 r, w;
	if (g_strv_length(parts) != 2 || !g_ascii_string_to_unsigned(parts[0], 10, 0, 100, &r, NULL) ||
	    !g_ascii_string_to_unsigned(parts[1], 10, 0, 100, &w, NULL))
		return bad_option(error, name, value, "expected READS:WRITES, two whole percentages (70:30)");
	if (r + w != 100)
		return bad_option(error, name, value, "the two shares must add up to 100");
	cfg->curve_read_pct = (uint32_t)r;
	curve_given(cfg, "--curve-mix");
	return TRUE;
}

static gboolean opt_rate_start(const char *name, const char *value, gpointer data, GError **error)
{
	struct ab_config *cfg = data;
	if (!parse_positive(name, value, &cfg->rate_start, error))
		return FALSE;
	curve_given(cfg, "--rate-start");
	return TRUE;
}

static gboolean opt_rate_factor(const char *name, const char *value, gpointer data, GError **error)
{
	struct ab_config *cfg = data;
	double f;
	if (!parse_positive(name, value, &f, error))
		return FALSE;
	/* Under 1.05 the steps would be closer than the 5 % a step may
	 * fall behind by. */
	if (f < 1.05 || f > 100)
		return bad_option(error, name, value, "must be from 1.05 to 100");
	cfg->rate_factor = f;
	curve_given(cfg, "--rate-factor");
	return TRUE;
}

static gboolean opt_curve_seconds(const char *name, const char *value, gpointer data, GError **error)
{
	struct ab_config *cfg = data;
	double sec;
	if (!parse_positive(name, value, &sec, error))
		return FALSE;
	if (sec < 0.1 || sec > 86400)
		return bad_option(error, name, value, "must be from 0.1 to 86400 seconds");
	cfg->curve_seconds = sec;
	curve_given(cfg, "--curve-seconds");
	return TRUE;
}

static gboolean opt_p99_target(const char *name, const char *value, gpointer data, GError **error)
{
	struct ab_config *cfg = data;
	static const struct { const char *suffix; double ns; } units[] = {
		{ "ns", 1 }, { "us", 1e3 }, { "ms", 1e6 }, { "s", 1e9 },
	};
	char *end = NULL;
	double v = g_ascii_strtod(value, &end);
	double scale = 0;
	if (*value && strspn(value, "0123456789.") && end && end != value && !strpbrk(value, "xX")) {
		if (!*end)
			scale = 1e6; /* milliseconds when no unit is given */
		for (size_t i = 0; i < G_N_ELEMENTS(units) && !scale; i++)
			if (g_str_equal(end, units[i].suffix))
				scale = units[i].ns;
	}
	if (!scale || !isfinite(v) || v <= 0)
		return bad_option(error, name, value, "expected a positive time: ms without a unit, or ns, us, ms, s");
	double ns = v * scale;
	if (ns < 1000 || ns > 3600e9)
		return bad_option(error, name, value, "must be from 1us to 1 hour");
	cfg->p99_target_ns = (uint64_t)llround(ns);
	curve_given(cfg, "--p99-target");
	return TRUE;
}

static gboolean opt_curve_steps(const char *name, const char *value, gpointer data, GError **error)
{
	struct ab_config *cfg = data;
	uint64_t n;
	if (!ab_parse_count(value, AB_CURVE_MAX_STEPS, &n, error)) {
		g_prefix_error(error, "%s: ", name);
		return FALSE;
	}
	if (n == 0)
		return bad_option(error, name, value, "must be at least 1");
	cfg->curve_steps = (uint32_t)n;
	curve_given(cfg, "--curve-steps");
	return TRUE;
}

#define CB(f) G_OPTION_ARG_CALLBACK, (gpointer)(f)
#define NOARG G_OPTION_FLAG_NO_ARG

static const GOptionEntry entries[] = {
	{ "directory", 'd', G_OPTION_FLAG_FILENAME, CB(opt_dir), "Directory to test in (required)", "DIR" },
	{ "size", 's', 0, CB(opt_size),
	  "File size in MiB or with k/m/g/t, then I/O chunk (8k), seek count (8192), seekers (5)",
	  "SIZE[:CHUNK[:SEEKS[:SEEKERS]]]" },
	{ "files", 'n', 0, CB(opt_files),
	  "Files in units of 1024 (16), max and min size in bytes (-1 hard links, -2 symlinks), "
	  "directories, file chunk",
	  "NUM[:MAX[:MIN[:DIRS[:CHUNK]]]]" },
	{ "machine", 'm', G_OPTION_FLAG_FILENAME, CB(opt_machine), "Machine name in the report (default: host name)", "NAME" },
	{ "ram", 'r', 0, CB(opt_ram), "RAM in MiB: the cgroup limit under --cache cgroup, else trusted", "RAM" },
	{ "repeats", 'x', 0, CB(opt_repeats), "Run the whole suite N times, each with its own seed", "N" },
	{ "seed", 'z', 0, CB(opt_seed), "Random seed of the first run", "SEED" },
	{ "fast", 'f', G_OPTION_FLAG_OPTIONAL_ARG, CB(opt_fast),
	  "-f skips the per-char phases; -fSIZE (attached) sets their size (3m)", "SIZE" },
	{ "sync-each-write", 'b', NOARG, CB(opt_sync), "fsync after every write (and file create/delete)", NULL },
	{ "quiet", 'q', NOARG, CB(opt_quiet), "Table to stderr, no progress line; stdout has only the CSV", NULL },
	{ "verbose", 'v', NOARG, CB(opt_verbose), "Show all that mkfs, mdadm and the other set-up tools said", NULL },
	{ "user", 'u', 0, CB(opt_user), "Run the workers as this user (as root)", "USER[:GROUP]" },
	{ "seekers", 0, 0, CB(opt_seekers), "Forked seeker processes (5)", "N" },
	{ "seeks", 0, 0, CB(opt_seeks),
	  "Random seeks in all (default: from 8192, doubled until the phase lasts 1 s)", "N" },
	{ "per-char", 0, 0, CB(opt_per_char),
	  "syscall: 1-byte read/write over the per-char size (bonnie++ 2.00); stdio: getc/putc over the "
	  "whole file, or the -fSIZE given (1.03)", "MODE" },
	{ "phases", 0, 0, CB(opt_phases), "Phases to run, in this order; one named twice runs twice (see 'arraybench list')", "LIST" },
	{ "data", 0, 0, CB(opt_data), "random (incompressible, default) or zeros (bonnie++ parity)", "KIND" },
	{ "direct", 'D', NOARG, CB(opt_direct),
	  "O_DIRECT for every phase that can (per-char stays buffered); unlike bonnie++, reads too", NULL },
	{ "cache", 0, 0, CB(opt_cache),
	  "auto (default: cgroup, else drop, else fadvise), cgroup, drop, fadvise, remount (built targets) or none",
	  "MODE" },
	{ "cold-metadata", 0, NOARG, CB(opt_cold_metadata),
	  "Start stat and delete with cold dentry and inode caches (root; bonnie++ runs them warm)", NULL },
	{ "csv", 0, G_OPTION_FLAG_FILENAME, CB(opt_csv), "Append the bonnie++ CSV lines to FILE", "FILE" },
	{ "json", 0, G_OPTION_FLAG_FILENAME, CB(opt_json), "Append one JSON object per run (one per line) to FILE", "FILE" },
	{ "device", 0, G_OPTION_FLAG_FILENAME, CB(opt_device), "Format this block device with --fs and test on it (instead of -d)", "DEV" },
	{ "array", 0, 0, CB(opt_array),
	  "Build an array of --members or --loop images: mdadm 0, 1, 4, 5, 6, 10, 1+0; btrfs single, raid0, "
	  "raid1, raid10, raid5, raid6", "LEVEL" },
	{ "members", 0, G_OPTION_FLAG_FILENAME, CB(opt_members), "Comma-separated member devices of --array", "DEV,DEV..." },
	{ "backend", 0, 0, CB(opt_backend), "mdadm or btrfs (default: mdadm where the kernel has md)", "NAME" },
	{ "chunk", 0, 0, CB(opt_chunk), "Array chunk size (KiB without a suffix)", "SIZE" },
	{ "layout", 0, 0, CB(opt_layout), "RAID10 layout: n2, f2 or o2", "LAYOUT" },
	{ "fs", 0, 0, CB(opt_fs), "File system to make: ext3, ext4, xfs or btrfs", "FS" },
	{ "mkfs-opts", 0, 0, CB(opt_mkfs_opts), "Extra mkfs options; none may name a path or device (exit 4)",
	  "\"OPTS\"" },
	{ "mount-opts", 0, 0, CB(opt_mount_opts),
	  "Mount options (noatime... become flags, the rest go to the fs); none may name a path or device",
	  "OPTS" },
	{ "no-stripe-hint", 0, NOARG, CB(opt_no_stripe_hint), "Do not pass the array geometry to mkfs", NULL },
	{ "raw-baseline", 0, NOARG, CB(opt_raw_baseline),
	  "Before mkfs, read each member (and the md array) raw, as 'arraybench raw'; the table gives the file system's share", NULL },
	{ "loop", 0, G_OPTION_FLAG_FILENAME, CB(opt_loop),
	  "Make N sparse images of SIZE in DIR ($TMPDIR, else /var/tmp) on loop devices as members; DIR must "
	  "exist and not be tmpfs or ramfs", "N:SIZE[:DIR]" },
	{ "images-in-ram", 0, NOARG, CB(opt_images_in_ram),
	  "Allow --loop images on tmpfs (the array is then RAM)", NULL },
	{ "yes-destroy", 0, 0, CB(opt_yes_destroy),
	  "Overwrite these devices even though they carry a signature", "DEV,DEV..." },
	{ "dry-run", 0, NOARG, CB(opt_dry_run), "Print the set-up plan with each undo and touch nothing", NULL },
	{ "workload", 0, G_OPTION_FLAG_FILENAME, CB(opt_workload),
	  "Run a workload profile's steps: a built-in NAME (see 'arraybench list') or a FILE (with a '/' or "
	  "ending in .ini; arraybench-workload(5)); the other options given change every step", "NAME|FILE" },
	{ "sweep-file-sizes", 0, 0, CB(opt_sweep_sizes),
	  "Sweep: file sizes, a list or MIN-MAX doubling (KiB without a suffix; 64k-512m)", "LIST|MIN-MAX" },
	{ "sweep-records", 0, 0, CB(opt_sweep_records),
	  "Sweep: record sizes, powers of two (4k-16m; given: 1k-1g, and small records run for big files too)",
	  "LIST|MIN-MAX" },
	{ "sweep-tests", 0, 0, CB(opt_sweep_tests),
	  "Sweep: tests to run (all): write, rewrite, read, reread, random-read, random-write, backward-read, "
	  "record-rewrite, stride-read, fwrite, frewrite, fread, freread", "LIST" },
	{ "stride", 0, 0, CB(opt_stride), "Sweep: records between stride-read's reads (17)", "N" },
	{ "include-fsync", 0, NOARG, CB(opt_include_fsync),
	  "Sweep: every test times an fsync (iozone -e); by default only writes time theirs", NULL },
	{ "include-close", 0, NOARG, CB(opt_include_close),
	  "Sweep: time close; alone, as iozone -c, no fsync is issued at all", NULL },
	{ "untimed-flush", 0, NOARG, CB(opt_untimed_flush),
	  "Sweep: time only the I/O calls, fsync after the clock (iozone's default: writes then measure RAM)",
	  NULL },
	{ "streams", 0, 0, CB(opt_streams),
	  "Sweep: N concurrent workers per cell, each its own file (iozone -t); a list runs the grid once per count",
	  "N[,N...]" },
	{ "sweep-files", 0, 0, CB(opt_sweep_files),
	  "Sweep: files each stream writes or reads in turn, all in one timed region (1)", "N" },
	{ "shared-file", 0, NOARG, CB(opt_shared_file),
	  "Sweep: the --streams share one file, each its own region of it", NULL },
	{ "sweep-csv", 0, G_OPTION_FLAG_FILENAME, CB(opt_sweep_csv),
	  "Append the sweep's cells to FILE, one CSV row each with named columns", "FILE" },
	{ "wal-sync", 0, 0, CB(opt_wal_sync),
	  "WAL: sync after each commit: fdatasync (default), fsync, open_datasync (O_DSYNC), open_sync (O_SYNC); "
	  "a list, or all", "LIST" },
	{ "wal-records", 0, 0, CB(opt_wal_records),
	  "WAL: commit sizes (8k); NxSIZE is N writes then one sync (2x8k, a group commit)", "LIST" },
	{ "wal-writers", 0, 0, CB(opt_wal_writers), "WAL: concurrent committers, each its own log file (1)", "N" },
	{ "wal-seconds", 0, 0, CB(opt_wal_seconds), "WAL: timed seconds of each method and size (5)", "S" },
	{ "wal-commits", 0, 0, CB(opt_wal_commits),
	  "WAL: commits of each committer per method and size, instead of --wal-seconds", "N" },
	{ "wal-rewrite", 0, NOARG, CB(opt_wal_rewrite),
	  "WAL: every commit overwrites the log's first bytes (pg_test_fsync's pattern) instead of appending; "
	  "tests end in ' rewrite'", NULL },
	{ "oltp-procs", 0, 0, CB(opt_oltp_procs),
	  "Oltp: forked processes doing random I/O at once (8); a list runs once per count", "N[,N...]" },
	{ "oltp-block", 0, 0, CB(opt_oltp_block), "Oltp: bytes per read or write (8k)", "SIZE" },
	{ "oltp-mix", 0, 0, CB(opt_oltp_mix), "Oltp: reads to writes in percent (70:30)", "R:W" },
	{ "oltp-size", 0, 0, CB(opt_oltp_size), "Oltp: the data file's size (MiB without a suffix; default the -s size, or under a memory cgroup with no -s 4 times its limit)",
	  "SIZE" },
	{ "oltp-sync-every", 0, 0, CB(opt_oltp_sync_every),
	  "Oltp: each process fdatasyncs after every K-th of its writes (none)", "K" },
	{ "oltp-seconds", 0, 0, CB(opt_oltp_seconds), "Oltp: how long each process count runs (10)", "S" },
	{ "curve-procs", 0, 0, CB(opt_curve_procs),
	  "Latency curve: processes that share each step's schedule, one I/O in flight each (4)", "N" },
	{ "curve-block", 0, 0, CB(opt_curve_block), "Latency curve: bytes per random I/O, a power of two (8k)",
	  "SIZE" },
	{ "curve-mix", 0, 0, CB(opt_curve_mix), "Latency curve: percent reads and writes (100:0)", "R:W" },
	{ "rate-start", 0, 0, CB(opt_rate_start), "Latency curve: IOPS offered by the first step (100)", "IOPS" },
	{ "rate-factor", 0, 0, CB(opt_rate_factor), "Latency curve: each step offers this times the last (2)",
	  "F" },
	{ "curve-seconds", 0, 0, CB(opt_curve_seconds), "Latency curve: length of each step (5)", "S" },
	{ "p99-target", 0, 0, CB(opt_p99_target),
	  "Latency curve: the curve stops at the first step whose p99 is over this (10ms)", "TIME" },
	{ "curve-steps", 0, 0, CB(opt_curve_steps), "Latency curve: the most steps (10)", "N" },
	G_OPTION_ENTRY_NULL
};

static const char run_description[] =
	"Runs bonnie++'s phases in DIR and prints a table and a bonnie++ 1.98 CSV line.\n"
	"Exit status: 0 ok, 1 bad input, 2 a phase failed, 3 missing resource or privilege,\n"
	"4 unsafe target, state directory or output file (a symbolic link: see OUTPUT in\n"
	"arraybench(1)), 5 results not written, 130 interrupted.\n"
	"On a terminal, stderr shows one live status line: repeat, phase, percent done,\n"
	"current rate, elapsed time and ETA, or what the run is doing between phases\n"
	"(building, formatting, syncing, dropping caches, tearing down); off a terminal,\n"
	"one line per finished phase with its rate and time.  -q silences both.\n"
	"Every run journals what it makes (in $ARRAYBENCH_STATE_DIR, /var/lib/arraybench for\n"
	"root, ~/.local/state/arraybench for others) so 'arraybench cleanup' can undo it\n"
	"after a crash.  See arraybench(1).";

/* "--direct=no": GLib drops the value of a switch and turns it on, which
 * would run the opposite of what was asked.  Returns the switch's name
 * when `arg` gives one a value. */
static const char *switch_with_value(const char *arg)
{
	const char *eq = strchr(arg, '=');
	if (arg[0] != '-' || arg[1] != '-' || !eq)
		return NULL;
	for (const GOptionEntry *e = entries; e->long_name; e++)
		if ((e->flags & G_OPTION_FLAG_NO_ARG) && strlen(e->long_name) == (size_t)(eq - arg - 2) &&
		    strncmp(arg + 2, e->long_name, (size_t)(eq - arg - 2)) == 0)
			return e->long_name;
	return NULL;
}

gboolean ab_run_option_takes_rest(char short_name)
{
	for (const GOptionEntry *e = entries; e->long_name; e++)
		if (e->short_name && e->short_name == short_name)
			return (e->flags & G_OPTION_FLAG_OPTIONAL_ARG) != 0;
	return FALSE;
}

/* Is `arg` an option whose value is the next word ("-d DIR", "--csv FILE")? */
static gboolean takes_next_word(const char *arg)
{
	for (const GOptionEntry *e = entries; e->long_name; e++) {
		if (e->flags & (G_OPTION_FLAG_NO_ARG | G_OPTION_FLAG_OPTIONAL_ARG))
			continue;
		if (arg[0] == '-' && arg[1] == '-' && g_str_equal(arg + 2, e->long_name))
			return TRUE;
		if (e->short_name && arg[0] == '-' && arg[1] == e->short_name && !arg[2])
			return TRUE;
	}
	return FALSE;
}

/* The value of the last --workload in argv (before any "--"), or NULL;
 * NULL too when help is asked for, which needs no profile read. */
static const char *workload_asked(int argc, char **argv)
{
	const char *name = NULL;
	for (int i = 1; i < argc; i++) {
		if (g_str_equal(argv[i], "--"))
			break;
		if (g_str_has_prefix(argv[i], "--help") || g_str_equal(argv[i], "-h") || g_str_equal(argv[i], "-?"))
			return NULL;
		if (g_str_has_prefix(argv[i], "--workload="))
			name = argv[i] + strlen("--workload=");
		else if (g_str_equal(argv[i], "--workload") && i + 1 < argc)
			name = argv[++i];
		else if (takes_next_word(argv[i]))
			i++;
	}
	return name;
}

static gboolean parse_words(int argc, char **argv, struct ab_config *cfg, GError **error);

/* argv[0] and then `words`, parsed into cfg. */
static gboolean parse_list(const GPtrArray *words, char *argv0, struct ab_config *cfg, GError **error)
{
	g_autoptr(GPtrArray) v = g_ptr_array_new();
	g_ptr_array_add(v, argv0);
	for (guint i = 0; i < words->len; i++)
		g_ptr_array_add(v, g_ptr_array_index(words, i));
	g_ptr_array_add(v, NULL);
	return parse_words((int)v->len - 1, (char **)v->pdata, cfg, error);
}

/* One step of a profile: the run-wide words of [workload], the step's own,
 * then the user's, which so change every step. */
static gboolean parse_step(const struct ab_profile *p, const struct ab_profile_step *st, int argc, char **argv,
			   struct ab_config *cfg, GError **error)
{
	if (!parse_list(p->run_words, argv[0], cfg, error) || !parse_list(st->words, argv[0], cfg, error)) {
		g_prefix_error(error, "%s: ", st->where);
		return FALSE;
	}
	/* Which phases' options the step's own keys gave: another step's
	 * phase does not excuse those (ab_config_finish). */
	g_auto(ab_config_auto) own;
	ab_config_init(&own);
	if (!parse_list(st->words, argv[0], &own, error)) {
		g_prefix_error(error, "%s: ", st->where);
		return FALSE;
	}
	cfg->step_own_phase_options = ab_config_phase_options(&own);
	cfg->step_own_wal_timing = own.wal_seconds > 0 || own.wal_count;
	g_free(cfg->workload);
	cfg->workload = g_strdup(p->name);
	g_free(cfg->step_where);
	cfg->step_where = g_strdup(st->where);
	return parse_words(argc, argv, cfg, error);
}

gboolean ab_run_options_parse(int argc, char **argv, struct ab_config *cfg, GError **error)
{
	const char *workload = workload_asked(argc, argv);
	if (!workload)
		return parse_words(argc, argv, cfg, error);
	g_autoptr(ab_profile_auto) p = ab_profile_load(workload, error);
	if (!p)
		return FALSE;
	/* The first step is cfg itself (its conditions are the run's); each
	 * other step gets a config of its own, finished with cfg. */
	for (guint i = 0; i < p->steps->len; i++) {
		const struct ab_profile_step *st = g_ptr_array_index(p->steps, i);
		if (i == 0) {
			if (!parse_step(p, st, argc, argv, cfg, error))
				return FALSE;
			continue;
		}
		struct ab_config *sub = g_new(struct ab_config, 1);
		ab_config_init(sub);
		if (!cfg->step_configs)
			cfg->step_configs = g_ptr_array_new_with_free_func(ab_config_free);
		g_ptr_array_add(cfg->step_configs, sub);
		if (!parse_step(p, st, argc, argv, sub, error))
			return FALSE;
	}
	return TRUE;
}

gboolean ab_run_options_check_word(const char *word, GError **error)
{
	g_auto(ab_config_auto) scratch;
	ab_config_init(&scratch);
	char *argv[] = { "run", (char *)word, NULL };
	return parse_words(2, argv, &scratch, error);
}

gboolean ab_run_option_known(const char *long_name)
{
	for (const GOptionEntry *e = entries; e->long_name; e++)
		if (g_str_equal(e->long_name, long_name))
			return TRUE;
	return FALSE;
}

static gboolean parse_words(int argc, char **argv, struct ab_config *cfg, GError **error)
{
	g_autoptr(GOptionContext) ctx = g_option_context_new("-d DIR");
	GOptionGroup *group = g_option_group_new("run", "run options", "Show run options", cfg, NULL);
	g_option_group_add_entries(group, entries);
	g_option_context_set_main_group(ctx, group);
	g_option_context_set_summary(ctx, "Run bonnie++'s phases on a directory.");
	g_option_context_set_description(ctx, run_description);
	g_autofree char **args = g_new0(char *, argc + 1);
	memcpy(args, argv, sizeof(char *) * (size_t)argc);
	/* bonnie++'s -fSIZE takes its value attached; GLib only does that for
	 * long options, so spell it --fast=SIZE.  The strings live in `owned`. */
	g_autoptr(GPtrArray) owned = g_ptr_array_new_with_free_func(g_free);
	for (int i = 1; i < argc; i++) {
		if (g_str_equal(args[i], "--"))
			break;
		const char *sw = switch_with_value(args[i]);
		if (sw) {
			g_set_error(error, AB_ERROR, AB_ERROR_USAGE, "invalid '%s': --%s takes no value", args[i], sw);
			return FALSE;
		}
		if (takes_next_word(args[i])) {
			i++; /* that word is a value ("--csv -fx.csv"), not an option */
			continue;
		}
		if (g_str_has_prefix(args[i], "-f") && args[i][2]) {
			args[i] = g_strdup_printf("--fast=%s", args[i] + 2);
			g_ptr_array_add(owned, args[i]);
		}
	}
	int n = argc;
	char **view = args;
	GError *local = NULL;
	if (!g_option_context_parse(ctx, &n, &view, &local)) {
		ab_cmd_options_error(local, error);
		return FALSE;
	}
	if (n > 1) {
		g_set_error(error, AB_ERROR, AB_ERROR_USAGE, "unexpected argument '%s'", view[1]);
		return FALSE;
	}
	return TRUE;
}
