/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * The racing statistics (src/model/race.h): Friedman's test, Conover's
 * post-hoc comparisons with the best, Holm's correction, the drop rule, the
 * paired ratio.  Written from Conover's Practical Nonparametric Statistics
 * (3rd ed., 5.8) and Holm's "A simple sequentially rejective multiple test
 * procedure" (1979); the distributions are GSL's, as in stats.c.
 */
#include "race.h"

#include <gsl/gsl_cdf.h>
#include <math.h>
#include <stdint.h>

#include "../base/error.h"

void ab_race_params_init(struct ab_race_params *params)
{
	*params = (struct ab_race_params){
		.direction = AB_RACE_HIGHER_IS_BETTER,
		.alpha = AB_RACE_ALPHA,
		.min_rounds = AB_RACE_MIN_ROUNDS,
		.correction = AB_RACE_HOLM,
	};
}

gboolean ab_race_params_check(const struct ab_race_params *params, GError **error)
{
	if (!(params->alpha > 0 && params->alpha <= 0.5)) {
		g_set_error(error, AB_ERROR, AB_ERROR_USAGE,
			    "race level '%g' is not in (0, 0.5]", params->alpha);
		return FALSE;
	}
	if (params->min_rounds < 2) {
		g_set_error(error, AB_ERROR, AB_ERROR_USAGE,
			    "race minimum of rounds '%zu' is below 2", params->min_rounds);
		return FALSE;
	}
	return TRUE;
}

double ab_race_chi2_upper(double x, double df)
{
	/* GSL's default error handler aborts: keep to its domain here. */
	if (!(df > 0) || isnan(x))
		return NAN;
	if (x <= 0)
		return 1;
	if (isinf(x))
		return 0;
	return gsl_cdf_chisq_Q(x, df);
}

double ab_race_f_upper(double x, double df1, double df2)
{
	if (!(df1 > 0) || !(df2 > 0) || isnan(x))
		return NAN;
	if (x <= 0)
		return 1;
	if (isinf(x))
		return 0;
	return gsl_cdf_fdist_Q(x, df1, df2);
}

/* Two-sided p of Student's t. */
static double t_two_sided(double t, double df)
{
	if (isnan(t) || !(df > 0))
		return NAN;
	if (isinf(t))
		return 0;
	double p = 2 * gsl_cdf_tdist_Q(fabs(t), df);
	return p > 1 ? 1 : p;
}

void ab_race_holm(double *p, size_t m)
{
	if (m == 0)
		return;
	g_autofree size_t *order = g_new(size_t, m);
	g_autofree double *adjusted = g_new(double, m);
	/* An insertion sort of the indices by p: m is the candidates of one
	 * race, a few dozen at most.  NAN sorts as 1. */
	for (size_t i = 0; i < m; i++) {
		double pi = isnan(p[i]) ? 1 : p[i];
		size_t j = i;
		for (; j > 0; j--) {
			double pj = isnan(p[order[j - 1]]) ? 1 : p[order[j - 1]];
			if (pj <= pi)
				break;
			order[j] = order[j - 1];
		}
		order[j] = i;
	}
	double running = 0;
	for (size_t i = 0; i < m; i++) {
		double pi = isnan(p[order[i]]) ? 1 : p[order[i]];
		double v = (double)(m - i) * pi;
		if (v > 1)
			v = 1;
		/* Step-down: a later p may not be corrected below an earlier one. */
		if (v < running)
			v = running;
		running = v;
		adjusted[order[i]] = v;
	}
	for (size_t i = 0; i < m; i++)
		p[i] = adjusted[i];
}

/* A figure turned into a score where lower is better. */
static double score_of(double y, enum ab_race_direction direction)
{
	return direction == AB_RACE_HIGHER_IS_BETTER ? -y : y;
}

/* The mid-ranks (1 the best) of the n scores s into rank. */
static void mid_ranks(const double *s, size_t n, double *rank)
{
	for (size_t i = 0; i < n; i++) {
		size_t below = 0, equal = 0;
		for (size_t j = 0; j < n; j++) {
			if (s[j] < s[i])
				below++;
			else if (s[j] == s[i])
				equal++;
		}
		/* Tied scores share the mean of the ranks they span. */
		rank[i] = (double)below + ((double)equal + 1) / 2;
	}
}

void ab_race_friedman_test(const struct ab_race_table *t, const bool *alive,
			   enum ab_race_direction direction, struct ab_race_friedman *out)
{
	size_t n = t->candidates;
	*out = (struct ab_race_friedman){ .statistic = NAN, .p = NAN, .f = NAN, .p_f = NAN,
					  .rank_sum = g_new(double, n ? n : 1) };
	g_autofree size_t *who = g_new(size_t, n ? n : 1);
	size_t k = 0;
	for (size_t j = 0; j < n; j++) {
		out->rank_sum[j] = alive[j] ? 0 : NAN;
		if (alive[j])
			who[k++] = j;
	}
	out->treatments = k;
	g_autofree double *score = g_new(double, k ? k : 1);
	g_autofree double *rank = g_new(double, k ? k : 1);
	size_t b = 0;
	double a = 0;
	for (size_t r = 0; r < t->rounds; r++) {
		const double *row = t->y + r * n;
		bool complete = true;
		for (size_t i = 0; i < k && complete; i++)
			complete = isfinite(row[who[i]]);
		if (!complete || k == 0)
			continue;
		for (size_t i = 0; i < k; i++)
			score[i] = score_of(row[who[i]], direction);
		mid_ranks(score, k, rank);
		for (size_t i = 0; i < k; i++) {
			out->rank_sum[who[i]] += rank[i];
			a += rank[i] * rank[i];
		}
		b++;
	}
	out->blocks = b;
	out->rank_square_sum = a;
	if (b < 2 || k < 2)
		return;
	double bd = (double)b, kd = (double)k;
	/* Ranks and their squares are multiples of 1/4: these sums are exact. */
	double c1 = bd * kd * (kd + 1) * (kd + 1) / 4;
	double centre = bd * (kd + 1) / 2;
	double ss = 0, sum_squares = 0;
	for (size_t i = 0; i < k; i++) {
		double rj = out->rank_sum[who[i]];
		ss += (rj - centre) * (rj - centre);
		sum_squares += rj * rj;
	}
	if (!(a - c1 > 0))
		return; /* every block all one tie: no order to test */
	out->statistic = (kd - 1) * ss / (a - c1);
	out->p = ab_race_chi2_upper(out->statistic, kd - 1);
	/* Iman-Davenport's F is the analysis of variance of the ranks: the
	 * candidates' sum of squares over the residual one, b A - sum R_j^2
	 * (the same as (b - 1) T / (b (k - 1) - T), without the cancellation
	 * when every block orders the candidates alike and T is b (k - 1)). */
	double residual = bd * a - sum_squares;
	if (!(residual > 0)) {
		out->f = INFINITY;
		out->p_f = 0;
		return;
	}
	out->f = (bd - 1) * ss / residual;
	out->p_f = ab_race_f_upper(out->f, kd - 1, (bd - 1) * (kd - 1));
}

void ab_race_friedman_clear(struct ab_race_friedman *f)
{
	g_clear_pointer(&f->rank_sum, g_free);
}

void ab_race_decision_clear(struct ab_race_decision *d)
{
	ab_race_friedman_clear(&d->friedman);
}

struct ab_race *ab_race_new(size_t candidates, size_t defaults, const char *const *labels,
			    const struct ab_race_params *params, GError **error)
{
	if (!ab_race_params_check(params, error))
		return NULL;
	if (candidates == 0) {
		g_set_error(error, AB_ERROR, AB_ERROR_USAGE, "a race needs a candidate, got '0'");
		return NULL;
	}
	if (defaults >= candidates) {
		g_set_error(error, AB_ERROR, AB_ERROR_USAGE,
			    "defaults candidate '%zu' is not one of the %zu candidates", defaults,
			    candidates);
		return NULL;
	}
	struct ab_race *race = g_new0(struct ab_race, 1);
	race->params = *params;
	race->candidates = candidates;
	race->defaults = defaults;
	race->candidate = g_new0(struct ab_race_candidate, candidates);
	race->labels = g_new0(char *, candidates + 1);
	for (size_t i = 0; i < candidates; i++) {
		race->candidate[i] = (struct ab_race_candidate){ .alive = true, .mean_rank = NAN,
								 .best_mean_rank = NAN, .p = NAN };
		if (labels)
			race->labels[i] = g_strdup_printf("'%s'", labels[i]);
		else if (i == defaults)
			race->labels[i] = g_strdup("the defaults");
		else
			race->labels[i] = g_strdup_printf("candidate %zu", i);
	}
	return race;
}

void ab_race_free(struct ab_race *race)
{
	if (!race)
		return;
	for (size_t i = 0; i < race->candidates; i++)
		g_free(race->candidate[i].reason);
	g_free(race->candidate);
	g_strfreev(race->labels);
	g_free(race);
}

size_t ab_race_alive_count(const struct ab_race *race)
{
	size_t n = 0;
	for (size_t i = 0; i < race->candidates; i++)
		n += race->candidate[i].alive;
	return n;
}

/* "p=0.012", or "p<0.001" where three decimals would print 0. */
static char *p_words(double p)
{
	return p < 0.001 ? g_strdup("p<0.001") : g_strdup_printf("p=%.3f", p);
}

/* The candidate's state once dropped, with its reason. */
static void drop(struct ab_race *race, size_t j, size_t best, size_t round,
		 const struct ab_race_friedman *f, double p, size_t comparisons)
{
	struct ab_race_candidate *c = &race->candidate[j];
	double b = (double)f->blocks;
	c->alive = false;
	c->dropped_round = round;
	c->rounds_used = f->blocks;
	c->mean_rank = f->rank_sum[j] / b;
	c->best_mean_rank = f->rank_sum[best] / b;
	c->beaten_by = best;
	c->p = p;
	c->comparisons = comparisons;
	g_autofree char *pw = p_words(p);
	g_autofree char *how = race->params.correction == AB_RACE_HOLM
		? g_strdup_printf("after Holm over %zu comparison%s", comparisons,
				  comparisons == 1 ? "" : "s")
		: g_strdup("uncorrected");
	g_free(c->reason);
	c->reason = g_strdup_printf("beaten by %s in %zu rounds (mean rank %.2f against %.2f), %s %s",
				    race->labels[best], f->blocks, c->mean_rank,
				    c->best_mean_rank, pw, how);
}

/*
 * Conover's error term, b A - sum R_j^2, is 0 when every round orders the
 * candidates alike, and his t infinite: two equal candidates that came out
 * in the same order 4 rounds running (1 time in 8) would be told apart
 * with p = 0, the gate's chi-square agreeing (T = 4 > 3.84).  It is taken
 * as at least 2 (b - 1), what one swap of neighbours in one round leaves,
 * so perfect agreement counts as no more evidence than near-perfect
 * agreement; two candidates then need 6 rounds, as an exact sign test
 * would (2 / 2^6 = 0.031).  Above that floor it is the textbook's.
 */
static double conover_least_residual(size_t blocks)
{
	return 2 * ((double)blocks - 1);
}

/* The best alive candidate: the lowest rank sum (ties: the lower index);
 * SIZE_MAX with none alive. */
static size_t best_of(const struct ab_race_friedman *f, const bool *alive, size_t n)
{
	size_t best = SIZE_MAX;
	for (size_t j = 0; j < n; j++)
		if (alive[j] && (best == SIZE_MAX || f->rank_sum[j] < f->rank_sum[best]))
			best = j;
	return best;
}

/*
 * One step of the rule on the alive candidates: when the gate opens, the
 * post-hoc p of each against the best, corrected; returns the candidate
 * to drop, the worst ranked of those beaten (SIZE_MAX for none), with
 * its p and the comparisons counted.
 */
static size_t beaten_worst(const struct ab_race *race, const struct ab_race_friedman *f,
			   const bool *alive, size_t best, double *p_out, size_t *comparisons)
{
	size_t n = race->candidates, k = f->treatments, b = f->blocks;
	/*
	 * The gate is the chi-square form, not Iman and Davenport's F, though
	 * F is nearer its level: the race tests again after every round, so a
	 * gate above its level at few rounds adds up false drops over the
	 * race, and F is far above it there: 2 equal candidates come out in
	 * the same order 3 rounds running 1 time in 4, which gives F = +inf,
	 * p = 0; over the 24^2 equally likely orders of 4 candidates in 3
	 * rounds, F rejects at 0.05 in 7.5 % and the chi-square in 1.7 %
	 * (4 rounds: 6.8 % and 3.3 %).  The chi-square's shortfall with few
	 * rounds pays for part of the repeated looks (2000 races of 4 to 8
	 * equal candidates over 5 rounds: 5.5 % had a false drop with this
	 * gate, 12 % with F's); it is also F-Race's own gate.
	 */
	if (!(b >= race->params.min_rounds && k >= 2 && f->p < race->params.alpha))
		return SIZE_MAX;
	double kd = (double)k, bd = (double)b;
	double sum_squares = 0;
	for (size_t j = 0; j < n; j++)
		if (alive[j])
			sum_squares += f->rank_sum[j] * f->rank_sum[j];
	double residual = bd * f->rank_square_sum - sum_squares;
	if (residual < conover_least_residual(b))
		residual = conover_least_residual(b);
	double df = (bd - 1) * (kd - 1);
	double se = sqrt(2 * residual / df);
	size_t m = k - 1;
	g_autofree size_t *other = g_new(size_t, m);
	g_autofree double *p = g_new(double, m);
	size_t i = 0;
	for (size_t j = 0; j < n; j++) {
		if (!alive[j] || j == best)
			continue;
		other[i] = j;
		p[i] = t_two_sided((f->rank_sum[j] - f->rank_sum[best]) / se, df);
		i++;
	}
	if (race->params.correction == AB_RACE_HOLM)
		ab_race_holm(p, m);
	size_t worst = SIZE_MAX;
	for (i = 0; i < m; i++) {
		size_t j = other[i];
		if (p[i] < race->params.alpha && f->rank_sum[j] > f->rank_sum[best] &&
		    (worst == SIZE_MAX || f->rank_sum[j] > f->rank_sum[worst])) {
			worst = j;
			*p_out = p[i];
		}
	}
	*comparisons = m;
	return worst;
}

size_t ab_race_decide(struct ab_race *race, const struct ab_race_table *t,
		      struct ab_race_decision *out)
{
	g_return_val_if_fail(t->candidates == race->candidates, 0);
	size_t n = race->candidates;
	g_autofree bool *alive = g_new(bool, n);
	for (size_t j = 0; j < n; j++)
		alive[j] = race->candidate[j].alive;

	struct ab_race_decision d = { .round = t->rounds };
	ab_race_friedman_test(t, alive, race->params.direction, &d.friedman);
	d.best = best_of(&d.friedman, alive, n);
	d.tested = d.friedman.blocks >= race->params.min_rounds && d.friedman.treatments >= 2;
	d.rejected = d.tested && d.friedman.p < race->params.alpha;
	/*
	 * Step-down: only the worst ranked of the candidates beaten is
	 * dropped, then the rule runs again on those left, over the same
	 * rounds, gate and all, until it drops no one.  Conover's error term
	 * pools every candidate, so one clearly worse candidate, last in every
	 * round, lowers it and lets the best of the equal others beat another
	 * by chance: dropping all those beaten at once dropped an equal
	 * candidate in 21 % of 1000 seeded races of 3 equal candidates and
	 * one 20 % worse (CV 5 %, 5 rounds, all in the decision that dropped
	 * the worse one), the step-down in 8.3 % (3.2 % in that decision, the
	 * rest from the repeated looks, race.h).  Each step is a test of its
	 * own at alpha on what is left, as a closed test would make it.
	 */
	struct ab_race_friedman f = d.friedman;
	f.rank_sum = NULL;
	const struct ab_race_friedman *step = &d.friedman;
	for (;;) {
		size_t best = best_of(step, alive, n);
		double p = NAN;
		size_t comparisons = 0;
		size_t worst = beaten_worst(race, step, alive, best, &p, &comparisons);
		if (worst == SIZE_MAX)
			break;
		drop(race, worst, best, t->rounds, step, p, comparisons);
		alive[worst] = false;
		d.dropped++;
		ab_race_friedman_clear(&f);
		ab_race_friedman_test(t, alive, race->params.direction, &f);
		step = &f;
	}
	ab_race_friedman_clear(&f);
	size_t dropped = d.dropped;
	if (out)
		*out = d;
	else
		ab_race_decision_clear(&d);
	return dropped;
}

size_t ab_race_rounds_that_fit(size_t alive, size_t visits_left)
{
	return alive ? visits_left / alive : 0;
}

enum ab_race_plan ab_race_plan_for(size_t candidates, size_t budget_visits, size_t min_rounds)
{
	if (candidates <= 1)
		return AB_RACE_PLAN_WHOLE; /* nothing to race, nothing to screen */
	if (min_rounds == 0)
		min_rounds = 1;
	/* candidates * min_rounds > budget, without the product's overflow. */
	return candidates <= budget_visits / min_rounds ? AB_RACE_PLAN_WHOLE : AB_RACE_PLAN_SCREEN;
}

const char *ab_race_plan_name(enum ab_race_plan plan)
{
	return plan == AB_RACE_PLAN_WHOLE ? "race whole" : "screen";
}

void ab_race_paired_ratio(const double *x, const double *base, size_t rounds, size_t stride,
			  double confidence, struct ab_race_paired *out)
{
	*out = (struct ab_race_paired){ .ratio = { .ratio = NAN, .low = NAN, .high = NAN },
					.t = NAN, .p = NAN };
	g_autofree double *l = g_new(double, rounds ? rounds : 1);
	size_t n = 0;
	for (size_t i = 0; i < rounds; i++) {
		double xi = x[i * stride], bi = base[i * stride];
		/* A figure of 0 (or below) has no log: that round is left out. */
		if (isfinite(xi) && isfinite(bi) && xi > 0 && bi > 0)
			l[n++] = log(xi / bi);
	}
	out->n = n;
	if (n == 0)
		return;
	double mean = 0;
	for (size_t i = 0; i < n; i++)
		mean += l[i];
	mean /= (double)n;
	out->ratio.ratio = exp(mean);
	if (n < 2)
		return;
	double ss = 0;
	for (size_t i = 0; i < n; i++)
		ss += (l[i] - mean) * (l[i] - mean);
	double sd = sqrt(ss / (double)(n - 1));
	if (!(sd > 0)) {
		out->ratio.low = out->ratio.high = out->ratio.ratio;
		out->p = mean == 0 ? 1 : 0;
		return;
	}
	double se = sd / sqrt((double)n), df = (double)(n - 1);
	out->t = mean / se;
	out->p = t_two_sided(out->t, df);
	double q = ab_stats_t_quantile(0.5 + confidence / 2, df);
	out->ratio.low = exp(mean - q * se);
	out->ratio.high = exp(mean + q * se);
}
