/* SPDX-License-Identifier: GPL-2.0-or-later */
/* The HTML report's latency: each phase's percentiles (p50 to the
 * maximum) as one curve per cell on a log axis, where a slow tail shows
 * as a line that climbs away from the others. */
#include "html-sections.h"
#include "format.h"
#include "../src/model/stats.h"

#include <math.h>
#include <stdio.h>

#define W 560.0
#define H 250.0
#define LEFT 62.0
#define RIGHT 16.0
#define TOP 10.0
#define BOTTOM 44.0
#define NP 5

static const char *const pct_name[NP] = { "p50", "p90", "p99", "p99.9", "max" };

static uint64_t pct(const struct ab_latency *l, int k)
{
	switch (k) {
	case 0: return l->p50_ns;
	case 1: return l->p90_ns;
	case 2: return l->p99_ns;
	case 3: return l->p99_9_ns;
	default: return l->max_ns;
	}
}

/* The median over a cell's runs of each percentile; FALSE when no run
 * holds any (bonnie++'s CSV has only the maximum: that one point). */
static gboolean curve(const struct ab_html_cell *c, const struct ab_html_series *se, double out[NP])
{
	gboolean any = FALSE;
	for (int k = 0; k < NP; k++) {
		g_autoptr(GArray) v = g_array_new(FALSE, FALSE, sizeof(double));
		for (guint i = 0; i < c->runs->len; i++) {
			const struct ab_result *r = ab_html_find(g_ptr_array_index(c->runs, i), se);
			if (r && ab_known(pct(&r->latency, k)) && pct(&r->latency, k) > 0) {
				double x = (double)pct(&r->latency, k);
				g_array_append_val(v, x);
			}
		}
		struct ab_stats st;
		ab_stats_describe((double *)(void *)v->data, v->len, 0.95, &st);
		out[k] = st.median;
		any |= isfinite(st.median);
	}
	return any;
}

static void chart(GString *s, const struct ab_html_page *page, double (*pts)[NP], const gboolean *has)
{
	double lo = INFINITY, hi = 0;
	for (guint i = 0; i < page->cells->len; i++)
		for (int k = 0; k < NP && has[i]; k++)
			if (isfinite(pts[i][k])) {
				lo = MIN(lo, pts[i][k]);
				hi = MAX(hi, pts[i][k]);
			}
	ab_svg_nice_range(&lo, &hi, TRUE);
	struct ab_svg_scale y = { lo, hi, H - BOTTOM, TOP, TRUE };
	double step = (W - LEFT - RIGHT) / (NP - 1) * 0.92, x0 = LEFT + (W - LEFT - RIGHT) * 0.04;
	g_string_append_printf(s, "<svg class=\"latency\" width=\"%.0f\" "
				  "height=\"%.0f\" viewBox=\"0 0 %.0f %.0f\" role=\"img\">\n",
			       W, H, W, H);
	ab_svg_y_axis(s, &y, LEFT, W - RIGHT, ab_svg_format_time);
	g_string_append_printf(s, "<line class=\"axis\" x1=\"%.1f\" y1=\"%.1f\" x2=\"%.1f\" y2=\"%.1f\"/>\n", LEFT,
			       H - BOTTOM, W - RIGHT, H - BOTTOM);
	for (int k = 0; k < NP; k++)
		ab_svg_text(s, x0 + k * step, H - BOTTOM + 15, "middle", NULL, pct_name[k]);
	ab_svg_text(s, (LEFT + W - RIGHT) / 2, H - 10, "middle", "class=\"b\"",
		    "time per operation at each percentile (median of a cell's runs), log scale");
	for (guint i = 0; i < page->cells->len; i++) {
		if (!has[i])
			continue;
		const struct ab_html_cell *c = g_ptr_array_index(page->cells, i);
		GString *d = g_string_new(NULL);
		for (int k = 0; k < NP; k++)
			if (isfinite(pts[i][k]))
				g_string_append_printf(d, "%s%.1f %.1f", d->len ? "L" : "M", x0 + k * step,
						       ab_svg_map(&y, pts[i][k]));
		g_string_append_printf(s, "<path d=\"%s\" fill=\"none\" stroke=\"%s\" stroke-width=\"2.2\"/>\n", d->str,
				       c->colour);
		g_string_free(d, TRUE);
		for (int k = 0; k < NP; k++) {
			if (!isfinite(pts[i][k]))
				continue;
			char t[32];
			ab_format_latency_mean(pts[i][k], t, sizeof(t));
			g_autofree char *tip = g_strdup_printf("%s %s: %s", c->label, pct_name[k], t);
			g_string_append_printf(s, "<circle cx=\"%.1f\" cy=\"%.1f\" r=\"3.5\" fill=\"%s\"><title>",
					       x0 + k * step, ab_svg_map(&y, pts[i][k]), c->colour);
			ab_html_escape(s, tip);
			g_string_append(s, "</title></circle>\n");
		}
	}
	g_string_append(s, "</svg>\n");
}

void ab_html_latency(GString *s, const struct ab_html_page *page)
{
	g_string_append(s, "<h2 id=\"latency\">Latency percentiles</h2>\n");
	guint n = page->cells->len;
	gboolean any = FALSE;
	for (guint i = 0; i < page->series->len; i++) {
		const struct ab_html_series *se = g_ptr_array_index(page->series, i);
		double(*pts)[NP] = g_malloc_n(n ? n : 1, sizeof(*pts));
		gboolean *has = g_new0(gboolean, n), some = FALSE;
		for (guint k = 0; k < n; k++)
			some |= has[k] = curve(g_ptr_array_index(page->cells, k), se, pts[k]);
		if (some) {
			if (!any)
				g_string_append(s, "<div class=\"grid\">\n");
			any = TRUE;
			g_string_append(s, "<div class=\"chart\"><h3>");
			ab_html_escape(s, se->title);
			g_string_append(s, "</h3>\n");
			ab_html_cell_legend(s, page, has);
			chart(s, page, pts, has);
			g_string_append(s, "</div>\n");
		}
		g_free(pts);
		g_free(has);
	}
	if (any)
		g_string_append(s, "</div>\n");
	else
		ab_html_none(s, "No latency curves: no run holds per-operation percentiles (bonnie++'s CSV gives only a "
				"maximum, and none for phases it did not time).");
}
