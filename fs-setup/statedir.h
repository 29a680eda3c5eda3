/* SPDX-License-Identifier: GPL-2.0-or-later */
#ifndef AB_STATEDIR_H
#define AB_STATEDIR_H

#include <glib.h>

/*
 * Where this user's undo journals live: $ARRAYBENCH_STATE_DIR when set; for
 * root /var/lib/arraybench; for other users $XDG_STATE_HOME/arraybench, else
 * ~/.local/state/arraybench, else, when the home directory does not exist or
 * is not theirs (system users such as nobody), /var/tmp/arraybench-state.UID.
 */
char *ab_state_dir_path(void);

/*
 * Open a state directory only if it deserves trust: a real directory (not a
 * symlink), owned by the effective user, not writable by group or others.
 * Checked on the open descriptor itself, so nothing can be swapped in
 * between check and use.  With `create`, a missing one is made (0700).
 * Without it, a missing one gives TRUE and *fd = -1.  A refusal is
 * AB_ERROR_UNSAFE naming the reason.
 */
gboolean ab_state_dir_open(const char *path, gboolean create, int *fd, GError **error);

#endif
