/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * Statistics over repeats (src/stats.h).  Sorting, the moments and the t
 * distribution are GSL's: a well-kept library rather than hand-typed tables
 * and our own numerics.
 */
#include "stats.h"

#include <glib.h>
#include <gsl/gsl_cdf.h>
#include <gsl/gsl_sort.h>
#include <gsl/gsl_statistics_double.h>
#include <math.h>

/* The finite values of x, sorted; *m their count.  NULL when none. */
static double *finite_sorted(const double *x, size_t n, size_t *m)
{
	double *v = g_new(double, n ? n : 1);
	size_t k = 0;
	for (size_t i = 0; i < n; i++)
		if (isfinite(x[i]))
			v[k++] = x[i];
	*m = k;
	if (k == 0) {
		g_free(v);
		return NULL;
	}
	gsl_sort(v, 1, k);
	return v;
}

double ab_stats_t_quantile(double p, double df)
{
	/* GSL's default error handler aborts: keep its domain here. */
	if (!(df > 0) || !(p > 0 && p < 1))
		return NAN;
	return gsl_cdf_tdist_Pinv(p, df);
}

void ab_stats_describe(const double *x, size_t n, double confidence, struct ab_stats *out)
{
	*out = (struct ab_stats){ .n = 0, .median = NAN, .mean = NAN, .sd = NAN, .ci_low = NAN,
				  .ci_high = NAN, .cv = NAN, .min = NAN, .max = NAN };
	size_t m;
	g_autofree double *v = finite_sorted(x, n, &m);
	if (!v)
		return;
	out->n = m;
	out->min = v[0];
	out->max = v[m - 1];
	out->median = gsl_stats_median_from_sorted_data(v, 1, m);
	out->mean = gsl_stats_mean(v, 1, m);
	if (m < 2)
		return;
	out->sd = gsl_stats_sd_m(v, 1, m, out->mean);
	if (out->mean != 0)
		out->cv = out->sd / out->mean;
	double t = ab_stats_t_quantile(0.5 + confidence / 2, (double)(m - 1));
	double half = t * out->sd / sqrt((double)m);
	out->ci_low = out->mean - half;
	out->ci_high = out->mean + half;
}
