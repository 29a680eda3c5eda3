/* SPDX-License-Identifier: GPL-2.0-or-later */
/* The HTML report's latency curve: per curve (processes, block, calls) one
 * chart of latency against achieved IOPS, both on log axes, a line per cell
 * through the median of its repeats at each step and each repeat's p99 as
 * a dot, so the spread shows; the p99 target across it and each cell's
 * sizing answer on it, with a table of those answers under it. */
#include "html-sections.h"
#include "format.h"
#include "../src/model/stats.h"
#include "../workloads/curve-math.h"

#include <math.h>
#include <stdio.h>

#define W 560.0
#define H 300.0
#define LEFT 62.0
#define RIGHT 16.0
#define TOP 26.0
#define BOTTOM 48.0

#define CURVE_PHASE "latency-curve"
#define SIZING_TEST "sizing"

/* How one repeat's sizing answer was found (curve-math.h's rules). */
enum how { HOW_NONE_MET, HOW_INTERPOLATED, HOW_LAST_PASS, HOW_AT_LEAST, HOW_N };
static const char *const how_word[HOW_N] = { "no step met the target", "interpolated", "last passing step",
					     "at least" };

/* One curve of one run: its steps, in order, and the answer closing it. */
struct curve {
	const struct ab_run *run;
	GPtrArray *steps;               /* const struct ab_result * */
	const struct ab_result *sizing; /* NULL when the file ends before it */
};

/* The curves of one kind across the page, per cell. */
struct chart {
	char *title;
	GPtrArray **per_cell;           /* [cell] struct curve * */
};

static void curve_free(gpointer p)
{
	struct curve *c = p;
	g_ptr_array_unref(c->steps);
	g_free(c);
}

/* What a curve measured, which tells its charts apart: "4 processes, 8k
 * blocks (pread)". */
static char *curve_title(const struct ab_result *r)
{
	GString *t = g_string_new(NULL);
	if (ab_known(r->key.streams))
		g_string_append_printf(t, "%" G_GUINT64_FORMAT " process%s, ", r->key.streams,
				       r->key.streams == 1 ? "" : "es");
	if (ab_known(r->key.record_size)) {
		char b[32];
		ab_csv_format_chunk(r->key.record_size, b, sizeof(b));
		g_string_append_printf(t, "%s blocks ", b);
	}
	g_autofree char *timed = r->timed ? g_strjoinv(", ", r->timed) : g_strdup("random I/O");
	g_string_append_printf(t, "(%s)%s", timed, r->direct == TRUE ? ", O_DIRECT" : "");
	return g_string_free(t, FALSE);
}

/* By title through `index` (a file may hold thousands of curves). */
static struct chart *chart_for(GPtrArray *charts, GHashTable *index, const char *title, guint ncells)
{
	struct chart *ch = g_hash_table_lookup(index, title);
	if (ch)
		return ch;
	ch = g_new0(struct chart, 1);
	ch->title = g_strdup(title);
	ch->per_cell = g_new0(GPtrArray *, ncells ? ncells : 1);
	for (guint k = 0; k < ncells; k++)
		ch->per_cell[k] = g_ptr_array_new_with_free_func(curve_free);
	g_ptr_array_add(charts, ch);
	g_hash_table_insert(index, ch->title, ch);
	return ch;
}

/* Every run's curves, a run's results walked as the text table walks them:
 * steps until a sizing row.  The same kind twice in a run (a profile that
 * runs it twice) is a chart of its own: "... #2". */
static GPtrArray *collect(const struct ab_html_page *page, guint *ncharts_out)
{
	guint n = page->cells->len;
	GPtrArray *charts = g_ptr_array_new();
	g_autoptr(GHashTable) index = g_hash_table_new(g_str_hash, g_str_equal);
	for (guint i = 0; i < n; i++) {
		const struct ab_html_cell *cell = g_ptr_array_index(page->cells, i);
		for (guint k = 0; k < cell->runs->len; k++) {
			const struct ab_run *run = g_ptr_array_index(cell->runs, k);
			g_autoptr(GHashTable) seen = g_hash_table_new_full(g_str_hash, g_str_equal, g_free, NULL);
			struct curve *open = NULL;
			for (guint j = 0; j < run->results->len; j++) {
				const struct ab_result *r = g_ptr_array_index(run->results, j);
				if (g_strcmp0(r->phase, CURVE_PHASE) != 0)
					continue;
				if (!open) {
					char *title = curve_title(r);
					guint times = GPOINTER_TO_UINT(g_hash_table_lookup(seen, title)) + 1;
					g_hash_table_replace(seen, g_strdup(title), GUINT_TO_POINTER(times));
					g_autofree char *name = times > 1 ? g_strdup_printf("%s #%u", title, times)
									  : g_strdup(title);
					g_free(title);
					open = g_new0(struct curve, 1);
					open->run = run;
					open->steps = g_ptr_array_new();
					g_ptr_array_add(chart_for(charts, index, name, n)->per_cell[i], open);
				}
				if (g_strcmp0(r->key.test, SIZING_TEST) == 0) {
					open->sizing = r;
					open = NULL;
				} else {
					g_ptr_array_add(open->steps, (gpointer)r);
				}
			}
		}
	}
	*ncharts_out = charts->len;
	return charts;
}

static void charts_free(GPtrArray *charts, guint ncells)
{
	for (guint i = 0; i < charts->len; i++) {
		struct chart *ch = g_ptr_array_index(charts, i);
		for (guint k = 0; k < ncells; k++)
			g_ptr_array_unref(ch->per_cell[k]);
		g_free(ch->per_cell);
		g_free(ch->title);
		g_free(ch);
	}
	g_ptr_array_unref(charts);
}

static uint64_t target_of(const struct curve *c)
{
	return c->sizing && ab_known(c->sizing->latency.p99_ns) && c->sizing->latency.p99_ns ? c->sizing->latency.p99_ns
											   : AB_UNSET;
}

/* As the text table says it: interpolated, or judged step by step against
 * the target (every step passed: the answer is a lower bound). */
static enum how how_found(const struct curve *c)
{
	if (!c->sizing || !isfinite(c->sizing->rate))
		return HOW_NONE_MET;
	if (c->sizing->interpolated == TRUE)
		return HOW_INTERPOLATED;
	uint64_t target = target_of(c);
	for (guint i = 0; i < c->steps->len && ab_known(target); i++) {
		const struct ab_result *r = g_ptr_array_index(c->steps, i);
		if (!isnan(r->offered_rate) && ab_curve_judge(r->offered_rate, r->rate, r->latency.p99_ns, target) !=
						       AB_CURVE_PASS)
			return HOW_LAST_PASS;
	}
	return HOW_AT_LEAST;
}

static double pct(const struct ab_result *r, int k)
{
	uint64_t v = k == 0 ? r->latency.p50_ns : k == 1 ? r->latency.p99_ns : r->latency.p99_9_ns;
	return ab_known(v) && v > 0 ? (double)v : NAN;
}

static double median(GArray *v)
{
	struct ab_stats st;
	ab_stats_describe((double *)(void *)v->data, v->len, 0.95, &st);
	return st.median;
}

/* A cell's line: at each step number, the median over the repeats that ran
 * it of achieved IOPS and of p50, p99, p99.9 (out[step][0..3]); how many
 * steps. */
static guint median_line(GPtrArray *curves, double (**out)[4])
{
	guint steps = 0;
	for (guint i = 0; i < curves->len; i++)
		steps = MAX(steps, ((struct curve *)g_ptr_array_index(curves, i))->steps->len);
	*out = g_malloc_n(steps ? steps : 1, sizeof(**out));
	for (guint s = 0; s < steps; s++)
		for (int k = 0; k < 4; k++) {
			g_autoptr(GArray) v = g_array_new(FALSE, FALSE, sizeof(double));
			for (guint i = 0; i < curves->len; i++) {
				const struct curve *c = g_ptr_array_index(curves, i);
				if (s >= c->steps->len)
					continue;
				const struct ab_result *r = g_ptr_array_index(c->steps, s);
				double x = k == 0 ? r->rate : pct(r, k - 1);
				if (isfinite(x) && x > 0)
					g_array_append_val(v, x);
			}
			(*out)[s][k] = median(v);
		}
	return steps;
}

/* A cell's answer: the median of its repeats' sizing IOPS, how many had one,
 * and how they were found (counts per kind). */
struct answer {
	double rate, lo, hi, target;
	guint n, repeats;
	guint how[HOW_N];
};

static void answer_of(GPtrArray *curves, struct answer *a)
{
	*a = (struct answer){ .rate = NAN, .lo = NAN, .hi = NAN, .target = NAN };
	g_autoptr(GArray) rates = g_array_new(FALSE, FALSE, sizeof(double));
	g_autoptr(GArray) targets = g_array_new(FALSE, FALSE, sizeof(double));
	for (guint i = 0; i < curves->len; i++) {
		const struct curve *c = g_ptr_array_index(curves, i);
		if (!c->sizing)
			continue;
		a->repeats++;
		a->how[how_found(c)]++;
		if (isfinite(c->sizing->rate) && c->sizing->rate > 0)
			g_array_append_val(rates, c->sizing->rate);
		if (ab_known(target_of(c))) {
			double t = (double)target_of(c);
			g_array_append_val(targets, t);
		}
	}
	struct ab_stats st;
	ab_stats_describe((double *)(void *)rates->data, rates->len, 0.95, &st);
	a->rate = st.median;
	a->lo = st.min;
	a->hi = st.max;
	a->n = (guint)st.n;
	a->target = median(targets);
}

/* "interpolated", "at least"... when the repeats with an answer agree,
 * else "mixed"; NULL with no answer. */
static const char *answer_word(const struct answer *a)
{
	const char *word = NULL;
	for (int h = HOW_INTERPOLATED; h < HOW_N; h++)
		if (a->how[h])
			word = word ? "mixed" : how_word[h];
	return word;
}

static void range_add(double v, double *lo, double *hi)
{
	if (isfinite(v) && v > 0) {
		*lo = MIN(*lo, v);
		*hi = MAX(*hi, v);
	}
}

static void step_tip(GString *s, const struct ab_html_cell *cell, const struct curve *c, const struct ab_result *r)
{
	char off[32], got[32], lat[3][32];
	ab_svg_format_si(r->offered_rate, off, sizeof(off));
	ab_svg_format_si(r->rate, got, sizeof(got));
	for (int k = 0; k < 3; k++)
		ab_format_latency_mean(pct(r, k), lat[k], sizeof(lat[k]));
	GString *t = g_string_new(cell->label);
	if (ab_known(c->run->repeat))
		g_string_append_printf(t, ", repeat %" G_GUINT64_FORMAT, c->run->repeat);
	g_string_append_printf(t, ", %s: %s IOPS offered, %s achieved; p50 %s, p99 %s, p99.9 %s",
			       r->key.test ? r->key.test : "step", off, got, lat[0], lat[1], lat[2]);
	if (ab_known(r->late_ops))
		g_string_append_printf(t, "; %" G_GUINT64_FORMAT " late", r->late_ops);
	ab_html_escape(s, t->str);
	g_string_free(t, TRUE);
}

static void draw(GString *s, const struct ab_html_page *page, const struct chart *ch, const struct answer *ans)
{
	guint n = page->cells->len;
	double xlo = INFINITY, xhi = 0, ylo = INFINITY, yhi = 0;
	for (guint i = 0; i < n; i++) {
		for (guint k = 0; k < ch->per_cell[i]->len; k++) {
			const struct curve *c = g_ptr_array_index(ch->per_cell[i], k);
			for (guint j = 0; j < c->steps->len; j++) {
				const struct ab_result *r = g_ptr_array_index(c->steps, j);
				range_add(r->rate, &xlo, &xhi);
				for (int p = 0; p < 3; p++)
					range_add(pct(r, p), &ylo, &yhi);
			}
		}
		range_add(ans[i].rate, &xlo, &xhi);
		range_add(ans[i].target, &ylo, &yhi);
	}
	/* No figure at all (a file's curve of unknown rates): a decade of
	 * empty axes, never a scale of infinities. */
	if (!isfinite(xlo))
		xlo = xhi = NAN;
	if (!isfinite(ylo))
		ylo = yhi = NAN;
	ab_svg_nice_range(&xlo, &xhi, TRUE);
	ab_svg_nice_range(&ylo, &yhi, TRUE);
	struct ab_svg_scale x = { xlo, xhi, LEFT, W - RIGHT, TRUE };
	struct ab_svg_scale y = { ylo, yhi, H - BOTTOM, TOP, TRUE };
	g_string_append_printf(s, "<svg class=\"curve\" width=\"%.0f\" height=\"%.0f\" viewBox=\"0 0 %.0f %.0f\" "
				  "role=\"img\">\n",
			       W, H, W, H);
	ab_svg_y_axis(s, &y, LEFT, W - RIGHT, ab_svg_format_time);
	ab_svg_x_axis(s, &x, TOP, H - BOTTOM, "achieved IOPS, log scale (latency: log scale, from each I/O's due time)");
	/* The target, once per distinct value (cells normally share one). */
	g_autoptr(GArray) drawn = g_array_new(FALSE, FALSE, sizeof(double));
	for (guint i = 0; i < n; i++) {
		double t = ans[i].target;
		gboolean dup = FALSE;
		for (guint k = 0; k < drawn->len; k++)
			dup |= g_array_index(drawn, double, k) == t;
		if (!isfinite(t) || dup)
			continue;
		g_array_append_val(drawn, t);
		double py = ab_svg_map(&y, t);
		char lab[32], text[64];
		ab_format_latency_mean(t, lab, sizeof(lab));
		snprintf(text, sizeof(text), "p99 target %s", lab);
		g_string_append_printf(s, "<line class=\"target\" x1=\"%.1f\" y1=\"%.1f\" x2=\"%.1f\" y2=\"%.1f\" "
					  "stroke=\"#c0392b\" stroke-width=\"1.4\" stroke-dasharray=\"6 3\"/>\n",
				       LEFT, py, W - RIGHT, py);
		ab_svg_text(s, LEFT + 4, py - 4, "start", "class=\"i\"", text);
	}
	static const char *const dash[3] = { " stroke-dasharray=\"5 3\"", "", " stroke-dasharray=\"1.5 2.5\"" };
	static const double width[3] = { 1.3, 2.2, 1.3 };
	for (guint i = 0; i < n; i++) {
		const struct ab_html_cell *cell = g_ptr_array_index(page->cells, i);
		GPtrArray *curves = ch->per_cell[i];
		if (!curves->len)
			continue;
		double(*line)[4];
		guint steps = median_line(curves, &line);
		for (int p = 0; p < 3; p++) {
			GString *d = g_string_new(NULL);
			for (guint j = 0; j < steps; j++)
				if (isfinite(line[j][0]) && isfinite(line[j][p + 1]))
					g_string_append_printf(d, "%s%.1f %.1f", d->len ? "L" : "M", ab_svg_map(&x, line[j][0]),
							       ab_svg_map(&y, line[j][p + 1]));
			if (d->len)
				g_string_append_printf(s, "<path class=\"cline\" d=\"%s\" fill=\"none\" stroke=\"%s\" "
							  "stroke-width=\"%.1f\"%s/>\n",
						       d->str, cell->colour, width[p], dash[p]);
			g_string_free(d, TRUE);
		}
		g_free(line);
		/* Each repeat's p99 at each step: the spread between repeats. */
		for (guint k = 0; k < curves->len; k++) {
			const struct curve *c = g_ptr_array_index(curves, k);
			for (guint j = 0; j < c->steps->len; j++) {
				const struct ab_result *r = g_ptr_array_index(c->steps, j);
				if (!(isfinite(r->rate) && r->rate > 0 && isfinite(pct(r, 1))))
					continue;
				g_string_append_printf(s, "<circle class=\"cpt\" cx=\"%.1f\" cy=\"%.1f\" r=\"3\" fill=\"%s\" "
							  "fill-opacity=\"0.7\" stroke=\"#fff\" stroke-width=\"0.6\"><title>",
						       ab_svg_map(&x, r->rate), ab_svg_map(&y, pct(r, 1)), cell->colour);
				step_tip(s, cell, c, r);
				g_string_append(s, "</title></circle>\n");
			}
		}
	}
	/* The answers last, over the lines: a diamond on the target at the
	 * median sizing IOPS, labelled with how it was found. */
	for (guint i = 0, drawn_n = 0; i < n; i++) {
		const struct ab_html_cell *cell = g_ptr_array_index(page->cells, i);
		const char *word = answer_word(&ans[i]);
		if (!isfinite(ans[i].rate) || !isfinite(ans[i].target) || !word)
			continue;
		double px = ab_svg_map(&x, ans[i].rate), py = ab_svg_map(&y, ans[i].target);
		char rate[32];
		ab_svg_format_si(ans[i].rate, rate, sizeof(rate));
		g_autofree char *tip = g_strdup_printf("%s: sizing %s IOPS (median of %u), %s", cell->label, rate,
						       ans[i].n, word);
		g_string_append_printf(s, "<path class=\"sizing\" d=\"M%.1f %.1fl6 6l-6 6l-6 -6z\" fill=\"%s\" "
					  "stroke=\"#111\" stroke-width=\"1.2\"><title>",
				       px, py - 6, cell->colour);
		ab_html_escape(s, tip);
		g_string_append(s, "</title></path>\n");
		g_autofree char *label = g_strdup_printf("%u: %s %s", cell->number, rate, word);
		/* Labels of several cells stack under the line, not on each other. */
		gboolean right = px < (LEFT + W - RIGHT) / 2;
		ab_svg_text(s, px + (right ? 9 : -9), py + 16 + 12.0 * drawn_n++, right ? "start" : "end", "class=\"b\"",
			    label);
	}
	g_string_append(s, "</svg>\n");
}

static void table(GString *s, const struct ab_html_page *page, const struct chart *ch, const struct answer *ans)
{
	g_string_append(s, "<table><tr><th>cell</th><th>sizing IOPS (median)</th><th>range</th><th>n</th>"
			   "<th>p99 target</th><th>how found</th></tr>\n");
	for (guint i = 0; i < page->cells->len; i++) {
		const struct answer *a = &ans[i];
		if (!ch->per_cell[i]->len)
			continue;
		char med[32], lo[32], hi[32], range[72], target[32];
		ab_format_rate(a->rate, med, sizeof(med));
		ab_format_rate(a->lo, lo, sizeof(lo));
		ab_format_rate(a->hi, hi, sizeof(hi));
		snprintf(range, sizeof(range), a->n > 1 ? "%s-%s" : "-", lo, hi);
		ab_format_latency_mean(a->target, target, sizeof(target));
		g_string_append(s, "<tr><td>");
		ab_html_cell_name(s, g_ptr_array_index(page->cells, i));
		g_string_append_printf(s, "</td><td class=\"n\">%s</td><td class=\"n\">%s</td><td class=\"n\">%u of %u</td>"
					  "<td class=\"n\">%s</td><td>",
				       med, range, a->n, a->repeats,
				       target);
		gboolean first = TRUE;
		for (int h = 0; h < HOW_N; h++) {
			if (!a->how[h])
				continue;
			if (a->how[h] == a->repeats)
				g_string_append(s, how_word[h]);
			else
				g_string_append_printf(s, "%s%s: %u", first ? "" : ", ", how_word[h], a->how[h]);
			first = FALSE;
		}
		if (!a->repeats)
			g_string_append(s, "no sizing row (the run ended inside the curve)");
		g_string_append(s, "</td></tr>\n");
	}
	g_string_append(s, "</table>\n");
}

void ab_html_curve(GString *s, const struct ab_html_page *page)
{
	g_string_append(s, "<h2 id=\"curve\">Latency vs load</h2>\n");
	guint n = page->cells->len, ncharts;
	GPtrArray *charts = collect(page, &ncharts);
	if (!ncharts) {
		ab_html_none(s, "No latency curve: no run holds the latency-curve phase (--phases latency-curve).");
		charts_free(charts, n);
		return;
	}
	g_string_append(s, "<p class=\"note\">Lines: the median of a cell's repeats at each step, p99 solid, p50 "
			   "dashed, p99.9 dotted; dots: each repeat's p99 at each step; the dashed red line: the p99 "
			   "target; the diamond: the sizing answer, the most IOPS whose p99 meets it (the median over "
			   "repeats; \"at least\" when every step passed, \"interpolated\" when read off between "
			   "the last passing and first failing step).</p>\n<div class=\"grid\">\n");
	for (guint c = 0; c < ncharts; c++) {
		const struct chart *ch = g_ptr_array_index(charts, c);
		struct answer *ans = g_new0(struct answer, n ? n : 1);
		for (guint i = 0; i < n; i++)
			answer_of(ch->per_cell[i], &ans[i]);
		g_string_append(s, "<div class=\"chart\"><h3>latency-curve: ");
		ab_html_escape(s, ch->title);
		g_string_append(s, "</h3>\n");
		g_autofree gboolean *shown = g_new0(gboolean, n ? n : 1);
		for (guint i = 0; i < n; i++)
			shown[i] = ch->per_cell[i]->len > 0;
		ab_html_cell_legend(s, page, shown);
		draw(s, page, ch, ans);
		table(s, page, ch, ans);
		g_string_append(s, "</div>\n");
		g_free(ans);
	}
	g_string_append(s, "</div>\n");
	charts_free(charts, n);
}
