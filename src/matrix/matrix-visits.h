/* SPDX-License-Identifier: GPL-2.0-or-later */
#ifndef AB_MATRIX_VISITS_H
#define AB_MATRIX_VISITS_H

/*
 * The visits of a matrix: repeat 1 of every cell, then repeat 2..., each
 * visit one `run` made in this process; the pipeline's sink here stamps
 * the run with its cell, workload and matrix repeat and appends it to the
 * results directory (results.jsonl, then its CSV line to results.csv).
 * A visit that fails is recorded as a run with its failure.
 */

#include <glib.h>

#include "matrix-file.h"
#include "matrix-results.h"
#include "../model/run.h"

struct ab_matrix_visits {
	const struct ab_matrix *m;
	/* Opened, its results files open for appending; NULL on a rank that
	 * does not write them (arraybench-mpi's ranks but 0: no visit.inflight). */
	struct ab_matrix_dir *dir;
	/* When set, each run goes here (struct ab_run *) instead of the
	 * results files, for matrix-ranks.c to pass to rank 0. */
	GPtrArray *outbox;
	gboolean quiet;            /* no line per visit */
	double cv_limit;           /* --repeat-until, a fraction; NAN when not given */
	unsigned max_repeats;      /* --max-repeats; 0 when not given */
	GHashTable *done;          /* visit keys (ab_matrix_visit_key()) to skip; the caller's, freed here */
	GHashTable *cell_runs;     /* label -> GPtrArray of struct ab_run * (for --repeat-until) */
	/* Called on each visit's run (or the run recording its failure)
	 * before it is recorded, with its cell's index and repeat: what only
	 * the caller knows of it (tune's stamp).  NULL: nothing more. */
	void (*stamp)(struct ab_run *run, unsigned k, unsigned repeat, void *data);
	void *stamp_data;
	/* The status line's context for the next visit ("round 2 candidate
	 * 3/4"); NULL: "cell K/N repeat R/R". */
	const char *context;
	unsigned ran, failed, skipped;
	/* The visit in flight: did its error come from writing the results,
	 * is its run in them? */
	gboolean sink_failed;
	gboolean delivered;
};

void ab_matrix_visits_init(struct ab_matrix_visits *v, const struct ab_matrix *m, struct ab_matrix_dir *dir,
			   gboolean quiet, double cv_limit, unsigned max_repeats);
void ab_matrix_visits_clear(struct ab_matrix_visits *v);
/* A run of a cell (read back from results.jsonl, or just recorded) counted
 * towards --repeat-until's spread; v takes it. */
void ab_matrix_visits_keep(struct ab_matrix_visits *v, struct ab_run *run);
/* How many rounds the visits may go to: the file's repeats, or with
 * --repeat-until --max-repeats (twice the repeats without it). */
unsigned ab_matrix_rounds(const struct ab_matrix *m, double cv_limit, unsigned max_repeats);
/* Is this visit to run: not done (counted as skipped when it is) and,
 * beyond the file's repeats, the cell's spread still wide? */
gboolean ab_matrix_visit_due(struct ab_matrix_visits *v, const struct ab_matrix_cell *cell, unsigned repeat);
/* The line on standard output before a visit of cell k; `where` (may be
 * NULL) after its repeat, as "on rank 1". */
void ab_matrix_visit_announce(const struct ab_matrix_visits *v, unsigned k, unsigned repeat, const char *where);
/* One visit of cell k: 0 when it ran or its failure is recorded (counted
 * in ran), otherwise the exit status that stops the matrix. */
int ab_matrix_visit_one(struct ab_matrix_visits *v, unsigned k, unsigned repeat, GError **error);
/* A run another rank made, appended to the results as the sink appends
 * this process's own (v takes it). */
gboolean ab_matrix_visits_record(struct ab_matrix_visits *v, struct ab_run *run, GError **error);
/* Runs every visit not done yet, round-robin.  0 when all ran or their
 * failures are recorded; otherwise the exit status that stopped the
 * matrix (AB_ERROR_INTERRUPTED after a stop request). */
int ab_matrix_visits_run(struct ab_matrix_visits *v, GError **error);

#endif
