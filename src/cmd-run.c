/* SPDX-License-Identifier: GPL-2.0-or-later */
/* `arraybench run`: options, every check that can be made before anything
 * is, the outputs opened; then the pipeline (pipeline.c) builds, measures
 * and unwinds, handing each run to this file's sink. */
#include "commands.h"
#include "cache.h"
#include "error.h"
#include "fsutil.h"
#include "outfile.h"
#include "progress.h"
#include "run-options.h"
#include "pipeline.h"
#include "runid.h"
#include "sysinfo.h"
#include "usercheck.h"
#include "../workloads/phase.h"
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
	FILE *sweep_csv;
	gboolean sweep_csv_header; /* the file was empty: its first rows need the header */
};

/* Are both open on one regular file (a name, a link or a symlink to it)? */
static gboolean same_file(FILE *a, FILE *b)
{
	struct stat sa, sb;
	return a && b && fstat(fileno(a), &sa) == 0 && fstat(fileno(b), &sb) == 0 && S_ISREG(sa.st_mode) &&
	       sa.st_dev == sb.st_dev && sa.st_ino == sb.st_ino;
}

static gboolean open_outputs(const struct ab_config *cfg, struct outputs *out, GError **error)
{
	if (cfg->csv_path && !(out->csv = ab_outfile_open_append("--csv", cfg->csv_path, cfg->user_given, error)))
		return FALSE;
	if (cfg->json_path && !(out->json = ab_outfile_open_append("--json", cfg->json_path, cfg->user_given, error)))
		return FALSE;
	if (cfg->sweep_csv_path) {
		if (!(out->sweep_csv = ab_outfile_open_append("--sweep-csv", cfg->sweep_csv_path, cfg->user_given, error)))
			return FALSE;
		struct stat st;
		out->sweep_csv_header = fstat(fileno(out->sweep_csv), &st) == 0 && S_ISREG(st.st_mode) && st.st_size == 0;
		/* Its rows in a file of bonnie++ lines or JSON lines would make
		 * that file one report can no longer read whole. */
		const char *other = same_file(out->sweep_csv, out->csv) ? "--csv"
				  : same_file(out->sweep_csv, out->json) ? "--json" : NULL;
		if (other) {
			g_set_error(error, AB_ERROR, AB_ERROR_USAGE, "refusing --sweep-csv '%s': it is the file of %s",
				    cfg->sweep_csv_path, other);
			return FALSE;
		}
	}
	return TRUE;
}

static void close_outputs(struct outputs *out)
{
	if (out->csv)
		fclose(out->csv);
	if (out->json)
		fclose(out->json);
	if (out->sweep_csv)
		fclose(out->sweep_csv);
	memset(out, 0, sizeof(*out));
}

/* Writes one output whole and flushed; FALSE if it failed. */
static gboolean put(FILE *f, const char *text)
{
	fputs(text, f);
	return fflush(f) == 0 && !ferror(f);
}

gboolean ab_stdout_closed;

struct emit_ctx {
	const struct ab_config *cfg;
	struct outputs *out;
};

/* The pipeline's sink: each run to the table, stdout's CSV line and the
 * --csv and --json files. */
static gboolean deliver(const struct ab_run *run, void *data, GError **error)
{
	const struct emit_ctx *e = data;
	const struct ab_config *cfg = e->cfg;
	struct outputs *out = e->out;
	g_autofree char *table = ab_text_format(run);
	/* A run of nothing but a sweep has no bonnie++ line: none is written. */
	gboolean has_csv = ab_csv_has_line(run);
	g_autofree char *csv = has_csv ? ab_csv_format_line(run) : NULL;
	g_autofree char *json = ab_json_format(run);
	g_autofree char *json_line = g_strdup_printf("%s\n", json);
	g_autofree char *sweep_rows = out->sweep_csv ? ab_sweep_csv_rows(run) : NULL;
	g_autofree char *sweep_csv = sweep_rows && *sweep_rows && out->sweep_csv_header
					     ? g_strconcat(ab_sweep_csv_header(), sweep_rows, NULL)
					     : g_strdup(sweep_rows);
	struct {
		FILE *f;
		const char *text;
		const char *name;
	} dest[] = {
		/* stdout's fate shows with the CSV line, or with the table when
		 * there is none; then, under -q, the table on stderr is the
		 * results' one copy on screen, and its loss counts too */
		{ cfg->quiet ? stderr : stdout, table,
		  has_csv ? NULL : cfg->quiet ? "standard error" : "standard output" },
		{ has_csv ? stdout : NULL, csv, "standard output" },
		{ has_csv ? out->csv : NULL, csv, cfg->csv_path },
		{ out->json, json_line, cfg->json_path },
		{ out->sweep_csv, sweep_csv, cfg->sweep_csv_path },
	};
	/* SIGPIPE is ignored, so a closed pipe shows up here, after cleanup is
	 * still possible.  Every output is tried; the error names the ones
	 * that failed and the ones that hold this run. */
	g_autoptr(GString) written = g_string_new(NULL), failed = g_string_new(NULL);
	int first_errno = 0;
	/* Stdout and stderr share the terminal, as a rule. */
	ab_progress_clear();
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
	if (sweep_rows && *sweep_rows)
		out->sweep_csv_header = FALSE; /* the next repeat's rows follow it */
	if (failed->len) {
		g_set_error(error, AB_ERROR, AB_ERROR_OUTPUT, "cannot write the results to %s: %s; %s%s", failed->str,
			    g_strerror(first_errno), written->len ? "they are whole in " : "no output holds them",
			    written->str);
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
	for (guint i = 0; i < cfg->steps->len; i++)
		printf(" %s", g_array_index(cfg->steps, struct ab_step, i).phase->name);
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
	struct emit_ctx sink = { &cfg, &out };
	struct ab_pipeline p = {
		.cfg = &cfg, .run_id = run_id, .state_dir = state_dir, .dir_fd = dir_fd, .ram_bytes = ram_bytes,
		.deliver = deliver, .deliver_data = &sink,
	};
	ab_progress_start(stderr, ab_progress_mode_for(stderr, cfg.quiet));
	ok = ab_pipeline_run(&p, error);
	ab_progress_stop();
	close_outputs(&out);
	return ok ? 0 : ab_error_exit_status(*error);
}
