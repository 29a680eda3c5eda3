/* SPDX-License-Identifier: GPL-2.0-or-later */
#include "sysinfo.h"

#include <glibtop.h>
#include <glibtop/cpu.h>
#include <glibtop/mem.h>
#include <glibtop/mountlist.h>
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

char *ab_sysinfo_fs_type(const char *dir)
{
	/* The longest mount point that prefixes the resolved directory. */
	g_autofree char *real = realpath(dir, NULL);
	if (!real)
		return g_strdup("unknown");
	glibtop_mountlist list;
	glibtop_mountentry *e = glibtop_get_mountlist(&list, 1);
	char *best = NULL;
	size_t best_len = 0;
	for (guint64 i = 0; e && i < list.number; i++) {
		size_t len = strlen(e[i].mountdir);
		gboolean prefix = strncmp(real, e[i].mountdir, len) == 0 &&
				  (real[len] == '/' || real[len] == '\0' || len == 1);
		if (prefix && len >= best_len) {
			g_free(best);
			best = g_strdup(e[i].type);
			best_len = len;
		}
	}
	g_free(e);
	return best ? best : g_strdup("unknown");
}
