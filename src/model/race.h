/* SPDX-License-Identifier: GPL-2.0-or-later */
#ifndef AB_RACE_H
#define AB_RACE_H

#include <glib.h>
#include <stdbool.h>
#include <stddef.h>

#include "stats.h"

/*
 * The racing statistics of `arraybench tune`: F-Race's method (Birattari,
 * Stuetzle, Paquete and Varrentrapp, "A racing algorithm for configuring
 * metaheuristics", GECCO 2002), written here from the textbook definitions
 * (W. J. Conover, Practical Nonparametric Statistics, 3rd ed., 1999, 5.8).
 *
 * The caller (the tune command) visits every candidate still alive once
 * per round, in its own order, and keeps the figures in a table:
 * y[round * candidates + candidate], NAN where there is no value (the visit
 * failed, or the candidate was not visited that round because it was
 * dropped).  After each round it asks ab_race_decide() whom to drop.
 * Friedman's test needs complete rounds: one in which an alive candidate
 * has no value is left out for all of them, so a candidate whose visits
 * keep failing stalls the race; the caller drops it itself (alive false,
 * its own reason, g_strdup'd: the race frees it).
 *
 * What the method assumes: rounds are blocks (whatever shifts one round's
 * figures, another job on the machine, the disk's state, shifts every
 * candidate's in that round alike, so only the order within a round
 * counts); within a round the candidates' figures are independent and
 * their order carries the evidence; the figure is one number per visit
 * whose direction is known.  Nothing is assumed of its distribution.
 *
 * The defaults are a candidate like any other, and may be dropped like any
 * other: the caller keeps the table, so their figures stay, and the final
 * ratios to the defaults (ab_race_paired_ratio()) pair each candidate's
 * rounds with the defaults' rounds that have a value on both sides.
 */

enum ab_race_direction {
	AB_RACE_HIGHER_IS_BETTER,  /* a rate, commits/s, IOPS */
	AB_RACE_LOWER_IS_BETTER,   /* a latency */
};

/* How the post-hoc p-values are corrected for the comparisons made at one
 * decision.  AB_RACE_UNCORRECTED exists to show what the correction buys
 * (test-race's simulation); the tune command always corrects. */
enum ab_race_correction {
	AB_RACE_HOLM,
	AB_RACE_UNCORRECTED,
};

#define AB_RACE_ALPHA 0.05
#define AB_RACE_MIN_ROUNDS 3

struct ab_race_params {
	enum ab_race_direction direction;
	double alpha;                      /* level of every test, in (0, 0.5] */
	size_t min_rounds;                 /* no drop on fewer complete rounds than this, >= 2 */
	enum ab_race_correction correction;
};

/* Higher is better, AB_RACE_ALPHA, AB_RACE_MIN_ROUNDS, Holm. */
void ab_race_params_init(struct ab_race_params *params);
/* FALSE (AB_ERROR_USAGE, one line naming the bad value) for an alpha
 * outside (0, 0.5] or min_rounds below 2. */
gboolean ab_race_params_check(const struct ab_race_params *params, GError **error);

/* The figures so far: y[round * candidates + candidate], NAN for none. */
struct ab_race_table {
	const double *y;
	size_t rounds;
	size_t candidates;
};

/* Friedman's test over the rounds in which every alive candidate has a
 * value (the blocks) and the alive candidates (the treatments).  Within a
 * block the best figure ranks 1; ties share their mid-rank.  With k
 * treatments and b blocks, R_j the rank sums and A the sum of all squared
 * ranks:
 *   statistic = (k - 1) sum_j (R_j - b (k + 1) / 2)^2 / (A - b k (k + 1)^2 / 4)
 * (Conover's form, which holds the tie correction; without ties it is the
 * familiar 12 / (b k (k + 1)) sum_j (R_j - b (k + 1) / 2)^2), against the
 * chi-square distribution with k - 1 degrees of freedom, and Iman and
 * Davenport's  F = (b - 1) statistic / (b (k - 1) - statistic)  against F
 * with k - 1 and (b - 1)(k - 1).  ab_race_decide() gates on the
 * chi-square p (why: race.c). */
struct ab_race_friedman {
	size_t blocks;        /* rounds used */
	size_t treatments;    /* alive candidates */
	double statistic, p;  /* NAN when blocks < 2, treatments < 2 or no
			       * block orders its candidates (every one a tie) */
	double f, p_f;        /* Iman-Davenport; f is +inf (p_f 0) when every
			       * block orders the candidates the same way */
	double *rank_sum;     /* [candidates]: R_j; NAN for one not alive */
	double rank_square_sum; /* A */
};

/* alive: [t->candidates].  Fills *out (its rank_sum newly allocated). */
void ab_race_friedman_test(const struct ab_race_table *t, const bool *alive,
			   enum ab_race_direction direction, struct ab_race_friedman *out);
void ab_race_friedman_clear(struct ab_race_friedman *f);

/* One candidate's state in the race. */
struct ab_race_candidate {
	bool alive;
	/* Set when the candidate is dropped (0 / NAN while alive): */
	size_t dropped_round;     /* the table's round count at that decision (1-based) */
	size_t rounds_used;       /* the complete rounds the decision rested on */
	double mean_rank;         /* its mean rank then (1 is the best) */
	double best_mean_rank;    /* the best's */
	size_t beaten_by;         /* the best candidate's index */
	double p;                 /* the corrected p of its comparison with the best */
	size_t comparisons;       /* how many comparisons the correction counted */
	char *reason;             /* one line in plain words, e.g. "beaten by candidate 2
				   * in 3 rounds (mean rank 3.67 against 1.00), p=0.012
				   * after Holm over 4 comparisons"; NULL while alive */
};

struct ab_race {
	struct ab_race_params params;
	size_t candidates;
	size_t defaults;                 /* index of the defaults */
	char **labels;                   /* [candidates], for the reasons */
	struct ab_race_candidate *candidate; /* [candidates] */
};

/* A race of `candidates` (>= 1) candidates, all alive; `defaults` is the
 * defaults' index.  labels: NULL, or one name per candidate for the
 * reasons (copied); without, "candidate N" (the index) and "the defaults".
 * NULL with AB_ERROR_USAGE for bad params or a defaults index out of
 * range. */
struct ab_race *ab_race_new(size_t candidates, size_t defaults, const char *const *labels,
			    const struct ab_race_params *params, GError **error);
void ab_race_free(struct ab_race *race);
typedef struct ab_race ab_race;
G_DEFINE_AUTOPTR_CLEANUP_FUNC(ab_race, ab_race_free)

size_t ab_race_alive_count(const struct ab_race *race);

/* What one decision saw, for the report (survivors per round). */
struct ab_race_decision {
	size_t round;                    /* the table's round count */
	struct ab_race_friedman friedman; /* over the candidates alive before it */
	bool tested;                     /* enough complete rounds and candidates to test */
	bool rejected;                   /* the gate: Friedman's chi-square p < alpha */
	size_t best;                     /* lowest mean rank (ties: the lower index); SIZE_MAX with none */
	size_t dropped;                  /* how many this decision dropped */
};
void ab_race_decision_clear(struct ab_race_decision *d);

/*
 * The drop rule, after each round.  On fewer than min_rounds complete
 * rounds (those where every alive candidate has a value), or one candidate
 * left, nothing is dropped.  Otherwise, when Friedman's test rejects at
 * alpha, each alive candidate is compared with the best (the lowest mean
 * rank) by Conover's post-hoc test on the rank sums,
 *   t = |R_best - R_j| / sqrt(2 (b A - sum_j R_j^2) / ((b - 1)(k - 1)))
 * two-sided against Student's t with (b - 1)(k - 1) degrees of freedom
 * (the error term b A - sum R_j^2 taken as at least 2 (b - 1), so that
 * rounds all in one order are not infinite evidence: race.c says why),
 * the k - 1 p-values corrected by Holm's step-down method; a candidate is
 * beaten when its corrected p < alpha and its rank sum is worse than the
 * best's.  Of those beaten, the worst ranked is dropped, and the rule runs
 * again on the candidates left over the same rounds (gate included), until
 * it drops no one (race.c says why one at a time).
 *
 * Each decision holds its level; the race looks again after every round,
 * so over a long race the chance that some decision drops a candidate
 * equal to the best grows with the rounds (seeded simulations of 4 to 8
 * equal candidates: 5.5 % of races over 5 rounds, as test-race-sim
 * checks; 12 % over 10).  A candidate so dropped is one the rounds could not tell
 * from the best, so the race loses little by it; the report should say
 * that a drop is evidence at the level, not proof.
 *
 * t->candidates must be race->candidates.  out: NULL, or filled with the
 * first step's test (clear it after).  Returns how many were dropped.
 */
size_t ab_race_decide(struct ab_race *race, const struct ab_race_table *t,
		      struct ab_race_decision *out);

/* How many full rounds (every alive candidate once) `visits_left` visits
 * allow: the race ends when one candidate is left or this is 0. */
size_t ab_race_rounds_that_fit(size_t alive, size_t visits_left);

/* Race the whole space, or screen one key at a time first: screen when the
 * budget does not allow min_rounds rounds of every candidate. */
enum ab_race_plan {
	AB_RACE_PLAN_WHOLE,
	AB_RACE_PLAN_SCREEN,
};
enum ab_race_plan ab_race_plan_for(size_t candidates, size_t budget_visits, size_t min_rounds);
const char *ab_race_plan_name(enum ab_race_plan plan); /* "race whole", "screen" */

/* A paired comparison of x with base over the rounds where both have a
 * value above 0: the log ratios l = log(x / base), their mean and sample
 * sd, and Student's t of their mean (two-sided p, n - 1 df).  The ratio is
 * exp(mean l), the geometric mean of the per-round ratios; its interval
 * exp(mean l -+ t sd / sqrt(n)).  Fewer than 2 pairs: no interval, t and p
 * NAN.  No spread at all: the interval is the ratio itself, p 1 when every
 * ratio is 1, else 0. */
struct ab_race_paired {
	size_t n;                 /* pairs used */
	struct ab_ratio ratio;    /* x / base with its interval */
	double t, p;
};
/* x[i * stride] against base[i * stride], i < rounds: two columns of a
 * race table (stride = its candidates).  Paired, unlike stats.h's
 * ab_stats_ratio_ci() (two independent groups): each round's shift, which
 * the race's blocks are there for, leaves the ratio of that round alone. */
void ab_race_paired_ratio(const double *x, const double *base, size_t rounds, size_t stride,
			  double confidence, struct ab_race_paired *out);

/* Upper tails of the chi-square and F distributions (GSL's); NAN outside
 * their domain (df <= 0, x NAN), 1 for x <= 0. */
double ab_race_chi2_upper(double x, double df);
double ab_race_f_upper(double x, double df1, double df2);

/* Holm's step-down correction of m p-values in place: sorted ascending,
 * the i-th (from 0) becomes max over j <= i of min(1, (m - j) p_(j)).
 * NAN counts as 1. */
void ab_race_holm(double *p, size_t m);

#endif
