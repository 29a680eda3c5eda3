/* SPDX-License-Identifier: GPL-2.0-or-later */
#ifndef AB_HTML_PAGE_H
#define AB_HTML_PAGE_H

/*
 * What the HTML report's parts share (reports/html-page.c): the runs
 * grouped into cells, the series (one phase, test and pass) charted across
 * them, and the helpers of every section.  The sections include this, not
 * the page (reports/html.c), which includes them through html-sections.h.
 */

#include "report.h"
#include "svg.h"

/* Runs that measured the same thing: their cell label (run->cell, else
 * target label + workload, else machine name). */
struct ab_html_cell {
	char *label;
	const char *colour;  /* its colour in every chart */
	guint number;        /* 1, 2...: names it where the label is cut short */
	GPtrArray *runs;     /* const struct ab_run *, those with results */
};

/* One figure charted across the cells: a phase (never the sweep's cells),
 * its sub-test and pass. */
struct ab_html_series {
	char *phase;
	char *test;          /* NULL for none */
	uint64_t pass;
	char *title;         /* "seeks", "seeks #2", "raw-read (loop0)" */
};

struct ab_html_page {
	GPtrArray *cells;    /* struct ab_html_cell *, in the order first seen */
	GPtrArray *failed;   /* const struct ab_run *: visits with no results */
	GPtrArray *series;   /* struct ab_html_series *, in the order first seen */
};

void ab_html_page_init(struct ab_html_page *page, const struct ab_run_set *set);
void ab_html_page_clear(struct ab_html_page *page);
/* The label a run is grouped under (to g_free). */
char *ab_html_cell_label(const struct ab_run *run);
/* The series' result in one run, or NULL. */
const struct ab_result *ab_html_find(const struct ab_run *run, const struct ab_html_series *se);
/* "KiB/s", "seeks/s"... of a phase; "?" when it is no phase we know. */
const char *ab_html_unit(const char *phase);
/* A paragraph saying why a chart is not there. */
void ab_html_none(GString *s, const char *fmt, ...) G_GNUC_PRINTF(2, 3);
/* A swatch of the cell's colour and its label. */
void ab_html_cell_name(GString *s, const struct ab_html_cell *c);
/* A chart's legend: the name of each cell k with shown[k], in a note. */
void ab_html_cell_legend(GString *s, const struct ab_html_page *page, const gboolean *shown);
/* The cell as a chart's label: "N label", the label cut in the middle
 * to at most `max` characters (its start and end usually tell cells
 * apart; the number always does); to g_free. */
char *ab_html_short_label(const struct ab_html_cell *c, guint max);

#endif
