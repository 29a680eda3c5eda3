/* SPDX-License-Identifier: GPL-2.0-or-later */
#ifndef AB_SYSINFO_H
#define AB_SYSINFO_H

#include <glib.h>
#include <stdint.h>

/* System-wide CPU counters (libgtop, jiffies), to turn into busy and iowait
 * percentages over a phase.  Per-process CPU misses the kernel threads that
 * do writeback, loop and RAID work; these include them. */
struct ab_cpu_snapshot {
	uint64_t total;
	uint64_t idle;
	uint64_t iowait;
};

void ab_sysinfo_init(void); /* once, in the parent, before any fork */
uint64_t ab_sysinfo_ram_bytes(void);
unsigned ab_sysinfo_cpu_count(void);
void ab_sysinfo_cpu(struct ab_cpu_snapshot *snap);
double ab_sysinfo_iowait_percent(const struct ab_cpu_snapshot *a, const struct ab_cpu_snapshot *b);
double ab_sysinfo_busy_percent(const struct ab_cpu_snapshot *a, const struct ab_cpu_snapshot *b);
char *ab_sysinfo_kernel(void);
/* File system type of the directory from the mount table ("ext4", "xfs"...),
 * "unknown" when it cannot be read; never prints.  _at reads ROOT/proc (tests). */
char *ab_sysinfo_fs_type(const char *dir);
char *ab_sysinfo_fs_type_at(const char *root, const char *dir);

#endif
