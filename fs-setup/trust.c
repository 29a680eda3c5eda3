/* SPDX-License-Identifier: GPL-2.0-or-later */
#include "trust.h"

#include <errno.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

static char *judge(const char *path, const struct stat *st)
{
	if (S_ISLNK(st->st_mode))
		return g_strdup_printf("'%s' is a symbolic link", path);
	if (st->st_uid != 0 && st->st_uid != geteuid())
		return g_strdup_printf("'%s' belongs to uid %u", path, (unsigned)st->st_uid);
	if ((st->st_mode & (S_IWGRP | S_IWOTH)) && !(st->st_mode & S_ISVTX))
		return g_strdup_printf("others may rename in '%s' (mode %04o, not sticky)", path,
				       (unsigned)(st->st_mode & 07777));
	return NULL;
}

gboolean ab_path_trusted(const char *dir, char **why)
{
	*why = NULL;
	if (!g_path_is_absolute(dir)) {
		*why = g_strdup_printf("'%s' is not an absolute path", dir);
		return FALSE;
	}
	g_autoptr(GString) at = g_string_new("/");
	g_auto(GStrv) parts = g_strsplit(dir, "/", -1);
	for (char **p = parts;; p++) {
		struct stat st;
		if (lstat(at->str, &st) != 0) {
			*why = g_strdup_printf("cannot stat '%s': %s", at->str, g_strerror(errno));
			return FALSE;
		}
		if ((*why = judge(at->str, &st)))
			return FALSE;
		while (*p && !**p)
			p++;
		if (!*p)
			return TRUE;
		if (at->len > 1)
			g_string_append_c(at, '/');
		g_string_append(at, *p);
	}
}
