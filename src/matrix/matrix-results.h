/* SPDX-License-Identifier: GPL-2.0-or-later */
#ifndef AB_MATRIX_RESULTS_H
#define AB_MATRIX_RESULTS_H

/*
 * The record of a matrix's visits in its results directory
 * (matrix-state.h): DIR/results.jsonl, one JSON run per visit, what a
 * rerun reads back to resume; DIR/results.csv, the bonnie++ lines of those
 * runs, made from them; DIR/visit.inflight, the run id of the visit in
 * flight.
 */

#include <glib.h>

#include "matrix-state.h"
#include "../model/run.h"

/* --- pure parts --- */

/* The finished visits in the text of a results.jsonl: a set of keys made
 * by ab_matrix_visit_key().  A failed visit (only runs with a failure)
 * counts unless retry_failed; one that also ran (a later --retry-failed)
 * counts as run.  *failed (may be NULL) gets how many visits only failed.
 * The runs read go to runs (may be NULL), each once (a line read again,
 * the same run id, repeat and cell, is one more problem); lines that could
 * not be read to problems (may be NULL), as ab_report_read_text(). */
GHashTable *ab_matrix_done_read(const char *name, const char *text, size_t len, gboolean retry_failed,
				struct ab_run_set *runs, GPtrArray *problems, unsigned *failed);
char *ab_matrix_visit_key(const char *label, unsigned repeat);
/* What results.csv holds for one run, appended to out by the CSV writer:
 * its bonnie++ line, or nothing for a failed visit or a run without one. */
void ab_matrix_csv_append(GString *out, const struct ab_run *run);
/* results.csv for all the runs of set, in order. */
char *ab_matrix_csv_text(const struct ab_run_set *set);
gboolean ab_matrix_done_has(GHashTable *done, const char *label, unsigned repeat);

/* --- the files --- */

/* What opening the results found at the end of results.jsonl: a last line
 * without its newline that is a whole JSON object (a run whole but for its
 * newline: kept, the newline added), or part of one (a kill or a full disk
 * mid-write: cut off, cut_bytes long). */
struct ab_matrix_mend {
	gboolean newline_added;
	size_t cut_bytes;
};
/* Opens the results files for appending, results.jsonl's last line mended
 * first (*mend says how). */
gboolean ab_matrix_dir_open_results(struct ab_matrix_dir *d, struct ab_matrix_mend *mend, GError **error);
/* results.csv made exactly `want` (ab_matrix_csv_text() of results.jsonl's
 * runs): when it is anything else it is replaced whole (a temporary file,
 * fsync, rename) and reopened for appending, and *old_lines says how many
 * lines it held; G_MAXUINT when it was already right. */
gboolean ab_matrix_dir_sync_csv(struct ab_matrix_dir *d, const char *want, size_t want_len, unsigned *old_lines,
				GError **error);
/* The visit about to start: its run id and the state directory of its
 * journal, written whole to visit.inflight before it makes anything, so
 * that a resume after a kill finds what it left.  _get gives NULLs when
 * there is none; _clear removes it once the visit is over. */
gboolean ab_matrix_dir_set_visit(const struct ab_matrix_dir *d, const char *run_id, const char *state_dir,
				 GError **error);
gboolean ab_matrix_dir_get_visit(const struct ab_matrix_dir *d, char **run_id, char **state_dir, GError **error);
void ab_matrix_dir_clear_visit(const struct ab_matrix_dir *d);
/* Appends the text to one of the results files and fsyncs it. */
gboolean ab_matrix_dir_append(const struct ab_matrix_dir *d, int fd, const char *text, GError **error);

#endif
