/* SPDX-License-Identifier: GPL-2.0-or-later */
/* noisy-group: the repeats of one cell (a group, as the comparison groups
 * runs) spread so widely in one rate that a small difference cannot be
 * told from the noise, with the repeats it would take.  Two groups of n
 * repeats each, a difference d of the mean and a coefficient of variation
 * CV, at a two-sided alpha and a power: n = 2 (z_a/2 + z_b)^2 CV^2 / d^2
 * (the normal approximation of the two-sample t-test's size; z from GSL,
 * never a typed table). */
#include "findings.h"
#include "run-group.h"
#include "stats.h"

#include <gsl/gsl_cdf.h>
#include <math.h>

/* One figure of one group: its values in run order. */
struct series {
	char *group;
	char *name;
	GArray *values; /* double */
};

static void series_free(gpointer p)
{
	struct series *s = p;
	g_free(s->group);
	g_free(s->name);
	g_array_unref(s->values);
	g_free(s);
}

double ab_finding_repeats_needed(double cv, double difference, double alpha, double power)
{
	double za = gsl_cdf_ugaussian_Pinv(1 - alpha / 2), zb = gsl_cdf_ugaussian_Pinv(power);
	return ceil(2 * (za + zb) * (za + zb) * cv * cv / (difference * difference));
}

static void judge(const struct series *s, GPtrArray *out)
{
	struct ab_stats st;
	ab_stats_describe((const double *)s->values->data, s->values->len, 0.95, &st);
	if (st.n < 2 || !isfinite(st.cv) || !(st.cv > AB_FINDING_CV_MAX))
		return;
	double za = gsl_cdf_ugaussian_Pinv(1 - AB_FINDING_CV_ALPHA / 2), zb = gsl_cdf_ugaussian_Pinv(AB_FINDING_CV_POWER);
	double n = ab_finding_repeats_needed(st.cv, AB_FINDING_CV_DIFFERENCE, AB_FINDING_CV_ALPHA, AB_FINDING_CV_POWER);
	struct ab_finding *f = ab_finding_add(out, "noisy-group", NULL, s->group, s->name);
	ab_finding_say(f,
		       "%s in group '%s': CV %.1f %% over %zu repeats (over %.0f %%); to tell a %.0f %% difference "
		       "apart (two-sample, alpha %.2f, power %.1f) takes n = 2 (z_a/2 + z_b)^2 CV^2 / d^2 = 2 (%.2f + "
		       "%.2f)^2 x %.3f^2 / %.2f^2 = %.0f repeats per group",
		       s->name, s->group, 100 * st.cv, st.n, 100 * AB_FINDING_CV_MAX, 100 * AB_FINDING_CV_DIFFERENCE,
		       AB_FINDING_CV_ALPHA, AB_FINDING_CV_POWER, za, zb, st.cv, AB_FINDING_CV_DIFFERENCE, n);
	ab_finding_advise(f, "run %.0f repeats a group, or find the noise first (other jobs, a cache that is not "
			     "cold, a phase too short)",
			  n);
	ab_finding_figure(f, "cv", st.cv, "share");
	ab_finding_figure(f, "repeats", (double)st.n, NULL);
	ab_finding_figure(f, "repeats_needed", n, NULL);
}

void ab_finding_noisy_group(const struct ab_run_set *set, GPtrArray *out)
{
	g_autoptr(GPtrArray) all = g_ptr_array_new_with_free_func(series_free);
	g_autoptr(GHashTable) index = g_hash_table_new_full(g_str_hash, g_str_equal, g_free, NULL);
	for (guint i = 0; i < set->runs->len; i++) {
		const struct ab_run *run = g_ptr_array_index(set->runs, i);
		if (run->failure)
			continue; /* listed by the comparison, never averaged */
		g_autofree char *group = ab_run_group_label(run);
		for (guint k = 0; k < run->results->len; k++) {
			const struct ab_result *r = g_ptr_array_index(run->results, k);
			/* Too short to measure is a finding of its own. */
			if (!r->measurable || !isfinite(r->rate) || r->interpolated == TRUE)
				continue;
			g_autofree char *name = ab_finding_result_name(r);
			char *key = g_strdup_printf("%s\x1f%s", group, name);
			struct series *s = g_hash_table_lookup(index, key);
			if (!s) {
				s = g_new0(struct series, 1);
				s->group = g_strdup(group);
				s->name = g_strdup(name);
				s->values = g_array_new(FALSE, FALSE, sizeof(double));
				g_ptr_array_add(all, s);
				g_hash_table_insert(index, key, s);
			} else {
				g_free(key);
			}
			g_array_append_val(s->values, r->rate);
		}
	}
	for (guint i = 0; i < all->len; i++)
		judge(g_ptr_array_index(all, i), out);
}
