/* SPDX-License-Identifier: GPL-2.0-or-later */
#include "sysinfo.h"

#include <glibtop.h>
#include <glibtop/cpu.h>
#include <glibtop/mem.h>
#include <libmount.h>
#include <string.h>
#include <sys/utsname.h>
#include <unistd.h>

void ab_sysinfo_init(void)
{
	glibtop_init();
}

uint64_t ab_sysinfo_ram_bytes(void)
{
	glibtop_mem mem;
	glibtop_get_mem(&mem);
	if (mem.total)
		return mem.total;
	return (uint64_t)sysconf(_SC_PHYS_PAGES) * (uint64_t)sysconf(_SC_PAGESIZE);
}

unsigned ab_sysinfo_cpu_count(void)
{
	long n = sysconf(_SC_NPROCESSORS_ONLN);
	return n > 0 ? (unsigned)n : 1;
}

void ab_sysinfo_cpu(struct ab_cpu_snapshot *snap)
{
	static glibtop_cpu cpu; /* 64 KiB: keep it off the stack */
	glibtop_get_cpu(&cpu);
	snap->total = cpu.total;
	snap->idle = cpu.idle;
	snap->iowait = cpu.iowait;
}

double ab_sysinfo_iowait_percent(const struct ab_cpu_snapshot *a, const struct ab_cpu_snapshot *b)
{
	if (b->total <= a->total)
		return 0;
	return 100.0 * (double)(b->iowait - a->iowait) / (double)(b->total - a->total);
}

double ab_sysinfo_busy_percent(const struct ab_cpu_snapshot *a, const struct ab_cpu_snapshot *b)
{
	if (b->total <= a->total)
		return 0;
	uint64_t idle = (b->idle - a->idle) + (b->iowait - a->iowait);
	return 100.0 * (1.0 - (double)idle / (double)(b->total - a->total));
}

char *ab_sysinfo_kernel(void)
{
	struct utsname u;
	if (uname(&u) != 0)
		return g_strdup("unknown");
	return g_strdup_printf("%s %s %s", u.sysname, u.release, u.machine);
}

/* The mount table comes from /proc/self/mountinfo through libmount, not from
 * libgtop's mount list: that reads /etc/mtab, which a fresh chroot or
 * container lacks, and then prints its own warning on our stderr. */
char *ab_sysinfo_fs_type_at(const char *root, const char *dir)
{
	/* The longest mount point that prefixes the resolved directory; of
	 * mounts stacked on one point the last, the one on top. */
	g_autofree char *real = realpath(dir, NULL);
	if (!real)
		return g_strdup("unknown");
	g_autofree char *path = g_strconcat(root, "/proc/self/mountinfo", NULL);
	struct libmnt_table *tb = mnt_new_table_from_file(path);
	if (!tb)
		return g_strdup("unknown");
	struct libmnt_iter *it = mnt_new_iter(MNT_ITER_FORWARD);
	struct libmnt_fs *fs;
	const char *best = NULL;
	size_t best_len = 0;
	while (it && mnt_table_next_fs(tb, it, &fs) == 0) {
		const char *mp = mnt_fs_get_target(fs), *type = mnt_fs_get_fstype(fs);
		if (!mp || !type)
			continue;
		size_t len = strlen(mp);
		gboolean prefix = strncmp(real, mp, len) == 0 &&
				  (real[len] == '/' || real[len] == '\0' || g_str_equal(mp, "/"));
		if (prefix && len >= best_len) {
			best = type;
			best_len = len;
		}
	}
	char *type = g_strdup(best ? best : "unknown");
	mnt_free_iter(it);
	mnt_unref_table(tb);
	return type;
}

char *ab_sysinfo_fs_type(const char *dir)
{
	return ab_sysinfo_fs_type_at("", dir);
}
