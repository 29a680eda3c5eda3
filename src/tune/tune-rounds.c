/* SPDX-License-Identifier: GPL-2.0-or-later */
/* The rounds of one stage of a tune (tune-rounds.h): the order of each
 * round, the budget's arithmetic, the race's decisions after each. */
#include "tune-rounds.h"
#include "../model/tune-race.h"
#include "../base/error.h"
#include "../base/rng.h"

#include <math.h>
#include <string.h>

const char *ab_tune_end_words(enum ab_tune_end end)
{
	switch (end) {
	case AB_TUNE_RUNNING: return "running";
	case AB_TUNE_DECIDED: return "one candidate left";
	case AB_TUNE_BUDGET: return "the budget could not pay for another round";
	case AB_TUNE_ROUND_CAP: return "the round cap";
	case AB_TUNE_STOPPED: return "stopped";
	}
	return "?";
}

gboolean ab_tune_stage_init(struct ab_tune_stage *st, GError **error)
{
	st->y = g_array_new(FALSE, FALSE, sizeof(double));
	st->alive_after = g_array_new(FALSE, FALSE, sizeof(size_t));
	st->rounds = 0;
	st->spend = (struct ab_tune_spend){ 0 };
	st->end = AB_TUNE_RUNNING;
	st->failed = 0;
	if (!st->max_rounds || st->max_rounds > AB_TUNE_MAX_ROUNDS)
		st->max_rounds = AB_TUNE_MAX_ROUNDS;
	st->race = ab_race_new(st->candidates, st->defaults, st->labels, &st->params, error);
	return st->race != NULL;
}

void ab_tune_stage_clear(struct ab_tune_stage *st)
{
	g_clear_pointer(&st->y, g_array_unref);
	g_clear_pointer(&st->alive_after, g_array_unref);
	g_clear_pointer(&st->race, ab_race_free);
}

/* The seed of a round's order: the tune's seed, the stage and the round,
 * hashed together, so that no two rounds share an order by construction
 * and a resume draws the same one. */
static uint64_t round_seed(uint64_t seed, const char *stage, unsigned round)
{
	uint64_t h = seed ^ ((uint64_t)round * 0x9E3779B97F4A7C15ull);
	for (const char *p = stage; *p; p++)
		h = (h ^ (unsigned char)*p) * 0x100000001B3ull;
	return ab_rng_splitmix(&h);
}

size_t ab_tune_round_order(uint64_t seed, const char *stage, unsigned round, const bool *alive, size_t candidates,
			   size_t *out)
{
	size_t n = 0;
	for (size_t c = 0; c < candidates; c++)
		if (alive[c])
			out[n++] = c;
	struct ab_rng rng;
	ab_rng_init(&rng, round_seed(seed, stage, round), 0);
	/* Fisher-Yates: every order equally likely. */
	for (size_t i = n; i > 1; i--) {
		size_t j = (size_t)ab_rng_below(&rng, i);
		size_t t = out[i - 1];
		out[i - 1] = out[j];
		out[j] = t;
	}
	return n;
}

double ab_tune_spent_s(const struct ab_tune_spend *spend)
{
	return spend->seconds + spend->done * spend->done_cost_s;
}

double ab_tune_visit_cost(const struct ab_tune_spend *spend)
{
	if (spend->timed)
		return spend->seconds / spend->timed;
	return spend->done_cost_s > 0 ? spend->done_cost_s : NAN;
}

bool ab_tune_budget_allows(const struct ab_tune_budget *budget, const struct ab_tune_spend *spend, size_t visits)
{
	if (visits == 0)
		return true;
	if (budget->visits)
		return spend->visits + visits <= budget->visits;
	double cost = ab_tune_visit_cost(spend);
	if (isnan(cost))
		return true;
	double spent = ab_tune_spent_s(spend);
	/* Never start what would overrun by more than one visit's time. */
	return spent + (double)visits * cost <= budget->seconds + cost;
}

static double *cell(struct ab_tune_stage *st, size_t round, size_t c)
{
	return &g_array_index(st->y, double, round * st->candidates + c);
}

/* One round: every alive candidate once, in the round's order. */
static int run_round(struct ab_tune_stage *st, GError **error)
{
	unsigned round = (unsigned)st->rounds + 1;
	g_autofree bool *alive = g_new0(bool, st->candidates);
	for (size_t c = 0; c < st->candidates; c++)
		alive[c] = st->race->candidate[c].alive;
	g_autofree size_t *order = g_new(size_t, st->candidates);
	size_t n = ab_tune_round_order(st->seed, st->stage, round, alive, st->candidates, order);
	double nan = NAN;
	for (size_t c = 0; c < st->candidates; c++)
		g_array_append_val(st->y, nan);
	st->rounds++;
	for (size_t i = 0; i < n; i++) {
		double figure = NAN;
		bool done = false;
		/* A time budget's first round has no estimate to stop it
		 * before it starts: no visit starts once the time is spent. */
		if (!st->budget.visits && !st->whole_rounds &&
		    ab_tune_spent_s(&st->spend) >= st->budget.seconds) {
			st->end = AB_TUNE_BUDGET;
			return 0;
		}
		double t0 = st->clock(st->clock_data);
		int status = st->visit(st->visit_data, order[i], round, &figure, &done, error);
		double t1 = st->clock(st->clock_data);
		if (status)
			return status;
		st->spend.visits++;
		if (done) {
			st->spend.done++;
		} else {
			st->spend.timed++;
			st->spend.seconds += t1 - t0;
		}
		if (isnan(figure))
			st->failed++;
		*cell(st, st->rounds - 1, order[i]) = figure;
	}
	return 0;
}

/* The visits round r still needs: the alive candidates'. */
static size_t round_visits(const struct ab_tune_stage *st)
{
	return ab_race_alive_count(st->race);
}

int ab_tune_stage_run(struct ab_tune_stage *st, GError **error)
{
	while (st->end == AB_TUNE_RUNNING) {
		if (ab_race_alive_count(st->race) <= 1 && st->drops) {
			st->end = AB_TUNE_DECIDED;
			break;
		}
		if (st->rounds >= st->max_rounds) {
			st->end = AB_TUNE_ROUND_CAP;
			break;
		}
		if (!ab_tune_budget_allows(&st->budget, &st->spend, round_visits(st))) {
			st->end = AB_TUNE_BUDGET;
			break;
		}
		int status = run_round(st, error);
		if (status) {
			/* The round cut short is not a round: its visits made are
			 * in the results, and a resume makes the rest. */
			st->rounds--;
			g_array_set_size(st->y, st->rounds * st->candidates);
			st->end = AB_TUNE_STOPPED;
			return status;
		}
		if (st->drops && st->end == AB_TUNE_RUNNING) {
			struct ab_race_table t = { (const double *)(void *)st->y->data, st->rounds, st->candidates };
			ab_tune_race_decide(st->race, &t);
		}
		size_t alive = ab_race_alive_count(st->race);
		g_array_append_val(st->alive_after, alive);
	}
	return 0;
}
