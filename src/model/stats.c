/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * Statistics over repeats (src/model/stats.h).  Sorting, the moments and the t
 * distribution are GSL's: a well-kept library rather than hand-typed tables
 * and our own numerics.
 */
#include "stats.h"

#include <glib.h>
#include <gsl/gsl_cdf.h>
#include <gsl/gsl_sort.h>
#include <gsl/gsl_statistics_double.h>
#include <math.h>
#include <string.h>

#include "../base/rng.h"

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
				  .ci_high = NAN, .ci_method = AB_CI_NONE, .cv = NAN, .min = NAN, .max = NAN };
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
	out->ci_method = AB_CI_T;
}

void ab_stats_describe_positive(const double *x, size_t n, double confidence, struct ab_stats *out)
{
	ab_stats_describe(x, n, confidence, out);
	if (out->ci_method != AB_CI_T || !(out->ci_low < 0) || out->min < 0)
		return;
	if (out->min == 0) {
		out->ci_low = 0;
		out->ci_method = AB_CI_T_CUT;
		return;
	}
	size_t m;
	g_autofree double *v = finite_sorted(x, n, &m);
	for (size_t i = 0; i < m; i++)
		v[i] = log(v[i]);
	double mean = gsl_stats_mean(v, 1, m);
	double sd = gsl_stats_sd_m(v, 1, m, mean);
	double half = ab_stats_t_quantile(0.5 + confidence / 2, (double)(m - 1)) * sd / sqrt((double)m);
	out->ci_low = exp(mean - half);
	out->ci_high = exp(mean + half);
	out->ci_method = AB_CI_LOG_T;
}

const char *ab_stats_ci_method_name(enum ab_ci_method m)
{
	switch (m) {
	case AB_CI_NONE: return NULL;
	case AB_CI_T: return "t";
	case AB_CI_LOG_T: return "log-t";
	case AB_CI_T_CUT: return "t-cut-at-0";
	}
	return NULL;
}

/* n, mean and sample variance of the finite values; FALSE when fewer than 2. */
static gboolean moments(const double *x, size_t n, size_t *m, double *mean, double *var)
{
	g_autofree double *v = finite_sorted(x, n, m);
	if (!v || *m < 2)
		return FALSE;
	*mean = gsl_stats_mean(v, 1, *m);
	*var = gsl_stats_variance_m(v, 1, *m, *mean);
	return TRUE;
}

/* Welch-Satterthwaite: the df of a sum of two variance terms. */
static double welch_df(double ta, size_t na, double tb, size_t nb)
{
	double den = ta * ta / (double)(na - 1) + tb * tb / (double)(nb - 1);
	return den > 0 ? (ta + tb) * (ta + tb) / den : NAN;
}

void ab_stats_welch(const double *a, size_t na, const double *b, size_t nb, struct ab_welch *out)
{
	*out = (struct ab_welch){ .t = NAN, .df = NAN, .p = NAN };
	size_t ma, mb;
	double meana, vara, meanb, varb;
	if (!moments(a, na, &ma, &meana, &vara) || !moments(b, nb, &mb, &meanb, &varb))
		return;
	double ta = vara / (double)ma, tb = varb / (double)mb;
	double se = sqrt(ta + tb);
	if (!(se > 0)) {
		out->p = meana == meanb ? 1 : 0;
		return;
	}
	out->t = (meana - meanb) / se;
	out->df = welch_df(ta, ma, tb, mb);
	out->p = 2 * gsl_cdf_tdist_Q(fabs(out->t), out->df);
	if (out->p > 1)
		out->p = 1;
}

void ab_stats_ratio_ci(const double *x, size_t nx, const double *base, size_t nb, double confidence,
		       struct ab_ratio *out)
{
	*out = (struct ab_ratio){ .ratio = NAN, .low = NAN, .high = NAN };
	struct ab_stats sx, sb;
	ab_stats_describe(x, nx, confidence, &sx);
	ab_stats_describe(base, nb, confidence, &sb);
	if (sx.n == 0 || sb.n == 0 || sb.mean == 0)
		return;
	out->ratio = sx.mean / sb.mean;
	if (sx.n < 2 || sb.n < 2 || !(sx.mean > 0) || !(sb.mean > 0))
		return;
	/* The squared relative standard errors of the two means. */
	double tx = sx.sd * sx.sd / ((double)sx.n * sx.mean * sx.mean);
	double tb = sb.sd * sb.sd / ((double)sb.n * sb.mean * sb.mean);
	if (!(tx + tb > 0)) {
		out->low = out->high = out->ratio;
		return;
	}
	double t = ab_stats_t_quantile(0.5 + confidence / 2, welch_df(tx, sx.n, tb, sb.n));
	double half = t * sqrt(tx + tb);
	out->low = out->ratio * exp(-half);
	out->high = out->ratio * exp(half);
}

static double centre_of(double *v, size_t n, enum ab_centre centre)
{
	if (centre == AB_CENTRE_MEAN)
		return gsl_stats_mean(v, 1, n);
	return gsl_stats_median(v, 1, n); /* reorders v: fine for a resample */
}

void ab_stats_bootstrap_ratio(const double *x, size_t nx, const double *base, size_t nb,
			      enum ab_centre centre, double confidence, unsigned resamples, uint64_t seed,
			      struct ab_ratio *out)
{
	*out = (struct ab_ratio){ .ratio = NAN, .low = NAN, .high = NAN };
	size_t mx, mb;
	g_autofree double *vx = finite_sorted(x, nx, &mx);
	g_autofree double *vb = finite_sorted(base, nb, &mb);
	if (!vx || !vb)
		return;
	g_autofree double *rx = g_new(double, mx);
	g_autofree double *rb = g_new(double, mb);
	memcpy(rx, vx, mx * sizeof(*rx));
	memcpy(rb, vb, mb * sizeof(*rb));
	double cb = centre_of(rb, mb, centre);
	if (cb == 0)
		return;
	out->ratio = centre_of(rx, mx, centre) / cb;
	if (mx < 2 || mb < 2 || resamples < 2 || !(confidence > 0 && confidence < 1))
		return;
	g_autofree double *ratios = g_new(double, resamples);
	size_t kept = 0;
	struct ab_rng rng;
	ab_rng_init(&rng, seed, 0);
	for (unsigned r = 0; r < resamples; r++) {
		for (size_t i = 0; i < mx; i++)
			rx[i] = vx[ab_rng_below(&rng, mx)];
		for (size_t i = 0; i < mb; i++)
			rb[i] = vb[ab_rng_below(&rng, mb)];
		double q = centre_of(rx, mx, centre) / centre_of(rb, mb, centre);
		if (isfinite(q))
			ratios[kept++] = q;
	}
	/* A baseline that resamples to 0 most of the time gives no interval. */
	if (kept * 2 < resamples)
		return;
	gsl_sort(ratios, 1, kept);
	out->low = gsl_stats_quantile_from_sorted_data(ratios, 1, kept, (1 - confidence) / 2);
	out->high = gsl_stats_quantile_from_sorted_data(ratios, 1, kept, (1 + confidence) / 2);
}

size_t ab_stats_outliers(const double *x, size_t n, bool *flags)
{
	for (size_t i = 0; i < n; i++)
		flags[i] = false;
	size_t m;
	g_autofree double *v = finite_sorted(x, n, &m);
	if (!v || m < AB_STATS_OUTLIER_MIN_N)
		return 0;
	double median = gsl_stats_median_from_sorted_data(v, 1, m);
	for (size_t i = 0; i < m; i++)
		v[i] = fabs(v[i] - median);
	gsl_sort(v, 1, m);
	double mad = gsl_stats_median_from_sorted_data(v, 1, m);
	if (!(mad > 0))
		return 0;
	size_t count = 0;
	for (size_t i = 0; i < n; i++)
		if (isfinite(x[i]) && fabs(x[i] - median) > 3 * 1.4826 * mad) {
			flags[i] = true;
			count++;
		}
	return count;
}
