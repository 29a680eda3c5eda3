/* SPDX-License-Identifier: GPL-2.0-or-later */
/* The rounds of a tune without building anything: a fake visit and clock
 * drive src/tune/tune-rounds.c (the order of each round, the budget's
 * arithmetic, the drops, a resume making the same decisions). */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <cmocka.h>

#include <math.h>
#include <string.h>

#include "../../src/base/error.h"
#include "../../src/model/tune-race.h"
#include "../../src/tune/tune-rounds.h"
#include "../../src/tune/tune-summary.h"

#define K 4

struct fake {
	double now;            /* the fake clock */
	double cost;           /* seconds a visit takes */
	double level[K];       /* each candidate's figure */
	unsigned visits[64][K]; /* [round][candidate] visits made */
	unsigned stop_at;      /* the Nth visit made is interrupted (0: never) */
	unsigned made;
	GHashTable *results;   /* "c/r" -> double *: what a results file would hold */
	unsigned fail_candidate, fail_rounds; /* this candidate's first rounds give no figure */
};

static double fake_clock(void *data)
{
	return ((struct fake *)data)->now;
}

static int fake_visit(void *data, size_t c, unsigned round, double *figure, bool *done, GError **error)
{
	struct fake *f = data;
	g_autofree char *key = g_strdup_printf("%zu/%u", c, round);
	double *had = f->results ? g_hash_table_lookup(f->results, key) : NULL;
	if (had) {
		*figure = *had;
		*done = true;
		return 0;
	}
	if (f->stop_at && f->made + 1 == f->stop_at) {
		g_set_error(error, AB_ERROR, AB_ERROR_INTERRUPTED, "interrupted");
		return AB_ERROR_INTERRUPTED;
	}
	f->made++;
	f->now += f->cost;
	f->visits[round][c]++;
	/* A small wobble per round that does not change the order. */
	*figure = (c == f->fail_candidate && round <= f->fail_rounds) ? NAN : f->level[c] + (round % 3);
	if (f->results) {
		double *v = g_new(double, 1);
		*v = *figure;
		g_hash_table_insert(f->results, g_steal_pointer(&key), v);
	}
	return 0;
}

static void stage_setup(struct ab_tune_stage *st, struct fake *f, struct ab_tune_budget budget)
{
	static const char *const labels[K] = { "defaults", "a", "b", "c" };
	*st = (struct ab_tune_stage){
		.stage = "race", .candidates = K, .defaults = 0, .labels = labels, .drops = true, .seed = 42,
		.budget = budget, .visit = fake_visit, .visit_data = f, .clock = fake_clock, .clock_data = f,
	};
	ab_race_params_init(&st->params);
	g_autoptr(GError) error = NULL;
	assert_true(ab_tune_stage_init(st, &error));
}

static void test_order(void **state)
{
	(void)state;
	bool alive[6] = { true, true, true, true, true, true };
	size_t a[6], b[6];
	unsigned differ = 0;
	for (unsigned r = 1; r <= 10; r++) {
		size_t n = ab_tune_round_order(7, "race", r, alive, 6, a);
		assert_int_equal(n, 6);
		/* A permutation, and the same again from the same inputs. */
		unsigned seen = 0;
		for (size_t i = 0; i < n; i++)
			seen |= 1u << a[i];
		assert_int_equal(seen, 0x3f);
		ab_tune_round_order(7, "race", r, alive, 6, b);
		assert_memory_equal(a, b, sizeof(a));
		ab_tune_round_order(7, "race", r + 1, alive, 6, b);
		differ += memcmp(a, b, sizeof(a)) != 0;
	}
	assert_true(differ >= 8);
	/* Another stage, another order; a dropped candidate is not visited. */
	ab_tune_round_order(7, "race", 1, alive, 6, a);
	ab_tune_round_order(7, "screen", 1, alive, 6, b);
	ab_tune_round_order(7, "race", 2, alive, 6, b);
	alive[2] = false;
	size_t n = ab_tune_round_order(7, "race", 1, alive, 6, a);
	assert_int_equal(n, 5);
	for (size_t i = 0; i < n; i++)
		assert_int_not_equal(a[i], 2);
}

static void test_budget(void **state)
{
	(void)state;
	struct ab_tune_budget visits = { 12, NAN };
	struct ab_tune_spend spend = { .visits = 8 };
	assert_true(ab_tune_budget_allows(&visits, &spend, 4));
	assert_false(ab_tune_budget_allows(&visits, &spend, 5));
	/* A time: nothing to estimate from yet, so the first round goes. */
	struct ab_tune_budget time = { 0, 200 };
	spend = (struct ab_tune_spend){ 0 };
	assert_true(isnan(ab_tune_visit_cost(&spend)));
	assert_true(ab_tune_budget_allows(&time, &spend, 1000));
	/* 10 visits in 100 s: 10 s each; 200 s allow an overrun of one visit. */
	spend = (struct ab_tune_spend){ .visits = 10, .timed = 10, .seconds = 100 };
	assert_true(ab_tune_visit_cost(&spend) == 10);
	assert_true(ab_tune_budget_allows(&time, &spend, 11));
	assert_false(ab_tune_budget_allows(&time, &spend, 12));
	/* Visits made before a resume count at their estimated cost. */
	spend = (struct ab_tune_spend){ .visits = 10, .done = 10, .done_cost_s = 10 };
	assert_true(ab_tune_visit_cost(&spend) == 10);
	assert_true(ab_tune_budget_allows(&time, &spend, 11));
	assert_false(ab_tune_budget_allows(&time, &spend, 12));
}

/* A clearly worse candidate is dropped at round 3, the race goes on to
 * one candidate, and each round visits every candidate alive once. */
static void test_race(void **state)
{
	(void)state;
	struct fake f = { .cost = 10, .level = { 100, 90, 80, 50 }, .fail_candidate = 99 };
	struct ab_tune_stage st;
	stage_setup(&st, &f, (struct ab_tune_budget){ 100, NAN });
	g_autoptr(GError) error = NULL;
	assert_int_equal(ab_tune_stage_run(&st, &error), 0);
	assert_int_equal(st.end, AB_TUNE_DECIDED);
	assert_false(st.race->candidate[3].alive);
	assert_int_equal(st.race->candidate[3].dropped_round, 3);
	assert_true(st.race->candidate[0].alive);
	assert_int_equal(ab_race_alive_count(st.race), 1);
	for (size_t r = 1; r <= st.rounds; r++)
		for (size_t c = 0; c < K; c++) {
			bool was_alive = st.race->candidate[c].alive || st.race->candidate[c].dropped_round >= r;
			assert_int_equal(f.visits[r][c], was_alive ? 1 : 0);
		}
	assert_int_equal(st.alive_after->len, st.rounds);
	assert_int_equal(g_array_index(st.alive_after, size_t, 1), K);
	assert_int_equal(st.spend.visits, f.made);
	assert_true(st.spend.seconds == 10.0 * f.made);
	ab_tune_stage_clear(&st);
}

/* A time budget: each visit 10 s, 75 s: round 1 (nothing to estimate
 * from), round 2 (40 + 40 s: over 75 s, but by less than one visit), not
 * round 3. */
static void test_time_budget(void **state)
{
	(void)state;
	struct fake f = { .cost = 10, .level = { 100, 100, 100, 100 }, .fail_candidate = 99 };
	struct ab_tune_stage st;
	stage_setup(&st, &f, (struct ab_tune_budget){ 0, 75 });
	g_autoptr(GError) error = NULL;
	assert_int_equal(ab_tune_stage_run(&st, &error), 0);
	assert_int_equal(st.end, AB_TUNE_BUDGET);
	assert_int_equal(st.rounds, 2);
	assert_int_equal(f.made, 8);
	ab_tune_stage_clear(&st);
	/* 25 s: nothing to estimate from before round 1, but no visit starts
	 * once the time is spent: 3 visits, round 1 left incomplete. */
	struct fake g = { .cost = 10, .level = { 100, 100, 100, 100 }, .fail_candidate = 99 };
	stage_setup(&st, &g, (struct ab_tune_budget){ 0, 25 });
	assert_int_equal(ab_tune_stage_run(&st, &error), 0);
	assert_int_equal(st.end, AB_TUNE_BUDGET);
	assert_int_equal(g.made, 3);
	assert_int_equal(st.rounds, 1);
	assert_int_equal(ab_race_alive_count(st.race), K);
	ab_tune_stage_clear(&st);
	/* Whole rounds (screening): round 1 goes whole, then no round fits. */
	struct fake h = { .cost = 10, .level = { 100, 100, 100, 100 }, .fail_candidate = 99 };
	stage_setup(&st, &h, (struct ab_tune_budget){ 0, 25 });
	st.whole_rounds = true;
	assert_int_equal(ab_tune_stage_run(&st, &error), 0);
	assert_int_equal(st.end, AB_TUNE_BUDGET);
	assert_int_equal(h.made, 4);
	assert_int_equal(st.rounds, 1);
	ab_tune_stage_clear(&st);
}

/* Interrupted mid-round, then run again with what the results hold: the
 * same decisions as a race never interrupted, and no visit made twice. */
static void test_resume(void **state)
{
	(void)state;
	struct fake whole = { .cost = 1, .level = { 100, 90, 80, 50 }, .fail_candidate = 99 };
	struct ab_tune_stage a;
	stage_setup(&a, &whole, (struct ab_tune_budget){ 100, NAN });
	g_autoptr(GError) error = NULL;
	assert_int_equal(ab_tune_stage_run(&a, &error), 0);

	g_autoptr(GHashTable) results = g_hash_table_new_full(g_str_hash, g_str_equal, g_free, g_free);
	struct fake cut = { .cost = 1, .level = { 100, 90, 80, 50 }, .fail_candidate = 99, .stop_at = 7,
			    .results = results };
	struct ab_tune_stage b;
	stage_setup(&b, &cut, (struct ab_tune_budget){ 100, NAN });
	assert_int_equal(ab_tune_stage_run(&b, &error), AB_ERROR_INTERRUPTED);
	assert_int_equal(b.end, AB_TUNE_STOPPED);
	assert_int_equal(b.rounds, 1); /* round 2 cut short is no round */
	assert_int_equal(g_hash_table_size(results), 6);
	ab_tune_stage_clear(&b);
	g_clear_error(&error);

	struct fake again = { .cost = 1, .level = { 100, 90, 80, 50 }, .fail_candidate = 99, .results = results };
	struct ab_tune_stage c;
	stage_setup(&c, &again, (struct ab_tune_budget){ 100, NAN });
	assert_int_equal(ab_tune_stage_run(&c, &error), 0);
	assert_int_equal(c.spend.done, 6);
	assert_int_equal(c.spend.visits, a.spend.visits);
	assert_int_equal(again.made + 6, whole.made);
	assert_int_equal(c.rounds, a.rounds);
	assert_int_equal(c.end, a.end);
	for (size_t k = 0; k < K; k++) {
		assert_int_equal(c.race->candidate[k].alive, a.race->candidate[k].alive);
		assert_int_equal(c.race->candidate[k].dropped_round, a.race->candidate[k].dropped_round);
		if (a.race->candidate[k].reason)
			assert_string_equal(c.race->candidate[k].reason, a.race->candidate[k].reason);
	}
	ab_tune_stage_clear(&a);
	ab_tune_stage_clear(&c);
}

/* A candidate whose visits give no figure twice is dropped by the tune,
 * with its reason, and the others race on. */
static void test_failing_candidate(void **state)
{
	(void)state;
	struct fake f = { .cost = 1, .level = { 100, 100, 100, 100 }, .fail_candidate = 2, .fail_rounds = 2 };
	struct ab_tune_stage st;
	stage_setup(&st, &f, (struct ab_tune_budget){ 24, NAN });
	g_autoptr(GError) error = NULL;
	assert_int_equal(ab_tune_stage_run(&st, &error), 0);
	assert_false(st.race->candidate[2].alive);
	assert_int_equal(st.race->candidate[2].dropped_round, 2);
	assert_non_null(strstr(st.race->candidate[2].reason, "rounds 1, 2"));
	assert_int_equal(st.failed, 2);
	assert_int_equal(ab_race_alive_count(st.race), 3);
	assert_int_equal(st.end, AB_TUNE_BUDGET);
	ab_tune_stage_clear(&st);
}

/* The race redone from the runs a tune recorded (what report --html
 * shows) makes the tune's own decisions: the same drops, rounds and
 * reasons, and a round cut short decides nothing. */
static void test_replay(void **state)
{
	(void)state;
	static const char *const labels[K] = { "defaults", "a", "b", "c" };
	struct fake f = { .cost = 1, .level = { 100, 90, 80, 50 }, .fail_candidate = 1, .fail_rounds = 1 };
	struct ab_tune_stage st;
	stage_setup(&st, &f, (struct ab_tune_budget){ 16, NAN });
	g_autoptr(GError) error = NULL;
	assert_int_equal(ab_tune_stage_run(&st, &error), 0);
	/* Round 1 is incomplete (b failed), so the drops come at round 4;
	 * the budget ends the race with two candidates left. */
	assert_int_equal(st.end, AB_TUNE_BUDGET);
	assert_int_equal(st.race->candidate[3].dropped_round, 4);
	assert_int_equal(ab_race_alive_count(st.race), 2);
	g_autoptr(GPtrArray) runs = g_ptr_array_new_with_free_func((GDestroyNotify)ab_run_free);
	for (size_t r = 0; r < st.rounds; r++)
		for (size_t c = 0; c < K; c++) {
			if (!f.visits[r + 1][c])
				continue;
			struct ab_run *run = ab_run_new();
			double y = g_array_index(st.y, double, r * K + c);
			if (isnan(y)) {
				run->failure = g_strdup("mkfs failed");
			} else {
				struct ab_result *res = ab_result_new("block-write");
				res->rate = y;
				ab_run_add_result(run, res);
			}
			run->tune.objective = g_strdup("max:block-write");
			run->tune.stage = g_strdup("race");
			run->tune.round = r + 1;
			run->tune.candidate = g_strdup(labels[c]);
			run->tune.index = c;
			run->tune.alpha = 0.05;
			run->tune.min_rounds = 3;
			g_ptr_array_add(runs, run);
		}
	/* And one visit of a round the budget cut short. */
	struct ab_run *cut = ab_run_new();
	cut->tune = (struct ab_tune_stamp){ g_strdup("max:block-write"), NULL, g_strdup("race"), st.rounds + 1,
					    g_strdup("defaults"), 0, NULL, 0.05, 3 };
	g_ptr_array_add(runs, cut);
	static const char *const phases[] = { "block-write", NULL };
	struct ab_tune_replay rp;
	assert_true(ab_tune_replay_make(runs, phases, AB_TUNE_STAGE_RACE, &rp, &error));
	assert_int_equal(rp.candidates, K);
	assert_int_equal(rp.rounds, st.rounds + 1);
	assert_false(rp.decided[st.rounds]);
	for (size_t c = 0; c < K; c++) {
		assert_int_equal(rp.race->candidate[c].alive, st.race->candidate[c].alive);
		assert_int_equal(rp.race->candidate[c].dropped_round, st.race->candidate[c].dropped_round);
		if (st.race->candidate[c].reason)
			assert_string_equal(rp.race->candidate[c].reason, st.race->candidate[c].reason);
	}
	for (size_t r = 0; r < st.rounds; r++)
		assert_int_equal(rp.alive_after[r], g_array_index(st.alive_after, size_t, r));
	ab_tune_replay_clear(&rp);
	ab_tune_stage_clear(&st);
	/* No tune's runs: nothing, and no error. */
	g_autoptr(GPtrArray) none = g_ptr_array_new();
	assert_false(ab_tune_replay_make(none, phases, AB_TUNE_STAGE_RACE, &rp, &error));
	assert_null(error);
}

/* The options the end gives: an undecided race's leader only when its
 * interval shows it better than the defaults still racing; else the
 * defaults', said in one line. */
static void summary_of(double lead_level, char **text, char **json)
{
	static const char *const labels[K] = { "defaults", "a", "b", "c" };
	static const char *const mount[K] = { NULL, "noatime", "commit=60", "lazytime" };
	static const char *const mkfs[K] = { NULL, NULL, NULL, NULL };
	/* 6 rounds of +-10 % noise, undecided (no round decided on). */
	static const double noise[6][K] = {
		{ 1.00, 1.10, 0.92, 0.95 }, { 1.05, 0.93, 1.08, 1.02 }, { 0.97, 1.04, 0.99, 1.09 },
		{ 1.02, 0.91, 1.06, 0.94 }, { 0.99, 1.08, 0.95, 1.01 }, { 1.01, 0.96, 1.03, 0.97 },
	};
	const double level[K] = { 100, lead_level, 100, 99 };
	struct fake f = { .cost = 1 };
	struct ab_tune_stage st;
	stage_setup(&st, &f, (struct ab_tune_budget){ 24, NAN });
	for (size_t r = 0; r < 6; r++)
		for (size_t c = 0; c < K; c++) {
			double y = level[c] * noise[r][c] * (1 + 0.2 * (double)r);
			g_array_append_val(st.y, y);
		}
	st.rounds = 6;
	st.end = AB_TUNE_BUDGET;
	struct ab_objective obj = { .name = (char *)"max:block-write", .higher_is_better = true };
	struct ab_tune_summary s = { .obj = &obj, .race = &st, .labels = labels, .mount_opts = mount, .mkfs_opts = mkfs };
	ab_tune_summary_rank(&s);
	assert_false(ab_tune_summary_decided(&s));
	*text = ab_tune_summary_text(&s);
	*json = ab_tune_summary_json(&s);
	ab_tune_summary_clear(&s);
	ab_tune_stage_clear(&st);
}

static void test_recommended(void **state)
{
	(void)state;
	char *text, *json;
	/* a leads by 3 %, well inside the noise: the defaults are given. */
	summary_of(103, &text, &json);
	assert_non_null(strstr(text, "\nleading           a: "));
	assert_non_null(strstr(text, "\nrecommended: defaults: the race was not decided and the leading a was not "
				     "shown better than them (its interval 1.0"));
	assert_non_null(strstr(text, "\nmount options: (none: the defaults)\n"));
	assert_null(strstr(text, "noatime"));
	assert_non_null(strstr(json, "\"leading\":\"a\""));
	assert_non_null(strstr(json, "\"recommended\":\"defaults\""));
	assert_non_null(strstr(json, "\"winner\":null"));
	g_free(text);
	g_free(json);
	/* a leads by 60 %, far beyond it: its options, though undecided. */
	summary_of(160, &text, &json);
	assert_null(strstr(text, "recommended:"));
	assert_non_null(strstr(text, "\nmount options: noatime\n"));
	assert_non_null(strstr(json, "\"recommended\":\"a\""));
	g_free(text);
	g_free(json);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_order),
		cmocka_unit_test(test_budget),
		cmocka_unit_test(test_race),
		cmocka_unit_test(test_time_budget),
		cmocka_unit_test(test_resume),
		cmocka_unit_test(test_failing_candidate),
		cmocka_unit_test(test_replay),
		cmocka_unit_test(test_recommended),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
