/* SPDX-License-Identifier: GPL-2.0-or-later */
/* The undo step's kinds by name, and freeing a step. */
#include "undo-step.h"

static const char *const kind_names[AB_UNDO_KIND_COUNT] = {
	[AB_UNDO_UMOUNT] = "umount",
	[AB_UNDO_LOOP_DETACH] = "loop-detach",
	[AB_UNDO_UNLINK] = "unlink",
	[AB_UNDO_RMDIR] = "rmdir",
	[AB_UNDO_MDADM_STOP] = "mdadm-stop",
	[AB_UNDO_MDADM_ZERO] = "mdadm-zero-superblock",
	[AB_UNDO_CGROUP] = "remove-cgroup",
	[AB_UNDO_RUN_DIR] = "remove-test-files",
	[AB_UNDO_IO_FILE] = "remove-test-file",
	[AB_UNDO_SHARED_FILES] = "remove-shared-test-files",
};

const char *ab_undo_kind_name(enum ab_undo_kind kind)
{
	return kind < AB_UNDO_KIND_COUNT ? kind_names[kind] : "?";
}

gboolean ab_undo_kind_from_name(const char *name, enum ab_undo_kind *out)
{
	for (int k = 0; k < AB_UNDO_KIND_COUNT; k++)
		if (name && g_str_equal(kind_names[k], name)) {
			*out = (enum ab_undo_kind)k;
			return TRUE;
		}
	return FALSE;
}

void ab_undo_step_free(struct ab_undo_step *step)
{
	if (!step)
		return;
	g_free(step->path);
	g_free(step->detail);
	g_free(step);
}
