/* SPDX-License-Identifier: GPL-2.0-or-later */
/* The comparison for programs: CSV with one row per (column, group) and
 * named fields, and one JSON object with the same and the failed runs. */
#include "compare.h"
#include "json-fields.h"

#include <json-glib/json-glib.h>
#include <math.h>
#include <stdio.h>
#include <string.h>

static const char csv_header[] =
	"column,phase,test,file_size_bytes,record_size_bytes,streams,pass,figure,unit,better,group,runs,failed,"
	"n,unmeasurable,short,median,mean,sd,ci_low,ci_high,ci_method,cv_percent,min,max,outliers,best,baseline,"
	"ratio,ratio_low,ratio_high,bootstrap_ratio_low,bootstrap_ratio_high,welch_t,welch_df,welch_p,noise\n";

/* Every field but the first starts with a comma; text is quoted when it
 * holds a comma, quote or line end; unknown is an empty field. */
static void text(GString *s, const char *v, gboolean first)
{
	if (!first)
		g_string_append_c(s, ',');
	if (!v)
		return;
	if (!strpbrk(v, ",\"\r\n")) {
		g_string_append(s, v);
		return;
	}
	g_string_append_c(s, '"');
	for (const char *p = v; *p; p++) {
		if (*p == '"')
			g_string_append_c(s, '"');
		g_string_append_c(s, *p);
	}
	g_string_append_c(s, '"');
}

static void u64(GString *s, uint64_t v)
{
	g_string_append_c(s, ',');
	if (ab_known(v))
		g_string_append_printf(s, "%" G_GUINT64_FORMAT, v);
}

static void dbl(GString *s, double v)
{
	g_string_append_c(s, ',');
	if (isfinite(v))
		g_string_append_printf(s, "%.17g", v);
}

/* "61234.5 (repeat 2);..." of the outliers, NULL when none; to g_free. */
static char *outlier_list(const struct ab_compare_cell *cell, const char *sep, gboolean with_repeat)
{
	if (!cell->outliers)
		return NULL;
	GString *o = g_string_new(NULL);
	for (guint k = 0; k < cell->values->len; k++) {
		if (!cell->outlier[k])
			continue;
		if (o->len)
			g_string_append(o, sep);
		g_string_append_printf(o, "%.17g", g_array_index(cell->values, double, k));
		uint64_t rep = g_array_index(cell->repeats, uint64_t, k);
		if (with_repeat && ab_known(rep))
			g_string_append_printf(o, " (repeat %" G_GUINT64_FORMAT ")", rep);
	}
	return g_string_free(o, FALSE);
}

char *ab_compare_csv(const struct ab_compare *c)
{
	GString *s = g_string_new(csv_header);
	for (guint i = 0; i < c->columns->len; i++) {
		const struct ab_compare_column *col = g_ptr_array_index(c->columns, i);
		for (guint k = 0; k < col->cells->len; k++) {
			const struct ab_compare_cell *cell = g_ptr_array_index(col->cells, k);
			const struct ab_compare_group *g = g_ptr_array_index(c->groups, cell->group);
			const struct ab_stats *st = &cell->stats;
			text(s, col->name, TRUE);
			text(s, col->phase, FALSE);
			text(s, col->key.test, FALSE);
			u64(s, col->key.file_size);
			u64(s, col->key.record_size);
			u64(s, col->key.streams);
			u64(s, col->key.pass);
			text(s, ab_compare_figure_name(col->figure), FALSE);
			text(s, col->unit, FALSE);
			text(s, col->higher_better ? "higher" : "lower", FALSE);
			text(s, g->label, FALSE);
			u64(s, g->runs);
			u64(s, g->failed);
			u64(s, st->n);
			u64(s, cell->unmeasurable);
			u64(s, cell->short_runs);
			dbl(s, st->median);
			dbl(s, st->mean);
			dbl(s, st->sd);
			dbl(s, st->ci_low);
			dbl(s, st->ci_high);
			text(s, ab_stats_ci_method_name(st->ci_method), FALSE);
			dbl(s, 100 * st->cv);
			dbl(s, st->min);
			dbl(s, st->max);
			g_autofree char *outliers = outlier_list(cell, ";", FALSE);
			text(s, outliers, FALSE);
			text(s, cell->best ? "1" : "0", FALSE);
			text(s, cell->group == col->baseline ? "1" : "0", FALSE);
			dbl(s, cell->ratio.ratio);
			dbl(s, cell->ratio.low);
			dbl(s, cell->ratio.high);
			dbl(s, cell->boot.low);
			dbl(s, cell->boot.high);
			dbl(s, cell->welch.t);
			dbl(s, cell->welch.df);
			dbl(s, cell->welch.p);
			text(s, ab_compare_noise_word(&cell->welch), FALSE);
			g_string_append_c(s, '\n');
		}
	}
	return g_string_free(s, FALSE);
}

static void str_member(JsonBuilder *b, const char *key, const char *value)
{
	json_builder_set_member_name(b, key);
	ab_json_add_string(b, value);
}

/* json-glib 1.6 writes a double by its shortest form and appends ".0" when
 * that has no point, so 2e-05 (a Welch p) came out as "2e-05.0", which is no
 * JSON.  Such a value is moved by one ulp, whose shortest form has digits
 * after a point; a p or a rate is no worse for it. */
static double json_safe(double v)
{
	char buf[G_ASCII_DTOSTR_BUF_SIZE];
	for (int i = 0; i < 4; i++) {
		g_ascii_dtostr(buf, sizeof(buf), v);
		if (!strpbrk(buf, "eE") || strchr(buf, '.'))
			break;
		v = nextafter(v, 0);
	}
	return v;
}

static void dbl_member(JsonBuilder *b, const char *key, double v)
{
	json_builder_set_member_name(b, key);
	if (isfinite(v))
		json_builder_add_double_value(b, json_safe(v));
	else
		json_builder_add_null_value(b);
}

static void u64_member(JsonBuilder *b, const char *key, uint64_t v)
{
	json_builder_set_member_name(b, key);
	if (ab_known(v) && v <= INT64_MAX)
		json_builder_add_int_value(b, (int64_t)v);
	else
		json_builder_add_null_value(b);
}

static void bool_member(JsonBuilder *b, const char *key, gboolean v)
{
	json_builder_set_member_name(b, key);
	json_builder_add_boolean_value(b, v);
}

static void json_cell(JsonBuilder *b, const struct ab_compare *c, const struct ab_compare_column *col,
		      const struct ab_compare_cell *cell)
{
	const struct ab_compare_group *g = g_ptr_array_index(c->groups, cell->group);
	const struct ab_stats *st = &cell->stats;
	json_builder_begin_object(b);
	str_member(b, "group", g->label);
	u64_member(b, "n", st->n);
	u64_member(b, "unmeasurable", cell->unmeasurable);
	u64_member(b, "short", cell->short_runs);
	dbl_member(b, "median", st->median);
	dbl_member(b, "mean", st->mean);
	dbl_member(b, "sd", st->sd);
	dbl_member(b, "ci_low", st->ci_low);
	dbl_member(b, "ci_high", st->ci_high);
	str_member(b, "ci_method", ab_stats_ci_method_name(st->ci_method));
	dbl_member(b, "cv_percent", 100 * st->cv);
	dbl_member(b, "min", st->min);
	dbl_member(b, "max", st->max);
	json_builder_set_member_name(b, "values");
	json_builder_begin_array(b);
	for (guint k = 0; k < cell->values->len; k++) {
		json_builder_begin_object(b);
		dbl_member(b, "value", g_array_index(cell->values, double, k));
		u64_member(b, "repeat", g_array_index(cell->repeats, uint64_t, k));
		bool_member(b, "outlier", cell->outlier[k]);
		json_builder_end_object(b);
	}
	json_builder_end_array(b);
	u64_member(b, "outliers", cell->outliers);
	bool_member(b, "best", cell->best);
	bool_member(b, "baseline", cell->group == col->baseline);
	dbl_member(b, "ratio", cell->ratio.ratio);
	dbl_member(b, "ratio_low", cell->ratio.low);
	dbl_member(b, "ratio_high", cell->ratio.high);
	dbl_member(b, "bootstrap_ratio_low", cell->boot.low);
	dbl_member(b, "bootstrap_ratio_high", cell->boot.high);
	dbl_member(b, "welch_t", cell->welch.t);
	dbl_member(b, "welch_df", cell->welch.df);
	dbl_member(b, "welch_p", cell->welch.p);
	str_member(b, "noise", ab_compare_noise_word(&cell->welch));
	json_builder_end_object(b);
}

char *ab_compare_json(const struct ab_compare *c)
{
	g_autoptr(JsonBuilder) b = json_builder_new();
	json_builder_begin_object(b);
	str_member(b, "format", "arraybench-compare");
	u64_member(b, "format_version", 1);
	u64_member(b, "confidence_percent", (uint64_t)llround(100 * AB_COMPARE_CONFIDENCE));
	/* --baseline's group; null when each column's is its first group with the figure. */
	str_member(b, "baseline",
		   c->baseline_given ? ((struct ab_compare_group *)g_ptr_array_index(c->groups, c->baseline))->label : NULL);
	json_builder_set_member_name(b, "methods");
	json_builder_begin_object(b);
	str_member(b, "interval",
		   "mean, Student t (ci_method t); where that passes below 0, which no figure here can, t on the logs "
		   "of the values, the geometric mean's (log-t), or with a value of 0 the t interval cut at 0 "
		   "(t-cut-at-0)");
	str_member(b, "ratio",
		   "mean over the baseline's mean; interval by the delta method on the log, Welch-Satterthwaite df");
	str_member(b, "bootstrap",
		   "percentile bootstrap of the ratio of means, up to 10000 resamples, fixed seed");
	str_member(b, "noise", "Welch's t-test against the baseline, two-sided; within noise when p >= 0.05");
	str_member(b, "outliers", "beyond 3 scaled MADs (1.4826 MAD) of the median; shown, still counted");
	str_member(b, "best", "best mean: highest rate, lowest CPU and latency");
	json_builder_end_object(b);
	u64_member(b, "runs", c->runs);
	json_builder_set_member_name(b, "groups");
	json_builder_begin_array(b);
	for (guint i = 0; i < c->groups->len; i++) {
		const struct ab_compare_group *g = g_ptr_array_index(c->groups, i);
		json_builder_begin_object(b);
		str_member(b, "label", g->label);
		u64_member(b, "runs", g->runs);
		u64_member(b, "failed", g->failed);
		json_builder_set_member_name(b, "file_sizes_bytes");
		json_builder_begin_array(b);
		for (guint k = 0; k < g->file_sizes->len; k++)
			json_builder_add_int_value(b, (int64_t)MIN(g_array_index(g->file_sizes, uint64_t, k), (uint64_t)INT64_MAX));
		json_builder_end_array(b);
		json_builder_end_object(b);
	}
	json_builder_end_array(b);
	json_builder_set_member_name(b, "columns");
	json_builder_begin_array(b);
	for (guint i = 0; i < c->columns->len; i++) {
		const struct ab_compare_column *col = g_ptr_array_index(c->columns, i);
		json_builder_begin_object(b);
		str_member(b, "column", col->name);
		str_member(b, "phase", col->phase);
		str_member(b, "test", col->key.test);
		u64_member(b, "file_size_bytes", col->key.file_size);
		u64_member(b, "record_size_bytes", col->key.record_size);
		u64_member(b, "streams", col->key.streams);
		u64_member(b, "pass", col->key.pass);
		str_member(b, "figure", ab_compare_figure_name(col->figure));
		str_member(b, "unit", col->unit);
		str_member(b, "better", col->higher_better ? "higher" : "lower");
		str_member(b, "best", col->best >= 0 ? ((struct ab_compare_group *)g_ptr_array_index(
								c->groups, ((struct ab_compare_cell *)g_ptr_array_index(col->cells, col->best))->group))->label
						      : NULL);
		dbl_member(b, "best_vs_next_welch_p", col->best_vs_next.p);
		str_member(b, "baseline", ((struct ab_compare_group *)g_ptr_array_index(c->groups, col->baseline))->label);
		json_builder_set_member_name(b, "groups");
		json_builder_begin_array(b);
		for (guint k = 0; k < col->cells->len; k++)
			json_cell(b, c, col, g_ptr_array_index(col->cells, k));
		json_builder_end_array(b);
		json_builder_end_object(b);
	}
	json_builder_end_array(b);
	json_builder_set_member_name(b, "failures");
	json_builder_begin_array(b);
	for (guint i = 0; i < c->failures->len; i++) {
		const struct ab_compare_failure *f = g_ptr_array_index(c->failures, i);
		json_builder_begin_object(b);
		str_member(b, "group", f->group);
		str_member(b, "run_id", f->run_id);
		u64_member(b, "repeat", f->repeat);
		str_member(b, "reason", f->reason);
		json_builder_end_object(b);
	}
	json_builder_end_array(b);
	ab_json_add_findings(b, c->findings);
	json_builder_end_object(b);
	g_autoptr(JsonGenerator) gen = json_generator_new();
	g_autoptr(JsonNode) root = json_builder_get_root(b);
	json_generator_set_root(gen, root);
	char *out = json_generator_to_data(gen, NULL);
	char *line = g_strconcat(out, "\n", NULL);
	g_free(out);
	return line;
}
