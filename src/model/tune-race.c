/* SPDX-License-Identifier: GPL-2.0-or-later */
/* A tune's decision after each round, and its race redone from the runs
 * (tune-race.h). */
#include "tune-race.h"
#include "../base/error.h"

#include <math.h>
#include <string.h>

size_t ab_tune_race_decide(struct ab_race *race, const struct ab_race_table *t)
{
	size_t dropped = 0;
	for (size_t c = 0; c < t->candidates; c++) {
		struct ab_race_candidate *rc = &race->candidate[c];
		if (!rc->alive)
			continue;
		GString *rounds = g_string_new(NULL);
		unsigned failed = 0;
		for (size_t r = 0; r < t->rounds; r++)
			if (isnan(t->y[r * t->candidates + c])) {
				failed++;
				g_string_append_printf(rounds, "%s%zu", rounds->len ? ", " : "", r + 1);
			}
		if (failed >= AB_TUNE_FAILED_ROUNDS_DROP && ab_race_alive_count(race) > 1) {
			rc->alive = false;
			rc->dropped_round = t->rounds;
			rc->reason = g_strdup_printf("its visits gave no figure in rounds %s (failed, or without the "
						     "objective's result: see results.jsonl)",
						     rounds->str);
			dropped++;
		}
		g_string_free(rounds, TRUE);
	}
	return dropped + ab_race_decide(race, t, NULL);
}

/* What a tune can record: its candidates (src/tune/candidates.h's
 * AB_CANDIDATES_MAX) and rounds (a stage's cap, 50, with room); a run
 * stamped beyond is none of a tune's (a hand-made or damaged file), and
 * a table is never allocated past these. */
#define MAX_INDEX 10000u
#define MAX_ROUND 1000u
#define MAX_CELLS 1000000u

static gboolean race_run(const struct ab_run *r, const char *stage)
{
	return r->tune.stage && g_str_equal(r->tune.stage, stage) && r->tune.objective && r->tune.candidate &&
	       ab_known(r->tune.round) && r->tune.round >= 1 && r->tune.round <= MAX_ROUND &&
	       (!ab_known(r->tune.index) || r->tune.index < MAX_INDEX);
}

/* Each candidate's index: its stamp's, or (runs written before stamps had
 * one) the defaults 0 and the others in the order first seen. */
static GHashTable *index_labels(GPtrArray *runs, const char *stage, const char *objective)
{
	GHashTable *at = g_hash_table_new_full(g_str_hash, g_str_equal, g_free, NULL);
	gboolean stamped = TRUE;
	for (guint i = 0; i < runs->len; i++) {
		const struct ab_run *r = g_ptr_array_index(runs, i);
		if (race_run(r, stage) && g_str_equal(r->tune.objective, objective))
			stamped = stamped && ab_known(r->tune.index);
	}
	size_t next = 1;
	if (!stamped)
		g_hash_table_insert(at, g_strdup("defaults"), GSIZE_TO_POINTER(1));
	for (guint i = 0; i < runs->len; i++) {
		const struct ab_run *r = g_ptr_array_index(runs, i);
		if (!race_run(r, stage) || !g_str_equal(r->tune.objective, objective) ||
		    g_hash_table_contains(at, r->tune.candidate))
			continue;
		size_t index = stamped ? (size_t)r->tune.index : next++;
		/* stored + 1: a NULL is "none" */
		g_hash_table_insert(at, g_strdup(r->tune.candidate), GSIZE_TO_POINTER(index + 1));
	}
	return at;
}

gboolean ab_tune_replay_make(GPtrArray *runs, const char *const *phases, const char *stage,
			     struct ab_tune_replay *out, GError **error)
{
	*out = (struct ab_tune_replay){ 0 };
	const struct ab_run *first = NULL;
	for (guint i = 0; i < runs->len; i++) {
		const struct ab_run *r = g_ptr_array_index(runs, i);
		if (!race_run(r, stage))
			continue;
		if (!first)
			first = r;
		if (!g_str_equal(r->tune.objective, first->tune.objective)) {
			g_set_error(error, AB_ERROR, AB_ERROR_USAGE, "the tune's runs are of two objectives, '%s' and '%s'",
				    first->tune.objective, r->tune.objective);
			return FALSE;
		}
		out->rounds = MAX(out->rounds, (size_t)r->tune.round);
	}
	if (!first)
		return FALSE;
	g_autoptr(GHashTable) at = index_labels(runs, stage, first->tune.objective);
	GHashTableIter it;
	gpointer v;
	g_hash_table_iter_init(&it, at);
	while (g_hash_table_iter_next(&it, NULL, &v))
		out->candidates = MAX(out->candidates, GPOINTER_TO_SIZE(v));
	if (out->candidates * out->rounds > MAX_CELLS) {
		g_set_error(error, AB_ERROR, AB_ERROR_USAGE, "the tune's runs make %zu candidates over %zu rounds, more "
			    "than a tune runs", out->candidates, out->rounds);
		return FALSE;
	}
	if (!ab_objective_parse(first->tune.objective, phases, &out->obj, error))
		return FALSE;
	size_t k = out->candidates, n = out->rounds;
	out->labels = g_new0(char *, k + 1);
	out->y = g_new(double, n * k);
	out->visited = g_new0(bool, n * k);
	out->alive_after = g_new0(size_t, n);
	out->decided = g_new0(bool, n);
	for (size_t i = 0; i < n * k; i++)
		out->y[i] = NAN;
	for (guint i = 0; i < runs->len; i++) {
		const struct ab_run *r = g_ptr_array_index(runs, i);
		if (!race_run(r, stage) || !g_str_equal(r->tune.objective, first->tune.objective))
			continue;
		size_t c = GPOINTER_TO_SIZE(g_hash_table_lookup(at, r->tune.candidate)) - 1;
		size_t cell = ((size_t)r->tune.round - 1) * k + c;
		if (!out->labels[c])
			out->labels[c] = g_strdup(r->tune.candidate);
		out->visited[cell] = true;
		out->y[cell] = ab_objective_extract(&out->obj, r);
	}
	for (size_t c = 0; c < k; c++)
		if (!out->labels[c])
			out->labels[c] = g_strdup_printf("candidate %zu", c + 1);
	struct ab_race_params params;
	ab_race_params_init(&params);
	params.direction = out->obj.higher_is_better ? AB_RACE_HIGHER_IS_BETTER : AB_RACE_LOWER_IS_BETTER;
	if (isfinite(first->tune.alpha))
		params.alpha = first->tune.alpha;
	if (ab_known(first->tune.min_rounds))
		params.min_rounds = (size_t)first->tune.min_rounds;
	out->race = ab_race_new(k, 0, (const char *const *)out->labels, &params, error);
	if (!out->race) {
		ab_tune_replay_clear(out);
		return FALSE;
	}
	/* Round by round as the tune went: a round in which a candidate then
	 * alive has no run (cut short by the budget or a stop) decided
	 * nothing.  Screening drops none. */
	bool drops = g_str_equal(stage, AB_TUNE_STAGE_RACE);
	for (size_t r = 0; r < n; r++) {
		bool complete = true;
		for (size_t c = 0; c < k; c++)
			complete = complete && (!out->race->candidate[c].alive || out->visited[r * k + c]);
		if (complete && drops) {
			struct ab_race_table t = { out->y, r + 1, k };
			ab_tune_race_decide(out->race, &t);
		}
		out->decided[r] = complete;
		out->alive_after[r] = ab_race_alive_count(out->race);
	}
	return TRUE;
}

void ab_tune_replay_clear(struct ab_tune_replay *r)
{
	ab_objective_clear(&r->obj);
	g_strfreev(r->labels);
	g_free(r->y);
	g_free(r->visited);
	g_free(r->alive_after);
	g_free(r->decided);
	g_clear_pointer(&r->race, ab_race_free);
	*r = (struct ab_tune_replay){ 0 };
}

void ab_tune_replay_rank(const struct ab_tune_replay *r, struct ab_race_paired *paired, size_t *order)
{
	for (size_t c = 0; c < r->candidates; c++) {
		ab_race_paired_ratio(r->y + c, r->y, r->rounds, r->candidates, 1 - r->race->params.alpha, &paired[c]);
		order[c] = c;
	}
	/* Insertion: stable, and a tune has few candidates left to show. */
	for (size_t i = 1; i < r->candidates; i++)
		for (size_t j = i; j > 0; j--) {
			size_t a = order[j - 1], b = order[j];
			const struct ab_race_candidate *ca = &r->race->candidate[a], *cb = &r->race->candidate[b];
			bool swap;
			if (ca->alive != cb->alive) {
				swap = cb->alive;
			} else if (ca->alive) {
				double x = paired[a].ratio.ratio, y = paired[b].ratio.ratio;
				swap = isnan(x) ? !isnan(y) : !isnan(y) && (r->obj.higher_is_better ? y > x : y < x);
			} else {
				swap = cb->dropped_round > ca->dropped_round;
			}
			if (!swap)
				break;
			order[j - 1] = b;
			order[j] = a;
		}
}

void ab_tune_replay_screen(const struct ab_tune_replay *r, struct ab_race_screen *screen, size_t *order)
{
	*screen = (struct ab_race_screen){ 0 };
	if (r->candidates < 2)
		return;
	screen->changes = r->candidates - 1;
	screen->change = g_new0(struct ab_race_screen_change, r->candidates);
	struct ab_race_table t = { r->y, r->rounds, r->candidates };
	ab_race_screen_compare(&t, &r->race->params, screen->change);
	ab_race_screen_order(screen, r->race->params.direction, order);
}
