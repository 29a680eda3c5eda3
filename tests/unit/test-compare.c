/* SPDX-License-Identifier: GPL-2.0-or-later */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <cmocka.h>

#include <json-glib/json-glib.h>
#include <math.h>
#include <string.h>

#include "../../reports/compare.h"
#include "../../src/base/error.h"

/* A run of cell `cell` (NULL for none) with a block-write rate and CPU, and
 * a seq-create that bonnie++ would print as +++++ when rate is NAN. */
static struct ab_run *run_of(const char *cell, const char *machine, uint64_t repeat, double rate, double cpu)
{
	struct ab_run *run = ab_run_new();
	run->cell = g_strdup(cell);
	run->machine = g_strdup(machine);
	run->repeat = repeat;
	run->run_id = g_strdup_printf("id-%s-%" G_GUINT64_FORMAT, cell ? cell : machine, repeat);
	struct ab_result *r = ab_result_new("block-write");
	r->key.file_size = 8 << 20;
	r->key.record_size = 8192;
	r->key.streams = 1;
	r->measurable = TRUE;
	r->rate = rate;
	r->cpu_percent = cpu;
	ab_run_add_result(run, r);
	r = ab_result_new("seq-create");
	r->key.streams = 1;
	r->measurable = FALSE;
	ab_run_add_result(run, r);
	return run;
}

static const struct ab_compare_column *column(const struct ab_compare *c, const char *name)
{
	for (guint i = 0; i < c->columns->len; i++) {
		const struct ab_compare_column *col = g_ptr_array_index(c->columns, i);
		if (strcmp(col->name, name) == 0)
			return col;
	}
	return NULL;
}

static const struct ab_compare_cell *cell_of(const struct ab_compare *c, const struct ab_compare_column *col,
					     const char *label)
{
	for (guint i = 0; i < col->cells->len; i++) {
		const struct ab_compare_cell *cell = g_ptr_array_index(col->cells, i);
		const struct ab_compare_group *g = g_ptr_array_index(c->groups, cell->group);
		if (strcmp(g->label, label) == 0)
			return cell;
	}
	return NULL;
}

static void add(struct ab_run_set *set, struct ab_run *run)
{
	g_ptr_array_add(set->runs, run);
}

static void test_group_labels(void **state)
{
	(void)state;
	g_autoptr(ab_run) run = ab_run_new();
	g_autofree char *none = ab_compare_group_label(run);
	assert_string_equal(none, "(unnamed)");
	run->machine = g_strdup("debian");
	g_autofree char *machine = ab_compare_group_label(run);
	assert_string_equal(machine, "debian");
	run->workload = g_strdup("bonnie");
	g_autofree char *workload = ab_compare_group_label(run);
	assert_string_equal(workload, "bonnie");
	run->target.label = g_strdup("btrfs-raid1");
	g_autofree char *both = ab_compare_group_label(run);
	assert_string_equal(both, "btrfs-raid1 bonnie");
	run->cell = g_strdup("raid10 noatime");
	g_autofree char *cell = ab_compare_group_label(run);
	assert_string_equal(cell, "raid10 noatime");
}

/* Two cells of three repeats, one failed visit, bonnie++-style unknowns. */
static void make_set(struct ab_run_set *set)
{
	ab_run_set_init(set);
	const double a[] = { 100, 104, 98 }, b[] = { 150, 149, 155 };
	for (int i = 0; i < 3; i++) {
		add(set, run_of("raid1", "host", (uint64_t)i + 1, a[i], 40 + i));
		add(set, run_of("raid10", "host", (uint64_t)i + 1, b[i], 30 + i));
	}
	struct ab_run *failed = run_of("raid10", "host", 4, 1, 1);
	failed->failure = g_strdup("mkfs.btrfs failed: device busy");
	add(set, failed);
}

static void test_build(void **state)
{
	(void)state;
	struct ab_run_set set;
	make_set(&set);
	g_autoptr(GError) error = NULL;
	struct ab_compare *c = ab_compare_build(&set, NULL, &error);
	assert_non_null(c);
	assert_int_equal(c->groups->len, 2);
	assert_int_equal(c->runs, 7);
	assert_int_equal(c->baseline, 0); /* the first group */
	/* Columns: the rate, its CPU next to it, then seq-create (no CPU). */
	assert_int_equal(c->columns->len, 3);
	assert_string_equal(((struct ab_compare_column *)g_ptr_array_index(c->columns, 0))->name, "block-write");
	assert_string_equal(((struct ab_compare_column *)g_ptr_array_index(c->columns, 1))->name, "block-write CPU");
	assert_string_equal(((struct ab_compare_column *)g_ptr_array_index(c->columns, 2))->name, "seq-create");
	const struct ab_compare_column *bw = column(c, "block-write");
	assert_true(bw->higher_better);
	assert_string_equal(bw->unit, "KiB/s");
	const struct ab_compare_cell *r1 = cell_of(c, bw, "raid1"), *r10 = cell_of(c, bw, "raid10");
	/* The failed visit is not averaged: n 3, mean of the three. */
	assert_int_equal(r10->stats.n, 3);
	assert_true(fabs(r10->stats.mean - 151.33333333333334) < 1e-9);
	assert_true(r10->best && !r1->best);
	assert_true(fabs(r1->ratio.ratio - 1) < 1e-12);
	assert_true(fabs(r10->ratio.ratio - 454.0 / 302.0) < 1e-12);
	assert_true(r10->ratio.low < r10->ratio.ratio && r10->ratio.ratio < r10->ratio.high);
	assert_true(r10->welch.p < 0.05);
	assert_string_equal(ab_compare_noise_word(&r10->welch), "beyond");
	/* The bootstrap only when asked for (the text view does not show it:
	 * on 64 MiB of runs it took 20 of the 26 s). */
	assert_true(isnan(r10->boot.low) && isnan(r10->boot.high));
	ab_compare_bootstrap(c);
	assert_true(r10->boot.low <= r10->ratio.ratio && r10->ratio.ratio <= r10->boot.high);
	/* CPU: lower is better. */
	const struct ab_compare_column *cpu = column(c, "block-write CPU");
	assert_false(cpu->higher_better);
	assert_true(cell_of(c, cpu, "raid10")->best);
	/* +++++: shown as unmeasurable, not counted. */
	const struct ab_compare_column *sc = column(c, "seq-create");
	assert_int_equal(cell_of(c, sc, "raid1")->stats.n, 0);
	assert_int_equal(cell_of(c, sc, "raid1")->unmeasurable, 3);
	assert_int_equal(sc->best, -1);
	/* The failure is listed. */
	assert_int_equal(c->failures->len, 1);
	const struct ab_compare_failure *f = g_ptr_array_index(c->failures, 0);
	assert_string_equal(f->group, "raid10");
	assert_int_equal(f->repeat, 4);
	assert_string_equal(f->reason, "mkfs.btrfs failed: device busy");
	assert_int_equal(((struct ab_compare_group *)g_ptr_array_index(c->groups, 1))->failed, 1);

	/* The text names both groups, the best, the noise test, the failure. */
	g_autofree char *text = ab_compare_text(c);
	assert_non_null(strstr(text, "baseline: each table's first group with the figure"));
	assert_non_null(strstr(text, "* raid10"));
	assert_non_null(strstr(text, "beyond noise: Welch p"));
	assert_non_null(strstr(text, "3 +++++ (too short to measure) not counted"));
	assert_non_null(strstr(text, "failed runs (listed, not averaged): 1"));
	/* CSV: a header and one row per (column, group) with figures. */
	g_autofree char *csv = ab_compare_csv(c);
	g_auto(GStrv) lines = g_strsplit(csv, "\n", -1);
	assert_int_equal(g_strv_length(lines), 1 + 6 + 1); /* last: empty after the final newline */
	assert_true(g_str_has_prefix(lines[0], "column,phase,"));
	g_auto(GStrv) head = g_strsplit(lines[0], ",", -1);
	for (int i = 1; i <= 6; i++) {
		g_auto(GStrv) f2 = g_strsplit(lines[i], ",", -1);
		assert_int_equal(g_strv_length(f2), g_strv_length(head));
	}
	/* JSON: one object that parses. */
	g_autofree char *json = ab_compare_json(c);
	g_autoptr(JsonParser) p = json_parser_new();
	assert_true(json_parser_load_from_data(p, json, -1, NULL));
	JsonObject *o = json_node_get_object(json_parser_get_root(p));
	assert_true(json_object_get_null_member(o, "baseline")); /* no --baseline: each column's own */
	assert_int_equal(json_array_get_length(json_object_get_array_member(o, "columns")), 3);
	assert_int_equal(json_array_get_length(json_object_get_array_member(o, "failures")), 1);
	ab_compare_free(c);

	/* --baseline: ratios to raid10; raid1 within/beyond by the same test. */
	c = ab_compare_build(&set, "raid10", &error);
	assert_non_null(c);
	assert_int_equal(c->baseline, 1);
	bw = column(c, "block-write");
	assert_true(fabs(cell_of(c, bw, "raid1")->ratio.ratio - 302.0 / 454.0) < 1e-12);
	ab_compare_free(c);
	/* A baseline that names no group. */
	c = ab_compare_build(&set, "raid5", &error);
	assert_null(c);
	assert_true(g_error_matches(error, AB_ERROR, AB_ERROR_USAGE));
	assert_non_null(strstr(error->message, "'raid5'"));
	assert_non_null(strstr(error->message, "'raid1', 'raid10'"));
	ab_run_set_clear(&set);
}

static void test_within_noise(void **state)
{
	(void)state;
	struct ab_run_set set;
	ab_run_set_init(&set);
	/* Overlapping samples: Welch p well above 0.05. */
	const double a[] = { 100, 110, 95 }, b[] = { 104, 97, 108 };
	for (int i = 0; i < 3; i++) {
		add(&set, run_of("ext4", "h", (uint64_t)i + 1, a[i], NAN));
		add(&set, run_of("xfs", "h", (uint64_t)i + 1, b[i], NAN));
	}
	/* An outlier is shown and still counted. */
	add(&set, run_of("xfs", "h", 4, 300, NAN));
	struct ab_run *quick = run_of("xfs", "h", 5, 103, NAN);
	((struct ab_result *)g_ptr_array_index(quick->results, 0))->measurable = FALSE;
	add(&set, quick);
	g_autoptr(GError) error = NULL;
	struct ab_compare *c = ab_compare_build(&set, NULL, &error);
	assert_non_null(c);
	/* No CPU known anywhere: no CPU column. */
	assert_null(column(c, "block-write CPU"));
	const struct ab_compare_column *bw = column(c, "block-write");
	const struct ab_compare_cell *x = cell_of(c, bw, "xfs");
	assert_int_equal(x->stats.n, 5);
	assert_int_equal(x->outliers, 1);
	assert_int_equal(x->short_runs, 1); /* counted, and said */
	assert_true(x->outlier[3]);
	assert_string_equal(ab_compare_noise_word(&x->welch), "within");
	g_autofree char *text = ab_compare_text(c);
	assert_non_null(strstr(text, "within noise: Welch p="));
	assert_non_null(strstr(text, "outlier 300.0 (repeat 4)"));
	assert_non_null(strstr(text, "1 under 0.5 s"));
	ab_compare_free(c);
	ab_run_set_clear(&set);
	/* Figures whose shortest form has an exponent and no point (json-glib
	 * 1.6 wrote "2e-05.0"): the JSON still parses. */
	ab_run_set_init(&set);
	const double tiny[] = { 2e-05, 1e-300, 3e+20 };
	for (int i = 0; i < 3; i++)
		add(&set, run_of("t", "h", (uint64_t)i + 1, tiny[i], 1e-05));
	c = ab_compare_build(&set, NULL, &error);
	ab_compare_bootstrap(c);
	g_autofree char *json = ab_compare_json(c);
	g_autoptr(JsonParser) p = json_parser_new();
	assert_true(json_parser_load_from_data(p, json, -1, NULL));
	assert_null(strstr(json, "e-05.0"));
	ab_compare_free(c);
	ab_run_set_clear(&set);
	/* No run at all. */
	ab_run_set_init(&set);
	assert_null(ab_compare_build(&set, NULL, &error));
	ab_run_set_clear(&set);
}

/* The best: higher or lower by the figure, all tied ones, none alone. */
static void test_best_rules(void **state)
{
	(void)state;
	struct ab_run_set set;
	ab_run_set_init(&set);
	for (int i = 0; i < 2; i++) {
		add(&set, run_of("a", "h", (uint64_t)i + 1, 100, 50));
		add(&set, run_of("b", "h", (uint64_t)i + 1, 100, 60));
	}
	add(&set, run_of("c", "h", 1, NAN, NAN)); /* +++++ only: never best */
	g_autoptr(GError) error = NULL;
	struct ab_compare *c = ab_compare_build(&set, "b", &error);
	assert_non_null(c);
	const struct ab_compare_column *bw = column(c, "block-write");
	assert_true(cell_of(c, bw, "a")->best && cell_of(c, bw, "b")->best);
	assert_false(cell_of(c, bw, "c")->best);
	g_autofree char *text = ab_compare_text(c);
	assert_non_null(strstr(text, "block-write (KiB/s, higher is better): no best, the groups marked '*' are tied"));
	assert_true(cell_of(c, column(c, "block-write CPU"), "a")->best);
	assert_false(cell_of(c, column(c, "block-write CPU"), "b")->best);
	ab_compare_free(c);
	ab_run_set_clear(&set);
	/* One group: nothing to be best among. */
	ab_run_set_init(&set);
	add(&set, run_of("a", "h", 1, 100, 50));
	add(&set, run_of("a", "h", 2, 110, 50));
	c = ab_compare_build(&set, NULL, &error);
	bw = column(c, "block-write");
	assert_int_equal(bw->best, -1);
	assert_false(cell_of(c, bw, "a")->best);
	ab_compare_free(c);
	ab_run_set_clear(&set);
}

/* A matrix of two workloads: the bonnie cells have no sweep figure, so the
 * sweep column's ratios are to its first group with the figure, unless
 * --baseline names one (then the others say it has no figure). */
static struct ab_run *sweep_run(const char *cell, uint64_t repeat, double rate)
{
	struct ab_run *run = ab_run_new();
	run->cell = g_strdup(cell);
	run->repeat = repeat;
	struct ab_result *r = ab_result_new("sweep");
	r->key.file_size = 4 << 20;
	r->key.record_size = 65536;
	r->key.streams = 4;
	r->key.test = g_strdup("write");
	r->measurable = TRUE;
	r->rate = rate;
	ab_run_add_result(run, r);
	return run;
}

static void test_column_baseline(void **state)
{
	(void)state;
	struct ab_run_set set;
	ab_run_set_init(&set);
	for (uint64_t i = 1; i <= 3; i++) {
		add(&set, run_of("raid1 bonnie", "h", i, 100 + (double)i, 50));
		add(&set, sweep_run("raid1 mirror", i, 200 + (double)i));
		add(&set, run_of("raid10 bonnie", "h", i, 150 + (double)i, 50));
		add(&set, sweep_run("raid10 mirror", i, 400 + (double)i));
	}
	g_autoptr(GError) error = NULL;
	struct ab_compare *c = ab_compare_build(&set, NULL, &error);
	assert_non_null(c);
	const struct ab_compare_column *bw = column(c, "block-write"), *sw = NULL;
	for (guint i = 0; i < c->columns->len; i++) {
		const struct ab_compare_column *col = g_ptr_array_index(c->columns, i);
		if (col->phase && strcmp(col->phase, "sweep") == 0 && col->figure == AB_FIGURE_RATE)
			sw = col;
	}
	assert_non_null(bw);
	assert_non_null(sw);
	assert_string_equal(((struct ab_compare_group *)g_ptr_array_index(c->groups, bw->baseline))->label, "raid1 bonnie");
	assert_string_equal(((struct ab_compare_group *)g_ptr_array_index(c->groups, sw->baseline))->label, "raid1 mirror");
	assert_float_equal(cell_of(c, sw, "raid10 mirror")->ratio.ratio, 402.0 / 202.0, 1e-9);
	assert_float_equal(cell_of(c, bw, "raid10 bonnie")->ratio.ratio, 152.0 / 102.0, 1e-9);
	g_autofree char *text = ab_compare_text(c);
	assert_null(strstr(text, "no figure of the baseline"));
	ab_compare_free(c);
	/* Named: every column's ratios are to it, or say it has none. */
	c = ab_compare_build(&set, "raid10 bonnie", &error);
	assert_non_null(c);
	sw = NULL;
	for (guint i = 0; i < c->columns->len; i++) {
		const struct ab_compare_column *col = g_ptr_array_index(c->columns, i);
		if (col->phase && strcmp(col->phase, "sweep") == 0 && col->figure == AB_FIGURE_RATE)
			sw = col;
	}
	assert_true(isnan(cell_of(c, sw, "raid10 mirror")->ratio.ratio));
	g_autofree char *named = ab_compare_text(c);
	assert_non_null(strstr(named, "no figure of the baseline 'raid10 bonnie'"));
	ab_compare_free(c);
	ab_run_set_clear(&set);
}

/* No interval of a rate below 0 (issue 20: rand-stat "-6304 to 159481"
 * with n = 3): where the t interval passes 0 the table shows the log-scale
 * one, marked, with its legend; the CSV and JSON name the method. */
static void test_positive_intervals(void **state)
{
	(void)state;
	struct ab_run_set set;
	ab_run_set_init(&set);
	const double wild[] = { 9800, 17100, 203000 }, calm[] = { 100000, 104000, 98000 }, zero[] = { 0, 0, 5000 };
	for (int i = 0; i < 3; i++) {
		add(&set, run_of("wild", "h", (uint64_t)i + 1, wild[i], 2 + 40 * (i == 2)));
		add(&set, run_of("calm", "h", (uint64_t)i + 1, calm[i], 50));
		add(&set, run_of("zero", "h", (uint64_t)i + 1, zero[i], 50));
	}
	g_autoptr(GError) error = NULL;
	struct ab_compare *c = ab_compare_build(&set, NULL, &error);
	assert_non_null(c);
	const struct ab_compare_column *bw = column(c, "block-write");
	const struct ab_compare_cell *w = cell_of(c, bw, "wild"), *k = cell_of(c, bw, "calm"), *z = cell_of(c, bw, "zero");
	assert_int_equal(w->stats.ci_method, AB_CI_LOG_T);
	assert_true(w->stats.ci_low > 588 && w->stats.ci_low < 589);
	assert_int_equal(k->stats.ci_method, AB_CI_T);
	assert_int_equal(z->stats.ci_method, AB_CI_T_CUT);
	assert_true(z->stats.ci_low == 0);
	/* CPU % is no less positive. */
	const struct ab_compare_cell *wc = cell_of(c, column(c, "block-write CPU"), "wild");
	assert_int_equal(wc->stats.ci_method, AB_CI_LOG_T);
	g_autofree char *text = ab_compare_text(c);
	assert_non_null(strstr(text, "76633 [588.9, 1782852]^"));
	assert_non_null(strstr(text, "1666 [0.0, 8837]!"));
	assert_non_null(strstr(text, "100666 [93077, 108255]  "));
	assert_non_null(strstr(text, "\n'^' after a CI: the t interval passed below 0"));
	assert_non_null(strstr(text, "\n'!' after a CI: the t interval passed below 0 and a value is 0"));
	assert_null(strstr(text, "[-"));
	g_autofree char *csv = ab_compare_csv(c);
	assert_non_null(strstr(csv, ",ci_low,ci_high,ci_method,cv_percent,"));
	assert_non_null(strstr(csv, ",log-t,"));
	assert_non_null(strstr(csv, ",t-cut-at-0,"));
	assert_non_null(strstr(csv, ",t,"));
	g_autofree char *json = ab_compare_json(c);
	assert_non_null(strstr(json, "\"ci_method\":\"log-t\""));
	assert_non_null(strstr(json, "\"ci_method\":\"t\""));
	ab_compare_free(c);
	ab_run_set_clear(&set);
	/* Nothing passes 0: no legend. */
	ab_run_set_init(&set);
	for (int i = 0; i < 3; i++)
		add(&set, run_of("calm", "h", (uint64_t)i + 1, calm[i], 50));
	c = ab_compare_build(&set, NULL, &error);
	g_autofree char *plain = ab_compare_text(c);
	assert_null(strstr(plain, "after a CI"));
	ab_compare_free(c);
	ab_run_set_clear(&set);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_group_labels),
		cmocka_unit_test(test_build),
		cmocka_unit_test(test_within_noise),
		cmocka_unit_test(test_best_rules),
		cmocka_unit_test(test_column_baseline),
		cmocka_unit_test(test_positive_intervals),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
