/* SPDX-License-Identifier: GPL-2.0-or-later */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <cmocka.h>

#include <math.h>

#include "../../src/stats.h"

/*
 * Expected values and where they come from.  R and scipy are not on this
 * machine, so every figure is one that can be derived exactly and was
 * checked twice: the t quantiles for 1 and 2 degrees of freedom have closed
 * forms (df 1: the Cauchy distribution, t = tan(pi (p - 1/2)); df 2:
 * t = (2p - 1) sqrt(2 / (4p(1 - p)))), and qt(0.975, 4) = 2.776445 is the
 * standard table value (any Student t table, 4 df, two-sided 0.05), which a
 * bisection over a Simpson integral of the t density in python3 reproduced
 * (2.7764451052).  Means, medians and standard deviations are python3's
 * statistics.mean/median/stdev of the same lists.
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

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_t_quantile),
		cmocka_unit_test(test_describe_one_to_five),
		cmocka_unit_test(test_describe_even_and_unknown),
		cmocka_unit_test(test_describe_two_values),
		cmocka_unit_test(test_describe_small),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
