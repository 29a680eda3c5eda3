/* SPDX-License-Identifier: GPL-2.0-or-later */
/* `arraybench run`: checks, then the journaled target, files and cgroup,
 * the repeats and their outputs, and always the unwind. */
#include "commands.h"
#include "cache.h"
#include "error.h"
#include "fsutil.h"
#include "rng.h"
#include "run-options.h"
#include "run-capture.h"
#include "rundir.h"
#include "runid.h"
#include "runner.h"
#include "suite.h"
#include "sysinfo.h"
#include "usercheck.h"
#include "../fs-setup/statedir.h"
#include "../fs-setup/trust.h"
#include "../reports/report.h"

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

struct outputs {
	FILE *csv;
	FILE *json;
};

/* Who else could have put this here? */
static gboolean foreign_owner(const struct stat *st)
{
	return st->st_uid != 0 && st->st_uid != geteuid();
}

/* Outputs are appended to by root: another user's file, FIFO or symlink by
 * that name (planted in /tmp, say) is refused, and opening never blocks (a
 * FIFO with no reader fails).  With -u, USER may write where the outputs go
 * (often DIR): the directory must also be one no other user can change the
 * way to (as TMPDIR for mount points), and the file no symlink at all. */
static FILE *open_append(const char *option, const char *path, gboolean under_u, GError **error)
{
	g_autofree char *why = NULL;
	struct stat st;
	if (under_u) {
		g_autofree char *absolute = ab_path_absolute(path);
		g_autofree char *parent = g_path_get_dirname(absolute);
		if (!ab_path_trusted(parent, &why)) {
			g_set_error(error, AB_ERROR, AB_ERROR_UNSAFE,
				    "refusing %s '%s': %s (with -u, the user could redirect it)", option, path, why);
			return NULL;
		}
	}
	if (lstat(path, &st) == 0 && S_ISLNK(st.st_mode) && (under_u || foreign_owner(&st))) {
		g_set_error(error, AB_ERROR, AB_ERROR_UNSAFE, "refusing %s '%s': it is a symbolic link%s", option, path,
			    under_u ? " (with -u, outputs are not opened through one)" : " of another user");
		return NULL;
	}
	if (lstat(path, &st) == 0 && !S_ISCHR(st.st_mode) && !S_ISLNK(st.st_mode) && foreign_owner(&st)) {
		g_set_error(error, AB_ERROR, AB_ERROR_UNSAFE, "refusing %s '%s': it belongs to uid %u", option, path,
			    (unsigned)st.st_uid);
		return NULL;
	}
	int fd = open(path, O_WRONLY | O_APPEND | O_CREAT | O_NONBLOCK | O_CLOEXEC | (under_u ? O_NOFOLLOW : 0), 0644);
	if (fd < 0) {
		ab_set_error_errno(error, AB_ERROR_USAGE, errno, "cannot open '%s' for appending", path);
		return NULL;
	}
	if (fstat(fd, &st) != 0 || !(S_ISREG(st.st_mode) || S_ISFIFO(st.st_mode) || S_ISCHR(st.st_mode)))
		why = g_strdup("not a file, pipe or character device");
	else if (!S_ISCHR(st.st_mode) && foreign_owner(&st))
		why = g_strdup_printf("it belongs to uid %u", (unsigned)st.st_uid);
	FILE *f = why ? NULL : fdopen(fd, "a");
	if (!f) {
		close(fd);
		g_set_error(error, AB_ERROR, AB_ERROR_UNSAFE, "refusing %s '%s': %s", option, path, why ? why : "?");
		return NULL;
	}
	fcntl(fd, F_SETFL, fcntl(fd, F_GETFL) & ~O_NONBLOCK);
	return f;
}

static gboolean open_outputs(const struct ab_config *cfg, struct outputs *out, GError **error)
{
	if (cfg->csv_path && !(out->csv = open_append("--csv", cfg->csv_path, cfg->user_given, error)))
		return FALSE;
	if (cfg->json_path && !(out->json = open_append("--json", cfg->json_path, cfg->user_given, error)))
		return FALSE;
	return TRUE;
}

static void close_outputs(struct outputs *out)
{
	if (out->csv)
		fclose(out->csv);
	if (out->json)
		fclose(out->json);
	memset(out, 0, sizeof(*out));
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

/* Writes one output whole and flushed; FALSE if it failed. */
static gboolean put(FILE *f, const char *text)
{
	fputs(text, f);
	return fflush(f) == 0 && !ferror(f);
}

gboolean ab_stdout_closed;

static gboolean emit(const struct ab_run *run, const struct ab_config *cfg, struct outputs *out, GError **error)
{
	g_autofree char *table = ab_text_format(run);
	g_autofree char *csv = ab_csv_format_line(run);
	g_autofree char *json = ab_json_format(run);
	g_autofree char *json_line = g_strdup_printf("%s\n", json);
	struct {
		FILE *f;
		const char *text;
		const char *name;
	} dest[] = {
		{ cfg->quiet ? stderr : stdout, table, NULL }, /* stdout's fate shows with the CSV line */
		{ stdout, csv, "standard output" },
		{ out->csv, csv, cfg->csv_path },
		{ out->json, json_line, cfg->json_path },
	};
	/* SIGPIPE is ignored, so a closed pipe shows up here, after cleanup is
	 * still possible.  Every output is tried; the error names the ones
	 * that failed and the ones that hold this run. */
	g_autoptr(GString) written = g_string_new(NULL), failed = g_string_new(NULL);
	int first_errno = 0;
	for (size_t i = 0; i < G_N_ELEMENTS(dest); i++) {
		if (!dest[i].f)
			continue;
		errno = 0;
		gboolean ok = put(dest[i].f, dest[i].text);
		if (ok && dest[i].f == stdout && ab_stdout_closed) {
			ok = FALSE;
			errno = EBADF;
		}
		if (!dest[i].name)
			continue;
		GString *list = ok ? written : failed;
		g_string_append_printf(list, "%s'%s'", list->len ? ", " : "", dest[i].name);
		if (!ok && !first_errno)
			first_errno = errno ? errno : EIO;
	}
	if (failed->len) {
		g_set_error(error, AB_ERROR, AB_ERROR_OUTPUT, "cannot write the results to %s: %s; %s%s", failed->str,
			    g_strerror(first_errno), written->len ? "they are whole in " : "no output holds them",
			    written->str);
		return FALSE;
	}
	return TRUE;
}

static gboolean run_all(const struct ab_config *cfg, const struct ab_cache *cache, const struct ab_target *target,
			struct ab_run_dir *run_dir, const char *run_id, uint64_t ram_bytes, struct outputs *out,
			GError **error)
{
	struct ab_suite suite;
	ab_suite_init(&suite, cfg, cache, run_dir, cfg->quiet ? NULL : stderr);
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
		g_autoptr(ab_run) run = ab_run_capture(cfg, cache, target, run_id, i, ram_bytes);
		ok = ab_suite_run(&suite, run, error);
		/* A failed or interrupted run prints nothing: no partial result
		 * shown as whole. */
		if (ok)
			ok = emit(run, cfg, out, error);
	}
	ab_suite_clear(&suite);
	return ok;
}

/* Everything after the target exists: its directory, the run's own
 * directory in it, the cache, the runs. */
static gboolean measure(const struct ab_config *cfg, struct ab_target *target, struct ab_undo *undo,
			const char *run_id, int dir_fd, uint64_t ram_bytes, struct outputs *out, GError **error)
{
	/* DIR held open: the built target's root as it was verified after the
	 * mount, or the -d directory opened by the checks; the run directory
	 * owns it from here on (and lets go of it around a remount). */
	if (target->root_fd >= 0) {
		dir_fd = target->root_fd;
		target->root_fd = -1;
	}
	struct ab_run_dir run_dir;
	ab_run_dir_init(&run_dir, cfg->dir, run_id);
	/* First: whether DIR takes anything at all is the clearer error. */
	gboolean ok = ab_run_dir_create(&run_dir, dir_fd, undo, cfg->user_given && geteuid() == 0, cfg->uid, cfg->gid,
					error) &&
		      check_space(cfg, error);
	g_autofree char *warning = ok ? ab_run_cache_warning(cfg, ram_bytes) : NULL;
	if (warning)
		fprintf(stderr, "arraybench: warning: %s\n", warning);
	struct ab_cache cache = { 0 };
	if (ok)
		ok = ab_cache_setup(&cache, cfg, undo, run_id, error);
	if (ok)
		ok = run_all(cfg, &cache, target, &run_dir, run_id, ram_bytes, out, error);
	ab_cache_clear(&cache);
	ab_run_dir_finish(&run_dir, undo);
	ab_run_dir_clear(&run_dir);
	return ok;
}

static gboolean build_target(struct ab_config *cfg, struct ab_target *target, struct ab_undo *undo,
			     const char *run_id, GError **error)
{
	gboolean ok = ab_target_build(&cfg->target, target, undo, run_id, error);
	if (cfg->verbose && target->tool_output && target->tool_output->len)
		fprintf(stderr, "arraybench: what the set-up tools said:\n%s", target->tool_output->str);
	if (!ok || !ab_target_spec_builds(&cfg->target))
		return ok;
	cfg->dir = g_strdup(target->mount_dir);
	if (!cfg->machine_given && target->label) {
		g_free(cfg->machine_name);
		cfg->machine_name = g_strdup(target->label);
	}
	/* -u: the workers write into the new file system's root. */
	if (cfg->user_given && fchown(target->root_fd, cfg->uid, cfg->gid) != 0) {
		ab_set_error_errno(error, AB_ERROR_SKIPPED, errno, "cannot hand '%s' to user %u", cfg->dir,
				   (unsigned)cfg->uid);
		return FALSE;
	}
	return TRUE;
}

/* --dry-run: what a run would make besides the target, each with its undo. */
static void print_run_plan(const struct ab_config *cfg, const char *run_id, const char *state_dir)
{
	const char *dir = ab_target_spec_builds(&cfg->target) ? "MOUNT_DIR" : cfg->dir;
	printf("  journal %s/journal-%s\n", state_dir, run_id);
	printf("  mkdir %s/arraybench.%s\n      undo: %s %s/arraybench.%s\n", dir, run_id,
	       ab_undo_kind_name(AB_UNDO_RUN_DIR), dir, run_id);
	printf("  (the workers make %s/arraybench.%s.io)\n      undo: %s %s/arraybench.%s.io\n", dir, run_id,
	       ab_undo_kind_name(AB_UNDO_IO_FILE), dir, run_id);
	if (cfg->cache == AB_CACHE_CGROUP) {
		int version;
		g_autofree char *root = ab_cache_find_cgroup("", &version);
		printf("  mkdir %s/arraybench.%s   # memory limit %" G_GUINT64_FORMAT "M\n      undo: %s %s/arraybench.%s\n",
		       root ? root : "CGROUP", run_id, ab_config_effective_ram_mib(cfg, 0),
		       ab_undo_kind_name(AB_UNDO_CGROUP), root ? root : "CGROUP", run_id);
	}
	printf("  phases:");
	for (unsigned id = 0; id < AB_PHASE_COUNT; id++)
		if (cfg->phase_mask & (1u << id))
			printf(" %s", ab_phase_by_id(id)->name);
	printf("\n");
}

/* Root makes names in DIR and counts on them between making and opening
 * them: a group or others who may write there must not be able to rename
 * root's entries, so such a DIR must be sticky (as /tmp).  Its owner may
 * rename anything: with -u the user makes the names (see rundir.c), and
 * without, root hands nothing over. */
static gboolean check_dir_owner(const struct ab_config *cfg, int dir_fd, GError **error)
{
	struct stat st;
	if (geteuid() != 0 || fstat(dir_fd, &st) != 0 || !(st.st_mode & (S_IWGRP | S_IWOTH)) ||
	    (st.st_mode & S_ISVTX))
		return TRUE;
	g_set_error(error, AB_ERROR, AB_ERROR_UNSAFE,
		    "refusing directory '%s': others may rename in it (mode %04o, not sticky): chmod +t it, or use "
		    "a directory only its owner may write to", cfg->dir, (unsigned)(st.st_mode & 07777));
	return FALSE;
}

/* Everything that can be known before anything is made.  For -d, *dir_fd
 * gets DIR, opened once here: every later step, the -u check first, works
 * on that directory, whatever its name comes to mean. */
static gboolean check_all(struct ab_config *cfg, const char *run_id, const char *state_dir, int *dir_fd,
			  GError **error)
{
	gboolean dry = cfg->target.dry_run;
	if (ab_target_spec_builds(&cfg->target) && geteuid() != 0) {
		g_set_error(error, AB_ERROR, AB_ERROR_SKIPPED,
			    "building a target (--device, --array, --loop) needs root; -d DIR does not");
		return FALSE;
	}
	if (dry)
		printf("arraybench: plan (--dry-run: nothing is touched), each step with its undo:\n");
	if (!ab_target_check(&cfg->target, run_id, dry ? stdout : NULL, error))
		return FALSE;
	if (!ab_target_spec_builds(&cfg->target)) {
		if (!ab_dir_check(cfg->dir, error))
			return FALSE;
		/* Journaled paths are absolute: cleanup may run from anywhere. */
		char *real = realpath(cfg->dir, NULL);
		if (real) {
			g_free(cfg->dir);
			cfg->dir = real;
		}
		if (!ab_path_has_room("directory", cfg->dir, error))
			return FALSE;
		*dir_fd = open(cfg->dir, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
		if (*dir_fd < 0) {
			ab_set_error_errno(error, AB_ERROR_USAGE, errno, "cannot use directory '%s'", cfg->dir);
			return FALSE;
		}
		if (!check_dir_owner(cfg, *dir_fd, error))
			return FALSE;
	}
	if (!ab_path_has_room("state directory", state_dir, error) || !ab_user_check(cfg, *dir_fd, error))
		return FALSE;
	/* A run opens (and makes) it before anything else; a dry run only
	 * checks that it deserves trust, if it exists. */
	int fd = -1;
	if (dry && !ab_state_dir_open(state_dir, FALSE, &fd, error))
		return FALSE;
	if (fd >= 0)
		close(fd);
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
	if (!ab_cache_resolve(&cfg, error) || !ab_config_finish(&cfg, ram_bytes, error) ||
	    !ab_cache_check_cold_metadata(&cfg, error))
		return ab_error_exit_status(*error);
	g_autofree char *run_id = ab_run_id_new(error);
	g_autofree char *state_dir = ab_state_dir_path();
	int dir_fd = -1;
	gboolean ok = run_id && check_all(&cfg, run_id, state_dir, &dir_fd, error);
	if (ok && cfg.target.dry_run)
		print_run_plan(&cfg, run_id, state_dir);
	struct outputs out = { 0 };
	if (!ok || cfg.target.dry_run || !open_outputs(&cfg, &out, error)) {
		close_outputs(&out);
		if (dir_fd >= 0)
			close(dir_fd);
		return ok && cfg.target.dry_run ? 0 : ab_error_exit_status(*error);
	}
	/* Every path is absolute by now; from "/" no relative word of the
	 * options can name a file here that it did not name when checked. */
	if (chdir("/") != 0) {
		ab_set_error_errno(error, AB_ERROR_SKIPPED, errno, "cannot change to '/'");
		close_outputs(&out);
		if (dir_fd >= 0)
			close(dir_fd);
		return ab_error_exit_status(*error);
	}
	ab_runner_install_signals();
	struct ab_undo undo;
	if (!ab_undo_open(&undo, state_dir, run_id, error)) {
		ab_undo_clear(&undo);
		close_outputs(&out);
		if (dir_fd >= 0)
			close(dir_fd);
		return ab_error_exit_status(*error);
	}
	struct ab_target target;
	ab_target_init(&target);
	ok = build_target(&cfg, &target, &undo, run_id, error);
	if (ok)
		ok = measure(&cfg, &target, &undo, run_id, dir_fd, ram_bytes, &out, error);
	else if (dir_fd >= 0)
		close(dir_fd);
	close_outputs(&out);
	/* Always unwind what was made, whatever happened above. */
	g_autoptr(GString) report = g_string_new(NULL);
	g_autoptr(GError) teardown_error = NULL;
	gboolean unwound = ab_undo_unwind(&undo, report, &teardown_error);
	/* What was left alone (not the run's any more) is worth a word. */
	g_auto(GStrv) lines = g_strsplit(report->str, "\n", -1);
	for (char **l = lines; *l; l++)
		if (g_str_has_prefix(*l, "left alone: "))
			fprintf(stderr, "arraybench: warning: %s\n", *l);
	if (!unwound) {
		fprintf(stderr, "arraybench: error: teardown: %s; 'arraybench cleanup' retries it\n",
			teardown_error->message);
		if (ok) {
			g_set_error(error, AB_ERROR, AB_ERROR_SKIPPED, "the target was not fully torn down");
			ok = FALSE;
		}
	}
	ab_undo_clear(&undo);
	ab_target_clear(&target);
	if (ab_stop_requested && !ok && (*error)->code != AB_ERROR_INTERRUPTED) {
		g_clear_error(error);
		g_set_error(error, AB_ERROR, AB_ERROR_INTERRUPTED, "interrupted");
	}
	return ok ? 0 : ab_error_exit_status(*error);
}
