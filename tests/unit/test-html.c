/* SPDX-License-Identifier: GPL-2.0-or-later */
/* The HTML report: escaping, the SVG primitives (a bar's and its error
 * bar's coordinates, scales, ticks, the heat maps' colours) and a page
 * made from runs (names shown as text, a missing figure drawn as no bar). */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <cmocka.h>

#include <math.h>
#include <string.h>

#include "../../reports/report.h"
#include "../../reports/svg.h"
#include "rank-run.h"

static char *escaped(const char *text)
{
	GString *s = g_string_new(NULL);
	ab_html_escape(s, text);
	return g_string_free(s, FALSE);
}

static void test_escape(void **state)
{
	(void)state;
	g_autofree char *a = escaped("<script>alert(\"x\")</script>&'");
	assert_string_equal(a, "&lt;script&gt;alert(&quot;x&quot;)&lt;/script&gt;&amp;&#39;");
	g_autofree char *b = escaped("tab\tnl\nbell\x07" "del\x7f" "end");
	assert_string_equal(b, "tab\tnl\nbelldelend");
	/* Bytes that are no UTF-8 become U+FFFD, never raw bytes in the page. */
	g_autofree char *c = escaped("a\xff" "b");
	assert_string_equal(c, "a\xef\xbf\xbd" "b");
	g_autofree char *d = escaped("r\xc3\xa9sum\xc3\xa9");
	assert_string_equal(d, "r\xc3\xa9sum\xc3\xa9");
	/* A right-to-left override would reverse the rest of a sentence. */
	g_autofree char *f = escaped("a\xe2\x80\xae" "b\xe2\x81\xa7" "c\xe2\x80\x94" "d");
	assert_string_equal(f, "abc\xe2\x80\x94" "d");
	g_autofree char *e = escaped(NULL);
	assert_string_equal(e, "");
}

static void test_scale(void **state)
{
	(void)state;
	struct ab_svg_scale lin = { 0, 100, 100, 500, FALSE };
	assert_true(fabs(ab_svg_map(&lin, 50) - 300) < 1e-9);
	assert_true(fabs(ab_svg_map(&lin, 0) - 100) < 1e-9);
	assert_true(fabs(ab_svg_map(&lin, 250) - 500) < 1e-9); /* kept inside */
	assert_true(fabs(ab_svg_map(&lin, -5) - 100) < 1e-9);
	assert_true(fabs(ab_svg_map(&lin, NAN) - 100) < 1e-9);
	/* A y axis runs upwards: px_lo below px_hi. */
	struct ab_svg_scale lg = { 1, 1000, 300, 0, TRUE };
	assert_true(fabs(ab_svg_map(&lg, 10) - 200) < 1e-9);
	assert_true(fabs(ab_svg_map(&lg, 1000) - 0) < 1e-9);
	assert_true(fabs(ab_svg_map(&lg, 0) - 300) < 1e-9);
	assert_true(fabs(ab_svg_map(&lg, -3) - 300) < 1e-9);
}

static void test_bar(void **state)
{
	(void)state;
	struct ab_svg_scale sc = { 0, 100, 100, 500, FALSE };
	struct ab_svg_bar b;
	assert_true(ab_svg_bar_geometry(&sc, 10, 20, 50, 40, 60, &b));
	assert_true(fabs(b.x - 100) < 1e-9 && fabs(b.w - 200) < 1e-9);
	assert_true(fabs(b.y - 10) < 1e-9 && fabs(b.h - 20) < 1e-9);
	assert_true(b.has_err);
	assert_true(fabs(b.err_x1 - 260) < 1e-9 && fabs(b.err_x2 - 340) < 1e-9 && fabs(b.err_y - 20) < 1e-9);
	/* Reversed interval ends are drawn the same. */
	assert_true(ab_svg_bar_geometry(&sc, 10, 20, 50, 60, 40, &b));
	assert_true(fabs(b.err_x1 - 260) < 1e-9 && fabs(b.err_x2 - 340) < 1e-9);

	g_autoptr(GString) s = g_string_new(NULL);
	assert_true(ab_svg_hbar(s, &sc, 10, 20, 50, 40, 60, "#4e79a7", "a <b>"));
	assert_non_null(strstr(s->str, "<rect class=\"bar\" x=\"100.0\" y=\"10.0\" width=\"200.0\" height=\"20.0\" "
				       "fill=\"#4e79a7\"><title>a &lt;b&gt;</title></rect>"));
	assert_non_null(strstr(s->str, "d=\"M260.0 20.0H340.0M260.0 14.0V26.0M340.0 14.0V26.0\""));

	/* No interval (one run): the bar, no error bar. */
	g_string_truncate(s, 0);
	assert_true(ab_svg_hbar(s, &sc, 0, 10, 25, NAN, NAN, "#000", NULL));
	assert_non_null(strstr(s->str, "width=\"100.0\""));
	assert_null(strstr(s->str, "class=\"err\""));
	assert_null(strstr(s->str, "<title>"));

	/* A missing figure is no bar at all, not one of length 0. */
	g_string_truncate(s, 0);
	assert_false(ab_svg_hbar(s, &sc, 0, 10, NAN, 1, 2, "#000", "x"));
	assert_false(ab_svg_hbar(s, &sc, 0, 10, INFINITY, NAN, NAN, "#000", "x"));
	assert_int_equal(s->len, 0);
	assert_false(ab_svg_bar_geometry(&sc, 0, 10, NAN, 1, 2, &b));
}

static void test_colour(void **state)
{
	(void)state;
	char c[8];
	ab_svg_heat_colour(0, c);
	assert_string_equal(c, "#440154");
	ab_svg_heat_colour(0.5, c);
	assert_string_equal(c, "#21918c");
	ab_svg_heat_colour(1, c);
	assert_string_equal(c, "#fde725");
	ab_svg_heat_colour(-2, c);
	assert_string_equal(c, "#440154");
	ab_svg_heat_colour(7, c);
	assert_string_equal(c, "#fde725");
	ab_svg_heat_colour(0.125, c); /* halfway between the first two stops */
	assert_string_equal(c, "#402a70");
	ab_svg_heat_colour(NAN, c);
	assert_string_equal(c, "#dddddd");
	/* Where rates fall on the log scale: decades are equal steps. */
	assert_true(fabs(ab_svg_log_fraction(10, 1, 100) - 0.5) < 1e-12);
	assert_true(fabs(ab_svg_log_fraction(1000, 10, 100000) - 0.5) < 1e-12);
	assert_true(fabs(ab_svg_log_fraction(1e9, 1, 100) - 1) < 1e-12);
	assert_true(isnan(ab_svg_log_fraction(0, 1, 100)));
	assert_true(isnan(ab_svg_log_fraction(NAN, 1, 100)));
}

static guint count(const char *hay, const char *needle)
{
	guint n = 0;
	for (const char *p = strstr(hay, needle); p; p = strstr(p + 1, needle))
		n++;
	return n;
}

static void test_ticks(void **state)
{
	(void)state;
	double t[16];
	assert_int_equal(ab_svg_ticks(0, 1000, FALSE, t, 16), 6);
	assert_true(t[0] == 0 && t[1] == 200 && t[5] == 1000);
	assert_int_equal(ab_svg_ticks(1, 10000, TRUE, t, 16), 5);
	assert_true(t[0] == 1 && fabs(t[2] - 100) < 1e-9 && fabs(t[4] - 10000) < 1e-6);
	assert_int_equal(ab_svg_ticks(1, 100, TRUE, t, 16), 7); /* 1 2 5 10 20 50 100 */
	assert_int_equal(ab_svg_ticks(5, 5, FALSE, t, 16), 0);
	assert_int_equal(ab_svg_ticks(NAN, 5, FALSE, t, 16), 0);
	double lo = 3, hi = 870;
	ab_svg_nice_range(&lo, &hi, FALSE);
	assert_true(lo == 0 && hi == 1000);
	lo = 3e3, hi = 2e6;
	ab_svg_nice_range(&lo, &hi, TRUE);
	assert_true(fabs(lo - 1e3) < 1e-6 && fabs(hi - 1e7) < 1e-3);
	char b[32];
	ab_svg_format_si(950, b, sizeof(b));
	assert_string_equal(b, "950");
	ab_svg_format_si(1234, b, sizeof(b));
	assert_string_equal(b, "1.23k");
	ab_svg_format_si(45.6e6, b, sizeof(b));
	assert_string_equal(b, "45.6M");
	ab_svg_format_si(NAN, b, sizeof(b));
	assert_string_equal(b, "-");
	ab_svg_format_time(2e7, b, sizeof(b));
	assert_string_equal(b, "20ms");
	ab_svg_format_time(500e3, b, sizeof(b));
	assert_string_equal(b, "500\xc2\xb5s");
	ab_svg_format_time(5, b, sizeof(b));
	assert_string_equal(b, "5ns");
	/* A y axis: a grid line and a label per tick, and the axis line. */
	g_autoptr(GString) y = g_string_new(NULL);
	struct ab_svg_scale sc = { 1e3, 1e6, 200, 10, TRUE };
	ab_svg_y_axis(y, &sc, 50, 500, ab_svg_format_time);
	assert_int_equal(count(y->str, "<line class=\"gridl\" x1=\"50.0\""), 4);
	assert_non_null(strstr(y->str, ">1ms</text>"));
	assert_non_null(strstr(y->str, "<line class=\"axis\" x1=\"50.0\" y1=\"200.0\" x2=\"50.0\" y2=\"10.0\"/>"));
}

static struct ab_run *run_of(const char *cell, double rate)
{
	struct ab_run *run = ab_run_new();
	run->tool = g_strdup("arraybench");
	run->cell = g_strdup(cell);
	run->machine = g_strdup("host<1>");
	struct ab_result *r = ab_result_new("block-write");
	r->rate = rate;
	r->measurable = TRUE;
	r->cache_state = g_strdup("cold");
	r->sync_mode = g_strdup("fsync-close-timed");
	r->direct = TRUE;
	ab_run_add_result(run, r);
	return run;
}

static void test_page(void **state)
{
	(void)state;
	struct ab_run_set set;
	ab_run_set_init(&set);
	g_ptr_array_add(set.runs, run_of("<script>alert(1)</script>", 1000));
	g_ptr_array_add(set.runs, run_of("<script>alert(1)</script>", 1100));
	g_ptr_array_add(set.runs, run_of("plain & simple", NAN));
	struct ab_run *failed = ab_run_new();
	failed->cell = g_strdup("broken");
	failed->failure = g_strdup("mkfs said <no>");
	g_ptr_array_add(set.runs, failed);
	g_autoptr(GString) s = g_string_new(NULL);
	assert_true(ab_html_write(&set, s, NULL));
	ab_run_set_clear(&set);
	assert_null(strstr(s->str, "<script"));
	assert_null(strstr(s->str, "http:"));
	assert_null(strstr(s->str, "https:"));
	assert_non_null(strstr(s->str, "&lt;script&gt;alert(1)&lt;/script&gt;"));
	assert_non_null(strstr(s->str, "plain &amp; simple"));
	assert_non_null(strstr(s->str, "mkfs said &lt;no&gt;"));
	/* One bar: the cell whose figure is missing has none, and says so. */
	assert_int_equal(count(s->str, "<rect class=\"bar\""), 1);
	assert_non_null(strstr(s->str, ">no figure<"));
	assert_non_null(strstr(s->str, "O_DIRECT"));
	assert_non_null(strstr(s->str, "fsync-close-timed"));
	/* The charts with no data are one line each, never an empty frame. */
	assert_non_null(strstr(s->str, "No heat maps"));
	assert_non_null(strstr(s->str, "No member charts"));
	assert_non_null(strstr(s->str, "No latency curves"));
	assert_non_null(strstr(s->str, "<p class=\"none\">No latency curve: no run holds the latency-curve phase"));
	assert_int_equal(count(s->str, "<svg"), 1);
	assert_null(strstr(s->str, "id=\"tuning\""));
	assert_true(g_str_has_suffix(s->str, "</html>\n"));
}

/* A tune's runs (stamped): the Tuning section (and the text report's
 * summary) redo the race from them:
 * 4 candidates, the last clearly worse, dropped after round 3 (the
 * decision the tune itself makes, test-tune-rounds), the others on to
 * round 4; a failed visit is a round without a figure. */
static void test_page_tuning(void **state)
{
	(void)state;
	static const char *const labels[] = { "defaults", "noatime", "commit=5", "noatime,commit=5" };
	static const double level[] = { 100, 90, 80, 50 };
	struct ab_run_set set;
	ab_run_set_init(&set);
	for (unsigned round = 1; round <= 4; round++)
		for (unsigned c = 0; c < 4; c++) {
			if (round == 4 && c == 3)
				continue; /* dropped: not visited */
			struct ab_run *run = run_of(labels[c], level[c] + round % 3);
			run->tune.objective = g_strdup("max:block-write");
			run->tune.direction = g_strdup("max");
			run->tune.stage = g_strdup("race");
			run->tune.round = round;
			run->tune.candidate = g_strdup(labels[c]);
			run->tune.index = c;
			run->tune.alpha = 0.05;
			run->tune.min_rounds = 3;
			g_ptr_array_add(set.runs, run);
		}
	g_autoptr(GString) s = g_string_new(NULL);
	assert_true(ab_html_write(&set, s, NULL));
	/* The text report ends with the same race. */
	g_autoptr(GString) text = g_string_new(NULL);
	assert_true(ab_writer_write_set(&ab_writer_text, &set, text, NULL));
	ab_run_set_clear(&set);
	assert_non_null(strstr(text->str, "\ntune: objective max:block-write (higher is better), 4 candidates over 4 rounds"));
	assert_non_null(strstr(text->str, "still in the race after each round: 4 4 "));
	assert_non_null(strstr(text->str, "\n  defaults                 1.000 [1.000, 1.000]  best still in the race\n"));
	assert_non_null(strstr(text->str, "  dropped after round 3: "));
	assert_non_null(strstr(s->str, "<h2 id=\"tuning\">Tuning</h2>"));
	assert_non_null(strstr(s->str, "4 candidates over 4 rounds"));
	assert_non_null(strstr(s->str, "dropped after round 3: "));
	/* Survivors per round: none dropped before round 3. */
	assert_non_null(strstr(s->str, "<tr><th>still in the race</th><th>4</th><th>4</th>"));
	/* The ranking: the defaults, the best, first. */
	assert_non_null(strstr(s->str, "<tr><td>defaults</td><td>1.000</td>"));
	assert_non_null(strstr(s->str, "best still in the race"));
}

/* Two cells, the slower with a mean of 0: no ratio, shown as one. */
static void test_page_zero_mean(void **state)
{
	(void)state;
	struct ab_run_set set;
	ab_run_set_init(&set);
	g_ptr_array_add(set.runs, run_of("fast", 1000));
	g_ptr_array_add(set.runs, run_of("zero", 0));
	g_autoptr(GString) s = g_string_new(NULL);
	assert_true(ab_html_write(&set, s, NULL));
	ab_run_set_clear(&set);
	assert_null(strstr(s->str, "nan"));
	assert_null(strstr(s->str, "inf&#215;"));
}

/* A cell whose t interval passes 0 (issue 20): the table and the bar
 * show the log-scale interval, marked and explained; no negative end. */
static void test_page_positive_interval(void **state)
{
	(void)state;
	struct ab_run_set set;
	ab_run_set_init(&set);
	const double wild[] = { 9800, 17100, 203000 };
	for (int i = 0; i < 3; i++) {
		g_ptr_array_add(set.runs, run_of("wild", wild[i]));
		g_ptr_array_add(set.runs, run_of("calm", 100000 + 1000 * i));
	}
	g_autoptr(GString) s = g_string_new(NULL);
	assert_true(ab_html_write(&set, s, NULL));
	ab_run_set_clear(&set);
	/* In MiB/s: 588.9 KiB/s is 0.575, 1782852 is 1741. */
	assert_non_null(strstr(s->str, "<td class=\"n\">0.575 &#8211; 1741^</td>"));
	assert_non_null(strstr(s->str, "<p class=\"note\">^ after a CI: the t interval passed below 0, which a rate "
				       "cannot; this is the geometric mean&#39;s"));
	assert_non_null(strstr(s->str, "95 % CI 0.575 to 1741 (the t interval passed below 0"));
	assert_null(strstr(s->str, "&#8211; -"));
	assert_null(strstr(s->str, "CI -"));
	/* Only once, for the one cell. */
	assert_int_equal(count(s->str, "^ after a CI"), 1);
}

static struct ab_result *sweep_cell(const char *test, uint64_t fsz, uint64_t rec, double rate, const char *cache)
{
	struct ab_result *r = ab_result_new("sweep");
	r->key.test = g_strdup(test);
	r->key.file_size = fsz;
	r->key.record_size = rec;
	r->key.streams = 1;
	r->rate = rate;
	r->cache_state = g_strdup(cache);
	return r;
}

static void test_page_sweep_members(void **state)
{
	(void)state;
	struct ab_run_set set;
	ab_run_set_init(&set);
	struct ab_run *run = run_of("raid1", 500);
	struct ab_result *bw = g_ptr_array_index(run->results, 0);
	struct ab_device_io io[2] = { { g_strdup("loop0"), 0, 8 << 20, 0, 64, 10 },
				      { g_strdup("loop1"), 0, 4 << 20, 0, 32, 5 } };
	g_array_append_vals(bw->devices, io, 2);
	bw->latency = (struct ab_latency){ 100, 1000, 2000, 1500, 3000, 9000, 40000, 90000 };
	ab_run_add_result(run, sweep_cell("write", 65536, 4096, 1024.0 * 200, "cold"));
	ab_run_add_result(run, sweep_cell("write", 65536, 8192, 1024.0 * 400, "cold"));
	ab_run_add_result(run, sweep_cell("read", 65536, 4096, 1024.0 * 9000, "warm")); /* from the page cache */
	g_ptr_array_add(set.runs, run);
	g_autoptr(GString) s = g_string_new(NULL);
	assert_true(ab_html_write(&set, s, NULL));
	ab_run_set_clear(&set);
	/* One heat map per test run, on one legend; the cached read hatched. */
	assert_int_equal(count(s->str, "<svg class=\"heatmap\""), 2);
	assert_int_equal(count(s->str, "<svg class=\"legend\""), 1);
	/* The legend's swatch and the one square (of the second map: read). */
	assert_int_equal(count(s->str, "fill=\"url(#hatch"), 2);
	assert_int_equal(count(s->str, "fill=\"url(#hatch2)\""), 1);
	assert_non_null(strstr(s->str, "file 64k, record 4k: 9000 MiB/s (page cache)"));
	/* Two squares of the write map and one of the read: the same colour
	 * scale, the slowest at its dark end, the fastest at its bright end. */
	assert_non_null(strstr(s->str, "fill=\"#440154\" stroke=\"#fff\"><title>file 64k, record 4k: 200 MiB/s"));
	assert_non_null(strstr(s->str, "fill=\"#fde725\" stroke=\"#fff\"><title>file 64k, record 4k: 9000 MiB/s"));
	/* Members: a chart, and how uneven they were. */
	assert_int_equal(count(s->str, "<svg class=\"io\""), 1);
	assert_non_null(strstr(s->str, "written 2.00&#215;"));
	assert_null(strstr(s->str, "No member charts"));
	assert_int_equal(count(s->str, "<svg class=\"latency\""), 1);
	assert_null(strstr(s->str, "No heat maps"));
}

static struct ab_result *curve_row(const char *test, double offered, double rate, uint64_t p99_us)
{
	struct ab_result *r = ab_result_new("latency-curve");
	r->key.test = g_strdup(test);
	r->key.record_size = 8192;
	r->key.streams = 4;
	r->offered_rate = offered;
	r->rate = rate;
	r->latency.p50_ns = p99_us * 500;
	r->latency.p99_ns = p99_us * 1000;
	r->latency.p99_9_ns = p99_us * 2000;
	r->late_ops = 0;
	return r;
}

/* Cell "all pass" ran three passing steps twice (its answer a lower bound);
 * cell "knee" one curve whose second step went over the 10 ms target, its
 * answer read off between them. */
static void test_page_curve(void **state)
{
	(void)state;
	struct ab_run_set set;
	ab_run_set_init(&set);
	for (int k = 0; k < 2; k++) {
		struct ab_run *run = ab_run_new();
		run->cell = g_strdup("all pass");
		run->repeat = k + 1;
		for (int n = 0; n < 3; n++) {
			g_autofree char *test = g_strdup_printf("step %d", n + 1);
			ab_run_add_result(run, curve_row(test, 100 << n, (100 << n) * (0.99 + 0.01 * k), 200 + 50 * n));
		}
		struct ab_result *sz = curve_row("sizing", NAN, 400, 10000);
		sz->interpolated = FALSE;
		ab_run_add_result(run, sz);
		g_ptr_array_add(set.runs, run);
	}
	struct ab_run *run = ab_run_new();
	run->cell = g_strdup("knee <i>");
	ab_run_add_result(run, curve_row("step 1", 100, 100, 5000));
	ab_run_add_result(run, curve_row("step 2", 200, 199, 20000));
	struct ab_result *sz = curve_row("sizing", NAN, 141.4, 10000);
	sz->interpolated = TRUE;
	ab_run_add_result(run, sz);
	g_ptr_array_add(set.runs, run);
	g_autoptr(GString) s = g_string_new(NULL);
	assert_true(ab_html_write(&set, s, NULL));
	ab_run_set_clear(&set);
	const char *sec = strstr(s->str, "<h2 id=\"curve\">");
	assert_non_null(sec);
	/* After the latency percentiles, and the only section that follows. */
	assert_non_null(strstr(s->str, "<h2 id=\"latency\">"));
	assert_true(strstr(s->str, "<h2 id=\"latency\">") < sec);
	assert_int_equal(count(sec, "<svg class=\"curve\""), 1);
	assert_int_equal(count(sec, "<circle class=\"cpt\""), 3 * 2 + 2);
	assert_int_equal(count(sec, "<line class=\"target\""), 1);
	assert_int_equal(count(sec, "<path class=\"sizing\""), 2);
	assert_int_equal(count(sec, "<path class=\"cline\""), 2 * 3);
	assert_non_null(strstr(sec, ">1: 400 at least</text>"));
	assert_non_null(strstr(sec, ">2: 141 interpolated</text>"));
	assert_non_null(strstr(sec, "knee &lt;i&gt;"));
	assert_null(strstr(sec, "<i>"));
	assert_non_null(strstr(sec, "<td class=\"n\">400.0</td><td class=\"n\">400.0-400.0</td><td class=\"n\">2 of 2</td>"));
	assert_non_null(strstr(sec, ">p99 target 10.00ms</text>"));
	assert_null(strstr(sec, "No latency curve"));
}

/* The curve table's sizing IOPS follow the text's rate rule (whole part
 * from 1000, as the curve block and the sizing statement print it): 1234.7
 * is 1234 on both, where the page rounded it to 1235. */
static void test_page_curve_rate_rule(void **state)
{
	(void)state;
	struct ab_run_set set;
	ab_run_set_init(&set);
	struct ab_run *run = ab_run_new();
	run->cell = g_strdup("fast");
	ab_run_add_result(run, curve_row("step 1", 1000, 999, 5000));
	ab_run_add_result(run, curve_row("step 2", 2000, 1990, 20000));
	struct ab_result *sz = curve_row("sizing", NAN, 1234.7, 10000);
	sz->interpolated = TRUE;
	ab_run_add_result(run, sz);
	g_ptr_array_add(set.runs, run);
	g_autoptr(GString) s = g_string_new(NULL);
	assert_true(ab_html_write(&set, s, NULL));
	ab_run_set_clear(&set);
	const char *sec = strstr(s->str, "<h2 id=\"curve\">");
	assert_non_null(sec);
	assert_non_null(strstr(sec, "<td class=\"n\">1234</td>"));
	assert_null(strstr(sec, "1235"));
}

/* A run on 4 ranks gets the ranks section: a bar per rank, the straggler
 * and the outlier named in words; a run on one host gets none. */
static void test_page_ranks(void **state)
{
	(void)state;
	struct ab_run_set set;
	ab_run_set_init(&set);
	g_ptr_array_add(set.runs, rank_run_of("mpi <4>"));
	g_autoptr(GString) s = g_string_new(NULL);
	assert_true(ab_html_write(&set, s, NULL));
	ab_run_set_clear(&set);
	const char *sec = strstr(s->str, "<h2 id=\"ranks\">Ranks</h2>");
	assert_non_null(sec);
	assert_int_equal(count(sec, "<svg class=\"ranks\""), 1);
	assert_int_equal(count(sec, "<rect class=\"bar\""), 4);
	assert_non_null(strstr(sec, "Straggler: rank 2 (node-b), the last to stop"));
	assert_non_null(strstr(sec, "Outlier: rank 2 (node-b)</span>"));
	assert_non_null(strstr(sec, ">4096 outlier straggler</text>"));
	assert_int_equal(count(sec, "fill=\"#d62728\""), 1);
	assert_non_null(strstr(sec, "mpi &lt;4&gt;"));
	assert_null(strstr(s->str, "mpi <4>"));

	ab_run_set_init(&set);
	g_ptr_array_add(set.runs, run_of("one host", 1000));
	g_autoptr(GString) plain = g_string_new(NULL);
	assert_true(ab_html_write(&set, plain, NULL));
	ab_run_set_clear(&set);
	assert_null(strstr(plain->str, "id=\"ranks\""));
	assert_null(strstr(plain->str, "Straggler"));
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_escape), cmocka_unit_test(test_scale),  cmocka_unit_test(test_bar),
		cmocka_unit_test(test_colour), cmocka_unit_test(test_ticks), cmocka_unit_test(test_page),
		cmocka_unit_test(test_page_tuning),
		cmocka_unit_test(test_page_sweep_members), cmocka_unit_test(test_page_zero_mean),
		cmocka_unit_test(test_page_curve), cmocka_unit_test(test_page_positive_interval),
		cmocka_unit_test(test_page_curve_rate_rule), cmocka_unit_test(test_page_ranks),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
