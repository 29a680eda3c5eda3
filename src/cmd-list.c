/* SPDX-License-Identifier: GPL-2.0-or-later */
/* `arraybench list`: the phases, in run order, and what each does. */
#include "commands.h"
#include "error.h"
#include "presets.h"
#include "result.h"

#include <stdio.h>

int ab_cmd_list(int argc, char **argv, GError **error)
{
	if (argc > 1 && (g_str_equal(argv[1], "--help") || g_str_equal(argv[1], "-h"))) {
		printf("Usage: arraybench list\n\nList the phases in the order they run, with the bonnie++ "
		       "CSV column, the unit, and what each does, and the built-in workloads with their options.\n");
		return 0;
	}
	if (argc > 1) {
		g_set_error(error, AB_ERROR, AB_ERROR_USAGE, "list: unexpected argument '%s'", argv[1]);
		return AB_ERROR_USAGE;
	}
	printf("%-15s %-11s %-8s %s\n", "PHASE", "CSV", "UNIT", "WHAT IT DOES");
	for (unsigned id = 0; id < AB_PHASE_COUNT; id++) {
		const struct ab_phase *ph = ab_phase_by_id(id);
		printf("%-15s %-11s %-8s %s%s\n", ph->name, ph->csv_name, ab_rate_unit_name(ph->unit), ph->summary,
		       (ph->flags & AB_PHASE_MULTI) ? " (--seekers processes)" : "");
	}
	printf("\nRun only when named in --phases (not in 'all', not in the bonnie++ CSV line):\n");
	for (unsigned id = AB_PHASE_COUNT; id < AB_PHASE_ID_COUNT; id++) {
		const struct ab_phase *ph = ab_phase_by_id(id);
		if (ph && !(ph->flags & AB_PHASE_DEVICE))
			printf("%-15s %-11s %-8s %s\n", ph->name, "-", ab_rate_unit_name(ph->unit), ph->summary);
	}
	/* A device's own rows: never a --phases step (AB_PHASE_DEVICE). */
	printf("\nMeasured on block devices by 'arraybench raw' and run --raw-baseline, never in --phases:\n");
	for (unsigned id = AB_PHASE_COUNT; id < AB_PHASE_ID_COUNT; id++) {
		const struct ab_phase *ph = ab_phase_by_id(id);
		if (ph && (ph->flags & AB_PHASE_DEVICE))
			printf("%-15s %-11s %-8s %s\n", ph->name, "-", ab_rate_unit_name(ph->unit), ph->summary);
	}
	printf("\nBuilt-in workloads (run --workload NAME; options given with it change it):\n");
	for (const struct ab_preset *const *p = ab_presets; *p; p++) {
		g_autofree char *args = g_strjoinv(" ", (char **)(*p)->args);
		printf("%-15s %s\n%-15s   = %s\n", (*p)->name, (*p)->summary, "", *args ? args : "(no options: run's defaults)");
	}
	return 0;
}
