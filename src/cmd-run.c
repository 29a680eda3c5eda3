/* SPDX-License-Identifier: GPL-2.0-or-later */
/* `arraybench run`: options, cache control, repeats, outputs, cleanup. */
#include "commands.h"
#include "cache.h"
#include "error.h"
#include "fsutil.h"
#include "rng.h"
#include "run-options.h"
#include "runner.h"
#include "suite.h"
#include "sysinfo.h"
#include "../reports/report.h"

#include <errno.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

struct outputs {
	FILE *csv;
	FILE *json;
};

static FILE *open_append(const char *path, GError **error)
{
	FILE *f = fopen(path, "a");
	if (!f)
		ab_set_error_errno(error, AB_ERROR_USAGE, errno, "cannot open '%s' for appending", path);
	return f;
}

static gboolean open_outputs(const struct ab_config *cfg, struct outputs *out, GError **error)
{
	if (cfg->csv_path && !(out->csv = open_append(cfg->csv_path, error)))
		return FALSE;
	if (cfg->json_path && !(out->json = open_append(cfg->json_path, error)))
		return FALSE;
	return TRUE;
}

static void close_outputs(struct outputs *out)
{
	if (out->csv)
		fclose(out->csv);
	if (out->json)
		fclose(out->json);
}

static gboolean check_space(const struct ab_config *cfg, GError **error)
{
	uint64_t need = cfg->file_size;
	if (cfg->num_files && cfg->file_max > 0)
		need = MAX(need, (uint64_t)cfg->num_files * 1024u * (uint64_t)cfg->file_max);
	uint64_t free_bytes = ab_dir_free_bytes(cfg->dir);
	if (free_bytes && need > free_bytes) {
		g_set_error(error, AB_ERROR, AB_ERROR_SKIPPED,
			    "not enough space in '%s': the phases need %" G_GUINT64_FORMAT "M, %" G_GUINT64_FORMAT
			    "M is free",
			    cfg->dir, need / AB_MIB, free_bytes / AB_MIB);
		return FALSE;
	}
	return TRUE;
}

static char *cache_warning(const struct ab_config *cfg, uint64_t ram_bytes)
{
	if (cfg->cache == AB_CACHE_CGROUP || !cfg->file_size || cfg->file_size >= 2 * ram_bytes)
		return NULL;
	return g_strdup_printf("file %" G_GUINT64_FORMAT "M is under twice the RAM (%" G_GUINT64_FORMAT
			       "M) and --cache %s does not cap the page cache: read and seek rates may "
			       "measure memory, not the disk",
			       cfg->file_size / AB_MIB, ram_bytes / AB_MIB, ab_cache_mode_name(cfg->cache));
}

static void fill_run(struct ab_run *run, const struct ab_config *cfg, const struct ab_cache *cache,
		     unsigned index, uint64_t ram_bytes)
{
	memset(run, 0, sizeof(*run));
	run->tool_version = AB_VERSION;
	run->cfg = cfg;
	run->repeat_index = index;
	uint64_t st = cfg->seed + index;
	/* -x: a fresh seed each time, so repeats do not replay the same offsets
	 * and names into a warm cache as bonnie++'s do. */
	run->seed = index == 0 ? cfg->seed : ab_rng_splitmix(&st) >> 32;
	run->start_unix = g_get_real_time() / G_USEC_PER_SEC;
	run->machine = g_strdup(cfg->machine_name);
	run->dir = g_strdup(cfg->dir);
	run->fs_type = ab_sysinfo_fs_type(cfg->dir);
	run->kernel = ab_sysinfo_kernel();
	run->ram_bytes = ram_bytes;
	run->cpus = ab_sysinfo_cpu_count();
	run->cache_desc = ab_cache_describe(cache);
	run->cache_warning = cache_warning(cfg, ram_bytes);
	run->cache_controlled = run->cache_warning == NULL;
}

static gboolean emit(const struct ab_run *run, const struct ab_config *cfg, struct outputs *out, GError **error)
{
	g_autofree char *table = ab_text_format(run);
	g_autofree char *csv = ab_csv_format_line(run);
	g_autofree char *json = ab_json_format(run);
	FILE *tty = cfg->quiet ? stderr : stdout;
	fputs(table, tty);
	fflush(tty);
	fputs(csv, stdout);
	fflush(stdout);
	if (out->csv) {
		fputs(csv, out->csv);
		fflush(out->csv);
	}
	if (out->json) {
		fprintf(out->json, "%s\n", json);
		fflush(out->json);
	}
	/* SIGPIPE is ignored, so a closed pipe shows up here, after cleanup is
	 * still possible. */
	const char *failed = ferror(stdout) ? "standard output"
			     : out->csv && ferror(out->csv) ? cfg->csv_path
			     : out->json && ferror(out->json) ? cfg->json_path : NULL;
	if (failed) {
		ab_set_error_errno(error, AB_ERROR_USAGE, errno ? errno : EIO, "cannot write the results to '%s'", failed);
		return FALSE;
	}
	return TRUE;
}

static gboolean run_all(const struct ab_config *cfg, const struct ab_cache *cache, const struct ab_target *target,
			uint64_t ram_bytes, struct outputs *out, GError **error)
{
	struct ab_suite suite;
	ab_suite_init(&suite, cfg, cache, cfg->quiet ? NULL : stderr);
	suite.target = target;
	g_autoptr(GPtrArray) disks = NULL;
	if (target->members && target->members->len) {
		g_autoptr(GPtrArray) paths = g_ptr_array_new_null_terminated(4, NULL, TRUE);
		if (target->source)
			g_ptr_array_add(paths, target->source);
		for (guint i = 0; i < target->members->len; i++)
			g_ptr_array_add(paths, g_ptr_array_index(target->members, i));
		disks = ab_diskstats_names((const char *const *)paths->pdata);
		suite.disk_names = disks;
	}
	gboolean ok = TRUE;
	for (unsigned i = 0; ok && i < cfg->repeats; i++) {
		g_autofree struct ab_run *run = g_new0(struct ab_run, 1);
		fill_run(run, cfg, cache, i, ram_bytes);
		run->target = target;
		ok = ab_suite_run(&suite, run, error);
		/* A failed or interrupted run prints nothing: no partial result
		 * shown as whole. */
		if (ok)
			ok = emit(run, cfg, out, error);
		ab_run_clear(run);
	}
	ab_suite_clear(&suite);
	return ok;
}

/* Everything after the target exists: checks that need its directory, the
 * outputs, the cache, the runs. */
static gboolean measure(struct ab_config *cfg, const struct ab_target *target, uint64_t ram_bytes, GError **error)
{
	if (!ab_dir_check_writable(cfg->dir, error) || !check_space(cfg, error))
		return FALSE;
	struct outputs out = { 0 };
	if (!open_outputs(cfg, &out, error)) {
		close_outputs(&out);
		return FALSE;
	}
	g_autofree char *warning = cache_warning(cfg, ram_bytes);
	if (warning)
		fprintf(stderr, "arraybench: warning: %s\n", warning);
	struct ab_cache cache;
	gboolean ok = ab_cache_setup(&cache, cfg, error);
	if (ok)
		ok = run_all(cfg, &cache, target, ram_bytes, &out, error);
	ab_cache_teardown(&cache);
	close_outputs(&out);
	return ok;
}

static gboolean build_target(struct ab_config *cfg, struct ab_target *target, GError **error)
{
	if (ab_target_spec_builds(&cfg->target) && geteuid() != 0) {
		g_set_error(error, AB_ERROR, AB_ERROR_SKIPPED,
			    "building a target (--device, --array, --loop) needs root; -d DIR does not");
		return FALSE;
	}
	if (!ab_target_build(&cfg->target, target, NULL, error))
		return FALSE;
	if (!ab_target_spec_builds(&cfg->target))
		return TRUE;
	cfg->dir = g_strdup(target->mount_dir);
	if (!cfg->machine_given && target->label) {
		g_free(cfg->machine_name);
		cfg->machine_name = g_strdup(target->label);
	}
	/* -u: the workers write into the new file system's root. */
	if (cfg->user_given && chown(cfg->dir, cfg->uid, cfg->gid) != 0) {
		ab_set_error_errno(error, AB_ERROR_SKIPPED, errno, "cannot hand '%s' to user %u", cfg->dir,
				   (unsigned)cfg->uid);
		return FALSE;
	}
	return TRUE;
}

int ab_cmd_run(int argc, char **argv, GError **error)
{
	g_auto(ab_config_auto) cfg;
	ab_config_init(&cfg);
	g_set_prgname("arraybench run");
	if (!ab_run_options_parse(argc, argv, &cfg, error))
		return AB_ERROR_USAGE;
	ab_sysinfo_init();
	uint64_t ram_bytes = ab_sysinfo_ram_bytes();
	if (!ab_cache_resolve(&cfg, error) || !ab_config_finish(&cfg, ram_bytes, error))
		return ab_error_exit_status(*error);
	struct ab_target target;
	if (cfg.target.dry_run) {
		gboolean ok = ab_target_build(&cfg.target, &target, stdout, error);
		ab_target_clear(&target);
		return ok ? 0 : ab_error_exit_status(*error);
	}
	ab_runner_install_signals();
	gboolean ok = build_target(&cfg, &target, error);
	if (ok)
		ok = measure(&cfg, &target, ram_bytes, error);
	/* Always unwind what was built, whatever happened above. */
	g_autoptr(GString) report = g_string_new(NULL);
	g_autoptr(GError) teardown_error = NULL;
	if (!ab_target_teardown(&target, report, &teardown_error)) {
		fprintf(stderr, "arraybench: error: teardown: %s; 'arraybench cleanup' retries it\n",
			teardown_error->message);
		if (ok) {
			g_set_error(error, AB_ERROR, AB_ERROR_SKIPPED, "the target was not fully torn down");
			ok = FALSE;
		}
	}
	ab_target_clear(&target);
	if (ab_stop_requested && !ok && (*error)->code != AB_ERROR_INTERRUPTED) {
		g_clear_error(error);
		g_set_error(error, AB_ERROR, AB_ERROR_INTERRUPTED, "interrupted");
	}
	return ok ? 0 : ab_error_exit_status(*error);
}
