/* SPDX-License-Identifier: GPL-2.0-or-later */
/* rate-above-members: an I/O phase faster than its members can be.  The
 * ceiling is the efficiency lines' (src/model/efficiency-ceiling.c), from
 * the members' raw reads of run --raw-baseline; a run without them has no
 * honest ceiling and no finding (cache-none-fits and cached-at-start speak
 * of the cache without one). */
#include "findings.h"
#include "efficiency-ceiling.h"
#include "../base/rate-text.h"

#include <math.h>

static void one_run(const struct ab_run *run, GPtrArray *out)
{
	unsigned n;
	double sum, slowest;
	if (!ab_efficiency_members(run, &n, &sum, &slowest))
		return;
	const struct ab_target_desc *t = &run->target;
	const char *level = ab_efficiency_level(t->level);
	for (guint i = 0; i < run->results->len; i++) {
		const struct ab_result *r = g_ptr_array_index(run->results, i);
		enum ab_efficiency_dir dir;
		if (!ab_efficiency_dir_of(r->phase, &dir) || !isfinite(r->rate))
			continue;
		double ceiling = ab_efficiency_ceiling(t->backend, t->level, n, sum, slowest, dir);
		if (!isfinite(ceiling) || !(r->rate > AB_FINDING_CEILING_SHARE * ceiling))
			continue;
		g_autofree char *name = ab_finding_result_name(r);
		char rate[32], most[32];
		ab_rate_text(r->rate, rate, sizeof(rate));
		ab_rate_text(ceiling, most, sizeof(most));
		struct ab_finding *f = ab_finding_add(out, "rate-above-members", run, NULL, name);
		ab_finding_say(f,
			       "%s ran at %s KiB/s, %.0f %% of the %s KiB/s its %u members can deliver (%s %s, from "
			       "their raw reads): the page cache delivered it, not the disks",
			       name, rate, 100 * r->rate / ceiling, most, n, t->backend ? t->backend : "?",
			       level ? level : "?");
		ab_finding_advise(f, "measure the disks with a cold cache (--cache drop or cgroup), a file over twice "
				     "the RAM, or --direct");
		ab_finding_figure(f, "rate", r->rate, "KiB/s");
		ab_finding_figure(f, "ceiling", ceiling, "KiB/s");
		ab_finding_figure(f, "members_raw_read_sum", sum, "KiB/s");
	}
}

void ab_finding_rate_above_members(const struct ab_run_set *set, GPtrArray *out)
{
	for (guint i = 0; i < set->runs->len; i++)
		one_run(g_ptr_array_index(set->runs, i), out);
}
