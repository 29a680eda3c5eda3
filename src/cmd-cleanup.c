/* SPDX-License-Identifier: GPL-2.0-or-later */
/* `arraybench cleanup`: finish the undo journals of runs that died (kill -9,
 * power cut): unmount, stop arrays, detach loop devices, remove images. */
#include "commands.h"
#include "error.h"
#include "../fs-setup/undo.h"

#include <stdio.h>
#include <unistd.h>

int ab_cmd_cleanup(int argc, char **argv, GError **error)
{
	if (argc > 1 && (g_str_equal(argv[1], "--help") || g_str_equal(argv[1], "-h"))) {
		printf("Usage: arraybench cleanup\n\nUndo what runs that were killed left behind (mounts, arrays, "
		       "loop devices, image files), from their journals in $ARRAYBENCH_STATE_DIR or "
		       "/var/lib/arraybench, and report each step.\n");
		return 0;
	}
	if (argc > 1) {
		g_set_error(error, AB_ERROR, AB_ERROR_USAGE, "cleanup: unexpected argument '%s'", argv[1]);
		return AB_ERROR_USAGE;
	}
	g_autofree char *dir = ab_undo_state_dir();
	g_autoptr(GString) report = g_string_new(NULL);
	gboolean ok = ab_undo_recover(dir, ab_undo_exec_real, report, error);
	fputs(report->len ? report->str : "arraybench: cleanup: nothing to undo\n", stdout);
	return ok ? 0 : ab_error_exit_status(*error);
}
