/* SPDX-License-Identifier: GPL-2.0-or-later */
#include "spawn.h"

#include <signal.h>
#include <sys/prctl.h>
#include <unistd.h>

void ab_die_with_parent(pid_t parent)
{
	prctl(PR_SET_PDEATHSIG, SIGKILL);
	if (getppid() != parent)
		_exit(127); /* it died before the line above */
}

/* After fork, before exec; PR_SET_PDEATHSIG survives exec. */
static void die_with_parent(gpointer parent)
{
	ab_die_with_parent((pid_t)GPOINTER_TO_INT(parent));
}

gboolean ab_spawn_tool(char **argv, char **out, char **err, int *status, GError **error)
{
	GSpawnFlags flags = G_SPAWN_SEARCH_PATH | G_SPAWN_STDIN_FROM_DEV_NULL;
	if (!out)
		flags |= G_SPAWN_STDOUT_TO_DEV_NULL;
	/* From "/", as the option words were checked (optwords.h). */
	return g_spawn_sync("/", argv, NULL, flags, die_with_parent, GINT_TO_POINTER((int)getpid()), out, err,
			    status, error);
}
