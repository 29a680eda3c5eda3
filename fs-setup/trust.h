/* SPDX-License-Identifier: GPL-2.0-or-later */
#ifndef AB_TRUST_H
#define AB_TRUST_H

#include <glib.h>

/*
 * May root make something in DIR (a mount point, images, an output file)
 * and count on the path leading there still?  Only if no other user can
 * change anything on the way: walking DIR as given (absolute), every
 * directory and every symlink followed belongs to root or to the user who
 * runs arraybench, and a directory group or others may write to is sticky
 * (as /tmp is, where nobody may rename another's entry).  FALSE with *why
 * otherwise.
 */
gboolean ab_path_trusted(const char *dir, char **why);
/* Is there room under `path` for the names a run makes (run id and all),
 * within PATH_MAX, so that cleanup can reach them by path after a crash?
 * AB_ERROR_USAGE naming `what` if not. */
gboolean ab_path_has_room(const char *what, const char *path, GError **error);
/* `path` made absolute from the working directory, and nothing else: no
 * "..", "." or symlink is resolved (the walk above must see them all). */
char *ab_path_absolute(const char *path);

#endif
