/* SPDX-License-Identifier: GPL-2.0-or-later */
/* The HTML report's sweep: a heat map per test and cell, file size down,
 * record size across, coloured on one log scale for the whole page (rates
 * span decades: a cached reread runs a hundred times a synced write), the
 * cells that measured the page cache hatched as the text grid marks them. */
#include "html-sections.h"
#include "format.h"
#include "../src/model/stats.h"
#include "../workloads/sweep.h"

#include <math.h>
#include <stdio.h>

#define CW 54.0   /* a heat-map cell */
#define CH 22.0
#define LEFT 58.0
#define TOP 36.0

/* The cells of one test in one matrix cell: medians of its runs' pass 1. */
struct heat {
	GArray *files;   /* uint64_t file sizes, ascending */
	GArray *records; /* uint64_t record sizes, ascending */
};

static gint cmp_u64(gconstpointer a, gconstpointer b)
{
	uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;
	return x < y ? -1 : x > y;
}

static void add_sorted(GArray *a, uint64_t v)
{
	for (guint i = 0; i < a->len; i++)
		if (g_array_index(a, uint64_t, i) == v)
			return;
	g_array_append_val(a, v);
	g_array_sort(a, cmp_u64);
}

/* Which maps: one test at one stream count (--streams N,M draws a map
 * for each, never a median across them). */
struct which {
	const char *test;
	uint64_t streams;
};

static gboolean is_cell(const struct ab_result *r, const struct which *w)
{
	return ab_text_is_grid_result(r) && r->key.pass == 1 && g_strcmp0(r->key.test, w->test) == 0 &&
	       r->key.streams == w->streams;
}

/* Did any run of the cell run this test?  (A cell without a sweep gets
 * no map of grey squares.) */
static gboolean has_test(const struct ab_html_cell *c, const struct which *test)
{
	for (guint k = 0; k < c->runs->len; k++) {
		const struct ab_run *run = g_ptr_array_index(c->runs, k);
		for (guint i = 0; i < run->results->len; i++)
			if (is_cell(g_ptr_array_index(run->results, i), test))
				return TRUE;
	}
	return FALSE;
}

/* Median rate of a cell's runs at one grid point (or, `at_deadline`, of
 * their rates at the deadline of --stonewall-time) and its mark (the worst
 * of its runs': 'c' over 'w'); NAN when none ran it or measured it. */
static double point(const struct ab_html_cell *c, const struct which *test, uint64_t fsz, uint64_t rec,
		    gboolean at_deadline, char *mark)
{
	g_autoptr(GArray) v = g_array_new(FALSE, FALSE, sizeof(double));
	*mark = ' ';
	for (guint k = 0; k < c->runs->len; k++) {
		const struct ab_run *run = g_ptr_array_index(c->runs, k);
		for (guint i = 0; i < run->results->len; i++) {
			const struct ab_result *r = g_ptr_array_index(run->results, i);
			if (!is_cell(r, test) || r->key.file_size != fsz || r->key.record_size != rec)
				continue;
			double rate = at_deadline ? r->deadline_rate : r->rate;
			if (isfinite(rate))
				g_array_append_val(v, rate);
			char m = ab_text_sweep_mark(r);
			if (m == 'c' || (m == 'w' && *mark == ' '))
				*mark = m;
		}
	}
	struct ab_stats st;
	ab_stats_describe((double *)(void *)v->data, v->len, 0.95, &st);
	return st.median;
}

static void mib_text(double kib_s, char *out, size_t len)
{
	double v = kib_s / 1024;
	snprintf(out, len, v < 10 ? "%.1f" : "%.0f", v);
}

/* The deadline a cell's runs of the test ran under (--stonewall-time), as
 * a line under its name: the first run's that had one (another setting is
 * another matrix cell); nothing without one. */
static void deadline_note(GString *s, const struct ab_html_cell *c, const struct which *test)
{
	for (guint k = 0; k < c->runs->len; k++) {
		const struct ab_run *run = g_ptr_array_index(c->runs, k);
		for (guint i = 0; i < run->results->len; i++) {
			const struct ab_result *r = g_ptr_array_index(run->results, i);
			if (!is_cell(r, test) || !(r->stonewall_time_s > 0))
				continue;
			g_string_append_printf(s, "<br>deadline %g s%s: each square's rate at it in its tip",
					       r->stonewall_time_s, r->wearout == TRUE ? ", then wear-out" : "");
			return;
		}
	}
}

/* Each map's hatch pattern has an id of its own in the page. */
static unsigned map_id;

static void heat_map(GString *s, const struct ab_html_cell *c, const struct which *test, const struct heat *h, double lo,
		     double hi)
{
	double w = LEFT + h->records->len * CW + 8, ht = TOP + h->files->len * CH + 8;
	unsigned id = ++map_id;
	g_string_append(s, "<div class=\"heat\"><div class=\"note\">");
	ab_html_cell_name(s, c);
	deadline_note(s, c, test);
	g_string_append(s, "</div>\n");
	g_string_append_printf(s, "<svg class=\"heatmap\" width=\"%.0f\" height=\"%.0f\" "
				  "viewBox=\"0 0 %.0f %.0f\" role=\"img\">\n"
				  "<defs><pattern id=\"hatch%u\" width=\"6\" height=\"6\" patternUnits=\"userSpaceOnUse\" "
				  "patternTransform=\"rotate(45)\"><rect width=\"2\" height=\"6\" fill=\"#fff\" "
				  "fill-opacity=\"0.55\"/></pattern></defs>\n",
			       w, ht, w, ht, id);
	ab_svg_text(s, LEFT + h->records->len * CW / 2, 11, "middle", "class=\"b\"", "record size");
	ab_svg_text(s, 4, 11, "start", "class=\"b\"", "file");
	for (guint x = 0; x < h->records->len; x++) {
		char lab[32];
		ab_format_size(g_array_index(h->records, uint64_t, x), lab, sizeof(lab));
		ab_svg_text(s, LEFT + x * CW + CW / 2, TOP - 6, "middle", NULL, lab);
	}
	for (guint y = 0; y < h->files->len; y++) {
		uint64_t fsz = g_array_index(h->files, uint64_t, y);
		char lab[32];
		ab_format_size(fsz, lab, sizeof(lab));
		ab_svg_text(s, LEFT - 6, TOP + y * CH + CH / 2 + 4, "end", NULL, lab);
		for (guint x = 0; x < h->records->len; x++) {
			uint64_t rec = g_array_index(h->records, uint64_t, x);
			char m, col[8], val[32];
			double v = point(c, test, fsz, rec, FALSE, &m), at = point(c, test, fsz, rec, TRUE, &m);
			double t = ab_svg_log_fraction(v, lo, hi);
			ab_svg_heat_colour(t, col);
			double cx = LEFT + x * CW, cy = TOP + y * CH;
			g_string_append_printf(s, "<rect class=\"hm\" x=\"%.1f\" y=\"%.1f\" width=\"%.1f\" height=\"%.1f\" "
						  "fill=\"%s\" stroke=\"#fff\"><title>",
					       cx, cy, CW, CH, col);
			char fl[32], rl[32];
			ab_format_size(fsz, fl, sizeof(fl));
			ab_format_size(rec, rl, sizeof(rl));
			mib_text(v, val, sizeof(val));
			char atv[32] = "";
			if (!isnan(at))
				mib_text(at, atv, sizeof(atv));
			g_autofree char *tip = isnan(v) ? g_strdup_printf("file %s, record %s: not run", fl, rl)
							: g_strdup_printf("file %s, record %s: %s MiB/s%s%s%s%s", fl, rl, val,
									  m == 'c' ? " (page cache)"
									  : m == 'w' ? " (no fsync timed)"
										     : "",
									  *atv ? "; at the deadline " : "", atv,
									  *atv ? " MiB/s" : "");
			ab_html_escape(s, tip);
			g_string_append(s, "</title></rect>\n");
			if (isnan(v))
				continue;
			if (m != ' ')
				g_string_append_printf(s, "<rect x=\"%.1f\" y=\"%.1f\" width=\"%.1f\" height=\"%.1f\" "
							  "fill=\"url(#hatch%u)\"/>\n",
						       cx + 1, cy + 1, CW - 2, CH - 2, id);
			/* Light text on the dark end of the scale (CSS classes: a
			 * presentation attribute loses to the page's text rule). */
			const char *cls = t < 0.55 ? "class=\"hv lt\"" : "class=\"hv\"";
			ab_svg_text(s, cx + CW / 2 - (m != ' ' ? 3 : 0), cy + CH / 2 + 4, "middle", cls, val);
			if (m != ' ') {
				char mk[2] = { m, 0 };
				ab_svg_text(s, cx + CW - 3, cy + 9, "end", t < 0.55 ? "class=\"mk lt\"" : "class=\"mk\"", mk);
			}
		}
	}
	g_string_append(s, "</svg></div>\n");
}

static void legend(GString *s, double lo, double hi)
{
	const double w = 420, x0 = 10, x1 = 410;
	g_string_append_printf(s, "<svg class=\"legend\" width=\"%.0f\" height=\"56\" "
				  "viewBox=\"0 0 %.0f 56\" role=\"img\">\n<defs><linearGradient id=\"heatscale\">",
			       w + 200, w + 200);
	for (int k = 0; k <= 8; k++) {
		char col[8];
		ab_svg_heat_colour(k / 8.0, col);
		g_string_append_printf(s, "<stop offset=\"%.3f\" stop-color=\"%s\"/>", k / 8.0, col);
	}
	g_string_append_printf(s, "</linearGradient><pattern id=\"hatchlegend\" width=\"6\" height=\"6\" "
				  "patternUnits=\"userSpaceOnUse\" patternTransform=\"rotate(45)\"><rect width=\"2\" "
				  "height=\"6\" fill=\"#fff\" fill-opacity=\"0.55\"/></pattern></defs>\n"
				  "<rect x=\"%.0f\" y=\"6\" width=\"%.0f\" height=\"16\" fill=\"url(#heatscale)\" "
				  "stroke=\"#888\"/>\n",
			       x0, x1 - x0);
	struct ab_svg_scale sc = { lo / 1024, hi / 1024, x0, x1, TRUE };
	double ticks[16];
	guint n = ab_svg_ticks(lo / 1024, hi / 1024, TRUE, ticks, G_N_ELEMENTS(ticks));
	for (guint i = 0; i < n; i++) {
		double x = ab_svg_map(&sc, ticks[i]);
		char lab[32];
		ab_svg_format_si(ticks[i], lab, sizeof(lab));
		g_string_append_printf(s, "<line class=\"axis\" x1=\"%.1f\" y1=\"22\" x2=\"%.1f\" y2=\"27\"/>\n", x, x);
		ab_svg_text(s, x, 38, "middle", NULL, lab);
	}
	ab_svg_text(s, (x0 + x1) / 2, 52, "middle", "class=\"b\"", "MiB/s (log scale; median of a cell's runs)");
	char col[8];
	ab_svg_heat_colour(0.8, col);
	g_string_append_printf(s, "<rect x=\"%.0f\" y=\"6\" width=\"40\" height=\"16\" fill=\"%s\"/>"
				  "<rect x=\"%.0f\" y=\"6\" width=\"40\" height=\"16\" fill=\"url(#hatchlegend)\"/>\n",
			       x1 + 20, col, x1 + 20);
	ab_svg_text(s, x1 + 66, 18, "start", NULL, "c: page cache");
	ab_svg_text(s, x1 + 66, 34, "start", NULL, "w: no fsync timed");
	g_string_append(s, "</svg>\n");
}

/* The maps of one test and stream count, a map per cell that ran it. */
static void test_maps(GString *s, const struct ab_html_page *page, const struct which *w, gboolean say_streams,
		      double lo, double hi)
{
	struct heat h = { g_array_new(FALSE, FALSE, sizeof(uint64_t)), g_array_new(FALSE, FALSE, sizeof(uint64_t)) };
	for (guint i = 0; i < page->cells->len; i++) {
		const struct ab_html_cell *c = g_ptr_array_index(page->cells, i);
		for (guint k = 0; k < c->runs->len; k++) {
			const struct ab_run *run = g_ptr_array_index(c->runs, k);
			for (guint j = 0; j < run->results->len; j++) {
				const struct ab_result *r = g_ptr_array_index(run->results, j);
				if (is_cell(r, w)) {
					add_sorted(h.files, r->key.file_size);
					add_sorted(h.records, r->key.record_size);
				}
			}
		}
	}
	if (h.files->len) {
		g_string_append(s, "<div class=\"chart\"><h3>");
		ab_html_escape(s, w->test);
		if (say_streams && ab_known(w->streams))
			g_string_append_printf(s, ", %" G_GUINT64_FORMAT " stream%s", w->streams,
					       w->streams == 1 ? "" : "s (end-to-end rate)");
		g_string_append(s, "</h3><div class=\"heats\">\n");
		for (guint i = 0; i < page->cells->len; i++)
			if (has_test(g_ptr_array_index(page->cells, i), w))
				heat_map(s, g_ptr_array_index(page->cells, i), w, &h, lo, hi);
		g_string_append(s, "</div></div>\n");
	}
	g_array_unref(h.files);
	g_array_unref(h.records);
}

void ab_html_sweep(GString *s, const struct ab_html_page *page)
{
	g_string_append(s, "<h2 id=\"sweep\">Record-size sweep</h2>\n");
	map_id = 0;
	double lo = INFINITY, hi = 0;
	gboolean later_pass = FALSE;
	for (guint i = 0; i < page->cells->len; i++) {
		const struct ab_html_cell *c = g_ptr_array_index(page->cells, i);
		for (guint k = 0; k < c->runs->len; k++) {
			const struct ab_run *run = g_ptr_array_index(c->runs, k);
			for (guint j = 0; j < run->results->len; j++) {
				const struct ab_result *r = g_ptr_array_index(run->results, j);
				if (!ab_text_is_grid_result(r))
					continue;
				later_pass |= r->key.pass != 1;
				if (r->key.pass == 1 && isfinite(r->rate) && r->rate > 0) {
					lo = MIN(lo, r->rate);
					hi = MAX(hi, r->rate);
				}
			}
		}
	}
	if (!(hi > 0)) {
		ab_html_none(s, "No heat maps: no run holds a sweep (run --phases sweep).");
		return;
	}
	g_string_append(s, "<p>One map per test and cell: file size down, record size across, MiB/s in each square "
			   "(the median of the cell's runs). Every map shares the one colour scale below. Hatched "
			   "squares are no disk figure, as the text grid marks them.</p>\n");
	legend(s, lo, hi);
	if (later_pass)
		ab_html_none(s, "Only each run's first sweep is drawn; `arraybench report` shows the later ones as grids.");
	/* The stream counts the sweep ran, ascending. */
	g_autoptr(GArray) streams = g_array_new(FALSE, FALSE, sizeof(uint64_t));
	for (guint i = 0; i < page->cells->len; i++) {
		const struct ab_html_cell *c = g_ptr_array_index(page->cells, i);
		for (guint k = 0; k < c->runs->len; k++) {
			const struct ab_run *run = g_ptr_array_index(c->runs, k);
			for (guint j = 0; j < run->results->len; j++) {
				const struct ab_result *r = g_ptr_array_index(run->results, j);
				if (ab_text_is_grid_result(r) && r->key.pass == 1)
					add_sorted(streams, r->key.streams);
			}
		}
	}
	g_string_append(s, "<div class=\"sweepgrid\">\n");
	for (unsigned t = 0; t < AB_SWEEP_TEST_COUNT; t++)
		for (guint n = 0; n < streams->len; n++) {
			struct which w = { ab_sweep_test_info(t)->name, g_array_index(streams, uint64_t, n) };
			test_maps(s, page, &w, streams->len > 1, lo, hi);
		}
	g_string_append(s, "</div>\n");
}
