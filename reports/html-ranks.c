/* SPDX-License-Identifier: GPL-2.0-or-later */
/* The HTML report's runs on many ranks: per result, a bar per rank of its
 * own rate, the straggler (the rank that stopped last) and the outliers
 * named in words as well as coloured, and what the ranks' common timebase
 * is good to.  Nothing at all for runs on one host. */
#include "html-sections.h"
#include "format.h"

#include <math.h>
#include <stdio.h>

#define W 560.0
#define LABEL_W 150.0
#define RIGHT 150.0
#define ROW 22.0
#define BAR 14.0
#define TOP 6.0
#define OUTLIER_FILL "#d62728"

static gboolean any_ranks(const struct ab_html_page *page)
{
	for (guint i = 0; i < page->cells->len; i++) {
		const struct ab_html_cell *c = g_ptr_array_index(page->cells, i);
		for (guint k = 0; k < c->runs->len; k++) {
			const struct ab_run *run = g_ptr_array_index(c->runs, k);
			for (guint j = 0; j < run->results->len; j++)
				if (((const struct ab_result *)g_ptr_array_index(run->results, j))->per_rank->len)
					return TRUE;
		}
	}
	return FALSE;
}

/* The rank that stopped last (it set the result's end), or -1. */
static int straggler(const GArray *ranks)
{
	int at = -1;
	for (guint i = 0; i < ranks->len; i++) {
		const struct ab_rank_stat *rs = &g_array_index(ranks, struct ab_rank_stat, i);
		if (isfinite(rs->stop_s) &&
		    (at < 0 || rs->stop_s > g_array_index(ranks, struct ab_rank_stat, at).stop_s))
			at = (int)i;
	}
	return at;
}

static char *rank_name(const struct ab_rank_stat *rs)
{
	GString *t = g_string_new(NULL);
	if (ab_known(rs->rank))
		g_string_append_printf(t, "rank %" G_GUINT64_FORMAT, rs->rank);
	else
		g_string_append(t, "rank ?");
	if (rs->host)
		g_string_append_printf(t, " (%s)", rs->host);
	return g_string_free(t, FALSE);
}

static void chart(GString *s, const struct ab_result *r, const char *colour, int late)
{
	const char *unit = ab_html_unit(r->phase);
	double max = 0;
	for (guint i = 0; i < r->per_rank->len; i++) {
		double v = g_array_index(r->per_rank, struct ab_rank_stat, i).rate;
		if (isfinite(v))
			max = MAX(max, v);
	}
	double lo = 0, hi = max > 0 ? max : 1;
	ab_svg_nice_range(&lo, &hi, FALSE);
	struct ab_svg_scale sc = { lo, hi, LABEL_W, W - RIGHT, FALSE };
	double axis_y = TOP + r->per_rank->len * ROW + 2, h = axis_y + 38;
	g_string_append_printf(s, "<svg class=\"ranks\" width=\"%.0f\" height=\"%.0f\" viewBox=\"0 0 %.0f %.0f\" "
				  "role=\"img\">\n", W, h, W, h);
	g_autofree char *title = g_strdup_printf("%s (each rank's own rate)", unit);
	ab_svg_x_axis(s, &sc, TOP, axis_y, title);
	for (guint i = 0; i < r->per_rank->len; i++) {
		const struct ab_rank_stat *rs = &g_array_index(r->per_rank, struct ab_rank_stat, i);
		double y = TOP + i * ROW + (ROW - BAR) / 2;
		g_autofree char *name = rank_name(rs);
		ab_svg_text(s, LABEL_W - 6, y + BAR / 2 + 4, "end", NULL, name);
		char rate[32], stop[32];
		ab_format_chart_figure(rs->rate, rate, sizeof(rate));
		ab_format_chart_figure(rs->stop_s, stop, sizeof(stop));
		gboolean out = rs->outlier == TRUE;
		g_autofree char *tip = g_strdup_printf("%s: %s %s, stopped at %s s%s%s", name, rate, unit, stop,
						       out ? ", outlier" : "", (int)i == late ? ", straggler" : "");
		if (!ab_svg_hbar(s, &sc, y, BAR, rs->rate, NAN, NAN, out ? OUTLIER_FILL : colour, tip)) {
			ab_svg_text(s, LABEL_W + 6, y + BAR / 2 + 4, "start", "class=\"i\"", "no figure");
			continue;
		}
		g_autofree char *words = g_strdup_printf("%s%s%s", rate, out ? " outlier" : "",
							 (int)i == late ? " straggler" : "");
		ab_svg_text(s, ab_svg_map(&sc, rs->rate) + 5, y + BAR / 2 + 4, "start", out ? "class=\"b\"" : NULL,
			    words);
	}
	g_string_append(s, "</svg>\n");
}

static void result_chart(GString *s, const struct ab_html_cell *c, const struct ab_run *run,
			 const struct ab_result *r)
{
	g_string_append(s, "<div class=\"chart\"><h3>");
	ab_html_escape(s, r->phase);
	if (r->key.test) {
		g_string_append_c(s, ' ');
		ab_html_escape(s, r->key.test);
	}
	if (ab_known(r->key.pass) && r->key.pass > 1)
		g_string_append_printf(s, " #%" G_GUINT64_FORMAT, r->key.pass);
	g_string_append(s, " &#8212; ");
	ab_html_escape(s, c->label);
	if (ab_known(run->repeat))
		g_string_append_printf(s, ", repeat %" G_GUINT64_FORMAT, run->repeat);
	g_string_append(s, "</h3>\n");
	int late = straggler(r->per_rank);
	chart(s, r, c->colour, late);
	g_string_append(s, "<p class=\"note\">");
	if (late >= 0) {
		const struct ab_rank_stat *rs = &g_array_index(r->per_rank, struct ab_rank_stat, late);
		g_autofree char *name = rank_name(rs);
		char stop[32];
		ab_format_chart_figure(rs->stop_s, stop, sizeof(stop));
		g_string_append(s, "Straggler: ");
		ab_html_escape(s, name);
		g_string_append_printf(s, ", the last to stop, at %s s from the earliest barrier exit. ", stop);
	}
	guint outliers = 0;
	for (guint i = 0; i < r->per_rank->len; i++) {
		const struct ab_rank_stat *rs = &g_array_index(r->per_rank, struct ab_rank_stat, i);
		if (rs->outlier != TRUE)
			continue;
		g_autofree char *name = rank_name(rs);
		g_string_append(s, outliers++ ? ", " : "<span class=\"warn\">Outlier: ");
		ab_html_escape(s, name);
	}
	if (outliers)
		g_string_append_printf(s, "</span> (red: a rate more than %.0f %% off the ranks' median). ",
				       100 * AB_RANK_OUTLIER_SHARE);
	char rate[32], bound[32], spread[32];
	ab_format_chart_figure(r->rate, rate, sizeof(rate));
	ab_format_latency_mean(r->clock_bound_s * 1e9, bound, sizeof(bound));
	ab_format_latency_mean(r->start_spread_s * 1e9, spread, sizeof(spread));
	g_string_append_printf(s, "All ranks: %s ", rate);
	ab_html_escape(s, ab_html_unit(r->phase));
	g_string_append_printf(s, " (all the work over the latest stop less the earliest start); clock bound %s, "
				  "start spread %s%s.</p>\n</div>\n", bound, spread,
			       r->measurable ? "" : "; <span class=\"warn\">too short</span> for that timebase");
}

void ab_html_ranks(GString *s, const struct ab_html_page *page)
{
	if (!any_ranks(page))
		return;
	g_string_append(s, "<h2 id=\"ranks\">Ranks</h2>\n<p class=\"lead\">Runs on many ranks: each rank's own "
			   "rate (its work over its first start to its last stop), per result.</p>\n"
			   "<div class=\"grid\">\n");
	for (guint i = 0; i < page->cells->len; i++) {
		const struct ab_html_cell *c = g_ptr_array_index(page->cells, i);
		for (guint k = 0; k < c->runs->len; k++) {
			const struct ab_run *run = g_ptr_array_index(c->runs, k);
			for (guint j = 0; j < run->results->len; j++) {
				const struct ab_result *r = g_ptr_array_index(run->results, j);
				if (r->per_rank->len)
					result_chart(s, c, run, r);
			}
		}
	}
	g_string_append(s, "</div>\n");
}
