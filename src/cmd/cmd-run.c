/* SPDX-License-Identifier: GPL-2.0-or-later */
/* `arraybench run`: options and every check that can be made before
 * anything is (run-prepare.c, shared with matrix), the outputs opened; then
 * the pipeline (pipeline.c) builds, measures and unwinds, handing each run
 * to this file's sink. */
#include "commands.h"
#include "../runner/cache.h"
#include "../base/error.h"
#include "outfile.h"
#include "../base/cluster.h"
#include "../runner/progress.h"
#include "../pipeline/run-prepare.h"
#include "../pipeline/pipeline.h"
#include "../options/run-option-parse.h"
#include "../../workloads/phase.h"
#include "../../reports/report.h"

#include <errno.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

/* run's result files: one per writer with a run option (reports/
 * writers.c), in ab_writers[]'s order, the order they are checked, opened
 * and written. */
#define MAX_OUTPUTS 8

struct outputs {
	const struct ab_writer *writer[MAX_OUTPUTS];
	struct ab_outfile file[MAX_OUTPUTS];
	gboolean header_due[MAX_OUTPUTS]; /* the file was empty: its first run needs the header */
	size_t n;
};

/* The file a writer's run option ("--csv") named, or NULL: the field its
 * row fills. */
static const char *output_path(const struct ab_config *cfg, const char *option)
{
	const struct ab_option_row *row = ab_run_option_row(option + strlen("--"));
	g_return_val_if_fail(row && row->kind == AB_OPTION_PATH && row->width == sizeof(char *), NULL);
	return G_STRUCT_MEMBER(const char *, cfg, row->offset);
}

/* All or none (src/cmd/outfile.c): no symbolic link, no two of them one file. */
static gboolean open_outputs(const struct ab_config *cfg, struct outputs *out, GError **error)
{
	out->n = 0;
	for (const struct ab_writer *const *w = ab_writers; *w; w++) {
		if (!(*w)->run_option)
			continue;
		g_assert(out->n < MAX_OUTPUTS);
		out->writer[out->n] = *w;
		out->file[out->n++] = (struct ab_outfile){ (*w)->run_option, output_path(cfg, (*w)->run_option), NULL };
	}
	if (!ab_outfiles_open(out->file, out->n, cfg->user_given, error))
		return FALSE;
	for (size_t i = 0; i < out->n; i++) {
		FILE *f = out->file[i].f;
		struct stat st;
		out->header_due[i] = out->writer[i]->header && f && fstat(fileno(f), &st) == 0 &&
				     S_ISREG(st.st_mode) && st.st_size == 0;
	}
	return TRUE;
}

static void close_outputs(struct outputs *out)
{
	ab_outfiles_close(out->file, out->n);
	memset(out->header_due, 0, sizeof(out->header_due));
}

/* Writes one output whole and flushed; FALSE if it failed (an output file
 * is then as it was: ab_outfile_append()), or if its writer failed to make
 * the text (NULL). */
static gboolean put(FILE *f, const char *text)
{
	if (!text) {
		errno = EINVAL;
		return FALSE;
	}
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

/* One output of a run: where, what, and the name an error gives it
 * (none: its fate is told by another). */
struct dest {
	FILE *f;
	char *text;
	const char *name;
};

/* The pipeline's sink: each run to the table, the writers that print on
 * standard output (the CSV line) and the files of the writers' options. */
static gboolean deliver(struct ab_run *delivered, void *data, GError **error)
{
	g_autoptr(ab_run) run = delivered; /* shown and written, then let go */
	const struct emit_ctx *e = data;
	const struct ab_config *cfg = e->cfg;
	struct outputs *out = e->out;
	struct dest dest[2 + 2 * MAX_OUTPUTS];
	size_t n = 0;
	/* stdout's fate shows with the line a writer prints there, or with
	 * the table when there is none; then, under -q, the table on stderr
	 * is the results' one copy on screen, and its loss counts too */
	struct dest *table = &dest[n++];
	*table = (struct dest){ cfg->quiet ? stderr : stdout, ab_writer_format_run(&ab_writer_text, run, NULL),
				cfg->quiet ? "standard error" : "standard output" };
	for (const struct ab_writer *const *w = ab_writers; *w; w++)
		if ((*w)->run_stdout && ab_writer_has_run(*w, run)) {
			dest[n++] = (struct dest){ stdout, ab_writer_format_run(*w, run, NULL), "standard output" };
			table->name = NULL;
		}
	for (size_t i = 0; i < out->n; i++) {
		const struct ab_writer *w = out->writer[i];
		if (!out->file[i].f || !ab_writer_has_run(w, run))
			continue;
		g_autofree char *text = ab_writer_format_run(w, run, NULL);
		dest[n++] = (struct dest){ out->file[i].f,
					   text ? g_strconcat(out->header_due[i] ? w->header : "", text, NULL) : NULL,
					   out->file[i].path };
		out->header_due[i] = FALSE; /* the next repeat's runs follow it */
	}
	/* SIGPIPE is ignored, so a closed pipe shows up here, after cleanup is
	 * still possible.  Every output is tried; the error names the ones
	 * that failed and the ones that hold this run. */
	g_autoptr(GString) written = g_string_new(NULL), failed = g_string_new(NULL);
	int first_errno = 0;
	/* Stdout and stderr share the terminal, as a rule. */
	ab_progress_clear();
	for (size_t i = 0; i < n; i++) {
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
	for (size_t i = 0; i < n; i++)
		g_free(dest[i].text);
	if (failed->len) {
		g_set_error(error, AB_ERROR, AB_ERROR_OUTPUT, "cannot write the results to %s: %s; %s%s", failed->str,
			    g_strerror(first_errno), written->len ? "they are whole in " : "no output holds them",
			    written->str);
		return FALSE;
	}
	return TRUE;
}

/* The sink of a rank that does not write (on many ranks, all but 0). */
static gboolean discard(struct ab_run *run, void *data, GError **error)
{
	(void)data, (void)error;
	ab_run_free(run);
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
	struct outputs out = { 0 };
	/* On many ranks, rank 0 alone writes: every rank has the same results. */
	if (status != 0 || cfg.target.dry_run || (ab_cluster_writes() && !open_outputs(&cfg, &out, error))) {
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
		.cfg = &cfg, .run_id = prep.run_id, .shared_run_id = prep.shared_run_id, .state_dir = prep.state_dir,
		.dir_fd = prep.dir_fd, .ram_bytes = prep.ram_bytes,
		.deliver = ab_cluster_writes() ? deliver : discard, .deliver_data = &sink,
	};
	prep.dir_fd = -1; /* the pipeline closes it */
	if (ab_cluster_writes())
		ab_progress_start(stderr, ab_progress_mode_for(stderr, cfg.quiet));
	gboolean ok = ab_pipeline_run(&p, error);
	ab_progress_stop();
	close_outputs(&out);
	ab_run_prep_clear(&prep);
	return ok ? 0 : ab_error_exit_status(*error);
}
