/* SPDX-License-Identifier: GPL-2.0-or-later */
/* The HTML report's rates: a summary of who wins each phase, then a bar
 * chart per phase (mean, 95 % interval, each run as a dot) with its
 * figures in a table under it. */
#include "html-sections.h"
#include "format.h"
#include "compare.h"
#include "../src/model/stats.h"

#include <math.h>
#include <stdio.h>
#include <string.h>

/* What a cell measured in a series: its runs' rates and their summary. */
struct figures {
	GArray *values;          /* double, one a run that has the result */
	struct ab_stats st;
	gboolean unmeasurable;   /* a run lasted under bonnie++'s minimum */
	gboolean present;        /* some run of the cell ran the phase (else it gets no row) */
};

static void figures_get(const struct ab_html_cell *c, const struct ab_html_series *se, struct figures *f)
{
	f->values = g_array_new(FALSE, FALSE, sizeof(double));
	f->unmeasurable = f->present = FALSE;
	for (guint k = 0; k < c->runs->len; k++) {
		const struct ab_result *r = ab_html_find(g_ptr_array_index(c->runs, k), se);
		if (!r)
			continue;
		f->present = TRUE;
		if (isfinite(r->rate))
			g_array_append_val(f->values, r->rate);
		f->unmeasurable |= !r->measurable;
	}
	/* A rate is never negative: no interval passing below 0. */
	ab_stats_describe_positive((double *)(void *)f->values->data, f->values->len, 0.95, &f->st);
}

/* The mark after an interval that is not the t interval of the mean, and
 * its words (the note under the table, the bar's tooltip). */
static const char *ci_mark(enum ab_ci_method m)
{
	return m == AB_CI_LOG_T ? "^" : m == AB_CI_T_CUT ? "!" : "";
}

static const char *ci_words(enum ab_ci_method m)
{
	return m == AB_CI_LOG_T ? "the t interval passed below 0, which a rate cannot; this is the geometric "
				  "mean's, t on the logs of the runs' rates"
	       : m == AB_CI_T_CUT ? "the t interval passed below 0 and a run's rate is 0 (it has no log): cut at 0"
				  : NULL;
}

/* The unit a chart shows, scaled to its figures (KiB/s up to GiB/s). */
struct shown_unit {
	double div;
	const char *name;
};

static struct shown_unit shown_unit(const char *unit, double max)
{
	if (g_str_equal(unit, "KiB/s")) {
		if (max >= 1024.0 * 1024 * 10)
			return (struct shown_unit){ 1024.0 * 1024, "GiB/s" };
		if (max >= 1024.0 * 10)
			return (struct shown_unit){ 1024.0, "MiB/s" };
	}
	return (struct shown_unit){ 1, unit };
}

/* Best and next-best cell by mean; -1 when there is none. */
/* A ratio as "1.20x"; "-" when there is none (the other cell's mean
 * is 0: it would print "nan"). */
static void times(GString *s, double ratio)
{
	char r[32];
	ab_format_ratio(ratio, r, sizeof(r));
	if (isfinite(ratio))
		g_string_append_printf(s, "%s&#215;", r);
	else
		g_string_append(s, "-");
}

static void ranking(const struct figures *f, guint n, int *best, int *next)
{
	*best = *next = -1;
	for (guint i = 0; i < n; i++) {
		if (!isfinite(f[i].st.mean))
			continue;
		if (*best < 0 || f[i].st.mean > f[*best].st.mean) {
			*next = *best;
			*best = (int)i;
		} else if (*next < 0 || f[i].st.mean > f[*next].st.mean) {
			*next = (int)i;
		}
	}
}

/* Do the two cells' figures differ beyond their noise?  Said as `report
 * --compare` says it (Welch's t-test), so the page and the table agree. */
static char *noise_words(const struct figures *a, const struct figures *b)
{
	struct ab_welch w;
	ab_stats_welch((double *)(void *)a->values->data, a->values->len, (double *)(void *)b->values->data,
		       b->values->len, &w);
	return ab_compare_noise_text(&w);
}

static void figures_free(struct figures *f, guint n)
{
	for (guint i = 0; i < n; i++)
		g_array_unref(f[i].values);
	g_free(f);
}

static struct figures *series_figures(const struct ab_html_page *page, const struct ab_html_series *se)
{
	struct figures *f = g_new0(struct figures, page->cells->len);
	for (guint i = 0; i < page->cells->len; i++)
		figures_get(g_ptr_array_index(page->cells, i), se, &f[i]);
	return f;
}

/* Seeks and block writes first: what the comparison is for. */
static int series_rank(const struct ab_html_series *se)
{
	return g_str_equal(se->phase, "block-write") ? 0 : g_str_equal(se->phase, "seeks") ? 1 : 2;
}

static gint by_rank(gconstpointer a, gconstpointer b)
{
	const struct ab_html_series *x = *(struct ab_html_series *const *)a, *y = *(struct ab_html_series *const *)b;
	return series_rank(x) - series_rank(y);
}

static GPtrArray *ordered_series(const struct ab_html_page *page)
{
	GPtrArray *o = g_ptr_array_new();
	for (guint i = 0; i < page->series->len; i++)
		g_ptr_array_add(o, g_ptr_array_index(page->series, i));
	/* g_ptr_array_sort is stable (a merge sort) since glib 2.32. */
	g_ptr_array_sort(o, by_rank);
	return o;
}

void ab_html_summary(GString *s, const struct ab_html_page *page)
{
	g_string_append(s, "<h2 id=\"summary\">Who wins</h2>\n");
	if (!page->series->len) {
		ab_html_none(s, "No phase results to compare: the runs hold only sweep cells, or nothing.");
		return;
	}
	if (page->cells->len < 2) {
		ab_html_none(s, "One cell only: nothing to compare. The charts below show its figures and their spread.");
		return;
	}
	g_string_append(s, "<table><tr><th>phase</th><th>best cell (mean)</th><th>next</th><th>best / next</th>"
			   "<th>noise</th></tr>\n");
	g_autoptr(GPtrArray) order = ordered_series(page);
	for (guint i = 0; i < order->len; i++) {
		const struct ab_html_series *se = g_ptr_array_index(order, i);
		struct figures *f = series_figures(page, se);
		int best, next;
		ranking(f, page->cells->len, &best, &next);
		guint idx = 0;
		g_ptr_array_find(page->series, se, &idx);
		g_string_append_printf(s, "<tr%s><td><a href=\"#rate-%u\">", series_rank(se) < 2 ? " class=\"key\"" : "",
				       idx);
		ab_html_escape(s, se->title);
		g_string_append(s, "</a></td>");
		const char *unit = ab_html_unit(se->phase);
		if (best < 0) {
			g_string_append(s, "<td colspan=\"4\">no figures</td></tr>\n");
			figures_free(f, page->cells->len);
			continue;
		}
		struct shown_unit u = shown_unit(unit, f[best].st.mean);
		char v[32];
		ab_format_chart_figure(f[best].st.mean / u.div, v, sizeof(v));
		g_string_append(s, "<td>");
		ab_html_cell_name(s, g_ptr_array_index(page->cells, best));
		g_string_append_printf(s, " (%s ", v);
		ab_html_escape(s, u.name);
		g_string_append(s, ")</td><td>");
		if (next < 0) {
			g_string_append(s, "-</td><td>-</td><td>only one cell has figures</td></tr>\n");
		} else {
			ab_html_cell_name(s, g_ptr_array_index(page->cells, next));
			double ratio = f[next].st.mean > 0 ? f[best].st.mean / f[next].st.mean : NAN;
			g_string_append(s, "</td><td class=\"n\">");
			times(s, ratio);
			g_string_append(s, "</td><td>");
			g_autofree char *noise = noise_words(&f[best], &f[next]);
			ab_html_escape(s, noise);
			g_string_append(s, "</td></tr>\n");
		}
		figures_free(f, page->cells->len);
	}
	g_string_append(s, "</table>\n");
}

#define W 560.0
#define LABEL_W 170.0
#define RIGHT 70.0
#define ROW 28.0
#define BAR 17.0
#define TOP 6.0

static void chart(GString *s, const struct ab_html_page *page, const struct ab_html_series *se, struct figures *f,
		  struct shown_unit u)
{
	/* A row per cell that ran the phase: a matrix of two workloads would
	 * otherwise give half the rows of every chart to cells without it. */
	guint n = 0;
	for (guint i = 0; i < page->cells->len; i++)
		n += f[i].present;
	double max = 0;
	for (guint i = 0; i < page->cells->len; i++) {
		for (guint k = 0; k < f[i].values->len; k++)
			max = MAX(max, g_array_index(f[i].values, double, k));
		if (isfinite(f[i].st.ci_high))
			max = MAX(max, f[i].st.ci_high);
	}
	double lo = 0, hi = max / u.div;
	ab_svg_nice_range(&lo, &hi, FALSE);
	struct ab_svg_scale sc = { lo, hi, LABEL_W, W - RIGHT, FALSE };
	double axis_y = TOP + n * ROW + 2, h = axis_y + 38;
	g_string_append_printf(s, "<svg class=\"bars\" width=\"%.0f\" height=\"%.0f\" "
				  "viewBox=\"0 0 %.0f %.0f\" role=\"img\">\n",
			       W, h, W, h);
	g_autofree char *axis_title = g_strdup_printf("%s (mean of each cell's runs)", u.name);
	ab_svg_x_axis(s, &sc, TOP, axis_y, axis_title);
	g_string_append_printf(s, "<line class=\"axis\" x1=\"%.1f\" y1=\"%.1f\" x2=\"%.1f\" y2=\"%.1f\"/>\n", LABEL_W, TOP,
			       LABEL_W, axis_y);
	for (guint i = 0, row = 0; i < page->cells->len; i++) {
		if (!f[i].present)
			continue;
		const struct ab_html_cell *c = g_ptr_array_index(page->cells, i);
		double y = TOP + row++ * ROW + (ROW - BAR) / 2;
		g_autofree char *lab = ab_html_short_label(c, 24);
		g_string_append_printf(s, "<text x=\"%.1f\" y=\"%.1f\" text-anchor=\"end\">", LABEL_W - 6, y + BAR / 2 + 4);
		ab_html_escape(s, lab);
		g_string_append(s, "<title>");
		ab_html_escape(s, c->label);
		g_string_append(s, "</title></text>\n");
		const struct ab_stats *st = &f[i].st;
		char m[32], lo_t[32], hi_t[32];
		ab_format_chart_figure(st->mean / u.div, m, sizeof(m));
		ab_format_chart_figure(st->ci_low / u.div, lo_t, sizeof(lo_t));
		ab_format_chart_figure(st->ci_high / u.div, hi_t, sizeof(hi_t));
		const char *how = ci_words(st->ci_method);
		g_autofree char *tip = g_strdup_printf("%s: mean %s %s, 95 %% CI %s to %s%s%s%s, n=%zu", c->label, m, u.name,
						       lo_t, hi_t, how ? " (" : "", how ? how : "", how ? ")" : "", st->n);
		if (!ab_svg_hbar(s, &sc, y, BAR, st->mean / u.div, st->ci_low / u.div, st->ci_high / u.div, c->colour, tip)) {
			ab_svg_text(s, LABEL_W + 6, y + BAR / 2 + 4, "start", "class=\"i\"", "no figure");
			continue;
		}
		/* Each run, an outlier (3 scaled MADs off the median) in red:
		 * shown, never dropped. */
		g_autofree bool *out = g_new0(bool, f[i].values->len + 1);
		ab_stats_outliers((double *)(void *)f[i].values->data, f[i].values->len, out);
		for (guint k = 0; k < f[i].values->len; k++)
			g_string_append_printf(s,
					       "<circle cx=\"%.1f\" cy=\"%.1f\" r=\"%s\" fill=\"%s\" stroke=\"#222\" "
					       "stroke-width=\"1\"/>\n",
					       ab_svg_map(&sc, g_array_index(f[i].values, double, k) / u.div),
					       y + BAR / 2 + (k % 2 ? 4.5 : -4.5) * (f[i].values->len > 1),
					       out[k] ? "3.4" : "2.6", out[k] ? "#d62728" : "#fff");
		double end = ab_svg_map(&sc, MAX(st->mean, isfinite(st->ci_high) ? st->ci_high : 0) / u.div);
		for (guint k = 0; k < f[i].values->len; k++)
			end = MAX(end, ab_svg_map(&sc, g_array_index(f[i].values, double, k) / u.div));
		ab_svg_text(s, end + 5, y + BAR / 2 + 4, "start", NULL, m);
	}
	g_string_append(s, "</svg>\n");
}

static void table(GString *s, const struct ab_html_page *page, struct figures *f, struct shown_unit u, int best)
{
	g_string_append(s, "<div class=\"scroll\"><table><tr><th>cell</th><th>n</th><th>mean</th><th>median</th><th>95 % CI</th>"
			   "<th>CV</th><th>vs first<br><small>95 % CI</small></th></tr>\n");
	/* Ratios to the first cell with a figure of this phase. */
	guint first = 0;
	while (first + 1 < page->cells->len && f[first].st.n == 0)
		first++;
	for (guint i = 0; i < page->cells->len; i++) {
		if (!f[i].present)
			continue;
		const struct ab_stats *st = &f[i].st;
		char m[32], md[32], lo[32], hi[32];
		ab_format_chart_figure(st->mean / u.div, m, sizeof(m));
		ab_format_chart_figure(st->median / u.div, md, sizeof(md));
		ab_format_chart_figure(st->ci_low / u.div, lo, sizeof(lo));
		ab_format_chart_figure(st->ci_high / u.div, hi, sizeof(hi));
		g_string_append_printf(s, "<tr%s><td>", (int)i == best && page->cells->len > 1 ? " class=\"best\"" : "");
		ab_html_cell_name(s, g_ptr_array_index(page->cells, i));
		if ((int)i == best && page->cells->len > 1)
			g_string_append(s, " &#9733;");
		if (f[i].unmeasurable)
			g_string_append(s, " <span class=\"warn\" title=\"lasted under the minimum time: bonnie++ "
					   "prints +++++\">(too short)</span>");
		g_string_append_printf(s, "</td><td class=\"n\">%zu</td><td class=\"n\">%s</td><td class=\"n\">%s</td>",
				       st->n, m, md);
		if (isfinite(st->ci_low))
			g_string_append_printf(s, "<td class=\"n\">%s &#8211; %s%s</td>", lo, hi, ci_mark(st->ci_method));
		else
			g_string_append(s, "<td class=\"n\">-</td>");
		if (isfinite(st->cv))
			g_string_append_printf(s, "<td class=\"n\">%.1f %%</td>", st->cv * 100);
		else
			g_string_append(s, "<td class=\"n\">-</td>");
		struct ab_ratio ra;
		ab_stats_ratio_ci((double *)(void *)f[i].values->data, f[i].values->len,
				  (double *)(void *)f[first].values->data, f[first].values->len, 0.95, &ra);
		char rr[32], rl[32], rh[32];
		ab_format_ratio(ra.ratio, rr, sizeof(rr));
		ab_format_ratio(ra.low, rl, sizeof(rl));
		ab_format_ratio(ra.high, rh, sizeof(rh));
		if (!isfinite(ra.ratio))
			g_string_append(s, "<td class=\"n\">-</td>");
		else if (i != first && isfinite(ra.low))
			g_string_append_printf(s, "<td class=\"n\">%s&#215;<br><small>%s &#8211; %s</small></td>", rr, rl,
					       rh);
		else
			g_string_append_printf(s, "<td class=\"n\">%s&#215;</td>", rr);
		g_string_append(s, "</tr>\n");
	}
	g_string_append(s, "</table></div>\n");
	/* What the marks say, each once, when a row has one. */
	for (enum ab_ci_method m = AB_CI_LOG_T; m <= AB_CI_T_CUT; m++) {
		gboolean used = FALSE;
		for (guint i = 0; i < page->cells->len; i++)
			used |= f[i].present && f[i].st.ci_method == m;
		if (!used)
			continue;
		g_string_append_printf(s, "<p class=\"note\">%s after a CI: ", ci_mark(m));
		ab_html_escape(s, ci_words(m));
		g_string_append(s, ".</p>\n");
	}
}

/* One line naming the cells that did not run the phase (no row above). */
static void absent(GString *s, const struct ab_html_page *page, const struct figures *f)
{
	gboolean any = FALSE;
	for (guint i = 0; i < page->cells->len; i++) {
		if (f[i].present)
			continue;
		g_string_append(s, any ? ", " : "<p class=\"note\">Not run by: ");
		ab_html_escape(s, ((const struct ab_html_cell *)g_ptr_array_index(page->cells, i))->label);
		any = TRUE;
	}
	if (any)
		g_string_append(s, ".</p>\n");
}

void ab_html_bars(GString *s, const struct ab_html_page *page)
{
	g_string_append(s, "<h2 id=\"rates\">Rates per phase</h2>\n");
	if (!page->series->len) {
		ab_html_none(s, "No bar charts: the runs hold no phase results outside the sweep.");
		return;
	}
	gboolean short_ = FALSE;
	for (guint i = 0; i < page->cells->len && !short_; i++) {
		const struct ab_html_cell *c = g_ptr_array_index(page->cells, i);
		for (guint k = 0; k < c->runs->len && !short_; k++) {
			const struct ab_run *run = g_ptr_array_index(c->runs, k);
			for (guint j = 0; j < run->results->len && !short_; j++) {
				const struct ab_result *r = g_ptr_array_index(run->results, j);
				short_ = !ab_text_is_grid_result(r) && !r->measurable;
			}
		}
	}
	if (short_)
		g_string_append(s, "<p class=\"note\"><span class=\"warn\">(too short)</span>: a run lasted under the "
				   "0.5 s bonnie++ asks of a phase. arraybench keeps its figure (shown and counted, but "
				   "timer and cache noise weigh on it: use a larger file); bonnie++ prints +++++ and "
				   "keeps none, so n counts only the runs with a figure.</p>\n");
	g_string_append(s, "<div class=\"grid\">\n");
	g_autoptr(GPtrArray) order = ordered_series(page);
	for (guint i = 0; i < order->len; i++) {
		const struct ab_html_series *se = g_ptr_array_index(order, i);
		guint idx = 0;
		g_ptr_array_find(page->series, se, &idx);
		struct figures *f = series_figures(page, se);
		int best, next;
		ranking(f, page->cells->len, &best, &next);
		g_string_append_printf(s, "<div class=\"chart\" id=\"rate-%u\"><h3>", idx);
		ab_html_escape(s, se->title);
		g_string_append(s, "</h3>\n");
		if (best < 0) {
			ab_html_none(s, "No figure: no cell's runs hold a rate for this phase (bonnie++ leaves a phase "
					"it did not run, or that was too short, empty).");
			g_string_append(s, "</div>\n");
			figures_free(f, page->cells->len);
			continue;
		}
		double max = 0;
		for (guint k = 0; k < page->cells->len; k++)
			if (isfinite(f[k].st.max))
				max = MAX(max, f[k].st.max);
		struct shown_unit u = shown_unit(ab_html_unit(se->phase), max);
		if (next >= 0) {
			double ratio = f[next].st.mean > 0 ? f[best].st.mean / f[next].st.mean : NAN;
			g_string_append(s, "<p class=\"verdict\">Best: <b>");
			ab_html_escape(s, ((struct ab_html_cell *)g_ptr_array_index(page->cells, best))->label);
			g_string_append(s, "</b>, ");
			times(s, ratio);
			g_string_append_c(s, ' ');
			ab_html_escape(s, ((struct ab_html_cell *)g_ptr_array_index(page->cells, next))->label);
			g_string_append(s, "; ");
			g_autofree char *noise = noise_words(&f[best], &f[next]);
			ab_html_escape(s, noise);
			g_string_append(s, ".</p>\n");
		}
		chart(s, page, se, f, u);
		table(s, page, f, u, best);
		absent(s, page, f);
		g_string_append(s, "</div>\n");
		figures_free(f, page->cells->len);
	}
	g_string_append(s, "</div>\n");
}
