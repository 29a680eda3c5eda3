/* SPDX-License-Identifier: GPL-2.0-or-later */
#ifndef AB_SPAWN_H
#define AB_SPAWN_H

#include <glib.h>
#include <sys/types.h>

/* Run a set-up tool (mkfs, mdadm) to completion: stdin from /dev/null (mdadm
 * reads "no" there), output captured (out may be NULL), and killed if
 * arraybench dies, so that after kill -9 no mkfs or mdadm goes on writing
 * while `cleanup` undoes the run.  FALSE only if it could not be started;
 * *status is its wait status. */
gboolean ab_spawn_tool(char **argv, char **out, char **err, int *status, GError **error);
/* In a child of `parent`: be killed when it dies (kill -9, crash), and leave
 * at once if it died already.  Changing credentials clears this: call it
 * again after setuid. */
void ab_die_with_parent(pid_t parent);

#endif
