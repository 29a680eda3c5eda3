/* SPDX-License-Identifier: GPL-2.0-or-later */
/* The comparison as tables a storage engineer reads: one per column, a row
 * per group with its spread, its ratio to the baseline and whether that
 * difference is within the noise, the best marked. */
#include "compare.h"
#include "format.h"
#include "report.h"
#include "../src/base/error.h"

#include <math.h>
#include <stdio.h>
#include <string.h>

/* A figure in its column's terms; "-" when unknown. */
static void figure_text(const struct ab_compare_column *col, double v, char *out, size_t len)
{
	if (!isfinite(v))
		snprintf(out, len, "-");
	else if (col->figure == AB_FIGURE_P99)
		ab_format_latency((uint64_t)llround(v), out, len);
	else if (col->figure == AB_FIGURE_RATE)
		ab_format_rate(v, out, len); /* as a run's table prints it */
	else
		snprintf(out, len, "%.1f", v);
}

/* After an interval that is not the mean's t interval: which it is (the
 * legend's lines, ci_legend(), say what the marks mean). */
static const char *ci_mark(enum ab_ci_method m)
{
	return m == AB_CI_LOG_T ? "^" : m == AB_CI_T_CUT ? "!" : "";
}

/* The legend of the marks the tables use, only those used. */
static void ci_legend(GString *s, const struct ab_compare *c)
{
	gboolean used[AB_CI_T_CUT + 1] = { FALSE };
	for (guint i = 0; i < c->columns->len; i++) {
		const struct ab_compare_column *col = g_ptr_array_index(c->columns, i);
		for (guint k = 0; k < col->cells->len; k++)
			used[((const struct ab_compare_cell *)g_ptr_array_index(col->cells, k))->stats.ci_method] = TRUE;
	}
	if (used[AB_CI_LOG_T])
		g_string_append(s, "'^' after a CI: the t interval passed below 0, which no figure here can; shown instead the\n"
				   "95% CI of the geometric mean, t on the logs of the values (exp(mean log +- t sd log / sqrt n))\n");
	if (used[AB_CI_T_CUT])
		g_string_append(s, "'!' after a CI: the t interval passed below 0 and a value is 0 (it has no log): cut at 0\n");
}

/* The words for a group's difference from the baseline. */
static void difference(GString *note, const struct ab_compare *c, const struct ab_compare_column *col,
		       const struct ab_compare_cell *cell)
{
	if (cell->group == col->baseline || cell->stats.n == 0)
		return;
	const struct ab_compare_cell *base = NULL;
	for (guint k = 0; k < col->cells->len; k++) {
		const struct ab_compare_cell *other = g_ptr_array_index(col->cells, k);
		if (other->group == col->baseline)
			base = other;
	}
	if (!base || base->stats.n == 0) {
		const struct ab_compare_group *g = g_ptr_array_index(c->groups, col->baseline);
		g_autofree char *label = ab_one_line(g->label);
		g_string_append_printf(note, "no figure of the baseline '%s'", label);
	} else if (cell->stats.n < 2 || base->stats.n < 2) {
		g_string_append_printf(note, "too few runs for a test (n=%zu, baseline n=%zu)", cell->stats.n,
				       base->stats.n);
	} else {
		g_autofree char *noise = ab_compare_noise_text(&cell->welch);
		g_string_append(note, noise);
	}
}

/* Characters a cell takes on screen; bytes for text that is not UTF-8 (a
 * Latin-1 machine name), which g_utf8_strlen must not be given. */
static int width_of(const char *v)
{
	return g_utf8_validate(v, -1, NULL) ? (int)g_utf8_strlen(v, -1) : (int)strlen(v);
}

enum { COL_MARK, COL_GROUP, COL_N, COL_MEDIAN, COL_CI, COL_CV, COL_RATIO, COL_NOTE, COLS };

static void column_table(GString *s, const struct ab_compare *c, const struct ab_compare_column *col)
{
	/* Latency shows its own units ("87us"). */
	if (col->figure == AB_FIGURE_P99)
		g_string_append_printf(s, "\n%s (lower is better)", col->name);
	else
		g_string_append_printf(s, "\n%s (%s, %s is better)", col->name, col->unit,
				       col->higher_better ? "higher" : "lower");
	if (col->best >= 0) {
		const struct ab_compare_cell *best = g_ptr_array_index(col->cells, col->best);
		g_autofree char *label = ab_one_line(((struct ab_compare_group *)g_ptr_array_index(c->groups, best->group))->label);
		const struct ab_compare_cell *next = col->runner_up >= 0 ? g_ptr_array_index(col->cells, col->runner_up) : NULL;
		if (next && next->best)
			g_string_append(s, ": no best, the groups marked '*' are tied");
		else
			g_string_append_printf(s, ": best %s", label);
		if (next && !next->best && !isnan(col->best_vs_next.p)) {
			g_autofree char *next_label =
				ab_one_line(((struct ab_compare_group *)g_ptr_array_index(c->groups, next->group))->label);
			g_autofree char *noise = ab_compare_noise_text(&col->best_vs_next);
			g_string_append_printf(s, "; against the next, %s: %s", next_label, noise);
		}
	}
	g_string_append_c(s, '\n');
	/* The rows as text first, then the widths they need. */
	guint rows = col->cells->len + 1;
	g_autoptr(GPtrArray) cells = g_ptr_array_new_with_free_func(g_free);
	static const char *const head[COLS] = { "", "group", "n", "median", "mean [95% CI]", "CV%",
						"ratio to baseline [95% CI]", "difference; notes" };
	for (int k = 0; k < COLS; k++)
		g_ptr_array_add(cells, g_strdup(head[k]));
	for (guint i = 0; i < col->cells->len; i++) {
		const struct ab_compare_cell *cell = g_ptr_array_index(col->cells, i);
		const struct ab_stats *st = &cell->stats;
		char median[32], mean[32], lo[32], hi[32];
		if (st->n == 0 && cell->unmeasurable)
			snprintf(median, sizeof(median), "+++++");
		else
			figure_text(col, st->median, median, sizeof(median));
		figure_text(col, st->mean, mean, sizeof(mean));
		figure_text(col, st->ci_low, lo, sizeof(lo));
		figure_text(col, st->ci_high, hi, sizeof(hi));
		g_ptr_array_add(cells, g_strdup(cell->best ? "*" : ""));
		g_ptr_array_add(cells, ab_one_line(((struct ab_compare_group *)g_ptr_array_index(c->groups, cell->group))->label));
		g_ptr_array_add(cells, g_strdup_printf("%zu", st->n));
		g_ptr_array_add(cells, g_strdup(median));
		g_ptr_array_add(cells, isnan(st->ci_low) ? g_strdup(mean)
							 : g_strdup_printf("%s [%s, %s]%s", mean, lo, hi, ci_mark(st->ci_method)));
		g_ptr_array_add(cells, !isfinite(st->cv) ? g_strdup("-") : g_strdup_printf("%.1f", 100 * st->cv));
		/* (Figures near DBL_MAX overflow the spread: shown as unknown.) */
		if (cell->group == col->baseline)
			g_ptr_array_add(cells, g_strdup("baseline"));
		else if (!isfinite(cell->ratio.ratio))
			g_ptr_array_add(cells, g_strdup("-"));
		else if (!isfinite(cell->ratio.low) || !isfinite(cell->ratio.high))
			g_ptr_array_add(cells, g_strdup_printf("%.3f", cell->ratio.ratio));
		else
			g_ptr_array_add(cells, g_strdup_printf("%.3f [%.3f, %.3f]", cell->ratio.ratio, cell->ratio.low,
							       cell->ratio.high));
		GString *note = g_string_new(NULL);
		difference(note, c, col, cell);
		if (cell->unmeasurable)
			g_string_append_printf(note, "%s%zu +++++ (too short to measure) not counted", note->len ? "; " : "",
					       cell->unmeasurable);
		if (cell->short_runs)
			g_string_append_printf(note, "%s%zu under %.1f s (too short for bonnie++: +++++)",
					       note->len ? "; " : "", cell->short_runs, AB_CSV_MIN_TIME_S);
		if (cell->outliers) {
			g_string_append_printf(note, "%soutlier%s", note->len ? "; " : "", cell->outliers > 1 ? "s" : "");
			/* A handful by value; past it a count (a group of a
			 * thousand runs may have hundreds). */
			size_t shown = 0;
			for (guint k = 0; k < cell->values->len; k++) {
				if (!cell->outlier[k])
					continue;
				if (++shown > 5) {
					g_string_append_printf(note, " and %zu more", cell->outliers - 5);
					break;
				}
				if (shown > 1)
					g_string_append_c(note, ',');
				char v[32];
				figure_text(col, g_array_index(cell->values, double, k), v, sizeof(v));
				uint64_t rep = g_array_index(cell->repeats, uint64_t, k);
				if (ab_known(rep))
					g_string_append_printf(note, " %s (repeat %" G_GUINT64_FORMAT ")", v, rep);
				else
					g_string_append_printf(note, " %s", v);
			}
		}
		g_ptr_array_add(cells, g_string_free(note, FALSE));
	}
	int w[COLS] = { 1 }; /* the mark's column, even when none is marked */
	for (guint r = 0; r < rows; r++)
		for (int k = 0; k < COLS; k++)
			w[k] = MAX(w[k], width_of(g_ptr_array_index(cells, r * COLS + k)));
	w[COL_GROUP] = MIN(w[COL_GROUP], 40);
	for (guint r = 0; r < rows; r++) {
		GString *line = g_string_new(NULL);
		for (int k = 0; k < COLS; k++) {
			const char *v = g_ptr_array_index(cells, r * COLS + k);
			int pad = MAX(0, w[k] - width_of(v));
			/* Names left, figures right, the note last and unpadded. */
			gboolean left = k == COL_MARK || k == COL_GROUP || k == COL_NOTE;
			if (k == COL_NOTE) {
				g_string_append(line, v);
				break;
			}
			if (!left)
				g_string_append_printf(line, "%*s", pad, "");
			g_string_append(line, v);
			if (left)
				g_string_append_printf(line, "%*s", pad, "");
			g_string_append(line, k == COL_MARK ? " " : "  ");
		}
		while (line->len && line->str[line->len - 1] == ' ')
			g_string_truncate(line, line->len - 1);
		g_string_append_printf(s, "%s\n", line->str);
		g_string_free(line, TRUE);
	}
}

char *ab_compare_text(const struct ab_compare *c)
{
	GString *s = g_string_new(NULL);
	const struct ab_compare_group *base = g_ptr_array_index(c->groups, c->baseline);
	g_autofree char *base_label = ab_one_line(base->label);
	g_string_append_printf(s, "comparison of %u group%s (%u run%s); ", c->groups->len, c->groups->len == 1 ? "" : "s",
			       c->runs, c->runs == 1 ? "" : "s");
	if (c->baseline_given)
		g_string_append_printf(s, "baseline '%s'\n", base_label);
	else
		g_string_append(s, "baseline: each table's first group with the figure (--baseline LABEL sets one)\n");
	g_string_append(s,
			"n: runs with the figure; mean's 95% CI: Student t; CV: sd / mean; ratio: mean / the baseline's\n"
			"mean, its 95% CI by the delta method on the log of the means (Welch-Satterthwaite df);\n"
			"difference: Welch's t-test against the baseline, within noise when p >= 0.05; '*': best mean;\n"
			"outliers (n >= 5: beyond 3 scaled MADs of the median) are shown and still counted\n");
	ci_legend(s, c);
	int w = 5;
	for (guint i = 0; i < c->groups->len; i++) {
		g_autofree char *label = ab_one_line(((struct ab_compare_group *)g_ptr_array_index(c->groups, i))->label);
		w = MAX(w, MIN(width_of(label), 40));
	}
	/* (w: the failed runs' list below) */
	for (guint i = 0; i < c->columns->len; i++)
		column_table(s, c, g_ptr_array_index(c->columns, i));
	if (!c->columns->len)
		g_string_append(s, "\nno figure to compare\n");
	/* (Groups that ran different file sizes, which the columns do not
	 * tell apart, are a finding: conditions-differ.) */
	if (c->findings->len)
		g_string_append_c(s, '\n');
	ab_findings_text(s, c->findings, "findings", TRUE);
	if (c->failures->len) {
		g_string_append_printf(s, "\nfailed runs (listed, not averaged): %u\n", c->failures->len);
		for (guint i = 0; i < c->failures->len; i++) {
			const struct ab_compare_failure *f = g_ptr_array_index(c->failures, i);
			g_autofree char *label = ab_one_line(f->group);
			g_autofree char *reason = ab_one_line(f->reason);
			g_autofree char *id = ab_one_line(f->run_id ? f->run_id : "-");
			g_string_append_printf(s, "  %-*s ", w, label);
			if (ab_known(f->repeat))
				g_string_append_printf(s, "repeat %" G_GUINT64_FORMAT " ", f->repeat);
			g_string_append_printf(s, "run %s: %s\n", id, reason);
		}
	}
	return g_string_free(s, FALSE);
}
