/* SPDX-License-Identifier: GPL-2.0-or-later */
#include "statedir.h"
#include "../src/base/error.h"

#include <errno.h>
#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

/* A home we may keep state under: an existing directory of our own. */
static gboolean usable_home(const char *home)
{
	struct stat st;
	return home && g_path_is_absolute(home) && stat(home, &st) == 0 && S_ISDIR(st.st_mode) &&
	       st.st_uid == geteuid();
}

char *ab_state_dir_path(void)
{
	const char *env = g_getenv("ARRAYBENCH_STATE_DIR");
	if (env && *env)
		return g_strdup(env);
	if (geteuid() == 0)
		return g_strdup("/var/lib/arraybench");
	const char *xdg = g_getenv("XDG_STATE_HOME");
	if (xdg && g_path_is_absolute(xdg))
		return g_build_filename(xdg, "arraybench", NULL);
	const char *home = g_getenv("HOME");
	if (usable_home(home))
		return g_build_filename(home, ".local", "state", "arraybench", NULL);
	return g_strdup_printf("/var/tmp/arraybench-state.%u", (unsigned)geteuid());
}

gboolean ab_state_dir_open(const char *given, gboolean create, int *fd, GError **error)
{
	*fd = -1;
	if (!g_path_is_absolute(given)) {
		g_set_error(error, AB_ERROR, AB_ERROR_UNSAFE,
			    "refusing state directory '%s': not an absolute path", given);
		return FALSE;
	}
	/* "link/" or "link/." would let O_NOFOLLOW look at "." and follow the
	 * link: drop such components first (no symlink is resolved here). */
	g_autofree char *path = g_canonicalize_filename(given, "/");
	int dfd = open(path, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
	if (dfd < 0 && errno == ENOENT && create) {
		if (g_mkdir_with_parents(path, 0700) != 0) {
			ab_set_error_errno(error, AB_ERROR_SKIPPED, errno, "cannot create the state directory '%s'",
					   path);
			return FALSE;
		}
		dfd = open(path, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
	}
	if (dfd < 0) {
		int e = errno;
		if (e == ENOENT && !create)
			return TRUE;
		if (e == ELOOP || e == ENOTDIR) {
			struct stat st;
			gboolean link = lstat(path, &st) == 0 && S_ISLNK(st.st_mode);
			g_set_error(error, AB_ERROR, AB_ERROR_UNSAFE, "refusing state directory '%s': %s", path,
				    link ? "it is a symbolic link" : "not a directory");
			return FALSE;
		}
		ab_set_error_errno(error, e == EACCES ? AB_ERROR_UNSAFE : AB_ERROR_SKIPPED, e,
				   "cannot open the state directory '%s'", path);
		return FALSE;
	}
	struct stat st;
	g_autofree char *why = NULL;
	if (fstat(dfd, &st) != 0)
		why = g_strdup_printf("cannot stat it: %s", g_strerror(errno));
	else if (st.st_uid != geteuid())
		why = g_strdup_printf("it belongs to uid %u, not to uid %u who runs arraybench", (unsigned)st.st_uid,
				      (unsigned)geteuid());
	else if (st.st_mode & (S_IWGRP | S_IWOTH))
		why = g_strdup_printf("group or others may write to it (mode %04o)", (unsigned)(st.st_mode & 07777));
	if (why) {
		close(dfd);
		g_set_error(error, AB_ERROR, AB_ERROR_UNSAFE, "refusing state directory '%s': %s", path, why);
		return FALSE;
	}
	*fd = dfd;
	return TRUE;
}
