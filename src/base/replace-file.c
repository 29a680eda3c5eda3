/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Whole-file replacement: temporary file, fsync, rename, fsync of the directory. */
#include "replace-file.h"
#include "error.h"

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <sys/stat.h>
#include <unistd.h>

static char *shown(const char *dir_name, const char *name)
{
	return dir_name && *dir_name && !g_str_equal(dir_name, ".") ? g_build_filename(dir_name, name, NULL)
								    : g_strdup(name);
}

/* May the file by that name be replaced?  *mode gets its permission bits. */
static gboolean may_replace(const char *what, int dir_fd, const char *path, const char *name, mode_t *mode,
			    GError **error)
{
	struct stat st;
	*mode = 0644;
	if (fstatat(dir_fd, name, &st, AT_SYMLINK_NOFOLLOW) != 0) {
		if (errno == ENOENT)
			return TRUE;
		ab_set_error_errno(error, AB_ERROR_OUTPUT, errno, "cannot write %s to '%s'", what, path);
		return FALSE;
	}
	if (S_ISLNK(st.st_mode)) {
		g_set_error(error, AB_ERROR, AB_ERROR_UNSAFE,
			    "refusing to write %s to '%s': a symbolic link (name the file itself)", what, path);
		return FALSE;
	}
	if (!S_ISREG(st.st_mode)) {
		g_set_error(error, AB_ERROR, AB_ERROR_USAGE, "refusing to write %s to '%s': not a regular file", what,
			    path);
		return FALSE;
	}
	if (st.st_uid != 0 && st.st_uid != geteuid()) {
		g_set_error(error, AB_ERROR, AB_ERROR_UNSAFE, "refusing to write %s to '%s': it belongs to uid %u",
			    what, path, (unsigned)st.st_uid);
		return FALSE;
	}
	*mode = st.st_mode & 07777;
	return TRUE;
}

/* A new temporary file in the directory, never one that was there. */
static int make_temp(int dir_fd, const char *name, char **temp_name)
{
	for (int attempt = 0; attempt < 100; attempt++) {
		g_autofree char *candidate = g_strdup_printf(".%s.%06x", name, g_random_int_range(0, 0x1000000));
		int fd = openat(dir_fd, candidate, O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, 0600);
		if (fd >= 0) {
			*temp_name = g_steal_pointer(&candidate);
			return fd;
		}
		if (errno != EEXIST)
			return -1;
	}
	errno = EEXIST;
	return -1;
}

static gboolean write_all(int fd, const char *data, gsize len)
{
	gsize done = 0;
	while (done < len) {
		ssize_t n = write(fd, data + done, len - done);
		if (n < 0 && errno == EINTR)
			continue;
		if (n <= 0) {
			if (n == 0)
				errno = EIO;
			return FALSE;
		}
		done += (gsize)n;
	}
	return TRUE;
}

/* path: the file's name as messages show it. */
static gboolean replace_in(const char *what, int dir_fd, const char *path, const char *name, const char *data,
			   gsize len, GError **error)
{
	mode_t mode;
	if (!may_replace(what, dir_fd, path, name, &mode, error))
		return FALSE;
	g_autofree char *temp = NULL;
	int fd = make_temp(dir_fd, name, &temp);
	if (fd < 0) {
		ab_set_error_errno(error, AB_ERROR_OUTPUT, errno, "cannot write %s to '%s'", what, path);
		return FALSE;
	}
	/* fchmod after the fact: the umask must not narrow a file we replace. */
	gboolean ok = fchmod(fd, mode) == 0 && write_all(fd, data, len) && fsync(fd) == 0;
	int e = errno;
	if (close(fd) != 0 && ok) {
		ok = FALSE;
		e = errno;
	}
	if (ok && renameat(dir_fd, temp, dir_fd, name) != 0) {
		ok = FALSE;
		e = errno;
	}
	if (!ok) {
		unlinkat(dir_fd, temp, 0);
		g_set_error(error, AB_ERROR, AB_ERROR_OUTPUT, "cannot write %s to '%s': %s", what, path,
			    g_strerror(e ? e : EIO));
		return FALSE;
	}
	if (fsync(dir_fd) != 0 && errno != EINVAL) {
		ab_set_error_errno(error, AB_ERROR_OUTPUT, errno, "cannot write %s to '%s': syncing its directory",
				   what, path);
		return FALSE;
	}
	return TRUE;
}

gboolean ab_replace_file_at(const char *what, int dir_fd, const char *dir_name, const char *name, const char *data,
			    gsize len, GError **error)
{
	g_autofree char *path = shown(dir_name, name);
	return replace_in(what, dir_fd, path, name, data, len, error);
}

gboolean ab_replace_file(const char *what, const char *path, const char *data, gsize len, GError **error)
{
	g_autofree char *dir = g_path_get_dirname(path), *base = g_path_get_basename(path);
	if (g_str_has_suffix(path, "/") || g_str_equal(base, ".") || g_str_equal(base, "..")) {
		g_set_error(error, AB_ERROR, AB_ERROR_USAGE, "refusing to write %s to '%s': not a file name", what,
			    path);
		return FALSE;
	}
	int dir_fd = open(dir, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	if (dir_fd < 0) {
		ab_set_error_errno(error, AB_ERROR_OUTPUT, errno, "cannot write %s to '%s'", what, path);
		return FALSE;
	}
	gboolean ok = replace_in(what, dir_fd, path, base, data, len, error);
	close(dir_fd);
	return ok;
}
