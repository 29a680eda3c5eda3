/* SPDX-License-Identifier: GPL-2.0-or-later */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <cmocka.h>

#include <math.h>
#include <stdbool.h>

#include "../../src/base/rng.h"

#include "../../src/model/stats.h"

/*
 * Expected values and where they come from.  Each figure below was derived
 * exactly where it can be (the t quantiles for 1 and 2 degrees of freedom
 * have closed forms: df 1, the Cauchy, t = tan(pi (p - 1/2)); df 2,
 * t = (2p - 1) sqrt(2 / (4p(1 - p)))), and every one was checked against
 * scipy 1.10.1 (Debian 12's python3-scipy), within the tolerance each
 * assertion uses:
 *   scipy.stats.t.ppf(0.975, 1) = 12.706204736432095 (closed form ...174696)
 *   scipy.stats.t.ppf(0.975, 2) = 4.302652729911275  (closed form ...749464)
 *   scipy.stats.t.ppf(0.975, 4) = 2.7764451051977987
 *   scipy.stats.ttest_1samp([1,2,3,4,5], 0).confidence_interval(0.95)
 *     = (1.036756838522439, 4.9632431614775605), as R's t.test(1:5)$conf.int
 *   scipy.stats.ttest_ind(a, b, equal_var=False) (Welch) for the pairs of
 *     test_welch: t and two-sided p as typed there
 *   scipy.stats.t.ppf(0.975, 6.9838) = 2.365736636 (test_ratio_ci)
 * Means, medians and standard deviations are numpy's mean, median and
 * std(ddof=1) (and python3's statistics module) of the same lists.
 */

#define near(a, b, tol) assert_true(fabs((a) - (b)) <= (tol))

static void test_t_quantile(void **state)
{
	(void)state;
	near(ab_stats_t_quantile(0.975, 1), 12.706204736174696, 1e-9);  /* tan(0.475 pi) */
	near(ab_stats_t_quantile(0.975, 2), 4.302652729749464, 1e-9);   /* closed form, df 2 */
	near(ab_stats_t_quantile(0.975, 4), 2.776445, 1e-6);            /* table; Simpson 2.7764451052 */
	near(ab_stats_t_quantile(0.5, 7), 0, 1e-12);                    /* symmetric */
	near(ab_stats_t_quantile(0.025, 2), -4.302652729749464, 1e-9);
	/* Outside the domain: NAN, never GSL's aborting error handler. */
	assert_true(isnan(ab_stats_t_quantile(0.975, 0)));
	assert_true(isnan(ab_stats_t_quantile(0.975, -1)));
	assert_true(isnan(ab_stats_t_quantile(0, 4)));
	assert_true(isnan(ab_stats_t_quantile(1, 4)));
	assert_true(isnan(ab_stats_t_quantile(NAN, 4)));
}

static void test_describe_one_to_five(void **state)
{
	(void)state;
	/* python3: statistics.stdev([1,2,3,4,5]) = 1.5811388300841898;
	 * CI = 3 -+ 2.776445 * 1.5811388 / sqrt(5) = [1.036757, 4.963243]
	 * (what R's t.test(1:5)$conf.int prints, derived here by hand). */
	const double x[] = { 5, 3, 1, 4, 2 };
	struct ab_stats s;
	ab_stats_describe(x, 5, 0.95, &s);
	assert_int_equal(s.n, 5);
	near(s.median, 3, 0);
	near(s.mean, 3, 1e-12);
	near(s.sd, 1.5811388300841898, 1e-12);
	near(s.ci_low, 1.0367568385224368, 1e-6);
	near(s.ci_high, 4.963243161477563, 1e-6);
	near(s.cv, 1.5811388300841898 / 3, 1e-12);
	near(s.min, 1, 0);
	near(s.max, 5, 0);
}

static void test_describe_even_and_unknown(void **state)
{
	(void)state;
	/* python3 statistics of [10.5, 11.0, 9.8, 10.2, 10.9, 10.1]: median
	 * 10.35, mean 10.416666666666666, stdev 0.4708148963941845; the NANs
	 * (unknown figures) are skipped, not counted. */
	const double x[] = { 10.5, NAN, 11.0, 9.8, 10.2, NAN, 10.9, 10.1 };
	struct ab_stats s;
	ab_stats_describe(x, 8, 0.95, &s);
	assert_int_equal(s.n, 6);
	near(s.median, 10.35, 1e-12);
	near(s.mean, 10.416666666666666, 1e-12);
	near(s.sd, 0.4708148963941845, 1e-12);
	near(s.min, 9.8, 0);
	near(s.max, 11.0, 0);
	assert_true(s.ci_low < s.mean && s.mean < s.ci_high);
	near(s.ci_high - s.mean, s.mean - s.ci_low, 1e-12);
}

static void test_describe_two_values(void **state)
{
	(void)state;
	/* n = 2: df 1, so the interval is mean -+ 12.7062047 * sd / sqrt(2);
	 * for {1, 3}: sd = sqrt(2), half width = 12.7062047. */
	const double x[] = { 1, 3 };
	struct ab_stats s;
	ab_stats_describe(x, 2, 0.95, &s);
	assert_int_equal(s.n, 2);
	near(s.median, 2, 1e-12);
	near(s.sd, sqrt(2), 1e-12);
	near(s.ci_low, 2 - 12.706204736174696, 1e-9);
	near(s.ci_high, 2 + 12.706204736174696, 1e-9);
}

static void test_describe_small(void **state)
{
	(void)state;
	struct ab_stats s;
	/* Nothing known: n 0, all NAN. */
	const double none[] = { NAN, NAN };
	ab_stats_describe(none, 2, 0.95, &s);
	assert_int_equal(s.n, 0);
	assert_true(isnan(s.median) && isnan(s.mean) && isnan(s.min) && isnan(s.max));
	ab_stats_describe(NULL, 0, 0.95, &s);
	assert_int_equal(s.n, 0);
	assert_true(isnan(s.mean));
	/* One value: the centre is known, the spread is not. */
	const double one[] = { 42 };
	ab_stats_describe(one, 1, 0.95, &s);
	assert_int_equal(s.n, 1);
	near(s.median, 42, 0);
	near(s.mean, 42, 0);
	near(s.min, 42, 0);
	near(s.max, 42, 0);
	assert_true(isnan(s.sd) && isnan(s.ci_low) && isnan(s.ci_high) && isnan(s.cv));
	/* Mean 0: no CV; no spread: a zero-width interval. */
	const double zero[] = { -1, 1 };
	ab_stats_describe(zero, 2, 0.95, &s);
	assert_true(isnan(s.cv));
	const double same[] = { 7, 7, 7 };
	ab_stats_describe(same, 3, 0.95, &s);
	near(s.sd, 0, 0);
	near(s.cv, 0, 0);
	near(s.ci_low, 7, 0);
	near(s.ci_high, 7, 0);
	/* Infinities are no measurement either. */
	const double inf[] = { INFINITY, 2, -INFINITY, 4 };
	ab_stats_describe(inf, 4, 0.95, &s);
	assert_int_equal(s.n, 2);
	near(s.mean, 3, 0);
}

/*
 * Welch's test.  t and p are scipy.stats.ttest_ind(a, b, equal_var=False)'s
 * (scipy 1.10.1), which agree with the formulas (t = (ma - mb) /
 * sqrt(va/na + vb/nb), Welch-Satterthwaite df, p = 2 P(T > |t|) from a
 * Simpson integral of the t density) and, at df 2, with the closed form
 * 1 - |t| / sqrt(2 + t^2); df is the Welch-Satterthwaite formula's.
 */
static void test_welch(void **state)
{
	(void)state;
	struct ab_welch w;
	const double a1[] = { 1, 2, 3, 4, 5 }, b1[] = { 2, 4, 6, 8, 10 };
	ab_stats_welch(a1, 5, b1, 5, &w);
	near(w.t, -1.8973665961010275, 1e-12);
	near(w.df, 5.882352941176471, 1e-12);
	near(w.p, 0.10753119493063601, 1e-9);
	/* One side without spread: df = nb - 1 = 2, p in closed form. */
	const double a2[] = { 5, 5, 5 }, b2[] = { 1, 2, 3 };
	ab_stats_welch(a2, 3, b2, 3, &w);
	near(w.t, 5.196152422706632, 1e-12);
	near(w.df, 2, 1e-12);
	near(w.p, 0.03509871864598457, 1e-12);
	/* Unequal sizes, like rates of repeats; NANs skipped. */
	const double a3[] = { 101.2, NAN, 98.7, 100.4 }, b3[] = { 99.9, 102.5, 100.8, 101.1 };
	ab_stats_welch(a3, 4, b3, 4, &w);
	near(w.t, -1.067658690167869, 1e-12);
	near(w.df, 3.957027114658642, 1e-12);
	near(w.p, 0.34643235638414993, 1e-9);
	const double a4[] = { 19.1, 20.3, 18.7, 21.0, 19.6 }, b4[] = { 24.2, 22.9, 25.1, 23.8 };
	ab_stats_welch(a4, 5, b4, 4, &w);
	near(w.t, -6.920352140670268, 1e-12);
	near(w.df, 6.6037788447127115, 1e-12);
	near(w.p, 0.00029550470089478864, 1e-10);
	/* The test is symmetric in its sides. */
	struct ab_welch r;
	ab_stats_welch(b4, 4, a4, 5, &r);
	near(r.t, -w.t, 1e-12);
	near(r.p, w.p, 1e-15);
	/* Too few values: unknown.  No noise at all: p 0 or 1. */
	ab_stats_welch(a1, 1, b1, 5, &w);
	assert_true(isnan(w.t) && isnan(w.df) && isnan(w.p));
	const double c7[] = { 7, 7, 7 }, c8[] = { 8, 8 };
	ab_stats_welch(c7, 3, c8, 2, &w);
	assert_true(isnan(w.t));
	near(w.p, 0, 0);
	ab_stats_welch(c7, 3, c7, 2, &w);
	near(w.p, 1, 0);
}

/*
 * The ratio's interval: ratio * exp(-+ t * sqrt(tx + tb)) with tx, tb the
 * squared relative standard errors of the means; t = qt(0.975, df) by
 * bisection over the Simpson integral in python3 (df 6.9838: 2.3657357).
 */
static void test_ratio_ci(void **state)
{
	(void)state;
	struct ab_ratio r;
	const double x[] = { 19.1, 20.3, 18.7, 21.0, 19.6 }, b[] = { 24.2, 22.9, 25.1, 23.8 };
	ab_stats_ratio_ci(x, 5, b, 4, 0.95, &r);
	near(r.ratio, 0.8225, 1e-12);
	near(r.low, 0.7692810166686115, 1e-7);
	near(r.high, 0.879400681079621, 1e-7);
	/* Base with spread, cell without: df 2, t = 4.302652729749464. */
	const double x2[] = { 5, 5, 5 }, b2[] = { 1, 2, 3 };
	ab_stats_ratio_ci(x2, 3, b2, 3, 0.95, &r);
	near(r.ratio, 2.5, 1e-12);
	near(r.low, 2.5 * exp(-4.302652729749464 * sqrt(1.0 / 12)), 1e-9);
	near(r.high, 2.5 * exp(4.302652729749464 * sqrt(1.0 / 12)), 1e-9);
	/* A group against itself: ratio 1 inside its interval. */
	ab_stats_ratio_ci(b, 4, b, 4, 0.95, &r);
	near(r.ratio, 1, 1e-12);
	assert_true(r.low < 1 && r.high > 1);
	/* One value: a ratio, no interval; a zero or unknown base: nothing. */
	ab_stats_ratio_ci(x, 1, b, 4, 0.95, &r);
	near(r.ratio, 19.1 / 24.0, 1e-12);
	assert_true(isnan(r.low) && isnan(r.high));
	const double zero[] = { 0, 0 }, unknown[] = { NAN };
	ab_stats_ratio_ci(x, 5, zero, 2, 0.95, &r);
	assert_true(isnan(r.ratio) && isnan(r.low));
	ab_stats_ratio_ci(x, 5, unknown, 1, 0.95, &r);
	assert_true(isnan(r.ratio));
	/* No spread on either side: a point. */
	const double c7[] = { 7, 7 }, c14[] = { 14, 14, 14 };
	ab_stats_ratio_ci(c14, 3, c7, 2, 0.95, &r);
	near(r.ratio, 2, 0);
	near(r.low, 2, 0);
	near(r.high, 2, 0);
}

/* Normal deviates (Box-Muller) from the project's seeded generator. */
static double normal(struct ab_rng *rng, double mean, double sd)
{
	double u1 = ((double)(ab_rng_next(rng) >> 11) + 0.5) / 9007199254740992.0;
	double u2 = (double)(ab_rng_next(rng) >> 11) / 9007199254740992.0;
	return mean + sd * sqrt(-2 * log(u1)) * cos(2 * M_PI * u2);
}

static void test_bootstrap(void **state)
{
	(void)state;
	const double x[] = { 19.1, 20.3, 18.7, 21.0, 19.6 }, b[] = { 24.2, 22.9, 25.1, 23.8 };
	struct ab_ratio r1, r2, r3;
	/* Deterministic: the same seed, the same interval, bit for bit. */
	ab_stats_bootstrap_ratio(x, 5, b, 4, AB_CENTRE_MEAN, 0.95, 10000, 42, &r1);
	ab_stats_bootstrap_ratio(x, 5, b, 4, AB_CENTRE_MEAN, 0.95, 10000, 42, &r2);
	assert_true(r1.low == r2.low && r1.high == r2.high && r1.ratio == r2.ratio);
	near(r1.ratio, 0.8225, 1e-12);
	assert_true(r1.low < 0.8225 && 0.8225 < r1.high);
	/* Another seed moves the ends only a little. */
	ab_stats_bootstrap_ratio(x, 5, b, 4, AB_CENTRE_MEAN, 0.95, 10000, 7, &r3);
	near(r3.low, r1.low, 0.01);
	near(r3.high, r1.high, 0.01);
	/* The bootstrap's ends lie within the sample's extremes' ratios. */
	assert_true(r1.low >= 18.7 / 25.1 && r1.high <= 21.0 / 22.9);
	/* Medians. */
	ab_stats_bootstrap_ratio(x, 5, b, 4, AB_CENTRE_MEDIAN, 0.95, 10000, 42, &r1);
	near(r1.ratio, 19.6 / 24.0, 1e-12);
	assert_true(r1.low <= r1.ratio && r1.ratio <= r1.high);
	/* Too little: ratio only, or nothing. */
	ab_stats_bootstrap_ratio(x, 1, b, 4, AB_CENTRE_MEAN, 0.95, 1000, 1, &r1);
	near(r1.ratio, 19.1 / 24.0, 1e-12);
	assert_true(isnan(r1.low) && isnan(r1.high));
	const double zero[] = { 0, 0, 0 };
	ab_stats_bootstrap_ratio(x, 5, zero, 3, AB_CENTRE_MEAN, 0.95, 1000, 1, &r1);
	assert_true(isnan(r1.ratio) && isnan(r1.low));
}

/*
 * Coverage on synthetic data: samples of 10 from N(100, 10) against
 * samples of 10 from N(125, 12.5) (true ratio of means 0.8), 400 times.
 * The delta-method interval should hold 0.8 about 95 % of the time; the
 * percentile bootstrap, known to run narrow at small n, somewhat less.
 * The bounds leave room for the chance of 400 trials (sd about 1.1 %).
 */
static void test_coverage(void **state)
{
	(void)state;
	struct ab_rng rng;
	ab_rng_init(&rng, 2026, 0);
	unsigned held_delta = 0, held_boot = 0, trials = 400;
	for (unsigned k = 0; k < trials; k++) {
		double x[10], b[10];
		for (int i = 0; i < 10; i++) {
			x[i] = normal(&rng, 100, 10);
			b[i] = normal(&rng, 125, 12.5);
		}
		struct ab_ratio r;
		ab_stats_ratio_ci(x, 10, b, 10, 0.95, &r);
		held_delta += r.low <= 0.8 && 0.8 <= r.high;
		ab_stats_bootstrap_ratio(x, 10, b, 10, AB_CENTRE_MEAN, 0.95, 1000, k, &r);
		held_boot += r.low <= 0.8 && 0.8 <= r.high;
	}
	print_message("coverage of 0.8 in %u trials: delta %u, bootstrap %u\n", trials, held_delta, held_boot);
	assert_true(held_delta >= trials * 91 / 100 && held_delta <= trials * 99 / 100);
	assert_true(held_boot >= trials * 85 / 100 && held_boot <= trials * 98 / 100);
}

static void test_outliers(void **state)
{
	(void)state;
	bool f[8];
	/* median 100, |deviations| {0,1,1,2,2,60}: MAD 1.5, fence 3 * 1.4826 *
	 * 1.5 = 6.67; only 160 is beyond it.  NAN never marked. */
	const double x[] = { 100, 101, 99, NAN, 102, 98, 160 };
	assert_int_equal(ab_stats_outliers(x, 7, f), 1);
	for (int i = 0; i < 6; i++)
		assert_false(f[i]);
	assert_true(f[6]);
	/* Five repeats: one far from the other four is marked (median 51,
	 * |deviations| {0,1,1,2,29}: MAD 1, fence 4.45). */
	const double y[] = { 50.0, 51.0, 80.0, 52.0, 49.0 };
	assert_int_equal(ab_stats_outliers(y, 5, f), 1);
	assert_true(f[2] && !f[0] && !f[1] && !f[3] && !f[4]);
	/* Within the fence: none. */
	const double z[] = { 50.0, 51.0, 53.0, 52.0, 49.0 };
	assert_int_equal(ab_stats_outliers(z, 5, f), 0);
	/* Fewer than five: none, though 80 is far from two close values (a
	 * MAD of three values is the nearer neighbour's distance: 1 here). */
	assert_int_equal(ab_stats_outliers(y, 3, f), 0);
	assert_int_equal(ab_stats_outliers(y, 4, f), 0);
	/* No spread (MAD 0): none. */
	const double same[] = { 7, 7, 7, 7, 9 };
	assert_int_equal(ab_stats_outliers(same, 5, f), 0);
	assert_int_equal(ab_stats_outliers(NULL, 0, f), 0);
}

/* A figure that cannot be negative: where the t interval passes below 0
 * (issue 20: rand-stat -6304 to 159481 files/s, n = 3) the log-scale
 * interval; with a 0 among the values, the t interval cut at 0.  The
 * references: python3, t the df 2 closed form above,
 *   l = [log(v) for v in x]; exp(mean(l) -+ t * stdev(l) / sqrt(3))
 *   mean(y) + t * stdev(y) / sqrt(3) for y = [0, 0, 5000]. */
static void test_describe_positive(void **state)
{
	(void)state;
	const double x[] = { 9800, 17100, 203000 };
	struct ab_stats s;
	ab_stats_describe(x, 3, 0.95, &s);
	assert_int_equal(s.ci_method, AB_CI_T);
	near(s.ci_low, -195373.77200791577, 1e-6);
	ab_stats_describe_positive(x, 3, 0.95, &s);
	assert_int_equal(s.ci_method, AB_CI_LOG_T);
	assert_string_equal(ab_stats_ci_method_name(s.ci_method), "log-t");
	near(s.ci_low, 588.8844180533993, 1e-6);
	near(s.ci_high, 1782852.521831018, 1e-3);
	/* The rest is the plain description. */
	near(s.mean, 76633.33333333333, 1e-6);
	assert_true(s.median == 17100 && s.n == 3);

	const double y[] = { 0, 0, 5000 };
	ab_stats_describe_positive(y, 3, 0.95, &s);
	assert_int_equal(s.ci_method, AB_CI_T_CUT);
	assert_string_equal(ab_stats_ci_method_name(s.ci_method), "t-cut-at-0");
	assert_true(s.ci_low == 0);
	near(s.ci_high, 8837.75454958244, 1e-6);

	/* An interval above 0 stays the t interval. */
	const double z[] = { 5, 3, 1, 4, 2 };
	ab_stats_describe_positive(z, 5, 0.95, &s);
	assert_int_equal(s.ci_method, AB_CI_T);
	assert_string_equal(ab_stats_ci_method_name(s.ci_method), "t");
	near(s.ci_low, 1.0367568385224368, 1e-6);
	/* A negative value, which such a figure cannot have: left alone. */
	const double neg[] = { -5, 1, 40 };
	ab_stats_describe_positive(neg, 3, 0.95, &s);
	assert_int_equal(s.ci_method, AB_CI_T);
	assert_true(s.ci_low < 0);
	/* One value: no interval, no method. */
	ab_stats_describe_positive(x, 1, 0.95, &s);
	assert_int_equal(s.ci_method, AB_CI_NONE);
	assert_null(ab_stats_ci_method_name(s.ci_method));
	assert_true(isnan(s.ci_low));
	/* Unknown values are skipped, as ever. */
	const double some[] = { NAN, 9800, 17100, NAN, 203000 };
	ab_stats_describe_positive(some, 5, 0.95, &s);
	assert_int_equal(s.ci_method, AB_CI_LOG_T);
	near(s.ci_low, 588.8844180533993, 1e-6);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_t_quantile),
		cmocka_unit_test(test_describe_one_to_five),
		cmocka_unit_test(test_describe_even_and_unknown),
		cmocka_unit_test(test_describe_two_values),
		cmocka_unit_test(test_describe_small),
		cmocka_unit_test(test_welch),
		cmocka_unit_test(test_ratio_ci),
		cmocka_unit_test(test_bootstrap),
		cmocka_unit_test(test_coverage),
		cmocka_unit_test(test_outliers),
		cmocka_unit_test(test_describe_positive),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
