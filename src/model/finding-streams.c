/* SPDX-License-Identifier: GPL-2.0-or-later */
/* stream-straggler: a cell of concurrent streams whose stonewall rate
 * (each stream's work until the first ended, over its own time: iozone's
 * "children see") and end-to-end rate (all the work over the whole span:
 * "parent sees") are far apart: some stream went on alone after the
 * others, or started late.  The slowest stream, or rank under MPI
 * (src/model/rank-merge.c's rows), is named. */
#include "findings.h"
#include "../base/rate-text.h"

#include <math.h>

/* "rank 3 (node2) at 1234 KiB/s" or "stream 2 (pid 4711) at ...": the
 * slowest, or NULL when no row says; its rate in *rate. */
static char *slowest(const struct ab_result *r, double *rate)
{
	*rate = NAN;
	if (r->per_rank->len) {
		const struct ab_rank_stat *low = NULL;
		for (guint i = 0; i < r->per_rank->len; i++) {
			const struct ab_rank_stat *rs = &g_array_index(r->per_rank, struct ab_rank_stat, i);
			if (isfinite(rs->rate) && (!low || rs->rate < low->rate))
				low = rs;
		}
		if (!low)
			return NULL;
		*rate = low->rate;
		return g_strdup_printf("rank %" G_GUINT64_FORMAT " (%s)", low->rank, low->host ? low->host : "?");
	}
	int at = -1;
	for (guint i = 0; i < r->per_worker->len; i++) {
		const struct ab_worker_stat *w = &g_array_index(r->per_worker, struct ab_worker_stat, i);
		if (isfinite(w->stonewall_rate) &&
		    (at < 0 || w->stonewall_rate < g_array_index(r->per_worker, struct ab_worker_stat, at).stonewall_rate))
			at = (int)i;
	}
	if (at < 0)
		return NULL;
	const struct ab_worker_stat *w = &g_array_index(r->per_worker, struct ab_worker_stat, at);
	*rate = w->stonewall_rate;
	if (w->pid != INT64_MIN)
		return g_strdup_printf("stream %d (pid %" G_GINT64_FORMAT ")", at + 1, w->pid);
	return g_strdup_printf("stream %d", at + 1);
}

void ab_finding_stream_straggler(const struct ab_run_set *set, GPtrArray *out)
{
	for (guint i = 0; i < set->runs->len; i++) {
		const struct ab_run *run = g_ptr_array_index(set->runs, i);
		for (guint k = 0; k < run->results->len; k++) {
			const struct ab_result *r = g_ptr_array_index(run->results, k);
			double sw = r->stonewall_rate, e2e = r->end_to_end_rate;
			if (!(sw > 0) || !(e2e > 0) || !isfinite(sw) || !isfinite(e2e))
				continue;
			double gap = fabs(sw - e2e) / MAX(sw, e2e);
			if (!(gap > AB_FINDING_STONEWALL_GAP))
				continue;
			g_autofree char *name = ab_finding_result_name(r);
			double low_rate;
			g_autofree char *low = slowest(r, &low_rate);
			struct ab_finding *f = ab_finding_add(out, "stream-straggler", run, NULL, name);
			const char *unit = ab_finding_unit(r) ? ab_finding_unit(r) : "";
			char sw_text[32], e2e_text[32], low_text[32];
			ab_rate_text(sw, sw_text, sizeof(sw_text));
			ab_rate_text(e2e, e2e_text, sizeof(e2e_text));
			ab_rate_text(low_rate, low_text, sizeof(low_text));
			g_autofree char *who = low ? g_strdup_printf("; the slowest, %s, at %s %s", low, low_text, unit)
						   : g_strdup("");
			ab_finding_say(f,
				       "%s: stonewall rate %s %s and end-to-end rate %s %s differ by %.0f %% (over %.0f "
				       "%%): a straggler%s",
				       name, sw_text, unit, e2e_text, unit, 100 * gap, 100 * AB_FINDING_STONEWALL_GAP, who);
			ab_finding_advise(f, "read the stonewall rate as what the streams did together, and look at %s "
					     "(its disk, its node, what else ran there)",
					  low ? low : "the slowest stream");
			ab_finding_figure(f, "stonewall_rate", sw, ab_finding_unit(r));
			ab_finding_figure(f, "end_to_end_rate", e2e, ab_finding_unit(r));
			if (low)
				ab_finding_figure(f, "slowest_rate", low_rate, ab_finding_unit(r));
		}
	}
}
