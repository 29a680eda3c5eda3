/* SPDX-License-Identifier: GPL-2.0-or-later */
#ifndef AB_TUNE_VISITS_H
#define AB_TUNE_VISITS_H

/*
 * A tune's visits through the matrix's (src/matrix/matrix-visits.h): each
 * one ab_matrix_visit_one() of the candidate's cell, its repeat the round,
 * its run stamped with the tune's stamp (struct ab_tune_stamp) before it
 * is recorded; the figure the objective reads handed to the rounds
 * (tune-rounds.h's ab_tune_visit_fn).  A visit already in results.jsonl
 * (a resume) is not made again: its recorded run gives the figure.
 */

#include <glib.h>
#include <stdbool.h>

#include "../matrix/matrix-visits.h"
#include "../model/objective.h"

struct ab_tune_visits {
	struct ab_matrix_visits v;
	const struct ab_objective *obj;
	GPtrArray *candidates;     /* struct ab_candidate *, cell k is candidate k */
	const char *stage;         /* "race", "screen" */
	double alpha;
	unsigned min_rounds;
	GHashTable *done_runs;     /* ab_matrix_visit_key() -> struct ab_run * (owned) */
	unsigned in_round;         /* visits made in the round under way, for the lines */
	unsigned round;
};

void ab_tune_visits_init(struct ab_tune_visits *tv, const struct ab_matrix *m, struct ab_matrix_dir *dir,
			 const struct ab_objective *obj, GPtrArray *candidates, const char *stage, double alpha,
			 unsigned min_rounds, gboolean quiet);
void ab_tune_visits_clear(struct ab_tune_visits *tv);
/* The runs read back from results.jsonl: those of this stage's cells are
 * kept (the set gives them up), by their cell and repeat. */
void ab_tune_visits_take_done(struct ab_tune_visits *tv, struct ab_run_set *set);
/* The mean time between the starts of the runs kept (a visit's cost,
 * for a time budget after a resume); 0 when under two. */
double ab_tune_visits_done_cost(const struct ab_tune_visits *tv);

/* tune-rounds.h's ab_tune_visit_fn, data a struct ab_tune_visits. */
int ab_tune_visits_visit(void *data, size_t candidate, unsigned round, double *figure, bool *done, GError **error);
/* tune-rounds.h's ab_tune_clock_fn: the monotonic clock. */
double ab_tune_visits_clock(void *data);

#endif
