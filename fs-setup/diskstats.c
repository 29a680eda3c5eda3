/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Per-member I/O from /proc/diskstats: libgtop 2.40 has no disk call, and its
 * fsusage counters miss loop, md and nvme devices. */
#include "diskstats.h"

#include <stdio.h>
#include <string.h>

GPtrArray *ab_diskstats_names(const char *const *paths)
{
	GPtrArray *names = g_ptr_array_new_with_free_func(g_free);
	for (const char *const *p = paths; p && *p; p++) {
		g_autofree char *real = realpath(*p, NULL);
		if (!real || !g_str_has_prefix(real, "/dev/"))
			continue;
		g_autofree char *base = g_path_get_basename(real);
		gboolean seen = FALSE;
		for (guint i = 0; i < names->len; i++)
			seen = seen || g_str_equal(g_ptr_array_index(names, i), base);
		if (!seen && names->len < AB_MAX_DISKS)
			g_ptr_array_add(names, g_steal_pointer(&base));
	}
	return names;
}

void ab_diskstats_read(const char *root, GPtrArray *names, struct ab_disk_set *out)
{
	memset(out, 0, sizeof(*out));
	g_autofree char *path = g_strdup_printf("%s/proc/diskstats", root);
	g_autofree char *text = NULL;
	if (!names || !names->len || !g_file_get_contents(path, &text, NULL, NULL))
		return;
	g_auto(GStrv) lines = g_strsplit(text, "\n", -1);
	for (char **l = lines; *l; l++) {
		unsigned maj, min;
		char name[64];
		unsigned long long v[10];
		/* maj min name rd_ios rd_merges rd_sectors rd_ms wr_ios wr_merges
		 * wr_sectors wr_ms in_flight io_ms ... */
		if (sscanf(*l, "%u %u %63s %llu %llu %llu %llu %llu %llu %llu %llu %llu %llu", &maj, &min, name, &v[0],
			   &v[1], &v[2], &v[3], &v[4], &v[5], &v[6], &v[7], &v[8], &v[9]) < 13)
			continue;
		for (guint i = 0; i < names->len && out->count < AB_MAX_DISKS; i++) {
			if (!g_str_equal(g_ptr_array_index(names, i), name))
				continue;
			struct ab_disk_counters *d = &out->disk[out->count++];
			g_strlcpy(d->name, name, sizeof(d->name));
			d->read_ios = v[0];
			d->read_sectors = v[2];
			d->write_ios = v[4];
			d->write_sectors = v[6];
			d->busy_ms = v[9];
		}
	}
}

void ab_diskstats_delta(const struct ab_disk_set *before, const struct ab_disk_set *after,
			struct ab_disk_set *out)
{
	memset(out, 0, sizeof(*out));
	for (unsigned i = 0; i < after->count; i++) {
		const struct ab_disk_counters *a = &after->disk[i];
		for (unsigned j = 0; j < before->count; j++) {
			const struct ab_disk_counters *b = &before->disk[j];
			if (strcmp(a->name, b->name) != 0)
				continue;
			struct ab_disk_counters *d = &out->disk[out->count++];
			g_strlcpy(d->name, a->name, sizeof(d->name));
			d->read_ios = a->read_ios - b->read_ios;
			d->read_sectors = a->read_sectors - b->read_sectors;
			d->write_ios = a->write_ios - b->write_ios;
			d->write_sectors = a->write_sectors - b->write_sectors;
			d->busy_ms = a->busy_ms - b->busy_ms;
			break;
		}
	}
}
