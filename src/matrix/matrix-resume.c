/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Resuming in a results directory (matrix-resume.h): the visit a kill
 * left built undone, the record read back and mended. */
#include "matrix-resume.h"
#include "matrix-results.h"
#include "../base/error.h"
#include "../../fs-setup/recover.h"

#include <stdio.h>
#include <string.h>

int ab_matrix_resume_open(struct ab_matrix_dir *d, const char *path, const char *digest,
			  enum ab_matrix_dir_state *state, GError **error)
{
	if (!ab_matrix_dir_open(d, path, TRUE, error))
		return ab_error_exit_status(*error);
	g_autoptr(GString) said = g_string_new(NULL);
	gboolean recovered = ab_matrix_dir_recover(d, said, error);
	g_auto(GStrv) lines = g_strsplit(said->str, "\n", -1);
	for (char **l = lines; *l; l++)
		if (**l)
			fprintf(stderr, "arraybench: warning: %s\n", *l);
	if (!recovered || !ab_matrix_dir_check(d, digest, state, error))
		return ab_error_exit_status(*error);
	return 0;
}

int ab_matrix_resume_undo(struct ab_matrix_dir *d, const char *who, GError **error)
{
	g_autofree char *run_id = NULL, *state_dir = NULL;
	if (!ab_matrix_dir_get_visit(d, &run_id, &state_dir, error))
		return ab_error_exit_status(*error);
	if (!run_id)
		return 0;
	g_autoptr(GString) report = g_string_new(NULL);
	int undone;
	if (!ab_undo_recover_run(state_dir, run_id, ab_undo_exec_real, report, &undone, error)) {
		g_prefix_error(error, "cannot undo what the visit that was running when the %s died (run %s) "
			       "left: ", who, run_id);
		return ab_error_exit_status(*error);
	}
	if (undone < 0 && report->len) {
		/* Its run still going, or a journal it would not act on. */
		g_strchomp(report->str);
		g_autofree char *first = g_strndup(report->str, strcspn(report->str, "\n"));
		g_set_error(error, AB_ERROR, AB_ERROR_SKIPPED,
			    "cannot undo what the visit that was running when the %s died (run %s) left: %s",
			    who, run_id, first);
		return AB_ERROR_SKIPPED;
	}
	if (undone >= 0)
		fprintf(stderr,
			"arraybench: warning: the visit that was running when the %s died (run %s) had left "
			"its target built: undone now (%d steps)\n",
			who, run_id, undone);
	ab_matrix_dir_clear_visit(d);
	return 0;
}

/* results.jsonl is the record, results.csv made from it: a CSV append that
 * failed (a full disk) or a kill between the two appends is mended here. */
static int sync_csv(struct ab_matrix_dir *d, const struct ab_run_set *set, GError **error)
{
	g_autofree char *want = ab_matrix_csv_text(set);
	size_t len = strlen(want);
	unsigned old_lines;
	if (!ab_matrix_dir_sync_csv(d, want, len, &old_lines, error))
		return ab_error_exit_status(*error);
	if (old_lines != G_MAXUINT) {
		unsigned lines = 0;
		for (const char *p = want; *p; p++)
			lines += *p == '\n';
		fprintf(stderr,
			"arraybench: warning: '%s/%s' was not the CSV of the runs in %s (%u lines where they make "
			"%u): written anew from it\n",
			d->path, AB_MATRIX_RESULTS_CSV, AB_MATRIX_RESULTS_JSON, old_lines, lines);
	}
	return 0;
}

int ab_matrix_resume_read(struct ab_matrix_dir *d, gboolean retry_failed, struct ab_run_set *set, GHashTable **done,
			  unsigned *failed, GError **error)
{
	struct ab_matrix_mend mend;
	*failed = 0;
	if (!ab_matrix_dir_open_results(d, &mend, error))
		return ab_error_exit_status(*error);
	if (mend.cut_bytes)
		fprintf(stderr,
			"arraybench: warning: the last line of '%s/%s' was torn (%zu bytes without their end: a kill or "
			"a full disk mid-write): cut off, its visit runs again\n",
			d->path, AB_MATRIX_RESULTS_JSON, mend.cut_bytes);
	if (mend.newline_added)
		fprintf(stderr, "arraybench: warning: the last line of '%s/%s' was a whole run without its newline: "
			"kept, the newline added\n", d->path, AB_MATRIX_RESULTS_JSON);
	g_autofree char *done_text = NULL;
	size_t done_len;
	if (!ab_matrix_dir_read(d, AB_MATRIX_RESULTS_JSON, &done_text, &done_len, error))
		return ab_error_exit_status(*error);
	g_autofree char *name = g_build_filename(d->path, AB_MATRIX_RESULTS_JSON, NULL);
	g_autoptr(GPtrArray) problems = g_ptr_array_new_with_free_func(g_free);
	*done = ab_matrix_done_read(name, done_text, done_len, retry_failed, set, problems, failed);
	for (guint i = 0; i < problems->len; i++)
		fprintf(stderr, "arraybench: warning: %s (skipped)\n", (const char *)g_ptr_array_index(problems, i));
	return sync_csv(d, set, error);
}
