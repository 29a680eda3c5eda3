/* SPDX-License-Identifier: GPL-2.0-or-later */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <cmocka.h>

#include <math.h>
#include <stdbool.h>
#include <string.h>

#include "../../src/base/error.h"
#include "../../src/base/rng.h"
#include "../../src/model/race.h"

#include "race-sim.h"

/*
 * The racing statistics.  Expected figures are worked by hand below, or
 * have closed forms (the chi-square with 2 df: Q(x) = exp(-x / 2); with 3
 * df: erfc(sqrt(x / 2)) + sqrt(2x / pi) exp(-x / 2); F with 2 and d2 df:
 * Q(x) = (1 + 2x / d2)^(-d2 / 2); Student's t with 2 df:
 * Q(t) = (1 - t / sqrt(2 + t^2)) / 2); the t tails with 9 df were
 * integrated numerically (Simpson's rule on the density, 200000 steps, in
 * python3's math module), as no scipy is on this machine.  The races on
 * made-up figures (race-sim.h) are seeded, so every run sees the same
 * figures; test-race-sim holds the many-race simulations and screening.
 */

#define near(a, b, tol) assert_true(fabs((a) - (b)) <= (tol))

static void test_distributions(void **state)
{
	(void)state;
	/* The 0.95 quantiles of the chi-square with 1, 2 and 4 df (1.96^2 for
	 * 1 df: 3.841458820694124 = qnorm(0.975)^2; 2 df: 2 ln 20). */
	near(ab_race_chi2_upper(3.841458820694124, 1), 0.05, 1e-9);
	near(1 - ab_race_chi2_upper(3.84, 1), 0.95, 1e-3); /* CDF(3.84, 1) = 0.94996 */
	near(ab_race_chi2_upper(2 * log(20), 2), 0.05, 1e-12);
	near(ab_race_chi2_upper(5, 2), exp(-2.5), 1e-12);
	near(ab_race_chi2_upper(8.7, 3), 0.033557268705538004, 1e-9);
	/* F with 2 and 6 df at 117/17: (1 + 2 (117/17) / 6)^-3 = (17/56)^3. */
	near(ab_race_f_upper(117.0 / 17, 2, 6), pow(17.0 / 56, 3), 1e-12);
	/* F with 1 and d df is t^2 with d df: t(0.975, 4) = 2.7764451051977987. */
	near(ab_race_f_upper(2.7764451051977987 * 2.7764451051977987, 1, 4), 0.05, 1e-9);
	/* Outside the domain: NAN, never GSL's aborting error handler. */
	assert_true(isnan(ab_race_chi2_upper(1, 0)));
	assert_true(isnan(ab_race_chi2_upper(NAN, 3)));
	assert_true(isnan(ab_race_f_upper(1, 2, 0)));
	near(ab_race_chi2_upper(0, 3), 1, 0);
	near(ab_race_chi2_upper(-1, 3), 1, 0);
	near(ab_race_chi2_upper(INFINITY, 3), 0, 0);
	near(ab_race_f_upper(INFINITY, 3, 6), 0, 0);
}

static void test_holm(void **state)
{
	(void)state;
	/* Sorted: 0.005 x 4 = 0.02, 0.01 x 3 = 0.03, 0.03 x 2 = 0.06,
	 * 0.04 x 1 = 0.04, raised to the 0.06 before it (step-down). */
	double p[] = { 0.01, 0.04, 0.03, 0.005 };
	ab_race_holm(p, 4);
	near(p[0], 0.03, 1e-12);
	near(p[1], 0.06, 1e-12);
	near(p[2], 0.06, 1e-12);
	near(p[3], 0.02, 1e-12);
	/* Capped at 1; NAN counts as 1. */
	double q[] = { 0.4, NAN, 0.3 };
	ab_race_holm(q, 3);
	near(q[0], 0.9, 1e-12); /* 0.4 x 2 = 0.8, raised to the 0.3 x 3 before it */
	near(q[1], 1, 0);
	near(q[2], 0.9, 1e-12);
	ab_race_holm(NULL, 0);
}

/*
 * Friedman by hand, higher is better, candidates A B C and D (not alive):
 *   round 1: A 10, B 8, C 6     ranks 1, 2, 3
 *   round 2: A 9,  B 9, C 5     ranks 1.5, 1.5, 3 (a tie: mid-ranks)
 *   round 3: A NAN, B 7, C 6    skipped: A has no value
 *   round 4: A 7,  B 8, C 6     ranks 2, 1, 3
 *   round 5: A 12, B 7, C 7     ranks 1, 2.5, 2.5
 * b = 4 blocks, k = 3.  Rank sums R = 5.5, 7, 11.5 (sum 24 = b k (k+1) / 2).
 * A = sum of squared ranks = 14 + 13.5 + 14 + 13.5 = 55;
 * b k (k+1)^2 / 4 = 48; b (k+1) / 2 = 8;
 * sum (R - 8)^2 = 6.25 + 1 + 12.25 = 19.5;
 * T = (k-1) 19.5 / (55 - 48) = 39/7 = 5.5714 (without the tie correction,
 * 12 / (b k (k+1)) 19.5 = 4.875); p = exp(-T/2) = 0.061685.
 * Iman-Davenport: b A - sum R^2 = 220 - 211.5 = 8.5,
 * F = (b-1) 19.5 / 8.5 = 117/17 = 6.8824 on 2 and 6 df,
 * p = (17/56)^3 = 0.027976.
 */
static const double hand_table[] = {
	10, 8, 6, NAN,
	9, 9, 5, NAN,
	NAN, 7, 6, NAN,
	7, 8, 6, NAN,
	12, 7, 7, NAN,
};

static void test_friedman_by_hand(void **state)
{
	(void)state;
	const struct ab_race_table t = { hand_table, 5, 4 };
	const bool alive[] = { true, true, true, false };
	struct ab_race_friedman f;
	ab_race_friedman_test(&t, alive, AB_RACE_HIGHER_IS_BETTER, &f);
	assert_int_equal(f.blocks, 4);
	assert_int_equal(f.treatments, 3);
	near(f.rank_sum[0], 5.5, 0);
	near(f.rank_sum[1], 7, 0);
	near(f.rank_sum[2], 11.5, 0);
	assert_true(isnan(f.rank_sum[3]));
	near(f.rank_square_sum, 55, 0);
	near(f.statistic, 39.0 / 7, 1e-12);
	near(f.p, 0.061685012567976046, 1e-12);
	near(f.f, 117.0 / 17, 1e-12);
	near(f.p_f, 0.027975810860058303, 1e-12);
	ab_race_friedman_clear(&f);

	/* Lower is better: every rank r becomes k + 1 - r, the sums
	 * b (k + 1) - R; the statistic is the same. */
	ab_race_friedman_test(&t, alive, AB_RACE_LOWER_IS_BETTER, &f);
	near(f.rank_sum[0], 10.5, 0);
	near(f.rank_sum[2], 4.5, 0);
	near(f.statistic, 39.0 / 7, 1e-12);
	ab_race_friedman_clear(&f);

	/* The gate is the chi-square: p 0.062 keeps all three, though F's
	 * 0.028 is below 0.05. */
	struct ab_race_params params;
	ab_race_params_init(&params);
	g_autoptr(ab_race) race = ab_race_new(4, 0, NULL, &params, NULL);
	race->candidate[3].alive = false;
	struct ab_race_decision d;
	assert_int_equal(ab_race_decide(race, &t, &d), 0);
	assert_true(d.tested);
	assert_false(d.rejected);
	assert_int_equal(d.best, 0);
	assert_int_equal(d.round, 5);
	ab_race_decision_clear(&d);

	/* Every value a tie: no order, no statistic. */
	const double ties[] = { 5, 5, 5, 5, 5, 5 };
	const struct ab_race_table tt = { ties, 2, 3 };
	const bool all[] = { true, true, true };
	ab_race_friedman_test(&tt, all, AB_RACE_HIGHER_IS_BETTER, &f);
	assert_int_equal(f.blocks, 2);
	assert_true(isnan(f.statistic) && isnan(f.p));
	ab_race_friedman_clear(&f);
	/* One block only: no test. */
	const struct ab_race_table one = { hand_table, 1, 4 };
	ab_race_friedman_test(&one, alive, AB_RACE_HIGHER_IS_BETTER, &f);
	assert_int_equal(f.blocks, 1);
	assert_true(isnan(f.p));
	ab_race_friedman_clear(&f);
}

/*
 * Conover's post-hoc by hand: 4 candidates, 4 rounds, higher is better;
 * ranks per round (the figures 40, 30, 20, 10 for ranks 1 to 4):
 *   A 1 1 2 1 (R 5), B 2 3 1 2 (R 8), C 3 2 3 4 (R 12), D 4 4 4 3 (R 15).
 * A = 4 * 30 = 120, T = 3 * (25 + 4 + 4 + 25) / (120 - 100) = 8.7,
 * p = 0.033557 < 0.05: the gate opens.  b A - sum R^2 = 480 - 458 = 22,
 * df = 3 * 3 = 9, se = sqrt(2 * 22 / 9) = 2.2111; against A (the best):
 *   B: 3 / se = 1.3568, p 0.207896;  C: 7 / se = 3.1659, p 0.011442;
 *   D: 10 / se = 4.5227, p 0.001441.
 * Holm over 3: D 0.004324, C 0.022883, B 0.207896: both C and D are
 * beaten, and the step-down drops the worse ranked, D.  Then the rule
 * again on A B C over the same 4 rounds, ranked among the three (C's 4 in
 * round 4 becomes 3): R = 5, 8, 11, T = 12 / (4 * 3 * 4) (9 + 0 + 9) = 4.5,
 * p = exp(-2.25) = 0.105: C stays.  (It lost to A in all 4 rounds, which
 * an exact sign test puts at p = 0.125.)
 */
static const double conover_table[] = {
	40, 30, 20, 10,
	40, 20, 30, 10,
	30, 40, 20, 10,
	40, 30, 10, 20,
};

static void test_conover_by_hand(void **state)
{
	(void)state;
	const struct ab_race_table t = { conover_table, 4, 4 };
	struct ab_race_params params;
	ab_race_params_init(&params);
	g_autoptr(ab_race) race = ab_race_new(4, 0, NULL, &params, NULL);
	struct ab_race_decision d;
	assert_int_equal(ab_race_decide(race, &t, &d), 1);
	assert_true(d.tested);
	assert_true(d.rejected);
	near(d.friedman.statistic, 8.7, 1e-12);
	near(d.friedman.p, 0.033557268705538004, 1e-9);
	assert_int_equal(d.best, 0);
	assert_int_equal(d.dropped, 1);
	ab_race_decision_clear(&d);
	assert_true(race->candidate[0].alive);
	assert_true(race->candidate[1].alive);
	assert_true(race->candidate[2].alive);
	assert_null(race->candidate[2].reason);
	const struct ab_race_candidate *c = &race->candidate[3];
	assert_false(c->alive);
	assert_int_equal(c->dropped_round, 4);
	assert_int_equal(c->rounds_used, 4);
	near(c->mean_rank, 3.75, 1e-12);
	near(c->best_mean_rank, 1.25, 1e-12);
	assert_int_equal(c->beaten_by, 0);
	near(c->p, 3 * 0.0014412632806761843, 1e-7);
	assert_int_equal(c->comparisons, 3);
	assert_string_equal(c->reason, "beaten by the defaults in 4 rounds (mean rank 3.75 "
				       "against 1.25), p=0.004 after Holm over 3 comparisons");
	assert_int_equal(ab_race_alive_count(race), 3);
	/* The next round's decision on the same rounds drops no one more. */
	assert_int_equal(ab_race_decide(race, &t, NULL), 0);

	/* Uncorrected, with labels and lower is better (the same order: the
	 * figures negated): D goes with its own p, 0.0014. */
	const double neg[] = { -40, -30, -20, -10, -40, -20, -30, -10,
			       -30, -40, -20, -10, -40, -30, -10, -20 };
	const struct ab_race_table tn = { neg, 4, 4 };
	params.direction = AB_RACE_LOWER_IS_BETTER;
	params.correction = AB_RACE_UNCORRECTED;
	const char *const labels[] = { "defaults", "noatime", "commit=60", "data=journal" };
	g_autoptr(ab_race) race2 = ab_race_new(4, 0, labels, &params, NULL);
	assert_int_equal(ab_race_decide(race2, &tn, NULL), 1);
	assert_true(race2->candidate[2].alive);
	assert_string_equal(race2->candidate[3].reason,
			    "beaten by 'defaults' in 4 rounds (mean rank 3.75 against 1.25), "
			    "p=0.001 uncorrected");

	/* Too few rounds for the rule: tested is false, nothing dropped. */
	params.min_rounds = 5;
	g_autoptr(ab_race) race3 = ab_race_new(4, 0, NULL, &params, NULL);
	assert_int_equal(ab_race_decide(race3, &tn, &d), 0);
	assert_false(d.tested);
	assert_false(d.rejected);
	assert_int_equal(d.friedman.blocks, 4);
	ab_race_decision_clear(&d);
	assert_int_equal(ab_race_alive_count(race3), 4);
}

/* A clearly worse candidate: 4 candidates each 20 % below the one before
 * (100, 80, 64, 51.2) at a CV of 5 %, with a round effect of 10 %.  Over
 * 3 rounds a rank test sees only orders, and Friedman's chi-square at 0.05
 * needs these to be (nearly) the same every round; they are, so the worst
 * goes in round 3, and never before: over 200 seeded races. */
static void test_worse_dropped_in_round_3(void **state)
{
	(void)state;
	const double means[] = { 100, 80, 64, 51.2 };
	struct ab_race_params params;
	ab_race_params_init(&params);
	for (uint64_t seed = 1; seed <= 200; seed++) {
		struct sim_race s;
		sim_race(&s, &params, means, 4, 3, 0.05, seed);
		assert_int_equal(s.first_drop, 3);
		assert_false(s.race->candidate[3].alive);
		assert_int_equal(s.race->candidate[3].dropped_round, 3);
		assert_true(s.race->candidate[0].alive);
		sim_race_clear(&s);
	}
	/* 10 such candidates (100 x 0.8^j): after 2 rounds in one order the
	 * chi-square already rejects (T = 18 > 16.92 on 9 df), so only the
	 * rule keeps them all until round 3; with min_rounds 4, until 4. */
	double ten[10];
	for (size_t j = 0; j < 10; j++)
		ten[j] = 100 * pow(0.8, (double)j);
	for (size_t min = 3; min <= 4; min++) {
		params.min_rounds = min;
		struct sim_race s;
		sim_race(&s, &params, ten, 10, min, 0.05, 11);
		assert_int_equal(s.first_drop, min);
		assert_false(s.race->candidate[9].alive);
		sim_race_clear(&s);
	}
	params.min_rounds = 3;
	/* Two candidates, 100 against 80: every round in the same order.  The
	 * chi-square gate opens at 4 rounds (T = 4 > 3.84), but two equal
	 * candidates do that 1 time in 8; Conover's floor (race.c) waits for
	 * 6, where the sign test's p is 2 / 64 = 0.031. */
	const double two[] = { 100, 80 };
	for (uint64_t seed = 1; seed <= 50; seed++) {
		struct sim_race s;
		sim_race(&s, &params, two, 2, 8, 0.05, seed);
		assert_int_equal(s.first_drop, 6);
		assert_false(s.race->candidate[1].alive);
		assert_true(s.race->candidate[0].alive);
		sim_race_clear(&s);
	}
}

/* Equal candidates survive: 4 of them, 6 rounds, one distribution. */
static void test_equal_survive(void **state)
{
	(void)state;
	const double means[] = { 100, 100, 100, 100 };
	struct ab_race_params params;
	ab_race_params_init(&params);
	struct sim_race s;
	sim_race(&s, &params, means, 4, 6, 0.05, 7);
	assert_int_equal(s.first_drop, 0);
	assert_int_equal(ab_race_alive_count(s.race), 4);
	sim_race_clear(&s);
}

static void test_params(void **state)
{
	(void)state;
	struct ab_race_params params;
	ab_race_params_init(&params);
	assert_true(ab_race_params_check(&params, NULL));
	near(params.alpha, 0.05, 0);
	assert_int_equal(params.min_rounds, 3);
	g_autoptr(GError) error = NULL;
	params.alpha = 0.7;
	assert_false(ab_race_params_check(&params, &error));
	assert_string_equal(error->message, "race level '0.7' is not in (0, 0.5]");
	assert_int_equal(ab_error_exit_status(error), 1);
	g_clear_error(&error);
	params.alpha = 0.05;
	params.min_rounds = 1;
	assert_null(ab_race_new(3, 0, NULL, &params, &error));
	assert_string_equal(error->message, "race minimum of rounds '1' is below 2");
	g_clear_error(&error);
	params.min_rounds = 3;
	assert_null(ab_race_new(3, 3, NULL, &params, &error));
	assert_string_equal(error->message, "defaults candidate '3' is not one of the 3 candidates");
	g_clear_error(&error);
	assert_null(ab_race_new(0, 0, NULL, &params, &error));
	assert_string_equal(error->message, "a race needs a candidate, got '0'");
}

static void test_budget(void **state)
{
	(void)state;
	assert_int_equal(ab_race_rounds_that_fit(4, 11), 2);
	assert_int_equal(ab_race_rounds_that_fit(4, 12), 3);
	assert_int_equal(ab_race_rounds_that_fit(0, 12), 0);
	/* Screen when the budget does not allow 3 rounds of every candidate. */
	assert_int_equal(ab_race_plan_for(20, 60, 3), AB_RACE_PLAN_WHOLE);
	assert_int_equal(ab_race_plan_for(20, 59, 3), AB_RACE_PLAN_SCREEN);
	assert_int_equal(ab_race_plan_for(1, 0, 3), AB_RACE_PLAN_WHOLE); /* nothing to race */
	assert_int_equal(ab_race_plan_for(SIZE_MAX, SIZE_MAX, 3), AB_RACE_PLAN_SCREEN);
	assert_string_equal(ab_race_plan_name(AB_RACE_PLAN_SCREEN), "screen");
}

static void test_paired_ratio(void **state)
{
	(void)state;
	/* Log ratios 0.1, 0.2, 0.3 (two columns of a 2-candidate table, a NAN
	 * round and a round of 0 left out): mean 0.2, sd 0.1,
	 * se 0.1 / sqrt 3, t = 2 sqrt 3 = 3.4641 on 2 df,
	 * p = 1 - t / sqrt(2 + t^2) = 0.074180; interval
	 * exp(0.2 -+ 4.302652729749464 se) (t(0.975, 2) in closed form). */
	const double y[] = {
		100 * exp(0.1), 100,
		NAN, 50,
		80 * exp(0.2), 80,
		0, 90,
		120 * exp(0.3), 120,
	};
	struct ab_race_paired pr;
	ab_race_paired_ratio(y, y + 1, 5, 2, 0.95, &pr);
	assert_int_equal(pr.n, 3);
	double se = 0.1 / sqrt(3);
	near(pr.ratio.ratio, exp(0.2), 1e-12);
	near(pr.t, 2 * sqrt(3), 1e-9);
	near(pr.p, 0.07417990022744858, 1e-9);
	near(pr.ratio.low, exp(0.2 - 4.302652729749464 * se), 1e-9);
	near(pr.ratio.high, exp(0.2 + 4.302652729749464 * se), 1e-9);
	/* No spread: the interval is the ratio, p 0 (or 1 at a ratio of 1). */
	const double same[] = { 110, 100, 121, 110, 99, 90 };
	ab_race_paired_ratio(same, same + 1, 3, 2, 0.95, &pr);
	near(pr.ratio.ratio, 1.1, 1e-12);
	near(pr.ratio.low, pr.ratio.ratio, 1e-9);
	near(pr.p, 0, 1e-6);
	const double one[] = { 7, 7, 7, 7 };
	ab_race_paired_ratio(one, one + 1, 2, 2, 0.95, &pr);
	near(pr.p, 1, 0);
	/* One pair: a ratio, no interval. */
	ab_race_paired_ratio(y, y + 1, 1, 2, 0.95, &pr);
	assert_int_equal(pr.n, 1);
	near(pr.ratio.ratio, exp(0.1), 1e-12);
	assert_true(isnan(pr.ratio.low) && isnan(pr.p));
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_distributions),
		cmocka_unit_test(test_holm),
		cmocka_unit_test(test_friedman_by_hand),
		cmocka_unit_test(test_conover_by_hand),
		cmocka_unit_test(test_worse_dropped_in_round_3),
		cmocka_unit_test(test_equal_survive),
		cmocka_unit_test(test_params),
		cmocka_unit_test(test_budget),
		cmocka_unit_test(test_paired_ratio),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
