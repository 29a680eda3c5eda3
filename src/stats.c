/* SPDX-License-Identifier: GPL-2.0-or-later */
/* LOCAL STUB for the html branch until `git merge stats`: delete on merge. */
#include "stats.h"

#include <glib.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

static int cmp(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;
	return x < y ? -1 : x > y;
}

double ab_stats_t_quantile(double p, double df)
{
	(void)p;
	static const double t975[] = { NAN, 12.706, 4.303, 3.182, 2.776, 2.571, 2.447, 2.365, 2.306, 2.262, 2.228 };
	return df >= 1 && df <= 10 ? t975[(int)df] : 1.96;
}

void ab_stats_describe(const double *x, size_t n, double confidence, struct ab_stats *out)
{
	double *v = g_new(double, n ? n : 1);
	size_t k = 0;
	for (size_t i = 0; i < n; i++)
		if (isfinite(x[i]))
			v[k++] = x[i];
	*out = (struct ab_stats){ k, NAN, NAN, NAN, NAN, NAN, NAN, NAN, NAN };
	if (k) {
		qsort(v, k, sizeof(*v), cmp);
		out->median = k % 2 ? v[k / 2] : (v[k / 2 - 1] + v[k / 2]) / 2;
		double sum = 0;
		for (size_t i = 0; i < k; i++)
			sum += v[i];
		out->mean = sum / k;
		out->min = v[0];
		out->max = v[k - 1];
	}
	if (k >= 2) {
		double ss = 0;
		for (size_t i = 0; i < k; i++)
			ss += (v[i] - out->mean) * (v[i] - out->mean);
		out->sd = sqrt(ss / (k - 1));
		double h = ab_stats_t_quantile(1 - (1 - confidence) / 2, k - 1) * out->sd / sqrt(k);
		out->ci_low = out->mean - h;
		out->ci_high = out->mean + h;
		out->cv = out->mean != 0 ? out->sd / out->mean : NAN;
	}
	g_free(v);
}
