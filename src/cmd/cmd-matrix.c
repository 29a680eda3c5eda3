/* SPDX-License-Identifier: GPL-2.0-or-later */
/* `arraybench matrix FILE`: its options, the matrix file read
 * (matrix-file.c), every cell checked, the results directory opened or
 * resumed (matrix-state.c, matrix-results.c), then the visits
 * (matrix-visits.c). */
#include "../options/cmd-options.h"
#include "commands.h"
#include "../base/cluster.h"
#include "../base/error.h"
#include "../matrix/matrix-file.h"
#include "../matrix/matrix-ranks.h"
#include "../matrix/matrix-resume.h"
#include "../matrix/matrix-results.h"
#include "../matrix/matrix-state.h"
#include "../matrix/matrix-visits.h"
#include "../runner/progress.h"
#include "../options/run-options.h"
#include "../pipeline/run-prepare.h"
#include "../base/runid.h"
#include "../../fs-setup/statedir.h"
#include "../../fs-setup/target-build.h"

#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>
#include <glib/gstdio.h>

#define MATRIX_FILE_MAX (1u << 20)

struct matrix_opts {
	char *out_dir;
	gboolean dry_run;
	gboolean quiet;
	gboolean fresh;
	gboolean retry_failed;
	double cv_limit;        /* --repeat-until, a fraction; NAN when not given */
	unsigned max_repeats;   /* --max-repeats; 0 when not given */
	GPtrArray *args;        /* the FILE */
};

static gboolean opt_repeat_until(const char *name, const char *value, void *data, GError **error)
{
	struct matrix_opts *o = data;
	g_autofree char *text = g_strdup(value);
	size_t n = strlen(text);
	if (n && text[n - 1] == '%')
		text[n - 1] = '\0';
	char *end = NULL;
	/* Digits and a point only: strtod takes "0x10" (16 %), "1e1" and
	 * "1e-300" too. */
	gboolean decimal = g_ascii_isdigit(*text) && strspn(text, "0123456789.") == strlen(text);
	double v = decimal ? g_ascii_strtod(text, &end) : NAN;
	if (!end || *end || !(v > 0 && v <= 100)) {
		g_set_error(error, AB_ERROR, AB_ERROR_USAGE,
			    "invalid %s '%s': a coefficient of variation in percent, above 0 and at most 100 (5 or 5%%)",
			    name, value);
		return FALSE;
	}
	o->cv_limit = v / 100;
	return TRUE;
}

static gboolean opt_max_repeats(const char *name, const char *value, void *data, GError **error)
{
	guint64 n;
	if (!g_ascii_string_to_unsigned(value, 10, 1, AB_MATRIX_MAX_REPEATS, &n, NULL)) {
		g_set_error(error, AB_ERROR, AB_ERROR_USAGE, "invalid %s '%s': a whole number from 1 to %u", name, value,
			    AB_MATRIX_MAX_REPEATS);
		return FALSE;
	}
	((struct matrix_opts *)data)->max_repeats = (unsigned)n;
	return TRUE;
}

static gboolean opt_arg(const char *name, const char *value, void *data, GError **error)
{
	(void)name, (void)error;
	g_ptr_array_add(((struct matrix_opts *)data)->args, g_strdup(value));
	return TRUE;
}

#define OPTS(f) AB_OPTION_FIELD(struct matrix_opts, f)
#define CUSTOM(fn) .kind = AB_OPTION_CUSTOM, .parse = (fn)

static const struct ab_option_row rows[] = {
	{ "output", 'o', .kind = AB_OPTION_PATH, OPTS(out_dir), .why = "directory name", .family = AB_OPTION_OUTPUT,
	  .help = "Results directory (made if missing): results.jsonl, results.csv, copies of the matrix file and its "
		  "profiles",
	  .arg = "DIR" },
	{ "dry-run", 0, .kind = AB_OPTION_SWITCH, OPTS(dry_run),
	  .help = "Check every cell as run would, then list the cells and each visit's run command, in order; touch "
		  "nothing" },
	{ "quiet", 'q', .kind = AB_OPTION_SWITCH, OPTS(quiet), .family = AB_OPTION_OUTPUT,
	  .help = "No line per visit, no progress" },
	{ "fresh", 0, .kind = AB_OPTION_SWITCH, OPTS(fresh),
	  .help = "Start over: move the matrix's own files in DIR aside (to NAME.old-STAMP), even for a changed matrix "
		  "file" },
	{ "retry-failed", 0, .kind = AB_OPTION_SWITCH, OPTS(retry_failed),
	  .help = "On resuming, run the visits that failed again" },
	{ "repeat-until", 0, CUSTOM(opt_repeat_until),
	  .help = "Repeat a cell beyond the file's repeats until each rate's coefficient of variation is at most CV "
		  "percent (over 3 repeats at least)",
	  .arg = "CV%" },
	{ "max-repeats", 0, CUSTOM(opt_max_repeats),
	  .help = "With --repeat-until: at most N repeats of a cell (2 x repeats)", .arg = "N" },
	{ G_OPTION_REMAINING, 0, CUSTOM(opt_arg), .flags = AB_OPTION_FILENAME },
};

static const char description[] =
	"Each cell of the matrix FILE (levels x file systems x mkfs options x mount options x\n"
	"workloads) is built, formatted, mounted, measured once and torn down per visit; the\n"
	"visits go round-robin over the repeats.  Each run is appended to DIR/results.jsonl\n"
	"and DIR/results.csv as it ends; the same command again resumes.  Under mpirun,\n"
	"arraybench-mpi hands the cells to the ranks, each visiting on its own host.\n"
	"Exit status: 0 ok, 1 bad input or a changed matrix file, 2 a visit failed (recorded),\n"
	"3 missing resource or privilege, 4 unsafe, 5 results not written, 130 interrupted.\n"
	"See arraybench-matrix(1).";

/* What the command holds while the visits run. */
struct matrix_ctx {
	const struct ab_matrix *m;
	const struct matrix_opts *o;
	struct ab_matrix_dir dir;
	GPtrArray *profiles;    /* struct ab_matrix_profile * the cells run */
	struct ab_matrix_visits visits;
	unsigned failed_before;
};

static void print_plan(const struct ab_matrix *m, const struct matrix_opts *o)
{
	unsigned n = m->cells->len;
	printf("matrix: %u cells x %u repeats = %u visits\n", n, m->repeats, n * m->repeats);
	for (unsigned k = 0; k < n; k++)
		printf("cell %u/%u: %s\n", k + 1, n, ((struct ab_matrix_cell *)g_ptr_array_index(m->cells, k))->label);
	printf("visits, in order:\n");
	for (unsigned r = 1; r <= m->repeats; r++)
		for (unsigned k = 0; k < n; k++) {
			const struct ab_matrix_cell *cell = g_ptr_array_index(m->cells, k);
			g_auto(GStrv) argv = ab_matrix_visit_argv(m, cell, r, o->quiet);
			g_autofree char *line = ab_matrix_command_line(argv);
			printf("%u/%u cell %u repeat %u: %s\n", (r - 1) * n + k + 1, n * m->repeats, k + 1, r, line);
		}
	if (!isnan(o->cv_limit))
		printf("then rounds %u to %u of the cells whose rates' coefficient of variation is above %g%%\n",
		       m->repeats + 1, ab_matrix_rounds(m, o->cv_limit, o->max_repeats), o->cv_limit * 100);
}

/* Every cell checked as run checks it, before anything runs: its options
 * (ab_run_check_options) and its target's plan (ab_target_check: the
 * level, the member count for it, md in this kernel, the devices), so that
 * a typo or a raid6 on two images fails now, not at each visit hours
 * later.  Each refusal names the line to blame. */
static gboolean check_cells(const struct ab_matrix *m, GError **error)
{
	/* The names the plans check (md arrays, images) are made with one. */
	g_autofree char *run_id = ab_run_id_new(error);
	if (!run_id)
		return FALSE;
	for (guint k = 0; k < m->cells->len; k++) {
		const struct ab_matrix_cell *cell = g_ptr_array_index(m->cells, k);
		g_autoptr(GError) local = NULL;
		/* A workload run does not know is the workloads key's fault. */
		if (cell->workload) {
			char *words[] = { "run", "-d", "/", "--workload", cell->workload, NULL };
			g_auto(ab_config_auto) probe;
			ab_config_init(&probe);
			if (!ab_run_options_parse(5, words, &probe, &local)) {
				g_set_error(error, AB_ERROR, AB_ERROR_USAGE, "%s:%u: %s", m->name, m->workloads_line,
					    local->message);
				return FALSE;
			}
		}
		g_auto(GStrv) argv = ab_matrix_visit_argv(m, cell, 1, FALSE);
		g_auto(ab_config_auto) cfg;
		ab_config_init(&cfg);
		uint64_t ram;
		unsigned line = cell->line;
		if (ab_run_check_options((int)g_strv_length(argv), argv, &cfg, &ram, &local) == 0 &&
		    ab_target_spec_check_options(&cfg.target, &local)) {
			if (ab_target_check(&cfg.target, run_id, NULL, &local))
				continue;
			line = m->target_line;
			if (local->domain == AB_ERROR && local->code == AB_ERROR_UNSAFE && m->devices_line)
				line = m->devices_line;
		}
		g_set_error(error, AB_ERROR, local->domain == AB_ERROR ? local->code : AB_ERROR_USAGE,
			    "%s:%u: cell '%s': %s", m->name, line, cell->label, local->message);
		return FALSE;
	}
	return TRUE;
}

/* Where every visit journals its undo steps, checked as run checks it
 * (owner, mode, no symbolic link) before DIR is made or anything runs, in
 * --dry-run too: a state directory another user owns made the first visit
 * fail (exit 4) after DIR and its files were made. */
static gboolean check_state_dir(GError **error)
{
	g_autofree char *path = ab_state_dir_path();
	int fd = -1;
	if (!ab_state_dir_open(path, FALSE, &fd, error))
		return FALSE;
	if (fd >= 0)
		close(fd);
	return TRUE;
}

/* The results directory: made or resumed, refused when it is another's or
 * holds another version of the matrix or of one of its profiles. */
static int open_results(struct matrix_ctx *c, const char *text, size_t len, GError **error)
{
	const struct matrix_opts *o = c->o;
	enum ab_matrix_dir_state state;
	int opened = ab_matrix_resume_open(&c->dir, o->out_dir, c->m->sha256, &state, error);
	if (opened)
		return opened;
	if (state == AB_MATRIX_DIR_FOREIGN) {
		g_set_error(error, AB_ERROR, AB_ERROR_USAGE,
			    "'%s' holds results no matrix started there (no %s): give another -o DIR", o->out_dir,
			    AB_MATRIX_DIGEST);
		return AB_ERROR_USAGE;
	}
	if (state == AB_MATRIX_DIR_CHANGED && !o->fresh) {
		g_set_error(error, AB_ERROR, AB_ERROR_USAGE,
			    "'%s' is not the matrix file '%s' was started with (that one is its %s): give --fresh "
			    "to start over (the old results are moved aside) or another -o DIR",
			    c->m->name, o->out_dir, AB_MATRIX_COPY);
		return AB_ERROR_USAGE;
	}
	const struct ab_matrix_profile *changed = NULL;
	gboolean copy_changed = FALSE;
	if (state == AB_MATRIX_DIR_SAME &&
	    (!ab_matrix_dir_hold_profiles(&c->dir, error) ||
	     !ab_matrix_dir_profile_changed(&c->dir, c->profiles, &changed, &copy_changed, error)))
		return ab_error_exit_status(*error);
	if (changed && copy_changed && !o->fresh) {
		g_set_error(error, AB_ERROR, AB_ERROR_USAGE,
			    "'%s/%s' is not the copy of profile '%s' the matrix was started with (edited in DIR?): "
			    "put it back, or give --fresh to start over (the old results are moved aside)",
			    o->out_dir, changed->copy, changed->entry);
		return AB_ERROR_USAGE;
	}
	if (changed && !o->fresh) {
		g_set_error(error, AB_ERROR, AB_ERROR_USAGE,
			    "%s profile '%s' is not the one the matrix in '%s' was started with (that one is its "
			    "%s): give --fresh to start over (the old results are moved aside) or another -o DIR",
			    g_path_is_absolute(changed->entry) ? "the" : "this arraybench's built-in", changed->entry,
			    o->out_dir, changed->copy);
		return AB_ERROR_USAGE;
	}
	int status = state == AB_MATRIX_DIR_NEW ? 0 : ab_matrix_resume_undo(&c->dir, "matrix", error);
	if (status)
		return status;
	if (o->fresh && state != AB_MATRIX_DIR_NEW) {
		if (!ab_matrix_dir_move_aside(&c->dir, error))
			return ab_error_exit_status(*error);
		state = AB_MATRIX_DIR_NEW;
	}
	if (state == AB_MATRIX_DIR_NEW && (!ab_matrix_dir_start(&c->dir, text, len, c->m->sha256, c->profiles, error) ||
					   !ab_matrix_dir_hold_profiles(&c->dir, error)))
		return ab_error_exit_status(*error);
	struct ab_run_set set;
	ab_run_set_init(&set);
	unsigned failed;
	status = ab_matrix_resume_read(&c->dir, o->retry_failed, &set, &c->visits.done, &failed, error);
	c->failed_before = o->retry_failed ? 0 : failed;
	for (guint i = 0; i < set.runs->len; i++) {
		struct ab_run *r = g_ptr_array_index(set.runs, i);
		if (r->cell)
			ab_matrix_visits_keep(&c->visits, g_ptr_array_steal_index(set.runs, i--));
	}
	ab_run_set_clear(&set);
	return status;
}

static int matrix_main(struct matrix_opts *o, GError **error)
{
	if (o->args->len != 1) {
		g_set_error(error, AB_ERROR, AB_ERROR_USAGE, o->args->len ? "one matrix FILE, not %u" : "missing the matrix FILE",
			    o->args->len);
		return AB_ERROR_USAGE;
	}
	if (o->max_repeats && isnan(o->cv_limit)) {
		g_set_error(error, AB_ERROR, AB_ERROR_USAGE, "--max-repeats goes with --repeat-until");
		return AB_ERROR_USAGE;
	}
	const char *file = g_ptr_array_index(o->args, 0);
	GStatBuf st;
	if (g_stat(file, &st) == 0 && !S_ISREG(st.st_mode)) {
		g_set_error(error, AB_ERROR, AB_ERROR_USAGE, "cannot read matrix file '%s': not a regular file", file);
		return AB_ERROR_USAGE;
	}
	g_autofree char *text = NULL;
	size_t len = 0;
	g_autoptr(GError) local = NULL;
	if (!g_file_get_contents(file, &text, &len, &local)) {
		g_set_error(error, AB_ERROR, AB_ERROR_USAGE, "cannot read matrix file: %s", local->message);
		return AB_ERROR_USAGE;
	}
	if (len > MATRIX_FILE_MAX) {
		g_set_error(error, AB_ERROR, AB_ERROR_USAGE, "matrix file '%s' is over %u bytes", file, MATRIX_FILE_MAX);
		return AB_ERROR_USAGE;
	}
	g_autoptr(ab_matrix) m = ab_matrix_parse(file, text, len, error);
	if (!m)
		return AB_ERROR_USAGE;
	if (o->max_repeats && o->max_repeats < m->repeats) {
		g_set_error(error, AB_ERROR, AB_ERROR_USAGE, "--max-repeats %u is below the file's repeats (%u)",
			    o->max_repeats, m->repeats);
		return AB_ERROR_USAGE;
	}
	if (!o->dry_run && !o->out_dir) {
		g_set_error(error, AB_ERROR, AB_ERROR_USAGE, "missing -o DIR: the results directory");
		return AB_ERROR_USAGE;
	}
	if (!o->dry_run && geteuid() != 0) {
		g_set_error(error, AB_ERROR, AB_ERROR_SKIPPED, "a matrix builds its targets, which needs root");
		return AB_ERROR_SKIPPED;
	}
	if (!check_cells(m, error) || !check_state_dir(error))
		return ab_error_exit_status(*error);
	if (o->dry_run) {
		if (ab_stdout_closed) {
			g_set_error(error, AB_ERROR, AB_ERROR_OUTPUT,
				    "cannot write the plan to standard output: it was closed");
			return AB_ERROR_OUTPUT;
		}
		if (ab_cluster_writes())
			print_plan(m, o);
		return 0;
	}
	/* Every path of the cells is absolute; the results directory is held
	 * open.  From "/" no relative word can name another file later. */
	g_autofree char *out_abs = g_canonicalize_filename(o->out_dir, NULL);
	g_free(o->out_dir);
	o->out_dir = g_steal_pointer(&out_abs);
	/* Only the rank that writes (rank 0 of arraybench-mpi; plain
	 * arraybench's one) touches DIR and says what goes on. */
	gboolean writes = ab_cluster_writes();
	struct matrix_ctx c = { .m = m, .o = o };
	ab_matrix_dir_init(&c.dir);
	ab_matrix_visits_init(&c.visits, m, writes ? &c.dir : NULL, o->quiet || !writes, o->cv_limit,
			      o->max_repeats);
	c.profiles = ab_matrix_profiles_read(m, error);
	int status = ab_matrix_ranks_agree(m, c.profiles, c.profiles ? 0 : AB_ERROR_USAGE, error);
	if (status == 0 && writes)
		status = open_results(&c, text, len, error);
	/* A profile file runs from its copy: the text the digest is of, even
	 * if the file is edited while the matrix runs; read through the
	 * directory held, whatever DIR's names come to mean. */
	for (guint i = 0; writes && status == 0 && i < c.profiles->len; i++) {
		const struct ab_matrix_profile *p = g_ptr_array_index(c.profiles, i);
		if (g_path_is_absolute(p->entry)) {
			g_autofree char *copy = ab_matrix_dir_profile_path(&c.dir, p->copy);
			if (copy)
				ab_matrix_set_workload_path(m, p->entry, copy);
		}
	}
	if (status == 0 && chdir("/") != 0) {
		ab_set_error_errno(error, AB_ERROR_SKIPPED, errno, "cannot change to '/'");
		status = AB_ERROR_SKIPPED;
	}
	status = ab_matrix_ranks_ready(status, error);
	if (status == 0) {
		ab_progress_start(stderr, ab_progress_mode_for(stderr, c.visits.quiet));
		status = ab_matrix_ranks_run(&c.visits, error);
		ab_progress_stop();
	}
	if (status == AB_ERROR_INTERRUPTED) {
		g_clear_error(error);
		g_set_error(error, AB_ERROR, AB_ERROR_INTERRUPTED,
			    "interrupted: %u visits done this time, the one in flight is not recorded; run the same "
			    "command again to resume",
			    c.visits.ran);
	} else if (status == 0 && writes) {
		if (!o->quiet)
			printf("matrix: %u visits run (%u failed), %u already done%s; results in %s\n", c.visits.ran,
			       c.visits.failed, c.visits.skipped, c.failed_before ? " (some failed: --retry-failed runs them again)" : "",
			       o->out_dir);
		if (c.visits.failed + c.failed_before) {
			g_set_error(error, AB_ERROR, AB_ERROR_PHASE, "%u visits of the matrix failed (their reasons are in %s/%s)",
				    c.visits.failed + c.failed_before, o->out_dir, AB_MATRIX_RESULTS_JSON);
			status = AB_ERROR_PHASE;
		}
	}
	ab_matrix_dir_clear(&c.dir);
	if (c.profiles)
		g_ptr_array_unref(c.profiles);
	ab_matrix_visits_clear(&c.visits);
	return status;
}

int ab_cmd_matrix(int argc, char **argv, GError **error)
{
	struct matrix_opts o = { .cv_limit = NAN, .args = g_ptr_array_new_with_free_func(g_free) };
	int status = AB_ERROR_USAGE;
	if (ab_cmd_options_parse("matrix", "FILE", "Run every cell of a matrix file, interleaved, and resume after an interruption.",
				 description, rows, G_N_ELEMENTS(rows), &o, argc, argv, error))
		status = matrix_main(&o, error);
	g_free(o.out_dir);
	g_ptr_array_unref(o.args);
	return status;
}
