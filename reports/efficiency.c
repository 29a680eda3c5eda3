/* SPDX-License-Identifier: GPL-2.0-or-later */
/* run --raw-baseline: each bonnie++ I/O phase's rate as a share of what the
 * array's members delivered raw (arraybench raw's reads, before mkfs), the
 * file system's efficiency.  What the members allow depends on the level:
 * every member can serve reads, but a write puts each block on as many
 * members as there are copies. */
#include "report.h"
#include "text-block.h"
#include "format.h"
#include "../src/model/efficiency-ceiling.h"

#include <math.h>
#include <stdio.h>

/* (The ceiling itself is src/model/efficiency-ceiling.c's, which a
 * finding's rule reads too.) */
static const char *write_rule(const char *backend, const char *level)
{
	if (g_strcmp0(level, "raid4") == 0 || g_strcmp0(level, "raid5") == 0 || g_strcmp0(level, "raid6") == 0)
		return "both vs the slowest member times the data members (a stripe waits for its slowest member)";
	if (g_strcmp0(level, "raid0") == 0)
		return "reads and writes vs the slowest member times the members (a stripe waits for its slowest "
		       "member)";
	if (g_strcmp0(level, "raid1") == 0)
		return ab_efficiency_raid1_every_member(backend)
			       ? "reads vs the members' sum, writes vs the slowest member "
				 "(each member writes every block)"
			       : "reads vs the members' sum, writes vs half of it (two copies)";
	if (g_strcmp0(level, "raid10") == 0 || g_strcmp0(level, "raid1+0") == 0)
		return "reads vs the members' sum, writes vs the slowest member times half the members (two copies)";
	return "reads and writes vs the members' sum";
}

void ab_text_efficiency(GString *s, const struct ab_run *run)
{
	const struct ab_target_desc *t = &run->target;
	unsigned n;
	double sum, slowest;
	if (!ab_efficiency_members(run, &n, &sum, &slowest))
		return;
	/* The array's own device (md's) read raw too: the file system against it. */
	const struct ab_result *array = ab_efficiency_own_device(t->backend) ? ab_efficiency_raw_row(run, t->source) : NULL;
	const char *level = ab_efficiency_level(t->level);
	char sum_text[32];
	ab_format_rate(sum, sum_text, sizeof(sum_text));
	g_string_append_printf(s, "efficiency: %s %s of %u, members' raw reads %s KiB/s in all; %s%s\n",
			       t->backend ? t->backend : "?", level ? level : "?", n, sum_text,
			       write_rule(t->backend, level), "; rewrite vs both in turn (each byte read, then written)");
	g_string_append(s, "            writes are set against raw reads (a raw write would destroy the members)\n");
	/* --loop images are sparse until written: a raw read of them is
	 * mostly holes, which the host file system answers with zeros and no
	 * disk I/O, so the baseline says nothing about the disk under them. */
	if (ab_known(run->target.image_count) && run->target.image_count)
		g_string_append(s, "WARNING     the members are sparse --loop images: their raw reads were mostly holes, "
				   "answered without disk I/O, so these shares compare with memory, not the disk\n");
	for (guint i = 0; i < run->results->len; i++) {
		const struct ab_result *r = g_ptr_array_index(run->results, i);
		enum ab_efficiency_dir dir;
		if (!ab_efficiency_dir_of(r->phase, &dir) || !isfinite(r->rate))
			continue;
		double ceiling = ab_efficiency_ceiling(t->backend, t->level, n, sum, slowest, dir);
		if (!isfinite(ceiling))
			continue;
		/* The rate as the table above prints it (not one more). */
		char rate[32], most[32];
		ab_format_rate(r->rate, rate, sizeof(rate));
		ab_format_rate(ceiling, most, sizeof(most));
		g_string_append_printf(s, "  %-15s %10s of %10s KiB/s  %5.1f%%", r->phase, rate, most,
				       100 * r->rate / ceiling);
		if (array && dir == AB_EFFICIENCY_READ)
			g_string_append_printf(s, "  (%.1f%% of the array's own raw read)", 100 * r->rate / array->rate);
		g_string_append_c(s, '\n');
	}
}

/* The members' raw reads are what the lines are read against. */
static gboolean has_raw_read(const struct ab_run *run)
{
	return ab_run_find(run, "raw-read") != NULL;
}

const struct ab_text_block ab_text_block_efficiency = {
	.name = "efficiency",
	.applies = has_raw_read,
	.append = ab_text_efficiency,
};
