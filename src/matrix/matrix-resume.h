/* SPDX-License-Identifier: GPL-2.0-or-later */
#ifndef AB_MATRIX_RESUME_H
#define AB_MATRIX_RESUME_H

/*
 * Resuming in a results directory (matrix-state.h) that a matrix, or a
 * tune through the matrix's visits, started: the visit a kill left built
 * undone, then the record read back.  Shared by cmd-matrix.c and
 * cmd-tune.c.
 */

#include <glib.h>

#include "matrix-state.h"
#include "../model/run.h"

/* The results directory at path opened (made when missing), what a kill
 * while it was set up left mended (each thing mended said as a warning),
 * and *state set by comparing it with digest (ab_matrix_dir_check()).
 * 0, or the exit status with *error. */
int ab_matrix_resume_open(struct ab_matrix_dir *d, const char *path, const char *digest,
			  enum ab_matrix_dir_state *state, GError **error);

/* A start killed mid-visit (kill -9, a power cut) left that visit's
 * target built: its journal, named by DIR's visit.inflight, undone now, as
 * 'arraybench cleanup' would, and only it.  who: "matrix" or "tune", for
 * the messages.  0, or the exit status with *error. */
int ab_matrix_resume_undo(struct ab_matrix_dir *d, const char *who, GError **error);

/* The results files opened for appending (results.jsonl's torn last line
 * mended, with a warning), the runs in results.jsonl read into set, the
 * finished visits into *done (ab_matrix_done_read(); *failed the visits
 * that only failed), lines that could not be read warned of, and
 * results.csv made anew from the runs when it is not their CSV.  0, or the
 * exit status with *error. */
int ab_matrix_resume_read(struct ab_matrix_dir *d, gboolean retry_failed, struct ab_run_set *set, GHashTable **done,
			  unsigned *failed, GError **error);

#endif
