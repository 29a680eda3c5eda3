/* SPDX-License-Identifier: GPL-2.0-or-later */
/* A built target's record: empty, and let go of. */
#include "target.h"

#include <unistd.h>

void ab_target_init(struct ab_target *t)
{
	memset(t, 0, sizeof(*t));
	t->mount_fd = -1;
	t->root_fd = -1;
}

void ab_target_clear(struct ab_target *t)
{
	g_free(t->mount_dir);
	if (t->mount_fd >= 0)
		close(t->mount_fd);
	if (t->root_fd >= 0)
		close(t->root_fd);
	g_free(t->level);
	g_free(t->layout);
	g_free(t->fs);
	g_free(t->source);
	if (t->members)
		g_ptr_array_unref(t->members);
	g_free(t->mkfs_command);
	g_free(t->mount_options);
	g_free(t->mount_effective);
	g_free(t->label);
	g_free(t->mount_extra);
	if (t->queues)
		g_array_unref(t->queues);
	if (t->tool_output)
		g_string_free(t->tool_output, TRUE);
	ab_target_init(t);
}
