/* SPDX-License-Identifier: GPL-2.0-or-later */
/* `report --html`: one page that reads alone (inline CSS and SVG, no
 * script, nothing fetched), from the runs the report read: what was
 * compared and under which conditions, then the charts (reports/html-*.c). */
#include "html-page.h"
#include "html-sections.h"
#include "format.h"
#include "compare.h"
#include "../workloads/phase.h"

#include <stdarg.h>
#include <stdio.h>
#include <string.h>

static const char css[] =
	"body{font:14px/1.45 system-ui,'DejaVu Sans',sans-serif;color:#1b1b1b;background:#fff;margin:0}\n"
	"main{max-width:1240px;margin:0 auto;padding:16px 24px 48px}\n"
	"h1{font-size:24px;margin:8px 0 4px}h2{font-size:19px;margin:28px 0 6px;border-bottom:2px solid #ddd}\n"
	"h3{font-size:15px;margin:0 0 4px}p{margin:4px 0 8px}.lead{color:#444}\n"
	"table{border-collapse:collapse;margin:4px 0 10px;font-size:13px}\n"
	"th,td{border:1px solid #d6d6d6;padding:2px 7px;text-align:left;vertical-align:top}td{overflow-wrap:anywhere}\n"
	"th{background:#f2f2f2}td.n{text-align:right;font-variant-numeric:tabular-nums;white-space:nowrap}\n"
	"tr.best td{font-weight:600;background:#f3f8ec}tr.key td:first-child{font-weight:700}.sw{display:inline-block;width:11px;height:11px;"
	"margin-right:5px;border:1px solid #555;vertical-align:-1px}.num{color:#666;font-size:12px}\n"
	".scroll{overflow-x:auto}\n"
	".grid{display:grid;grid-template-columns:repeat(auto-fill,minmax(560px,1fr));gap:14px 22px}\n"
	".chart{border:1px solid #e2e2e2;border-radius:4px;padding:8px 10px}.chart table{width:100%;font-size:12.5px}\n"
	".chart th,.chart td{padding:2px 5px}\n"
	".chart td:first-child{min-width:11em}\n"
	".heats{display:flex;flex-wrap:wrap;gap:6px 26px}.sweepgrid{display:grid;grid-template-columns:repeat(auto-fill,minmax(380px,1fr));gap:12px 18px}\n"
	".note{color:#555;font-size:12.5px}.none{color:#666;font-style:italic}\n"
	".verdict{font-size:13.5px}.warn{color:#8a4b00}\n"
	"svg{display:block;max-width:100%;height:auto}svg text{font:11px system-ui,'DejaVu Sans',sans-serif;"
	"fill:#222}svg text.b{font-weight:600}svg text.i{font-style:italic}svg text.hv{font-size:10.5px}\n"
	"svg text.mk{font-size:9px;font-weight:700}svg text.lt{fill:#fff}svg .axis{stroke:#888;stroke-width:1}svg .gridl{stroke:#e6e6e6;stroke-width:1}\n";

/* Distinct values of a per-result text across a cell's runs. */
static void add_distinct(GPtrArray *seen, const char *v)
{
	if (!v)
		v = "?";
	if (!g_ptr_array_find_with_equal_func(seen, v, g_str_equal, NULL))
		g_ptr_array_add(seen, (gpointer)v);
}

static char *joined(GPtrArray *v)
{
	g_ptr_array_add(v, NULL);
	char *j = g_strjoinv(", ", (char **)v->pdata);
	g_ptr_array_set_size(v, v->len - 1);
	return j;
}

static const char *flag_word(ab_flag f)
{
	return f == AB_FLAG_UNKNOWN ? "?" : f ? "O_DIRECT" : "buffered";
}

/* A condition of one series: the same value in every cell, said once, or
 * each cell's. */
static void condition_cell(GString *s, const struct ab_html_page *page, const struct ab_html_series *se, int which)
{
	g_autoptr(GPtrArray) per_cell = g_ptr_array_new_with_free_func(g_free);
	for (guint i = 0; i < page->cells->len; i++) {
		const struct ab_html_cell *c = g_ptr_array_index(page->cells, i);
		g_autoptr(GPtrArray) seen = g_ptr_array_new();
		for (guint k = 0; k < c->runs->len; k++) {
			const struct ab_result *r = ab_html_find(g_ptr_array_index(c->runs, k), se);
			if (r)
				add_distinct(seen, which == 0 ? r->cache_state : which == 1 ? r->sync_mode
											    : flag_word(r->direct));
		}
		g_ptr_array_add(per_cell, seen->len ? joined(seen) : NULL);
	}
	const char *first = NULL;
	gboolean same = TRUE;
	for (guint i = 0; i < per_cell->len; i++) {
		const char *v = g_ptr_array_index(per_cell, i);
		if (!v)
			continue;
		if (first && !g_str_equal(first, v))
			same = FALSE;
		first = first ? first : v;
	}
	g_string_append(s, "<td>");
	if (same) {
		ab_html_escape(s, first ? first : "-");
	} else {
		g_string_append(s, "<span class=\"warn\">differs:</span> ");
		for (guint i = 0; i < per_cell->len; i++) {
			const char *v = g_ptr_array_index(per_cell, i);
			if (!v)
				continue;
			g_string_append(s, i ? "; " : "");
			ab_html_escape(s, ((struct ab_html_cell *)g_ptr_array_index(page->cells, i))->label);
			g_string_append(s, ": ");
			ab_html_escape(s, v);
		}
	}
	g_string_append(s, "</td>");
}

static void target_text(GString *t, const struct ab_run *run)
{
	const struct ab_target_desc *d = &run->target;
	g_string_append(t, d->backend ? d->backend : run->tool && g_str_equal(run->tool, "bonnie++") ? "bonnie++ run" : "?");
	if (d->level)
		g_string_append_printf(t, " %s", d->level);
	if (d->members->len)
		g_string_append_printf(t, " over %u members", d->members->len);
	const char *fs = d->fs ? d->fs : run->fs_type;
	if (fs)
		g_string_append_printf(t, ", %s", fs);
	if (d->mount_options)
		g_string_append_printf(t, " -o %s", d->mount_options);
}

/* A run-level text of every run of a cell, distinct values joined. */
static void cell_runs_text(GString *s, const struct ab_html_cell *c, int which)
{
	g_autoptr(GPtrArray) seen = g_ptr_array_new_with_free_func(g_free);
	for (guint k = 0; k < c->runs->len; k++) {
		const struct ab_run *run = g_ptr_array_index(c->runs, k);
		GString *t = g_string_new(NULL);
		char sz[32];
		switch (which) {
		case 0: target_text(t, run); break;
		case 1: g_string_append(t, run->machine ? run->machine : "?"); break;
		case 2:
			if (ab_known(run->cond.file_size) && run->cond.file_size) {
				ab_csv_format_chunk(run->cond.file_size, sz, sizeof(sz));
				g_string_append(t, sz);
			} else {
				g_string_append(t, "-");
			}
			break;
		case 3: g_string_append(t, run->cache_desc ? run->cache_desc : run->cond.cache_mode ? run->cond.cache_mode : "?"); break;
		default: g_string_append_printf(t, "%s %s", run->tool ? run->tool : "?", run->tool_version ? run->tool_version : "");
		}
		char *v = g_string_free(t, FALSE);
		if (g_ptr_array_find_with_equal_func(seen, v, g_str_equal, NULL))
			g_free(v);
		else
			g_ptr_array_add(seen, v);
	}
	g_string_append(s, "<td>");
	for (guint i = 0; i < seen->len; i++) {
		g_string_append(s, i ? "; " : "");
		ab_html_escape(s, g_ptr_array_index(seen, i));
	}
	g_string_append(s, "</td>");
}

static void compared(GString *s, const struct ab_html_page *page, const struct ab_run_set *set)
{
	g_string_append(s, "<h2 id=\"compared\">What was compared</h2>\n<table><tr><th>cell</th><th>runs</th>"
			   "<th>target</th><th>machine</th><th>file size</th><th>cache control</th><th>tool</th></tr>\n");
	for (guint i = 0; i < page->cells->len; i++) {
		const struct ab_html_cell *c = g_ptr_array_index(page->cells, i);
		g_string_append(s, "<tr><td>");
		ab_html_cell_name(s, c);
		g_string_append_printf(s, "</td><td class=\"n\">%u</td>", c->runs->len);
		for (int w = 0; w < 5; w++)
			cell_runs_text(s, c, w);
		g_string_append(s, "</tr>\n");
	}
	g_string_append(s, "</table>\n");
	/* What the cache could not promise, once per distinct warning. */
	g_autoptr(GPtrArray) warnings = g_ptr_array_new();
	for (guint i = 0; i < set->runs->len; i++) {
		const struct ab_run *run = g_ptr_array_index(set->runs, i);
		if (run->cache_warning && !g_ptr_array_find_with_equal_func(warnings, run->cache_warning, g_str_equal, NULL))
			g_ptr_array_add(warnings, run->cache_warning);
	}
	for (guint i = 0; i < warnings->len; i++) {
		g_string_append(s, "<p class=\"warn\">cache: ");
		ab_html_escape(s, g_ptr_array_index(warnings, i));
		g_string_append(s, "</p>\n");
	}
	if (page->failed->len) {
		g_string_append_printf(s, "<p class=\"warn\">%u run%s without results (not charted):</p>\n<ul>\n",
				       page->failed->len, page->failed->len == 1 ? "" : "s");
		for (guint i = 0; i < page->failed->len; i++) {
			const struct ab_run *run = g_ptr_array_index(page->failed, i);
			g_autofree char *label = ab_html_cell_label(run);
			g_string_append(s, "<li>");
			ab_html_escape(s, label);
			if (ab_known(run->repeat))
				g_string_append_printf(s, ", repeat %" G_GUINT64_FORMAT, run->repeat);
			g_string_append(s, ": ");
			ab_html_escape(s, run->failure ? run->failure : "no results recorded");
			g_string_append(s, "</li>\n");
		}
		g_string_append(s, "</ul>\n");
	}
	if (!page->series->len)
		return;
	g_string_append(s, "<h3>Conditions per phase</h3>\n");
	gboolean known = FALSE;
	for (guint i = 0; i < set->runs->len && !known; i++) {
		const struct ab_run *run = g_ptr_array_index(set->runs, i);
		for (guint k = 0; k < run->results->len && !known; k++) {
			const struct ab_result *r = g_ptr_array_index(run->results, k);
			known = r->cache_state || r->sync_mode || r->direct != AB_FLAG_UNKNOWN;
		}
	}
	if (!known) {
		ab_html_none(s, "Not recorded: the runs (bonnie++'s CSV) say nothing of cache state, sync mode or "
				"direct I/O per phase.");
		return;
	}
	g_string_append(s, "<table><tr><th>phase</th><th>unit</th><th>cache state</th>"
			   "<th>sync mode (what its timing holds)</th><th>I/O</th></tr>\n");
	for (guint i = 0; i < page->series->len; i++) {
		const struct ab_html_series *se = g_ptr_array_index(page->series, i);
		g_string_append(s, "<tr><td>");
		ab_html_escape(s, se->title);
		g_string_append(s, "</td><td>");
		ab_html_escape(s, ab_html_unit(se->phase));
		g_string_append(s, "</td>");
		for (int w = 0; w < 3; w++)
			condition_cell(s, page, se, w);
		g_string_append(s, "</tr>\n");
	}
	gboolean sweep = FALSE;
	for (guint i = 0; i < set->runs->len && !sweep; i++) {
		const struct ab_run *run = g_ptr_array_index(set->runs, i);
		for (guint k = 0; k < run->results->len && !sweep; k++)
			sweep = ab_text_is_grid_result(g_ptr_array_index(run->results, k));
	}
	if (sweep)
		g_string_append(s, "<tr><td>sweep</td><td>KiB/s</td><td colspan=\"3\">per heat-map cell: see "
				   "<a href=\"#sweep\">the sweep</a></td></tr>\n");
	g_string_append(s, "</table>\n");
}

gboolean ab_html_write(const struct ab_run_set *set, GString *out, GError **error)
{
	(void)error;
	struct ab_html_page page;
	ab_html_page_init(&page, set);
	guint runs = 0;
	for (guint i = 0; i < page.cells->len; i++)
		runs += ((struct ab_html_cell *)g_ptr_array_index(page.cells, i))->runs->len;
	g_string_append(out, "<!DOCTYPE html>\n<html lang=\"en\"><head><meta charset=\"utf-8\">\n"
			     "<meta name=\"viewport\" content=\"width=device-width, initial-scale=1\">\n"
			     "<title>arraybench report</title>\n<style>\n");
	g_string_append(out, css);
	g_string_append(out, "</style></head><body><main>\n<h1>arraybench report</h1>\n<p class=\"lead\">");
	g_string_append_printf(out, "%u cell%s, %u run%s with results", page.cells->len, page.cells->len == 1 ? "" : "s",
			       runs, runs == 1 ? "" : "s");
	if (page.failed->len)
		g_string_append_printf(out, ", %u without", page.failed->len);
	g_string_append(out, ". Bars are the mean of a cell's runs, the black line across a bar its 95 % confidence "
			     "interval (Student t; where that would pass below 0, which a rate cannot, the geometric "
			     "mean's on a log scale, marked ^ in the table), dots each run (red: an outlier among 5 "
			     "runs or more, over 3 scaled MADs from the median, shown and counted); higher is better "
			     "for every rate. Whether a difference is beyond the noise is Welch's t-test, as "
			     "<code>arraybench report --compare</code> says it.</p>\n");
	compared(out, &page, set);
	ab_html_findings(out, set);
	ab_html_summary(out, &page);
	ab_html_bars(out, &page);
	ab_html_sweep(out, &page);
	ab_html_devices(out, &page);
	ab_html_latency(out, &page);
	ab_html_curve(out, &page);
	ab_html_ranks(out, &page);
	ab_html_tuning(out, &page);
	g_string_append(out, "<p class=\"note\">Written by arraybench " AB_VERSION " (arraybench report --html).</p>\n"
			     "</main></body></html>\n");
	ab_html_page_clear(&page);
	return TRUE;
}
