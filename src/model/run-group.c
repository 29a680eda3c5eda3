/* SPDX-License-Identifier: GPL-2.0-or-later */
/* The group a run belongs to (run-group.h). */
#include "run-group.h"

char *ab_run_group_label(const struct ab_run *run)
{
	if (run->cell && *run->cell)
		return g_strdup(run->cell);
	const char *label = run->target.label && *run->target.label ? run->target.label : NULL;
	const char *workload = run->workload && *run->workload ? run->workload : NULL;
	if (label && workload)
		return g_strdup_printf("%s %s", label, workload);
	if (label || workload)
		return g_strdup(label ? label : workload);
	return g_strdup(run->machine && *run->machine ? run->machine : "(unnamed)");
}
