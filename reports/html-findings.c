/* SPDX-License-Identifier: GPL-2.0-or-later */
/* The HTML report's "Findings" section: every finding of the runs and
 * their groups (src/model/findings.h), the worst first, each with where,
 * what the data show, the figures it rests on and what to do. */
#include "html-sections.h"
#include "../src/model/findings.h"

#include <math.h>
#include <stdio.h>

static void figures(GString *s, const struct ab_finding *f)
{
	for (guint k = 0; k < f->figures->len; k++) {
		const struct ab_finding_figure *fig = &g_array_index(f->figures, struct ab_finding_figure, k);
		g_autoptr(GString) one = g_string_new(NULL);
		char value[64];
		ab_finding_value_text(fig, value, sizeof(value));
		g_string_append_printf(one, "%s %s", fig->name, value);
		if (fig->unit)
			g_string_append_printf(one, " %s", fig->unit);
		if (k)
			g_string_append(s, "<br>");
		ab_html_escape(s, one->str);
	}
}

static void where(GString *s, const struct ab_finding *f)
{
	g_autoptr(GString) w = g_string_new(f->group ? f->group : "all groups");
	if (f->run_id)
		g_string_append_printf(w, ", run %s", f->run_id);
	if (ab_known(f->repeat))
		g_string_append_printf(w, ", repeat %" G_GUINT64_FORMAT, f->repeat);
	if (f->subject)
		g_string_append_printf(w, ": %s", f->subject);
	ab_html_escape(s, w->str);
}

void ab_html_findings(GString *s, const struct ab_run_set *set)
{
	g_string_append(s, "<h2 id=\"findings\">Findings</h2>\n");
	g_autoptr(GPtrArray) found = ab_findings_find(set, AB_FINDING_SCOPE_ALL);
	if (!found->len) {
		ab_html_none(s, "No finding: none of the rules of Findings in arraybench(1) holds for these runs.");
		return;
	}
	g_string_append_printf(s, "<p class=\"note\">%u finding%s: what the figures show that they do not say "
				  "(Findings in arraybench(1)).</p>\n",
			       found->len, found->len == 1 ? "" : "s");
	g_string_append(s, "<div class=\"scroll\"><table><tr><th>severity</th><th>finding</th><th>where</th>"
			   "<th>what the data show</th><th>rests on</th><th>what to do</th></tr>\n");
	for (int sev = AB_FINDING_CRITICAL; sev >= AB_FINDING_INFO; sev--)
		for (guint i = 0; i < found->len; i++) {
			const struct ab_finding *f = g_ptr_array_index(found, i);
			if ((int)f->severity != sev)
				continue;
			g_string_append_printf(s, "<tr class=\"finding %s\"><td%s>%s</td><td>",
					       ab_finding_severity_name(f->severity),
					       f->severity == AB_FINDING_INFO ? "" : " class=\"warn\"",
					       ab_finding_severity_name(f->severity));
			ab_html_escape(s, f->id);
			g_string_append(s, "</td><td>");
			where(s, f);
			g_string_append(s, "</td><td>");
			ab_html_escape(s, f->text ? f->text : "");
			g_string_append(s, "</td><td class=\"num\">");
			figures(s, f);
			g_string_append(s, "</td><td>");
			ab_html_escape(s, f->advice ? f->advice : "");
			g_string_append(s, "</td></tr>\n");
		}
	g_string_append(s, "</table></div>\n");
}
