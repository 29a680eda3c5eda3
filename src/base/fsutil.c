/* SPDX-License-Identifier: GPL-2.0-or-later */
#include "fsutil.h"
#include "error.h"

#include <errno.h>
#include <sys/stat.h>
#include <sys/statvfs.h>

gboolean ab_dir_check(const char *dir, GError **error)
{
	struct stat st;
	if (stat(dir, &st) != 0) {
		ab_set_error_errno(error, AB_ERROR_USAGE, errno, "cannot use directory '%s'", dir);
		return FALSE;
	}
	if (!S_ISDIR(st.st_mode)) {
		g_set_error(error, AB_ERROR, AB_ERROR_USAGE, "cannot use directory '%s': not a directory", dir);
		return FALSE;
	}
	return TRUE;
}

uint64_t ab_dir_free_bytes(const char *dir)
{
	struct statvfs sv;
	if (statvfs(dir, &sv) != 0)
		return 0;
	return (uint64_t)sv.f_bavail * (uint64_t)sv.f_frsize;
}
