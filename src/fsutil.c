/* SPDX-License-Identifier: GPL-2.0-or-later */
#define _XOPEN_SOURCE 700
#include "fsutil.h"
#include "error.h"

#include <errno.h>
#include <fcntl.h>
#include <ftw.h>
#include <stdio.h>
#include <sys/stat.h>
#include <sys/statvfs.h>
#include <unistd.h>

gboolean ab_dir_check_writable(const char *dir, GError **error)
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
	/* access() says yes to root on a read-only mount: make a file. */
	g_autofree char *probe = g_strdup_printf("%s/.arraybench-probe.%d", dir, (int)getpid());
	int fd = open(probe, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0600);
	if (fd < 0) {
		ab_set_error_errno(error, AB_ERROR_USAGE, errno, "cannot write in directory '%s'", dir);
		return FALSE;
	}
	close(fd);
	unlink(probe);
	return TRUE;
}

uint64_t ab_dir_free_bytes(const char *dir)
{
	struct statvfs sv;
	if (statvfs(dir, &sv) != 0)
		return 0;
	return (uint64_t)sv.f_bavail * (uint64_t)sv.f_frsize;
}

static int remove_one(const char *path, const struct stat *st, int type, struct FTW *ftw)
{
	(void)st, (void)ftw;
	if (type == FTW_DP)
		rmdir(path);
	else
		unlink(path);
	return 0;
}

void ab_remove_tree(const char *path)
{
	struct stat st;
	if (lstat(path, &st) != 0)
		return;
	if (!S_ISDIR(st.st_mode)) {
		unlink(path);
		return;
	}
	nftw(path, remove_one, 64, FTW_DEPTH | FTW_PHYS);
}
