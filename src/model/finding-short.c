/* SPDX-License-Identifier: GPL-2.0-or-later */
/* too-short: phases that ended before their measurable time (bonnie++'s
 * 0.5 s, its +++++): a rate over a few milliseconds is mostly the start
 * and the stop.  One finding per run, naming them, rather than one per
 * phase (a small run has a dozen). */
#include "findings.h"

#include <math.h>

static void one_run(const struct ab_run *run, GPtrArray *out)
{
	g_autoptr(GString) names = g_string_new(NULL);
	unsigned count = 0;
	double shortest = INFINITY, floor_s = NAN;
	for (guint i = 0; i < run->results->len; i++) {
		const struct ab_result *r = g_ptr_array_index(run->results, i);
		/* Too short: its duration says so, or its rate is bonnie++'s
		 * +++++ (no figure).  A figure read off between steps (the
		 * curve's sizing) was never timed. */
		if (r->measurable || r->interpolated == TRUE || (!isfinite(r->elapsed_s) && !isnan(r->rate)))
			continue;
		g_autofree char *name = ab_finding_result_name(r);
		if (count < 8) {
			g_string_append_printf(names, "%s%s", count ? ", " : "", name);
			if (isfinite(r->elapsed_s))
				g_string_append_printf(names, " %.2g s", r->elapsed_s);
			else
				g_string_append(names, " +++++");
		}
		count++;
		if (isfinite(r->elapsed_s))
			shortest = MIN(shortest, r->elapsed_s);
		if (isfinite(r->min_measurable_s))
			floor_s = r->min_measurable_s;
	}
	if (!count)
		return;
	if (count > 8)
		g_string_append_printf(names, " and %u more", count - 8);
	if (!isfinite(floor_s))
		floor_s = 0.5; /* bonnie++'s, which its CSV's +++++ means */
	struct ab_finding *f = ab_finding_add(out, "too-short", run, NULL, NULL);
	ab_finding_say(f, "%u phase%s lasted under %.1f s (%s): %s rates are mostly start and stop", count,
		       count == 1 ? "" : "s", floor_s, names->str, count == 1 ? "its" : "their");
	ab_finding_advise(f, "give them more work: a larger -s for the I/O phases, a larger -n for the file phases");
	ab_finding_figure(f, "phases", count, NULL);
	if (isfinite(shortest)) /* not for +++++ alone: bonnie++'s CSV keeps no duration */
		ab_finding_figure(f, "shortest", shortest, "s");
	ab_finding_figure(f, "measurable_time", floor_s, "s");
}

void ab_finding_too_short(const struct ab_run_set *set, GPtrArray *out)
{
	for (guint i = 0; i < set->runs->len; i++)
		one_run(g_ptr_array_index(set->runs, i), out);
}
