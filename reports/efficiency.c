/* SPDX-License-Identifier: GPL-2.0-or-later */
/* run --raw-baseline: each bonnie++ I/O phase's rate as a share of what the
 * array's members delivered raw (arraybench raw's reads, before mkfs), the
 * file system's efficiency.  What the members allow depends on the level:
 * every member can serve reads, but a write puts each block on as many
 * members as there are copies. */
#include "report.h"
#include "text-block.h"
#include "format.h"
#include "../src/model/backend-list.h"
#include "../src/base/raid-level.h"
#include "../workloads/phase.h"

#include <stdio.h>

/* What the ceiling needs to know of a backend, by the name a run records
 * (src/model/backend-list.h). */
struct backend_facts {
	const char *name;
	enum ab_mirror_writes raid1_writes;
	gboolean own_device;
};

static const struct backend_facts known[] = {
#define AB_BACKEND_FACTS(name, raid1_writes, own_device) { #name, raid1_writes, own_device },
	AB_BACKEND_LIST(AB_BACKEND_FACTS)
#undef AB_BACKEND_FACTS
};

/* A name not in the list (none, or a bonnie++ run's) has two copies and no
 * device of its own. */
static const struct backend_facts *facts_of(const char *backend)
{
	static const struct backend_facts unknown = { NULL, AB_MIRROR_TWO_COPIES, FALSE };
	for (size_t i = 0; backend && i < G_N_ELEMENTS(known); i++)
		if (g_str_equal(known[i].name, backend))
			return &known[i];
	return &unknown;
}

/* The level a run records is the --array word as the user typed it (md's
 * "10", "1+0" as well as "raid10"), in a saved run too: the rules below
 * read its canonical form.  A word that is no md level ("single", none)
 * is read as it is. */
static const char *level_of(const char *recorded)
{
	const char *canonical = ab_raid_level_canonical(recorded);
	return canonical ? canonical : recorded;
}

double ab_efficiency_ceiling(const char *backend, const char *recorded_level, unsigned n, double sum,
			     double slowest, enum ab_efficiency_dir dir)
{
	const char *level = level_of(recorded_level);
	if (!n || !(sum > 0) || !(slowest > 0))
		return NAN;
	if (dir == AB_EFFICIENCY_REWRITE) {
		/* Each byte is read, then written: the two take turns. */
		double r = ab_efficiency_ceiling(backend, level, n, sum, slowest, AB_EFFICIENCY_READ);
		double w = ab_efficiency_ceiling(backend, level, n, sum, slowest, AB_EFFICIENCY_WRITE);
		return 1 / (1 / r + 1 / w);
	}
	gboolean every_member = facts_of(backend)->raid1_writes == AB_MIRROR_EVERY_MEMBER;
	/* Parity carries no data, read or written: a share of the members
	 * (raid4's one member, raid5's spread over all). */
	if (g_strcmp0(level, "raid4") == 0 || g_strcmp0(level, "raid5") == 0)
		return n > 1 ? sum * (n - 1) / n : NAN;
	if (g_strcmp0(level, "raid6") == 0)
		return n > 2 ? sum * (n - 2) / n : NAN;
	/* Reads may come from any copy; the sum is the most they can get. */
	if (dir == AB_EFFICIENCY_READ)
		return sum;
	if (g_strcmp0(level, "raid1") == 0)
		return every_member ? slowest : sum / 2; /* md: every member holds all; btrfs: two copies */
	if (g_strcmp0(level, "raid10") == 0 || g_strcmp0(level, "raid1+0") == 0)
		return sum / 2;
	if (g_strcmp0(level, "raid0") == 0 || g_strcmp0(level, "single") == 0 || !level)
		return sum;
	return NAN;
}

static const char *write_rule(const char *backend, const char *level)
{
	if (g_strcmp0(level, "raid4") == 0 || g_strcmp0(level, "raid5") == 0 || g_strcmp0(level, "raid6") == 0)
		return "both vs the members' sum less the parity share";
	if (g_strcmp0(level, "raid1") == 0)
		return facts_of(backend)->raid1_writes == AB_MIRROR_EVERY_MEMBER
			       ? "reads vs the members' sum, writes vs the slowest member "
				 "(each member writes every block)"
			       : "reads vs the members' sum, writes vs half of it (two copies)";
	if (g_strcmp0(level, "raid10") == 0 || g_strcmp0(level, "raid1+0") == 0)
		return "reads vs the members' sum, writes vs half of it (two copies)";
	return "reads and writes vs the members' sum";
}

static const struct ab_result *raw_row(const struct ab_run *run, const char *device)
{
	for (guint i = 0; i < run->results->len; i++) {
		const struct ab_result *r = g_ptr_array_index(run->results, i);
		if (g_strcmp0(r->phase, "raw-read") == 0 && g_strcmp0(r->key.test, device) == 0 && isfinite(r->rate))
			return r;
	}
	return NULL;
}

void ab_text_efficiency(GString *s, const struct ab_run *run)
{
	const struct ab_target_desc *t = &run->target;
	if (g_strcmp0(t->backend, "raw") == 0 || !t->members->len || !ab_run_find(run, "raw-read"))
		return;
	double sum = 0, slowest = INFINITY;
	for (guint i = 0; i < t->members->len; i++) {
		const struct ab_result *r = raw_row(run, g_ptr_array_index(t->members, i));
		if (!r)
			return; /* a member not measured: no honest total */
		sum += r->rate;
		slowest = MIN(slowest, r->rate);
	}
	/* The array's own device (md's) read raw too: the file system against it. */
	const struct ab_result *array = facts_of(t->backend)->own_device ? raw_row(run, t->source) : NULL;
	unsigned n = t->members->len;
	const char *level = level_of(t->level);
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
		const struct ab_phase *ph = ab_phase_by_name(r->phase);
		if (!ph || !(ph->flags & AB_PHASE_IO) || (ph->flags & AB_PHASE_DEVICE) || ph->unit != AB_UNIT_KIB_PER_SEC ||
		    !isfinite(r->rate))
			continue;
		enum ab_efficiency_dir dir = !(ph->flags & AB_PHASE_WRITES) ? AB_EFFICIENCY_READ
					     : (ph->flags & AB_PHASE_READS) ? AB_EFFICIENCY_REWRITE : AB_EFFICIENCY_WRITE;
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
