/* SPDX-License-Identifier: GPL-2.0-or-later */
#ifndef AB_HTML_SECTIONS_H
#define AB_HTML_SECTIONS_H

/* The HTML report's sections, one file per kind of chart (reports/
 * html-*.c), which reports/html.c writes in this order.  Each writes a
 * <section>; a chart with no data is one line saying why. */

#include "html-page.h"

/* The sections, in page order. */
void ab_html_summary(GString *s, const struct ab_html_page *page);
void ab_html_bars(GString *s, const struct ab_html_page *page);
void ab_html_sweep(GString *s, const struct ab_html_page *page);
void ab_html_devices(GString *s, const struct ab_html_page *page);
void ab_html_latency(GString *s, const struct ab_html_page *page);
void ab_html_curve(GString *s, const struct ab_html_page *page);
/* Every finding of the runs and their groups (src/model/findings.h),
 * from the set itself: a finding's rules read the runs, not the page. */
void ab_html_findings(GString *s, const struct ab_run_set *set);
/* Only for runs with per-rank rows; nothing for the others. */
void ab_html_ranks(GString *s, const struct ab_html_page *page);
/* Only for runs of `arraybench tune` (their tune stamps); nothing for the
 * others. */
void ab_html_tuning(GString *s, const struct ab_html_page *page);

#endif
