/* SPDX-License-Identifier: GPL-2.0-or-later */
/* The HTML page's model and the helpers every section shares (html-page.h):
 * the runs grouped into cells, the series charted across them, and the
 * small pieces (a cell's swatch and name, a legend, "no chart because"). */
#include "html-page.h"
#include "compare.h"
#include "../workloads/phase.h"

#include <stdarg.h>
#include <stdio.h>
#include <string.h>

/* Tableau's ten: distinct on white and for most colour-blind readers. */
static const char *const palette[] = { "#4e79a7", "#f28e2b", "#e15759", "#76b7b2", "#59a14f",
				       "#edc948", "#b07aa1", "#ff9da7", "#9c755f", "#bab0ac" };

char *ab_html_cell_label(const struct ab_run *run)
{
	/* The groups of `report --compare`, so the page and the table agree. */
	return ab_compare_group_label(run);
}

static void cell_free(gpointer p)
{
	struct ab_html_cell *c = p;
	g_free(c->label);
	g_ptr_array_unref(c->runs);
	g_free(c);
}

static void series_free(gpointer p)
{
	struct ab_html_series *se = p;
	g_free(se->phase);
	g_free(se->test);
	g_free(se->title);
	g_free(se);
}

const struct ab_result *ab_html_find(const struct ab_run *run, const struct ab_html_series *se)
{
	for (guint i = 0; i < run->results->len; i++) {
		const struct ab_result *r = g_ptr_array_index(run->results, i);
		if (g_strcmp0(r->phase, se->phase) == 0 && g_strcmp0(r->key.test, se->test) == 0 &&
		    r->key.pass == se->pass)
			return r;
	}
	return NULL;
}

static void add_series(GPtrArray *series, const struct ab_result *r)
{
	if (!r->phase || ab_text_is_grid_result(r))
		return;
	/* A curve's steps are drawn together in "Latency vs load"; a bar per
	 * step would compare offered rates.  Its sizing answer is a figure to
	 * compare across cells, so it keeps its bar. */
	if (ab_text_is_curve_result(r) && g_strcmp0(r->key.test, "sizing") != 0)
		return;
	struct ab_html_series want = { r->phase, r->key.test, r->key.pass, NULL };
	for (guint i = 0; i < series->len; i++) {
		const struct ab_html_series *se = g_ptr_array_index(series, i);
		if (g_str_equal(se->phase, want.phase) && g_strcmp0(se->test, want.test) == 0 && se->pass == want.pass)
			return;
	}
	struct ab_html_series *se = g_new0(struct ab_html_series, 1);
	se->phase = g_strdup(r->phase);
	se->test = g_strdup(r->key.test);
	se->pass = r->key.pass;
	GString *t = g_string_new(r->phase);
	if (r->key.test)
		g_string_append_printf(t, " (%s)", r->key.test);
	if (ab_known(r->key.pass) && r->key.pass > 1)
		g_string_append_printf(t, " #%" G_GUINT64_FORMAT, r->key.pass);
	se->title = g_string_free(t, FALSE);
	g_ptr_array_add(series, se);
}

void ab_html_page_init(struct ab_html_page *page, const struct ab_run_set *set)
{
	page->cells = g_ptr_array_new_with_free_func(cell_free);
	page->failed = g_ptr_array_new();
	page->series = g_ptr_array_new_with_free_func(series_free);
	for (guint i = 0; i < set->runs->len; i++) {
		const struct ab_run *run = g_ptr_array_index(set->runs, i);
		if (run->results->len == 0) {
			g_ptr_array_add(page->failed, (gpointer)run);
			continue;
		}
		g_autofree char *label = ab_html_cell_label(run);
		struct ab_html_cell *cell = NULL;
		for (guint k = 0; k < page->cells->len && !cell; k++) {
			struct ab_html_cell *c = g_ptr_array_index(page->cells, k);
			if (g_str_equal(c->label, label))
				cell = c;
		}
		if (!cell) {
			cell = g_new0(struct ab_html_cell, 1);
			cell->label = g_steal_pointer(&label);
			cell->colour = palette[page->cells->len % G_N_ELEMENTS(palette)];
			cell->number = page->cells->len + 1;
			cell->runs = g_ptr_array_new();
			g_ptr_array_add(page->cells, cell);
		}
		g_ptr_array_add(cell->runs, (gpointer)run);
		for (guint k = 0; k < run->results->len; k++)
			add_series(page->series, g_ptr_array_index(run->results, k));
	}
}

void ab_html_page_clear(struct ab_html_page *page)
{
	g_ptr_array_unref(page->cells);
	g_ptr_array_unref(page->failed);
	g_ptr_array_unref(page->series);
}

const char *ab_html_unit(const char *phase)
{
	const struct ab_phase *ph = phase ? ab_phase_by_name(phase) : NULL;
	return ph ? ab_rate_unit_name(ph->unit) : "?";
}

void ab_html_none(GString *s, const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	g_autofree char *text = g_strdup_vprintf(fmt, ap);
	va_end(ap);
	g_string_append(s, "<p class=\"none\">");
	ab_html_escape(s, text);
	g_string_append(s, "</p>\n");
}

void ab_html_cell_legend(GString *s, const struct ab_html_page *page, const gboolean *shown)
{
	g_string_append(s, "<p class=\"note\">");
	for (guint k = 0; k < page->cells->len; k++) {
		if (!shown[k])
			continue;
		g_string_append(s, "<span style=\"margin-right:14px\">");
		ab_html_cell_name(s, g_ptr_array_index(page->cells, k));
		g_string_append(s, "</span>");
	}
	g_string_append(s, "</p>\n");
}

void ab_html_cell_name(GString *s, const struct ab_html_cell *c)
{
	g_string_append_printf(s, "<span class=\"sw\" style=\"background:%s\"></span><span class=\"num\">%u</span> ",
			       c->colour, c->number);
	ab_html_escape(s, c->label);
}

char *ab_html_short_label(const struct ab_html_cell *c, guint max)
{
	g_autofree char *label = g_utf8_make_valid(c->label, -1);
	glong len = g_utf8_strlen(label, -1);
	if (len <= (glong)max)
		return g_strdup_printf("%u %s", c->number, label);
	glong head = (max - 1) / 2, tail = max - 1 - head;
	g_autofree char *a = g_utf8_substring(label, 0, head);
	g_autofree char *b = g_utf8_substring(label, len - tail, len);
	return g_strdup_printf("%u %s\xe2\x80\xa6%s", c->number, a, b);
}
