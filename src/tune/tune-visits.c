/* SPDX-License-Identifier: GPL-2.0-or-later */
/* A tune's visits through the matrix's (tune-visits.h). */
#include "tune-visits.h"
#include "candidates.h"
#include "../base/error.h"
#include "../matrix/matrix-results.h"
#include "../runner/progress.h"
#include "../runner/runner.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>

/* The stamp of each visit's run (matrix-visits.h's hook): what `report`
 * needs to redo the race from the runs alone. */
static void stamp(struct ab_run *run, unsigned k, unsigned repeat, void *data)
{
	const struct ab_tune_visits *tv = data;
	const struct ab_candidate *c = g_ptr_array_index(tv->candidates, k);
	struct ab_tune_stamp *t = &run->tune;
	g_free(t->objective);
	t->objective = g_strdup(tv->obj->name);
	g_free(t->direction);
	t->direction = g_strdup(tv->obj->higher_is_better ? "max" : "min");
	g_free(t->stage);
	t->stage = g_strdup(tv->stage);
	t->round = repeat;
	g_free(t->candidate);
	t->candidate = g_strdup(c->label);
	g_strfreev(t->words);
	t->words = g_new0(char *, (c->argv ? c->argv->len : 0) + 1);
	for (guint i = 0; c->argv && i < c->argv->len; i++)
		t->words[i] = g_strdup(g_ptr_array_index(c->argv, i));
	t->alpha = tv->alpha;
	t->index = k;
	t->min_rounds = tv->min_rounds;
}

void ab_tune_visits_init(struct ab_tune_visits *tv, const struct ab_matrix *m, struct ab_matrix_dir *dir,
			 const struct ab_objective *obj, GPtrArray *candidates, const char *stage, double alpha,
			 unsigned min_rounds, gboolean quiet)
{
	*tv = (struct ab_tune_visits){
		.obj = obj, .candidates = candidates, .stage = stage, .alpha = alpha, .min_rounds = min_rounds,
		.done_runs = g_hash_table_new_full(g_str_hash, g_str_equal, g_free, (GDestroyNotify)ab_run_free),
	};
	ab_matrix_visits_init(&tv->v, m, dir, quiet, NAN, 0);
	tv->v.stamp = stamp;
	tv->v.stamp_data = tv;
}

void ab_tune_visits_clear(struct ab_tune_visits *tv)
{
	ab_matrix_visits_clear(&tv->v);
	g_clear_pointer(&tv->done_runs, g_hash_table_unref);
}

void ab_tune_visits_take_done(struct ab_tune_visits *tv, struct ab_run_set *set)
{
	const struct ab_matrix *m = tv->v.m;
	for (guint i = 0; i < set->runs->len; i++) {
		struct ab_run *r = g_ptr_array_index(set->runs, i);
		if (!r->cell || !ab_known(r->repeat))
			continue;
		gboolean ours = FALSE;
		for (guint k = 0; !ours && k < m->cells->len; k++)
			ours = g_str_equal(((struct ab_matrix_cell *)g_ptr_array_index(m->cells, k))->label, r->cell);
		if (!ours)
			continue;
		char *key = ab_matrix_visit_key(r->cell, (unsigned)r->repeat);
		g_hash_table_replace(tv->done_runs, key, g_ptr_array_steal_index(set->runs, i--));
	}
}

static int by_start(const void *a, const void *b)
{
	int64_t x = *(const int64_t *)a, y = *(const int64_t *)b;
	return x < y ? -1 : x > y;
}

double ab_tune_visits_done_cost(const struct ab_tune_visits *tv)
{
	g_autoptr(GArray) starts = g_array_new(FALSE, FALSE, sizeof(int64_t));
	GHashTableIter it;
	gpointer value;
	g_hash_table_iter_init(&it, tv->done_runs);
	while (g_hash_table_iter_next(&it, NULL, &value)) {
		const struct ab_run *r = value;
		if (r->start_unix != INT64_MIN)
			g_array_append_val(starts, r->start_unix);
	}
	if (starts->len < 2)
		return 0;
	g_array_sort(starts, by_start);
	int64_t span = g_array_index(starts, int64_t, starts->len - 1) - g_array_index(starts, int64_t, 0);
	return (double)span / (starts->len - 1);
}

double ab_tune_visits_clock(void *data)
{
	(void)data;
	return (double)g_get_monotonic_time() / G_USEC_PER_SEC;
}

int ab_tune_visits_visit(void *data, size_t candidate, unsigned round, double *figure, bool *done, GError **error)
{
	struct ab_tune_visits *tv = data;
	const struct ab_matrix *m = tv->v.m;
	const struct ab_matrix_cell *cell = g_ptr_array_index(m->cells, candidate);
	const struct ab_candidate *c = g_ptr_array_index(tv->candidates, candidate);
	if (round != tv->round)
		tv->round = round, tv->in_round = 0;
	tv->in_round++;
	g_autofree char *key = ab_matrix_visit_key(cell->label, round);
	const struct ab_run *had = g_hash_table_lookup(tv->done_runs, key);
	if (had) {
		*figure = ab_objective_extract(tv->obj, had);
		*done = true;
		return 0;
	}
	if (ab_stop_requested) {
		g_set_error(error, AB_ERROR, AB_ERROR_INTERRUPTED, "interrupted");
		return AB_ERROR_INTERRUPTED;
	}
	g_autofree char *where = g_strdup_printf("%s round %u, visit %u: %s", tv->stage, round, tv->in_round, c->label);
	if (!tv->v.quiet) {
		ab_progress_clear();
		printf("tune: %s\n", where);
		fflush(stdout);
	}
	tv->v.context = where;
	int status = ab_matrix_visit_one(&tv->v, (unsigned)candidate, round, error);
	tv->v.context = NULL;
	if (status)
		return status;
	GPtrArray *runs = g_hash_table_lookup(tv->v.cell_runs, cell->label);
	const struct ab_run *run = runs && runs->len ? g_ptr_array_index(runs, runs->len - 1) : NULL;
	*figure = ab_objective_extract(tv->obj, run);
	*done = false;
	if (!tv->v.quiet) {
		ab_progress_clear();
		if (isnan(*figure))
			printf("  %s: no figure%s\n", tv->obj->name, run && run->failure ? " (the visit failed)" : "");
		else
			printf("  %s: %.6g\n", tv->obj->name, *figure);
		fflush(stdout);
	}
	return 0;
}
