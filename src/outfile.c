/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Result files appended to by root (run --csv/--json, raw --json). */
#include "outfile.h"
#include "error.h"
#include "../fs-setup/trust.h"

#include <errno.h>
#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

/* Who else could have put this here? */
static gboolean foreign_owner(const struct stat *st)
{
	return st->st_uid != 0 && st->st_uid != geteuid();
}

/* Outputs are appended to by root: another user's file, FIFO or symlink by
 * that name (planted in /tmp, say) is refused, and opening never blocks (a
 * FIFO with no reader fails).  With -u, USER may write where the outputs go
 * (often DIR): the directory must also be one no other user can change the
 * way to (as TMPDIR for mount points), and the file no symlink at all. */
FILE *ab_outfile_open_append(const char *option, const char *path, gboolean under_u, GError **error)
{
	g_autofree char *why = NULL;
	struct stat st;
	if (under_u) {
		g_autofree char *absolute = ab_path_absolute(path);
		g_autofree char *parent = g_path_get_dirname(absolute);
		if (!ab_path_trusted(parent, &why)) {
			g_set_error(error, AB_ERROR, AB_ERROR_UNSAFE,
				    "refusing %s '%s': %s (with -u, the user could redirect it)", option, path, why);
			return NULL;
		}
	}
	if (lstat(path, &st) == 0 && S_ISLNK(st.st_mode) && (under_u || foreign_owner(&st))) {
		g_set_error(error, AB_ERROR, AB_ERROR_UNSAFE, "refusing %s '%s': it is a symbolic link%s", option, path,
			    under_u ? " (with -u, outputs are not opened through one)" : " of another user");
		return NULL;
	}
	if (lstat(path, &st) == 0 && !S_ISCHR(st.st_mode) && !S_ISLNK(st.st_mode) && foreign_owner(&st)) {
		g_set_error(error, AB_ERROR, AB_ERROR_UNSAFE, "refusing %s '%s': it belongs to uid %u", option, path,
			    (unsigned)st.st_uid);
		return NULL;
	}
	int fd = open(path, O_WRONLY | O_APPEND | O_CREAT | O_NONBLOCK | O_CLOEXEC | (under_u ? O_NOFOLLOW : 0), 0644);
	if (fd < 0) {
		ab_set_error_errno(error, AB_ERROR_USAGE, errno, "cannot open '%s' for appending", path);
		return NULL;
	}
	if (fstat(fd, &st) != 0 || !(S_ISREG(st.st_mode) || S_ISFIFO(st.st_mode) || S_ISCHR(st.st_mode)))
		why = g_strdup("not a file, pipe or character device");
	else if (!S_ISCHR(st.st_mode) && foreign_owner(&st))
		why = g_strdup_printf("it belongs to uid %u", (unsigned)st.st_uid);
	FILE *f = why ? NULL : fdopen(fd, "a");
	if (!f) {
		close(fd);
		g_set_error(error, AB_ERROR, AB_ERROR_UNSAFE, "refusing %s '%s': %s", option, path, why ? why : "?");
		return NULL;
	}
	fcntl(fd, F_SETFL, fcntl(fd, F_GETFL) & ~O_NONBLOCK);
	return f;
}

