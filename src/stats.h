/* SPDX-License-Identifier: GPL-2.0-or-later */
#ifndef AB_STATS_H
#define AB_STATS_H

#include <stddef.h>

/*
 * Statistics over the repeats of one figure: the summary a comparison view
 * prints per group.  Plain doubles in, plain data out; NAN inputs are the
 * results model's unknown figures and are skipped, never counted as 0.  The
 * distribution quantiles come from GSL (src/stats.c), never from a typed
 * table.
 */
struct ab_stats {
	size_t n;                 /* finite values used (NAN inputs are skipped: unknown figures) */
	double median, mean, sd;  /* sd: sample standard deviation (n-1); NAN when n < 2 */
	double ci_low, ci_high;   /* Student t confidence interval of the mean; NAN when n < 2 */
	double cv;                /* sd / mean as a fraction; NAN when n < 2 or mean == 0 */
	double min, max;
};

/* confidence: 0.95 for a 95 % interval.  n == 0 (or no finite value)
 * leaves every figure NAN and out->n 0. */
void ab_stats_describe(const double *x, size_t n, double confidence, struct ab_stats *out);

/* The Student t quantile: P(T <= t) = p with df degrees of freedom (GSL's
 * gsl_cdf_tdist_Pinv); NAN for df <= 0 or p outside (0, 1). */
double ab_stats_t_quantile(double p, double df);

#endif
