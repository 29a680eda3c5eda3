/* SPDX-License-Identifier: GPL-2.0-or-later */
/* The page cache's findings: reads under --cache none of a file the cache
 * could hold (cache-none-fits), a cold phase that found its file cached
 * (cached-at-start), and a warm one that read from the disks
 * (warm-read-device).  A phase with O_DIRECT bypasses the cache: none of
 * these is about it. */
#include "findings.h"

#include <math.h>
#include <string.h>

static gboolean direct(const struct ab_result *r)
{
	return r->direct == TRUE;
}

/* cache-none-fits: the mode evicts nothing, so what the run wrote is what
 * its reads find.  bonnie++'s rule is a file of twice the RAM: under it
 * the cache can hold much of the file, under the RAM all of it.  One
 * finding per run, naming every phase it touches. */
static void none_fits(const struct ab_run *run, GPtrArray *out)
{
	uint64_t room = ab_finding_cache_room(run);
	if (g_strcmp0(run->cond.cache_mode, "none") != 0 || !ab_known(room))
		return;
	g_autoptr(GString) names = g_string_new(NULL);
	uint64_t largest = 0;
	unsigned count = 0;
	for (guint i = 0; i < run->results->len; i++) {
		const struct ab_result *r = g_ptr_array_index(run->results, i);
		uint64_t size = r->key.file_size;
		if (!ab_finding_reads_file(r) || direct(r) || !ab_known(size) || !size || size / 2 >= room)
			continue;
		g_autofree char *name = ab_finding_result_name(r);
		if (count < 8)
			g_string_append_printf(names, "%s%s", count ? ", " : "", name);
		count++;
		largest = MAX(largest, size);
	}
	if (!count)
		return;
	if (count > 8)
		g_string_append_printf(names, " and %u more", count - 8);
	char fsz[32], rsz[32];
	ab_finding_size_text(largest, fsz, sizeof(fsz));
	ab_finding_size_text(room, rsz, sizeof(rsz));
	gboolean limit = ab_known(run->cache_limit_bytes) && run->cache_limit_bytes;
	struct ab_finding *f = ab_finding_add(out, "cache-none-fits", run, NULL, NULL);
	ab_finding_say(f,
		       "%s read a file of %s at most under --cache none, which evicts nothing, and the page cache (%s "
		       "%s) could hold %s of it: their rates measure the page cache, not the disks",
		       names->str, fsz, limit ? "the cgroup's limit" : "RAM", rsz, largest < room ? "all" : "much");
	ab_finding_advise(f, "make the reads cold (--cache drop or cgroup) or the file over twice the %s",
			  limit ? "cgroup's limit" : "RAM");
	ab_finding_figure(f, "file_size", (double)largest, "bytes");
	ab_finding_figure(f, limit ? "cache_limit" : "ram", (double)room, "bytes");
	ab_finding_figure(f, "phases", count, NULL);
}

void ab_finding_cache_none_fits(const struct ab_run_set *set, GPtrArray *out)
{
	for (guint i = 0; i < set->runs->len; i++)
		none_fits(g_ptr_array_index(set->runs, i), out);
}

/* cached-at-start: the run made the cache cold before the phase and
 * mincore found the file still there (a mode that could not evict, or
 * another reader). */
void ab_finding_cached_at_start(const struct ab_run_set *set, GPtrArray *out)
{
	for (guint i = 0; i < set->runs->len; i++) {
		const struct ab_run *run = g_ptr_array_index(set->runs, i);
		for (guint k = 0; k < run->results->len; k++) {
			const struct ab_result *r = g_ptr_array_index(run->results, k);
			if (g_strcmp0(r->cache_state, "cold") != 0 || direct(r) ||
			    !(r->resident_at_start > AB_FINDING_RESIDENT_MAX))
				continue;
			g_autofree char *name = ab_finding_result_name(r);
			struct ab_finding *f = ab_finding_add(out, "cached-at-start", run, NULL, name);
			ab_finding_say(f,
				       "%s was to start cold, yet %.0f %% of its file was in the page cache as it began "
				       "(over %.0f %%): its rate is partly memory",
				       name, 100 * r->resident_at_start, 100 * AB_FINDING_RESIDENT_MAX);
			ab_finding_advise(f, "use a cache mode that evicts (--cache drop as root, or cgroup) and keep "
					     "other readers off the file");
			ab_finding_figure(f, "resident_at_start", r->resident_at_start, "share");
		}
	}
}

/* warm-read-device: a warm phase of a file the cache could hold reads
 * memory; its members reading a tenth of its bytes or more means the cache
 * lost the file meanwhile (another job's drop_caches, memory pressure). */
static void warm_device(const struct ab_run *run, const struct ab_result *r, GPtrArray *out)
{
	uint64_t room = ab_finding_cache_room(run);
	if (g_strcmp0(r->cache_state, "warm") != 0 || direct(r) || !ab_finding_reads_file(r) || !ab_known(room) ||
	    !ab_known(r->key.file_size) || r->key.file_size >= room || !ab_known(r->bytes) || !r->bytes)
		return;
	g_autoptr(GPtrArray) members = ab_finding_member_io(run, r);
	uint64_t read = 0;
	for (guint k = 0; k < members->len; k++) {
		const struct ab_device_io *d = g_ptr_array_index(members, k);
		if (ab_known(d->read_bytes))
			read += d->read_bytes;
	}
	if (!members->len || !((double)read > AB_FINDING_WARM_DEVICE_SHARE * (double)r->bytes))
		return;
	g_autofree char *name = ab_finding_result_name(r);
	char rsz[32], bsz[32];
	ab_finding_size_text(read, rsz, sizeof(rsz));
	ab_finding_size_text(r->bytes, bsz, sizeof(bsz));
	struct ab_finding *f = ab_finding_add(out, "warm-read-device", run, NULL, name);
	ab_finding_say(f,
		       "%s was to run warm on a file the page cache could hold, yet its members read %s of the %s it "
		       "read (%.0f %%, over %.0f %%): the cache was dropped under it",
		       name, rsz, bsz, 100.0 * (double)read / (double)r->bytes, 100 * AB_FINDING_WARM_DEVICE_SHARE);
	ab_finding_advise(f, "run it again with nothing else dropping the cache (another job's drop_caches) or "
			     "under less memory pressure");
	ab_finding_figure(f, "members_read", (double)read, "bytes");
	ab_finding_figure(f, "phase_bytes", (double)r->bytes, "bytes");
}

void ab_finding_warm_read_device(const struct ab_run_set *set, GPtrArray *out)
{
	for (guint i = 0; i < set->runs->len; i++) {
		const struct ab_run *run = g_ptr_array_index(set->runs, i);
		for (guint k = 0; k < run->results->len; k++)
			warm_device(run, g_ptr_array_index(run->results, k), out);
	}
}
