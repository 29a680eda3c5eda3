/* SPDX-License-Identifier: GPL-2.0-or-later */
/* members-unequal: the members of an array did unequal work where its
 * level spreads the work evenly, the member named (a slow or failing disk,
 * a degraded array, a layout other than the one meant).
 *
 * Which levels spread what, over the bytes of a phase large enough to
 * judge:
 * - raid0, raid5, raid6: data is striped over every member (raid5 and 6
 *   rotate their parity), so both reads and writes reach each member
 *   alike;
 * - raid10 (md's and btrfs'), raid1+0: striped over mirrors, so writes
 *   reach each member alike, but a read is served by one copy, chosen as
 *   a mirror's are (md's nearest head or least pending, btrfs' the
 *   reader's pid): one reader can leave one member of each mirror idle,
 *   which is no fault;
 * - raid1: every write goes to every member on md; btrfs keeps two copies,
 *   which on two members is every member (on three or more a small file
 *   sits in one chunk on two of them): writes alike, but a mirror's reads
 *   may all go to one member (md balances by head position, btrfs by the
 *   reader's pid), which is no fault;
 * - raid4 (its parity member takes every parity write), linear, single: no
 *   even spread is promised. */
#include "findings.h"
#include "efficiency-ceiling.h"

#include <math.h>
#include <string.h>

static gboolean one_of(const char *level, const char *const *levels)
{
	for (size_t i = 0; levels[i]; i++)
		if (g_strcmp0(level, levels[i]) == 0)
			return TRUE;
	return FALSE;
}

static gboolean spreads(const struct ab_run *run, gboolean reads)
{
	static const char *const striped[] = { "raid0", "raid5", "raid6", NULL };
	static const char *const striped_mirrors[] = { "raid10", "raid1+0", NULL };
	const char *level = ab_efficiency_level(run->target.level);
	if (one_of(level, striped))
		return TRUE;
	if (reads)
		return FALSE;
	return one_of(level, striped_mirrors) ||
	       (g_strcmp0(level, "raid1") == 0 &&
		(ab_efficiency_raid1_every_member(run->target.backend) || run->target.members->len == 2));
}

static uint64_t bytes_of(const struct ab_device_io *d, gboolean reads)
{
	return reads ? d->read_bytes : d->written_bytes;
}

static void judge(const struct ab_run *run, const struct ab_result *r, GPtrArray *members, gboolean reads,
		  GPtrArray *out)
{
	const struct ab_device_io *most = NULL, *least = NULL;
	for (guint k = 0; k < members->len; k++) {
		const struct ab_device_io *d = g_ptr_array_index(members, k);
		if (!ab_known(bytes_of(d, reads)))
			return;
		if (!most || bytes_of(d, reads) > bytes_of(most, reads))
			most = d;
		if (!least || bytes_of(d, reads) < bytes_of(least, reads))
			least = d;
	}
	uint64_t hi = bytes_of(most, reads), lo = bytes_of(least, reads);
	if (hi < AB_FINDING_MEMBER_MIN_BYTES || (lo && (double)hi <= AB_FINDING_MEMBER_RATIO * (double)lo))
		return;
	g_autofree char *name = ab_finding_result_name(r);
	g_autofree char *shown_least = g_strdup(least->name), *shown_most = g_strdup(most->name);
	const char *level = ab_efficiency_level(run->target.level);
	g_autoptr(GString) ratio = g_string_new(NULL);
	if (lo)
		g_string_printf(ratio, "%.1f", (double)hi / (double)lo);
	else
		g_string_printf(ratio, "no bound: '%s' did none", shown_least);
	struct ab_finding *f = ab_finding_add(out, "members-unequal", run, NULL, name);
	ab_finding_say(f,
		       "%s: member '%s' %s %.1f MiB, '%s' %.1f MiB (most over least %s, over %.1f), where %s spreads "
		       "%s over every member",
		       name, shown_most, reads ? "read" : "wrote", hi / 1048576.0, shown_least, lo / 1048576.0,
		       ratio->str, AB_FINDING_MEMBER_RATIO, level ? level : "?", reads ? "reads" : "writes");
	ab_finding_advise(f, "look at member '%s' (a slow or failing disk, a degraded array) and at the array's "
			     "layout", lo * 2 < hi ? shown_least : shown_most);
	ab_finding_figure(f, reads ? "most_read" : "most_written", (double)hi, "bytes");
	ab_finding_figure(f, reads ? "least_read" : "least_written", (double)lo, "bytes");
	ab_finding_figure(f, "members", members->len, NULL);
}

void ab_finding_members_unequal(const struct ab_run_set *set, GPtrArray *out)
{
	for (guint i = 0; i < set->runs->len; i++) {
		const struct ab_run *run = g_ptr_array_index(set->runs, i);
		if (run->target.members->len < 2)
			continue;
		for (guint k = 0; k < run->results->len; k++) {
			const struct ab_result *r = g_ptr_array_index(run->results, k);
			g_autoptr(GPtrArray) members = ab_finding_member_io(run, r);
			/* A member with no row was not counted: no honest comparison. */
			if (members->len != run->target.members->len)
				continue;
			for (int reads = 1; reads >= 0; reads--)
				if (spreads(run, reads))
					judge(run, r, members, reads, out);
		}
	}
}
