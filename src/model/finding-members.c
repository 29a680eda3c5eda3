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
 *   even spread is promised.
 *
 * Members that moved even bytes can still be unequal: a slow member takes
 * its share of every stripe, and the stripe waits for it, so it moves as
 * many bytes as the others and is busy longer.  Where the level spreads
 * what the phase did on the members, the member busy longest per byte
 * moved, over 1.5 times the others' median, is named the slow member (a
 * slow, failing or throttled disk), not the layout. */
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

/* Did the bytes differ beyond the ratio?  Then that finding is said. */
static gboolean judge(const struct ab_run *run, const struct ab_result *r, GPtrArray *members, gboolean reads,
		      GPtrArray *out)
{
	const struct ab_device_io *most = NULL, *least = NULL;
	for (guint k = 0; k < members->len; k++) {
		const struct ab_device_io *d = g_ptr_array_index(members, k);
		if (!ab_known(bytes_of(d, reads)))
			return FALSE;
		if (!most || bytes_of(d, reads) > bytes_of(most, reads))
			most = d;
		if (!least || bytes_of(d, reads) < bytes_of(least, reads))
			least = d;
	}
	uint64_t hi = bytes_of(most, reads), lo = bytes_of(least, reads);
	if (hi < AB_FINDING_MEMBER_MIN_BYTES || (lo && (double)hi <= AB_FINDING_MEMBER_RATIO * (double)lo))
		return FALSE;
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
	return TRUE;
}

static int compare_doubles(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;
	return (x > y) - (x < y);
}

/* The slow member: busy longest per byte moved, where every kind of I/O the
 * members did (a tenth of their bytes or more) is spread by the level. */
static void judge_busy(const struct ab_run *run, const struct ab_result *r, GPtrArray *members, GPtrArray *out)
{
	uint64_t read = 0, written = 0, busiest = 0;
	for (guint k = 0; k < members->len; k++) {
		const struct ab_device_io *d = g_ptr_array_index(members, k);
		if (!ab_known(d->read_bytes) || !ab_known(d->written_bytes) || !ab_known(d->busy_ms) ||
		    d->read_bytes + d->written_bytes < AB_FINDING_MEMBER_MIN_BYTES / members->len)
			return;
		read += d->read_bytes;
		written += d->written_bytes;
		busiest = MAX(busiest, d->busy_ms);
	}
	if (busiest < AB_FINDING_MEMBER_MIN_BUSY_MS || (read * 10 >= read + written && !spreads(run, TRUE)) ||
	    (written * 10 >= read + written && !spreads(run, FALSE)))
		return;
	guint n = members->len, slow = 0;
	g_autofree double *per_mib = g_new(double, n);
	for (guint k = 0; k < n; k++) {
		const struct ab_device_io *d = g_ptr_array_index(members, k);
		per_mib[k] = (double)d->busy_ms / ((double)(d->read_bytes + d->written_bytes) / 1048576.0);
		if (per_mib[k] > per_mib[slow])
			slow = k;
	}
	/* The others' median: one slow member of many, or the other of two. */
	g_autofree double *others = g_new(double, n - 1);
	for (guint k = 0, j = 0; k < n; k++)
		if (k != slow)
			others[j++] = per_mib[k];
	qsort(others, n - 1, sizeof(double), compare_doubles);
	double median = (n - 1) % 2 ? others[(n - 1) / 2] : (others[(n - 1) / 2 - 1] + others[(n - 1) / 2]) / 2;
	if (!(median > 0) || per_mib[slow] <= AB_FINDING_MEMBER_RATIO * median)
		return;
	const struct ab_device_io *d = g_ptr_array_index(members, slow);
	g_autofree char *name = ab_finding_result_name(r);
	const char *level = ab_efficiency_level(run->target.level);
	struct ab_finding *f = ab_finding_add(out, "members-unequal", run, NULL, name);
	ab_finding_say(f,
		       "%s: member '%s' is the slow member: busy %.1f times as long per MiB moved as the others' "
		       "median (%.1f ms/MiB against %.1f, over %.1f), for its even share of the bytes, where %s "
		       "spreads them over every member",
		       name, d->name, per_mib[slow] / median, per_mib[slow], median, AB_FINDING_MEMBER_RATIO,
		       level ? level : "?");
	ab_finding_advise(f, "member '%s' is slower than the others (a slow, failing or throttled disk, or one on a "
			     "slower path), and the array runs at the pace of its slowest member",
			  d->name);
	ab_finding_figure(f, "slow_busy_ms_per_mib", per_mib[slow], "ms");
	ab_finding_figure(f, "others_busy_ms_per_mib", median, "ms");
	ab_finding_figure(f, "members", n, NULL);
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
			gboolean said = FALSE;
			for (int reads = 1; reads >= 0; reads--)
				if (spreads(run, reads))
					said |= judge(run, r, members, reads, out);
			if (!said)
				judge_busy(run, r, members, out);
		}
	}
}
