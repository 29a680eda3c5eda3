/* SPDX-License-Identifier: GPL-2.0-or-later */
/* The latency curve's arithmetic (workloads/curve-math.c) with a clock the
 * test moves itself: the schedule, latency from the due time through a
 * stall, lateness, the step verdict and the sizing answer; and its options. */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <cmocka.h>
#include <math.h>
#include <string.h>

#include "../../src/options/config.h"
#include "../../src/base/error.h"
#include "../../src/model/run.h"
#include "../../reports/report.h"
#include "run-args.h"
#include "../../workloads/curve-math.h"
#include "../../workloads/phase.h"

#define MS 1000000ull
#define US 1000ull

/* A device that serves each I/O in `service_ns`, but the `stall_at`-th
 * takes `stall_ns` instead; the clock moves only when the loop sleeps or
 * an I/O is served. */
struct fake {
	uint64_t now;
	uint64_t service_ns, stall_ns, stall_at;
	uint64_t sleeps;
	uint64_t sent[400], lat[400];
	uint64_t n;
	int fail_at; /* the I/O that fails, -1 none */
};

static uint64_t fake_now(void *arg)
{
	return ((struct fake *)arg)->now;
}

static void fake_sleep(void *arg, uint64_t t)
{
	struct fake *f = arg;
	assert_true(t > f->now); /* never asked to sleep into the past */
	f->now = t;
	f->sleeps++;
}

static int fake_io(void *arg, uint64_t i)
{
	struct fake *f = arg;
	if (f->fail_at >= 0 && i == (uint64_t)f->fail_at)
		return -7;
	assert_true(i < G_N_ELEMENTS(f->sent));
	f->sent[i] = f->now;
	f->now += i == f->stall_at ? f->stall_ns : f->service_ns;
	return 0;
}

static void fake_record(void *arg, uint64_t i, uint64_t lat)
{
	struct fake *f = arg;
	assert_int_equal(i, f->n); /* in order, once each */
	f->lat[f->n++] = lat;
}

static void test_schedule(void **state)
{
	(void)state;
	/* The n-th I/O of the schedule at n / rate. */
	assert_int_equal(ab_curve_due_ns(5, 0, 1000), 5);
	assert_int_equal(ab_curve_due_ns(5, 3, 1000), 5 + 3 * MS);
	assert_int_equal(ab_curve_due_ns(0, 1, 3), 333333333);
	/* Computed from n, not summed: no drift after a million I/Os. */
	assert_int_equal(ab_curve_due_ns(0, 1000000, 3), 333333333333333ull);
	/* Process k takes the schedule's I/Os k, k + procs, ...: 10 over 4
	 * processes are 3, 3, 2, 2. */
	assert_int_equal(ab_curve_share(10, 0, 4), 3);
	assert_int_equal(ab_curve_share(10, 1, 4), 3);
	assert_int_equal(ab_curve_share(10, 2, 4), 2);
	assert_int_equal(ab_curve_share(10, 3, 4), 2);
	assert_int_equal(ab_curve_step_ios(100, 5, 4), 500);
	assert_int_equal(ab_curve_step_ios(0.1, 1, 4), 4); /* one per process at least */
	assert_true(ab_curve_step_rate(100, 2, 1) == 100);
	assert_true(ab_curve_step_rate(100, 2, 4) == 800);
	assert_true(fabs(ab_curve_step_rate(100, 1.5, 3) - 225) < 1e-9);
}

/* Process 2 of 4 at 1000 IOPS: its I/Os are due at 2, 6, 10 ms after t0;
 * a fast device finishes each before the next is due, so the loop sleeps
 * to every due time and none is late. */
static void test_interleaved_process(void **state)
{
	(void)state;
	struct fake f = { .now = 0, .service_ns = 100 * US, .stall_at = UINT64_MAX, .fail_at = -1 };
	struct ab_curve_world w = { fake_now, fake_sleep, fake_io, fake_record, &f };
	struct ab_histogram h;
	ab_histogram_init(&h);
	struct ab_curve_lateness late = { 0 };
	assert_int_equal(ab_curve_issue(&w, 1 * MS, 1000, 2, 4, 12, &h, &late), 0);
	assert_int_equal(late.done, 3);
	assert_int_equal(f.sent[0], 3 * MS);
	assert_int_equal(f.sent[1], 7 * MS);
	assert_int_equal(f.sent[2], 11 * MS);
	assert_int_equal(f.sleeps, 3);
	assert_int_equal(late.late, 0);
	assert_int_equal(late.max_late_ns, 0);
	for (int i = 0; i < 3; i++)
		assert_int_equal(f.lat[i], 100 * US);
	assert_int_equal(h.count, 3);
	assert_int_equal(h.max_ns, 100 * US);
}

/* One process at 1000 IOPS (an I/O due every ms), served in 0.1 ms, but the
 * I/O due at 10 ms stalls for 100 ms.  Every I/O due during the stall waits
 * for it and counts that wait from its due time: I/O j (11 <= j) is sent
 * when j - 1 completes, at 110 + 0.1 (j - 11) ms, and completes 0.1 ms
 * later, so its latency is 109 - 0.9 j ms until the loop has caught up
 * (j = 121).  A closed-loop measurement would have seen one slow I/O. */
static void test_stall_raises_every_io_during_it(void **state)
{
	(void)state;
	struct fake f = { .now = 0, .service_ns = 100 * US, .stall_ns = 100 * MS, .stall_at = 10, .fail_at = -1 };
	struct ab_curve_world w = { fake_now, fake_sleep, fake_io, fake_record, &f };
	struct ab_histogram h;
	ab_histogram_init(&h);
	struct ab_curve_lateness late = { 0 };
	assert_int_equal(ab_curve_issue(&w, 0, 1000, 0, 1, 200, &h, &late), 0);
	assert_int_equal(late.done, 200);
	assert_int_equal(f.n, 200);
	for (uint64_t j = 0; j < 200; j++) {
		uint64_t want;
		if (j < 10 || j >= 121)
			want = 100 * US; /* on time */
		else if (j == 10)
			want = 100 * MS; /* the stalled one itself */
		else
			want = 109 * MS - j * 900 * US;
		if (f.lat[j] != want)
			fail_msg("I/O %" G_GUINT64_FORMAT ": latency %" G_GUINT64_FORMAT " ns, want %" G_GUINT64_FORMAT,
				 j, f.lat[j], want);
		/* Every I/O due during the stall (10 ms to 110 ms) waited at
		 * least until it ended. */
		if (j >= 10 && j < 110)
			assert_true(f.lat[j] >= 110 * MS - j * MS);
	}
	/* Late: sent more than 1 ms after its due time: I/Os 11..119, the
	 * worst 11 (due 11 ms, sent 110 ms).  None skipped. */
	assert_int_equal(late.late, 109);
	assert_int_equal(late.max_late_ns, 99 * MS);
	assert_int_equal(h.count, 200);
	assert_int_equal(h.max_ns, 100 * MS);
	/* 111 of 200 (10..120) over a millisecond: p99 and the median show the
	 * stall; closed loop would have reported a p50 of 0.1 ms. */
	assert_true(ab_histogram_percentile(&h, 99) > 90 * MS);
	assert_true(ab_histogram_percentile(&h, 50) > 10 * MS);
}

/* The same device without the stall: every latency is the service time. */
static void test_no_stall_baseline(void **state)
{
	(void)state;
	struct fake f = { .now = 0, .service_ns = 100 * US, .stall_at = UINT64_MAX, .fail_at = -1 };
	struct ab_curve_world w = { fake_now, fake_sleep, fake_io, fake_record, &f };
	struct ab_histogram h;
	ab_histogram_init(&h);
	struct ab_curve_lateness late = { 0 };
	assert_int_equal(ab_curve_issue(&w, 0, 1000, 0, 1, 200, &h, &late), 0);
	assert_int_equal(late.late, 0);
	assert_int_equal(h.max_ns, 100 * US);
	assert_true(ab_histogram_percentile(&h, 99) <= 100 * US);
}

/* A device slower than the schedule (2 ms per I/O at 1000 IOPS): the loop
 * never skips, it sends each I/O at once when behind, and the latency of
 * the n-th grows as (n + 1) ms, the backlog. */
static void test_saturated_device(void **state)
{
	(void)state;
	struct fake f = { .now = 0, .service_ns = 2 * MS, .stall_at = UINT64_MAX, .fail_at = -1 };
	struct ab_curve_world w = { fake_now, fake_sleep, fake_io, fake_record, &f };
	struct ab_histogram h;
	ab_histogram_init(&h);
	struct ab_curve_lateness late = { 0 };
	assert_int_equal(ab_curve_issue(&w, 0, 1000, 0, 1, 100, &h, &late), 0);
	assert_int_equal(late.done, 100);
	for (uint64_t j = 0; j < 100; j++)
		assert_int_equal(f.lat[j], (j + 2) * MS);
	assert_int_equal(late.max_late_ns, 99 * MS);
	assert_int_equal(late.late, 98); /* I/O 1 is exactly 1 ms late: not counted */
	/* 100 I/Os in 200 ms: half the offered rate, which the verdict sees. */
	assert_int_equal(f.now, 200 * MS);
	assert_int_equal(ab_curve_judge(1000, 100 / 0.2, h.max_ns, 10 * MS), AB_CURVE_OVER_AND_BEHIND);
}

static void test_io_failure_stops(void **state)
{
	(void)state;
	struct fake f = { .now = 0, .service_ns = 100 * US, .stall_at = UINT64_MAX, .fail_at = 3 };
	struct ab_curve_world w = { fake_now, fake_sleep, fake_io, NULL, &f };
	struct ab_histogram h;
	ab_histogram_init(&h);
	struct ab_curve_lateness late = { 0 };
	assert_int_equal(ab_curve_issue(&w, 0, 1000, 0, 1, 10, &h, &late), -7);
	assert_int_equal(late.done, 3);
	assert_int_equal(h.count, 3);
}

static void test_verdict(void **state)
{
	(void)state;
	const uint64_t target = 10 * MS;
	assert_int_equal(ab_curve_judge(1000, 999, 5 * MS, target), AB_CURVE_PASS);
	assert_int_equal(ab_curve_judge(1000, 950, 5 * MS, target), AB_CURVE_PASS);      /* 5 % behind: still in */
	assert_int_equal(ab_curve_judge(1000, 949.9, 5 * MS, target), AB_CURVE_BEHIND); /* more: out */
	assert_int_equal(ab_curve_judge(1000, 1000, target, target), AB_CURVE_PASS);    /* at the target */
	assert_int_equal(ab_curve_judge(1000, 1000, target + 1, target), AB_CURVE_OVER_TARGET);
	assert_int_equal(ab_curve_judge(1000, 500, target + 1, target), AB_CURVE_OVER_AND_BEHIND);
	assert_int_equal(ab_curve_judge(1000, NAN, 5 * MS, target), AB_CURVE_BEHIND);   /* unknown is not in */
	assert_int_equal(ab_curve_judge(1000, 1000, UINT64_MAX, target), AB_CURVE_OVER_TARGET);
	assert_string_equal(ab_curve_verdict_name(AB_CURVE_PASS), "pass");
	assert_string_equal(ab_curve_verdict_name(AB_CURVE_BEHIND), "fell behind");
}

static void test_sizing(void **state)
{
	(void)state;
	gboolean interp;
	/* Halfway in p99 (4 -> 16 ms, target 10) between 1000 and 2000 IOPS:
	 * halfway in log rate, 1000 x sqrt(2). */
	double r = ab_curve_sizing(TRUE, 1000, 4 * MS, TRUE, 2000, 16 * MS, 10 * MS, &interp);
	assert_true(interp);
	assert_true(fabs(r - 1414.2135623730951) < 1e-9);
	/* A quarter of the way: 1000 x 2^0.25. */
	r = ab_curve_sizing(TRUE, 1000, 2 * MS, TRUE, 2000, 34 * MS, 10 * MS, &interp);
	assert_true(interp);
	assert_true(fabs(r - 1189.2071150027210) < 1e-9);
	/* Factor 4: 400 -> 1600 IOPS, p99 1 -> 21 ms, target 6: 400 x 4^0.25. */
	r = ab_curve_sizing(TRUE, 400, 1 * MS, TRUE, 1600, 21 * MS, 6 * MS, &interp);
	assert_true(fabs(r - 565.68542494923802) < 1e-9);
	/* p99 at the target exactly on the passing step: its rate. */
	r = ab_curve_sizing(TRUE, 1000, 10 * MS, TRUE, 2000, 20 * MS, 10 * MS, &interp);
	assert_true(interp);
	assert_true(r == 1000);
	/* The next step failed by falling behind with its p99 in target: the
	 * last passing rate, not interpolated. */
	r = ab_curve_sizing(TRUE, 1000, 4 * MS, TRUE, 2000, 8 * MS, 10 * MS, &interp);
	assert_false(interp);
	assert_true(r == 1000);
	/* No step failed: the last rate, a lower bound. */
	r = ab_curve_sizing(TRUE, 12800, 1 * MS, FALSE, NAN, UINT64_MAX, 10 * MS, &interp);
	assert_false(interp);
	assert_true(r == 12800);
	/* The first step failed: no answer. */
	r = ab_curve_sizing(FALSE, NAN, UINT64_MAX, TRUE, 100, 50 * MS, 10 * MS, &interp);
	assert_false(interp);
	assert_true(isnan(r));
}

static void test_options(void **state)
{
	(void)state;
	g_auto(ab_config_auto) cfg;
	ab_config_init(&cfg);
	assert_true(parse_args(&cfg, NULL, "-d", "/tmp", "--phases", "latency-curve", "--curve-procs", "8",
			       "--curve-block", "16k", "--curve-mix", "70:30", "--rate-start", "250.5", "--rate-factor",
			       "1.5", "--curve-seconds", "2.5", "--p99-target", "500us", "--curve-steps", "6", NULL));
	assert_int_equal(cfg.curve_procs, 8);
	assert_int_equal(cfg.curve_block, 16384);
	assert_int_equal(cfg.curve_read_pct, 70);
	assert_true(cfg.rate_start == 250.5);
	assert_true(cfg.rate_factor == 1.5);
	assert_true(cfg.curve_seconds == 2.5);
	assert_int_equal(cfg.p99_target_ns, 500 * US);
	assert_int_equal(cfg.curve_steps, 6);
	ab_config_clear(&cfg);
	ab_config_init(&cfg);
	assert_true(parse_args(&cfg, NULL, "-d", "/tmp", "--p99-target", "20", NULL));
	assert_int_equal(cfg.p99_target_ns, 20 * MS); /* ms without a unit */
	static const char *const bad[][3] = {
		{ "--curve-procs", "0", "invalid --curve-procs '0': must be at least 1" },
		{ "--curve-procs", "257", "--curve-procs: invalid count '257': must be at most 256" },
		{ "--curve-block", "3000", "--curve-block: invalid chunk size '3000': must be a power of two from 256 to 1m" },
		{ "--curve-mix", "70:20", "invalid --curve-mix '70:20': the two shares must add up to 100" },
		{ "--curve-mix", "70", "invalid --curve-mix '70': expected READS:WRITES, two whole percentages (70:30)" },
		{ "--curve-mix", "-1:101", "invalid --curve-mix '-1:101': expected READS:WRITES, two whole percentages (70:30)" },
		{ "--rate-start", "0", "invalid --rate-start '0': not a positive number" },
		{ "--rate-start", "nan", "invalid --rate-start 'nan': not a positive number" },
		{ "--rate-start", "1e999", "invalid --rate-start '1e999': not a positive number" },
		{ "--rate-start", "10x", "invalid --rate-start '10x': not a positive number" },
		{ "--rate-start", "0x10", "invalid --rate-start '0x10': not a positive number" },
		{ "--rate-start", " 5", "invalid --rate-start ' 5': not a positive number" },
		{ "--p99-target", "0x10ms", "invalid --p99-target '0x10ms': expected a positive time: ms without a unit, or ns, us, ms, s" },
		{ "--p99-target", "infms", "invalid --p99-target 'infms': expected a positive time: ms without a unit, or ns, us, ms, s" },
		{ "--rate-factor", "1", "invalid --rate-factor '1': must be from 1.05 to 100" },
		{ "--curve-seconds", "0.01", "invalid --curve-seconds '0.01': must be from 0.1 to 86400 seconds" },
		{ "--p99-target", "10 ms", "invalid --p99-target '10 ms': expected a positive time: ms without a unit, or ns, us, ms, s" },
		{ "--p99-target", "0ms", "invalid --p99-target '0ms': expected a positive time: ms without a unit, or ns, us, ms, s" },
		{ "--p99-target", "10ns", "invalid --p99-target '10ns': must be from 1us to 1 hour" },
		{ "--curve-steps", "41", "--curve-steps: invalid count '41': must be at most 40" },
	};
	for (size_t i = 0; i < G_N_ELEMENTS(bad); i++) {
		g_auto(ab_config_auto) c;
		ab_config_init(&c);
		g_autoptr(GError) e = NULL;
		assert_false(parse_args(&c, &e, "-d", "/tmp", "--phases", "latency-curve", bad[i][0], bad[i][1], NULL));
		if (!e || strcmp(e->message, bad[i][2]) != 0)
			fail_msg("%s %s: '%s', want '%s'", bad[i][0], bad[i][1], e ? e->message : "(none)", bad[i][2]);
	}
}

/* The config checks: a curve option without the curve, a block larger
 * than the file, O_DIRECT with a small block, a last step beyond count. */
static void test_config_checks(void **state)
{
	(void)state;
	static const struct {
		const char *a[6];
		const char *msg;
	} cases[] = {
		{ { "--phases", "block-read", "--rate-start", "50" },
		  "--rate-start applies to the latency curve, which is not asked for (--phases latency-curve)" },
		{ { "--phases", "latency-curve", "-D", "--curve-block", "2k" },
		  "invalid --curve-block '2048' with --direct: O_DIRECT needs a multiple of 4k" },
		{ { "--phases", "latency-curve", "--rate-start", "0.5", "--curve-seconds", "2" },
		  "invalid --rate-start '0.5': a step of 2 s at that rate sends fewer I/Os than the 4 --curve-procs "
		  "processes" },
		{ { "--phases", "latency-curve", "--rate-start", "1e9", "--curve-steps", "40" },
		  "the latency curve's step 40 would offer 5.49756e+20 IOPS for 5 s (--rate-start 1e+09, --rate-factor "
		  "2 a step), more I/Os than a step can count: give fewer --curve-steps or a lower --rate-start or "
		  "--rate-factor" },
		/* The documented most steps at the default rates: not the
		 * --rate-start the user never gave. */
		{ { "--phases", "latency-curve", "--curve-steps", "40" },
		  "the latency curve's step 40 would offer 5.49756e+13 IOPS for 5 s (--rate-start 100, --rate-factor "
		  "2 a step), more I/Os than a step can count: give fewer --curve-steps or a lower --rate-start or "
		  "--rate-factor" },
	};
	for (size_t i = 0; i < G_N_ELEMENTS(cases); i++) {
		g_auto(ab_config_auto) c;
		ab_config_init(&c);
		g_autoptr(GError) e = NULL;
		const char *const *a = cases[i].a;
		assert_true(parse_args(&c, NULL, "-d", "/tmp", "-s", "64m", "-r", "16", "--cache", "fadvise", a[0], a[1],
				       a[2], a[3], a[4], a[5], NULL));
		assert_false(ab_config_finish(&c, 0, &e));
		if (!e || strcmp(e->message, cases[i].msg) != 0)
			fail_msg("case %zu: '%s', want '%s'", i, e ? e->message : "(none)", cases[i].msg);
	}
	/* Fine: the steps are built with the curve's parameters. */
	g_auto(ab_config_auto) c;
	ab_config_init(&c);
	assert_true(parse_args(&c, NULL, "-d", "/tmp", "-s", "64m", "-r", "16", "--cache", "fadvise", "--phases",
			       "latency-curve", "--curve-procs", "3", NULL));
	assert_true(ab_config_finish(&c, 0, NULL));
	const struct ab_step *st = &g_array_index(c.steps, struct ab_step, 0);
	assert_string_equal(st->phase->name, "latency-curve");
	assert_int_equal(st->curve_procs, 3);
	assert_int_equal(st->p99_target_ns, 10 * MS);
	assert_int_equal(st->phase->worker_count(st), 3);
}

static struct ab_result *step_result(const char *test, double offered, double rate, uint64_t p99)
{
	struct ab_result *r = ab_result_new("latency-curve");
	r->key.test = g_strdup(test);
	r->key.streams = 4;
	r->key.record_size = 8192;
	r->offered_rate = offered;
	r->rate = rate;
	r->latency.p50_ns = p99 / 2;
	r->latency.p99_ns = p99;
	r->latency.p99_9_ns = p99;
	r->late_ops = 0;
	return r;
}

/* The text block: each step judged by the sizing row's target, and the
 * answer saying how it was read off. */
static void test_text_block(void **state)
{
	(void)state;
	g_autoptr(ab_run) run = ab_run_new();
	ab_run_add_result(run, step_result("step 1", 1000, 1001, 4 * MS));
	ab_run_add_result(run, step_result("step 2", 2000, 1700, 16 * MS));
	struct ab_result *sz = step_result("sizing", NAN, 1414.2135623730951, 10 * MS);
	sz->interpolated = TRUE;
	ab_run_add_result(run, sz);
	g_autoptr(GString) s = g_string_new(NULL);
	ab_text_curve(s, run);
	const char *want =
		"\nlatency curve: latency from each I/O's due time (open loop), 4 processes, 8k blocks (random I/O)\n"
		"step        offered IOPS achieved IOPS       p50       p99     p99.9    late  verdict\n"
		"step 1              1000          1001    2.00ms    4.00ms    4.00ms       0  pass\n"
		"step 2              2000          1700    8.00ms   16.00ms   16.00ms       0  p99 over target, fell behind\n"
		"sizing: 1414 IOPS at p99 <= 10.00ms, interpolated (p99 linear in log rate) between 1000 and 2000 IOPS\n";
	assert_string_equal(s->str, want);
	/* Not a row of the main table. */
	g_autofree char *all = ab_text_format(run);
	assert_null(strstr(all, "latency-curve step"));
	assert_non_null(strstr(all, "sizing: 1414 IOPS"));
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_schedule),
		cmocka_unit_test(test_interleaved_process),
		cmocka_unit_test(test_stall_raises_every_io_during_it),
		cmocka_unit_test(test_no_stall_baseline),
		cmocka_unit_test(test_saturated_device),
		cmocka_unit_test(test_io_failure_stops),
		cmocka_unit_test(test_verdict),
		cmocka_unit_test(test_sizing),
		cmocka_unit_test(test_options),
		cmocka_unit_test(test_config_checks),
		cmocka_unit_test(test_text_block),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
