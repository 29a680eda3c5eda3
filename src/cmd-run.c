/* SPDX-License-Identifier: GPL-2.0-or-later */
/* `arraybench run`: options and every check that can be made before
 * anything is (run-prepare.c, shared with matrix), the outputs opened; then
 * the pipeline (pipeline.c) builds, measures and unwinds, handing each run
 * to this file's sink. */
#include "commands.h"
#include "cache.h"
#include "error.h"
#include "outfile.h"
#include "progress.h"
#include "run-prepare.h"
#include "pipeline.h"
#include "../workloads/phase.h"
#include "../reports/report.h"

#include <errno.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

/* run's result files, in the order they are checked and opened. */
enum { OUT_CSV, OUT_JSON, OUT_SWEEP_CSV, OUT_COUNT };

struct outputs {
	struct ab_outfile file[OUT_COUNT];
	gboolean sweep_csv_header; /* the file was empty: its first rows need the header */
};

/* All or none (src/outfile.c): no symbolic link, no two of them one file. */
static gboolean open_outputs(const struct ab_config *cfg, struct outputs *out, GError **error)
{
	out->file[OUT_CSV] = (struct ab_outfile){ "--csv", cfg->csv_path, NULL };
	out->file[OUT_JSON] = (struct ab_outfile){ "--json", cfg->json_path, NULL };
	out->file[OUT_SWEEP_CSV] = (struct ab_outfile){ "--sweep-csv", cfg->sweep_csv_path, NULL };
	if (!ab_outfiles_open(out->file, OUT_COUNT, cfg->user_given, error))
		return FALSE;
	FILE *sweep = out->file[OUT_SWEEP_CSV].f;
	struct stat st;
	out->sweep_csv_header = sweep && fstat(fileno(sweep), &st) == 0 && S_ISREG(st.st_mode) && st.st_size == 0;
	return TRUE;
}

static void close_outputs(struct outputs *out)
{
	ab_outfiles_close(out->file, OUT_COUNT);
	out->sweep_csv_header = FALSE;
}

/* Writes one output whole and flushed; FALSE if it failed (an output file
 * is then as it was: ab_outfile_append()). */
static gboolean put(FILE *f, const char *text)
{
	if (f != stdout && f != stderr)
		return ab_outfile_append(f, text);
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
	FILE *csv_file = out->file[OUT_CSV].f, *json_file = out->file[OUT_JSON].f, *sweep_file = out->file[OUT_SWEEP_CSV].f;
	g_autofree char *sweep_rows = sweep_file ? ab_sweep_csv_rows(run) : NULL;
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
		{ has_csv ? csv_file : NULL, csv, cfg->csv_path },
		{ json_file, json_line, cfg->json_path },
		{ sweep_file, sweep_csv, cfg->sweep_csv_path },
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

int ab_cmd_run(int argc, char **argv, GError **error)
{
	g_auto(ab_config_auto) cfg;
	ab_config_init(&cfg);
	g_set_prgname("arraybench run");
	struct ab_run_prep prep;
	ab_run_prep_init(&prep);
	int status = ab_run_prepare(argc, argv, &cfg, &prep, error);
	if (status == 0 && cfg.target.dry_run)
		print_run_plan(&cfg, prep.run_id, prep.state_dir);
	struct outputs out = { { { 0 } }, FALSE };
	if (status != 0 || cfg.target.dry_run || !open_outputs(&cfg, &out, error)) {
		close_outputs(&out);
		ab_run_prep_clear(&prep);
		return status != 0 ? status : cfg.target.dry_run ? 0 : ab_error_exit_status(*error);
	}
	/* Every path is absolute by now; from "/" no relative word of the
	 * options can name a file here that it did not name when checked. */
	if (chdir("/") != 0) {
		ab_set_error_errno(error, AB_ERROR_SKIPPED, errno, "cannot change to '/'");
		close_outputs(&out);
		ab_run_prep_clear(&prep);
		return ab_error_exit_status(*error);
	}
	struct emit_ctx sink = { &cfg, &out };
	struct ab_pipeline p = {
		.cfg = &cfg, .run_id = prep.run_id, .state_dir = prep.state_dir, .dir_fd = prep.dir_fd,
		.ram_bytes = prep.ram_bytes, .deliver = deliver, .deliver_data = &sink,
	};
	prep.dir_fd = -1; /* the pipeline closes it */
	ab_progress_start(stderr, ab_progress_mode_for(stderr, cfg.quiet));
	gboolean ok = ab_pipeline_run(&p, error);
	ab_progress_stop();
	close_outputs(&out);
	ab_run_prep_clear(&prep);
	return ok ? 0 : ab_error_exit_status(*error);
}
