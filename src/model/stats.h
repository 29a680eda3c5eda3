/* SPDX-License-Identifier: GPL-2.0-or-later */
#ifndef AB_STATS_H
#define AB_STATS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/*
 * Statistics over the repeats of one figure: the summary a comparison view
 * prints per group.  Plain doubles in, plain data out; NAN inputs are the
 * results model's unknown figures and are skipped, never counted as 0.  The
 * distribution quantiles come from GSL (src/model/stats.c), never from a typed
 * table.
 */
/* Which interval ci_low and ci_high hold. */
enum ab_ci_method {
	AB_CI_NONE,   /* none: fewer than 2 values */
	AB_CI_T,      /* Student t of the mean */
	/* For a figure that cannot be negative whose t interval passed below
	 * 0: t on the logs of the values, exp(mean(log x) -+ t sd(log x) /
	 * sqrt(n)), the geometric mean's interval (positive, and as wide on
	 * either side in ratio, as a rate's spread is). */
	AB_CI_LOG_T,
	/* The same, but a value was 0 (it has no log): the t interval with its
	 * low end cut at 0. */
	AB_CI_T_CUT,
};

struct ab_stats {
	size_t n;                 /* finite values used (NAN inputs are skipped: unknown figures) */
	double median, mean, sd;  /* sd: sample standard deviation (n-1); NAN when n < 2 */
	double ci_low, ci_high;   /* the confidence interval ci_method names; NAN when n < 2 */
	enum ab_ci_method ci_method;
	double cv;                /* sd / mean as a fraction; NAN when n < 2 or mean == 0 */
	double min, max;
};

/* confidence: 0.95 for a 95 % interval.  n == 0 (or no finite value)
 * leaves every figure NAN and out->n 0. */
void ab_stats_describe(const double *x, size_t n, double confidence, struct ab_stats *out);
/* The same for a figure that cannot be negative (a rate, a CPU share, a
 * latency): where the t interval passes below 0, the log-scale interval
 * (AB_CI_LOG_T), or with a value of 0 the t interval cut at 0
 * (AB_CI_T_CUT).  A negative value, which such a figure cannot have,
 * leaves the t interval as it is. */
void ab_stats_describe_positive(const double *x, size_t n, double confidence, struct ab_stats *out);
/* "t", "log-t", "t-cut-at-0"; NULL for AB_CI_NONE. */
const char *ab_stats_ci_method_name(enum ab_ci_method m);

/* The Student t quantile: P(T <= t) = p with df degrees of freedom (GSL's
 * gsl_cdf_tdist_Pinv); NAN for df <= 0 or p outside (0, 1). */
double ab_stats_t_quantile(double p, double df);

/* Welch's unequal-variances t-test of a against b (NAN inputs skipped). */
struct ab_welch {
	double t;                 /* (mean a - mean b) / its standard error */
	double df;                /* Welch-Satterthwaite degrees of freedom */
	double p;                 /* two-sided, from GSL's gsl_cdf_tdist_Q */
};
/* Either side with fewer than 2 values: all NAN.  Neither side varies:
 * t and df NAN, p 1 when the means are equal, else 0 (no noise at all). */
void ab_stats_welch(const double *a, size_t na, const double *b, size_t nb, struct ab_welch *out);

/* A ratio of a cell's figure to a baseline's, with its interval. */
struct ab_ratio {
	double ratio;             /* mean(x) / mean(base); NAN when unknown */
	double low, high;         /* NAN when no interval can be given */
};

/* The ratio of means with the delta method on the log scale: log r
 * -+ t * sqrt(sx^2 / (nx mx^2) + sb^2 / (nb mb^2)), t from Student's
 * distribution with the Welch-Satterthwaite df of those two terms, then
 * exponentiated (so the interval stays positive and is symmetric in the
 * ratio's log).  Both means must be > 0 and each side have 2 values for an
 * interval; a side with no spread contributes none. */
void ab_stats_ratio_ci(const double *x, size_t nx, const double *base, size_t nb, double confidence,
		       struct ab_ratio *out);

/* What the bootstrap resamples. */
enum ab_centre {
	AB_CENTRE_MEAN,
	AB_CENTRE_MEDIAN,
};
/* The percentile bootstrap of centre(x) / centre(base): `resamples` times
 * each side is drawn again with replacement (xoshiro256** from `seed`, so
 * the same inputs and seed give the same interval on every machine), and
 * the interval is the (1 - confidence)/2 and (1 + confidence)/2 quantiles
 * of the resampled ratios.  ratio: the ratio of the samples themselves.  With
 * few repeats (3 gives only 10 distinct resamples of a side) the interval is
 * too narrow: ab_stats_ratio_ci() is what the report prints. */
void ab_stats_bootstrap_ratio(const double *x, size_t nx, const double *base, size_t nb,
			      enum ab_centre centre, double confidence, unsigned resamples, uint64_t seed,
			      struct ab_ratio *out);

/* Marks (flags[i] = true) the values farther than 3 scaled median absolute
 * deviations (1.4826 MAD, the normal's sd) from the median, and returns
 * how many.  They are shown, never dropped.  Fewer than 5 finite values
 * (of 3, the MAD is the distance to the nearer neighbour: two close repeats
 * would make the third an "outlier" at 5 % off), or a MAD of 0: none
 * marked.  NAN inputs are never marked. */
#define AB_STATS_OUTLIER_MIN_N 5
size_t ab_stats_outliers(const double *x, size_t n, bool *flags);

#endif
