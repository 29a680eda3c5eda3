/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Findings as text (src/model/findings.h): a run's own under its tables
 * and blocks, before the sizing statement (a text block, so `run` prints
 * them too), the groups' after a report's
 * runs, and all of them under a comparison.  Each finding: its severity,
 * id and where, what the data show, the figures it rests on, what to do. */
#include "report.h"
#include "text-block.h"
#include "../src/model/findings.h"
#include "../src/base/error.h"

#include <math.h>
#include <stdio.h>

static void figure_text(GString *s, const struct ab_finding_figure *fig)
{
	char value[64];
	ab_finding_value_text(fig, value, sizeof(value));
	g_string_append_printf(s, "%s %s", fig->name, value);
	if (fig->unit)
		g_string_append_printf(s, " %s", fig->unit);
}

void ab_findings_text(GString *s, const GPtrArray *findings, const char *title, gboolean where)
{
	if (!findings->len)
		return;
	g_string_append_printf(s, "%s (%u):\n", title, findings->len);
	for (guint i = 0; i < findings->len; i++) {
		const struct ab_finding *f = g_ptr_array_index(findings, i);
		g_string_append_printf(s, "  %-8s %s", ab_finding_severity_name(f->severity), f->id);
		if (where) {
			/* A finding across the groups has none of its own. */
			g_autofree char *group = ab_one_line(f->group ? f->group : "all groups");
			g_string_append_printf(s, "  [%s", group);
			if (f->run_id) {
				g_autofree char *id = ab_one_line(f->run_id);
				g_string_append_printf(s, ", run %s", id);
			}
			if (ab_known(f->repeat))
				g_string_append_printf(s, ", repeat %" G_GUINT64_FORMAT, f->repeat);
			g_string_append_c(s, ']');
		}
		g_string_append_printf(s, ": %s\n", f->text ? f->text : "");
		if (f->figures->len) {
			g_string_append(s, "           rests on: ");
			for (guint k = 0; k < f->figures->len; k++) {
				if (k)
					g_string_append(s, ", ");
				figure_text(s, &g_array_index(f->figures, struct ab_finding_figure, k));
			}
			g_string_append_c(s, '\n');
		}
		if (f->advice)
			g_string_append_printf(s, "           to do: %s\n", f->advice);
	}
}

static void run_findings(GString *s, const struct ab_run *run)
{
	g_autoptr(GPtrArray) findings = ab_findings_of_run(run);
	/* A blank line sets them apart from the table and its blocks. */
	if (findings->len)
		g_string_append_c(s, '\n');
	ab_findings_text(s, findings, "findings", FALSE);
}

/* Any run may have some: the block finds out (and says nothing of none). */
static gboolean always(const struct ab_run *run)
{
	(void)run;
	return TRUE;
}

const struct ab_text_block ab_text_block_findings = {
	.name = "findings",
	.applies = always,
	.append = run_findings,
};
