/* SPDX-License-Identifier: GPL-2.0-or-later */
/* `arraybench cleanup`: finish the undo journals of runs that died (kill -9,
 * power cut): unmount, stop arrays, detach loop devices, remove images,
 * test files and cgroups, each only if it is still the one the run made. */
#include "commands.h"
#include "../base/error.h"
#include "../../fs-setup/recover.h"
#include "../../fs-setup/statedir.h"

#include <stdio.h>
#include <unistd.h>

int ab_cmd_cleanup(int argc, char **argv, GError **error)
{
	if (argc > 1 && (g_str_equal(argv[1], "--help") || g_str_equal(argv[1], "-h"))) {
		printf("Usage: arraybench cleanup\n\n"
		       "Undo what runs that died left behind (mounts, arrays, loop devices, image files, test\n"
		       "files, memory cgroups), from their journals in $ARRAYBENCH_STATE_DIR, else\n"
		       "/var/lib/arraybench for root and ~/.local/state/arraybench for other users, and\n"
		       "report each step.  Each undo acts only on the object its run made; journals this\n"
		       "user would not have written are reported and left alone.\n");
		return 0;
	}
	if (argc > 1) {
		g_set_error(error, AB_ERROR, AB_ERROR_USAGE, "cleanup: unexpected argument '%s'", argv[1]);
		return AB_ERROR_USAGE;
	}
	g_autofree char *dir = ab_state_dir_path();
	g_autoptr(GString) report = g_string_new(NULL);
	gboolean ok = ab_undo_recover(dir, ab_undo_exec_real, report, error);
	if (report->len || ok)
		fputs(report->len ? report->str : "arraybench: cleanup: nothing to undo\n", stdout);
	fflush(stdout);
	return ok ? 0 : ab_error_exit_status(*error);
}
