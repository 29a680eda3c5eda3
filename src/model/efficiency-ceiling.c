/* SPDX-License-Identifier: GPL-2.0-or-later */
/* What an array's members can deliver (efficiency-ceiling.h): moved here
 * from reports/efficiency.c so that a finding's rule reads the same
 * ceiling the efficiency lines print. */
#include "efficiency-ceiling.h"
#include "backend-list.h"
#include "../base/raid-level.h"
#include "../../workloads/phase.h"

#include <math.h>

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

gboolean ab_efficiency_raid1_every_member(const char *backend)
{
	return facts_of(backend)->raid1_writes == AB_MIRROR_EVERY_MEMBER;
}

gboolean ab_efficiency_own_device(const char *backend)
{
	return facts_of(backend)->own_device;
}

/* The level a run records is the --array word as the user typed it (md's
 * "10", "1+0" as well as "raid10"), in a saved run too: the rules below
 * read its canonical form.  A word that is no md level ("single", none)
 * is read as it is. */
const char *ab_efficiency_level(const char *recorded)
{
	const char *canonical = ab_raid_level_canonical(recorded);
	return canonical ? canonical : recorded;
}

double ab_efficiency_ceiling(const char *backend, const char *recorded_level, unsigned n, double sum,
			     double slowest, enum ab_efficiency_dir dir)
{
	const char *level = ab_efficiency_level(recorded_level);
	if (!n || !(sum > 0) || !(slowest > 0))
		return NAN;
	if (dir == AB_EFFICIENCY_REWRITE) {
		/* Each byte is read, then written: the two take turns. */
		double r = ab_efficiency_ceiling(backend, level, n, sum, slowest, AB_EFFICIENCY_READ);
		double w = ab_efficiency_ceiling(backend, level, n, sum, slowest, AB_EFFICIENCY_WRITE);
		return 1 / (1 / r + 1 / w);
	}
	gboolean every_member = ab_efficiency_raid1_every_member(backend);
	/* A striped level gives every member an equal share of each stripe,
	 * and a stripe is done when its slowest member is: n times the
	 * slowest member, not the sum, which a slow member would make a
	 * ceiling no array of them reaches.  Parity carries no data, read or
	 * written: a share of the members (raid4's one member, raid5's
	 * spread over all). */
	if (g_strcmp0(level, "raid4") == 0 || g_strcmp0(level, "raid5") == 0)
		return n > 1 ? slowest * (n - 1) : NAN;
	if (g_strcmp0(level, "raid6") == 0)
		return n > 2 ? slowest * (n - 2) : NAN;
	if (g_strcmp0(level, "raid0") == 0)
		return slowest * n;
	/* A mirror's reads may come from any copy; the sum is the most they
	 * can get.  btrfs single puts each chunk on one member, unstriped:
	 * the sum bounds it too. */
	if (dir == AB_EFFICIENCY_READ || g_strcmp0(level, "single") == 0 || !level)
		return sum;
	if (g_strcmp0(level, "raid1") == 0)
		return every_member ? slowest : sum / 2; /* md: every member holds all; btrfs: two copies */
	/* Each stripe's chunk is written to a mirror pair, every member an
	 * equal share. */
	if (g_strcmp0(level, "raid10") == 0 || g_strcmp0(level, "raid1+0") == 0)
		return slowest * n / 2;
	return NAN;
}

const struct ab_result *ab_efficiency_raw_row(const struct ab_run *run, const char *device)
{
	for (guint i = 0; i < run->results->len; i++) {
		const struct ab_result *r = g_ptr_array_index(run->results, i);
		if (g_strcmp0(r->phase, "raw-read") == 0 && g_strcmp0(r->key.test, device) == 0 && isfinite(r->rate))
			return r;
	}
	return NULL;
}

gboolean ab_efficiency_members(const struct ab_run *run, unsigned *n, double *sum, double *slowest)
{
	const struct ab_target_desc *t = &run->target;
	if (g_strcmp0(t->backend, "raw") == 0 || !t->members->len || !ab_run_find(run, "raw-read"))
		return FALSE;
	double total = 0, least = INFINITY;
	for (guint i = 0; i < t->members->len; i++) {
		const struct ab_result *r = ab_efficiency_raw_row(run, g_ptr_array_index(t->members, i));
		if (!r)
			return FALSE; /* a member not measured: no honest total */
		total += r->rate;
		least = MIN(least, r->rate);
	}
	*n = t->members->len;
	*sum = total;
	*slowest = least;
	return TRUE;
}

gboolean ab_efficiency_dir_of(const char *phase, enum ab_efficiency_dir *dir)
{
	const struct ab_phase *ph = ab_phase_by_name(phase);
	if (!ph || !(ph->flags & AB_PHASE_IO) || (ph->flags & AB_PHASE_DEVICE) || ph->unit != AB_UNIT_KIB_PER_SEC)
		return FALSE;
	*dir = !(ph->flags & AB_PHASE_WRITES) ? AB_EFFICIENCY_READ
	       : (ph->flags & AB_PHASE_READS) ? AB_EFFICIENCY_REWRITE : AB_EFFICIENCY_WRITE;
	return TRUE;
}
