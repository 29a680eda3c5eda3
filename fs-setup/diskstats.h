/* SPDX-License-Identifier: GPL-2.0-or-later */
#ifndef AB_DISKSTATS_H
#define AB_DISKSTATS_H

#include <glib.h>
#include <stdint.h>

#define AB_MAX_DISKS 33 /* 32 members and the array */

/* One device's counters from /proc/diskstats (sectors are 512 bytes). */
struct ab_disk_counters {
	char name[32];
	uint64_t read_ios;
	uint64_t read_sectors;
	uint64_t write_ios;
	uint64_t write_sectors;
	uint64_t busy_ms;
};

/* Plain data, so it can sit in a result as it is. */
struct ab_disk_set {
	unsigned count;
	struct ab_disk_counters disk[AB_MAX_DISKS];
};

/* Kernel names ("loop3", "md127") of device paths, through symlinks such as
 * /dev/md/NAME; NULL entries and unknown devices are skipped. */
GPtrArray *ab_diskstats_names(const char *const *paths);
/* Counters of `names` from ROOT/proc/diskstats ("" for the real one);
 * a name missing there is left out. */
void ab_diskstats_read(const char *root, GPtrArray *names, struct ab_disk_set *out);
/* after - before, by name. */
void ab_diskstats_delta(const struct ab_disk_set *before, const struct ab_disk_set *after,
			struct ab_disk_set *out);

#endif
