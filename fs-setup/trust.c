/* SPDX-License-Identifier: GPL-2.0-or-later */
#include "trust.h"

#include "../src/base/error.h"

#include <errno.h>
#include <limits.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#define MAX_LINKS 40

/* May other users change what `path` leads to?  NULL if not. */
static char *judge(const char *path, const struct stat *st)
{
	if (st->st_uid != 0 && st->st_uid != geteuid())
		return g_strdup_printf("'%s' belongs to uid %u", path, (unsigned)st->st_uid);
	if (!S_ISLNK(st->st_mode) && (st->st_mode & (S_IWGRP | S_IWOTH)) && !(st->st_mode & S_ISVTX))
		return g_strdup_printf("others may rename in '%s' (mode %04o, not sticky)", path,
				       (unsigned)(st->st_mode & 07777));
	return NULL;
}

/* Push the components of `text` in front of those still to walk. */
static void push_front(GQueue *todo, const char *text)
{
	g_auto(GStrv) parts = g_strsplit(text, "/", -1);
	for (guint i = g_strv_length(parts); i-- > 0;)
		if (*parts[i] && !g_str_equal(parts[i], "."))
			g_queue_push_head(todo, g_strdup(parts[i]));
}

/* The path is walked as the kernel would walk it, component by component:
 * every directory on the way, and every symlink followed, must belong to
 * root or to us, and a directory others may write to must be sticky.  A
 * symlink is judged where it lies, then followed. */
gboolean ab_path_trusted(const char *dir, char **why)
{
	*why = NULL;
	if (!g_path_is_absolute(dir)) {
		*why = g_strdup_printf("'%s' is not an absolute path", dir);
		return FALSE;
	}
	g_autoptr(GQueue) todo = g_queue_new();
	push_front(todo, dir);
	g_autofree char *at = g_strdup("/");
	int links = 0;
	gboolean ok = TRUE;
	for (;;) {
		struct stat st;
		if (lstat(at, &st) != 0) {
			*why = g_strdup_printf("cannot stat '%s': %s", at, g_strerror(errno));
			ok = FALSE;
			break;
		}
		if ((*why = judge(at, &st))) {
			ok = FALSE;
			break;
		}
		if (S_ISLNK(st.st_mode)) {
			char target[4096];
			ssize_t n = readlink(at, target, sizeof(target) - 1);
			if (n < 0 || ++links > MAX_LINKS) {
				*why = g_strdup_printf("cannot follow '%s'", at);
				ok = FALSE;
				break;
			}
			target[n] = '\0';
			push_front(todo, target);
			char *from = target[0] == '/' ? g_strdup("/") : g_path_get_dirname(at);
			g_free(at);
			at = from;
			continue;
		}
		if (!S_ISDIR(st.st_mode)) {
			*why = g_strdup_printf("'%s' is not a directory", at);
			ok = FALSE;
			break;
		}
		char *next = g_queue_pop_head(todo);
		if (!next)
			break;
		char *then = g_str_equal(next, "..") ? g_path_get_dirname(at)
			     : g_str_equal(at, "/") ? g_strconcat("/", next, NULL)
						   : g_strconcat(at, "/", next, NULL);
		g_free(next);
		g_free(at);
		at = then;
	}
	g_queue_free_full(g_steal_pointer(&todo), g_free);
	return ok;
}

char *ab_path_absolute(const char *path)
{
	if (g_path_is_absolute(path))
		return g_strdup(path);
	g_autofree char *cwd = g_get_current_dir();
	return g_build_filename(cwd, path, NULL);
}

gboolean ab_path_has_room(const char *what, const char *path, GError **error)
{
	/* The longest name a run adds under a directory:
	 * "/arraybench-mnt.ID/arraybench.ID.io" with a 27-character run id. */
	if (strlen(path) + 96 < PATH_MAX)
		return TRUE;
	g_set_error(error, AB_ERROR, AB_ERROR_USAGE,
		    "invalid %s '%.40s...': too long (%zu characters) for the names a run makes in it to stay under "
		    "PATH_MAX", what, path, strlen(path));
	return FALSE;
}
