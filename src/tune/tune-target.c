/* SPDX-License-Identifier: GPL-2.0-or-later */
/* The target a tune's visits build (tune-target.h). */
#include "tune-target.h"
#include "../base/error.h"

#include <stdlib.h>

gboolean ab_tune_target_check(const struct ab_target_spec *t, GError **error)
{
	if (!ab_target_spec_builds(t)) {
		/* Run's own words here would offer -d DIR, which a tune refuses,
		 * or --members alone, which builds nothing without --array. */
		g_set_error(error, AB_ERROR, AB_ERROR_USAGE,
			    "a tune builds its target at each visit: give --loop N:SIZE[:DIR], --device DEV "
			    "--yes-destroy DEV, or --array LEVEL --members DEV,... --yes-destroy DEV,..., with --fs");
		return FALSE;
	}
	const char *one[] = { t->device, NULL };
	const char *const *named = t->device ? one : (const char *const *)t->members;
	/* A name that does not resolve is the target check's to refuse
	 * ("cannot use device"); --yes-destroy naming it would be refused
	 * too, so it is no advice to give. */
	for (const char *const *n = named; n && *n; n++) {
		char *real = realpath(*n, NULL);
		gboolean resolves = real != NULL;
		free(real);
		if (!resolves)
			return TRUE;
	}
	for (const char *const *n = named; n && *n; n++) {
		char *real = realpath(*n, NULL);
		gboolean confirmed = !real || (t->confirmed && g_strv_contains((const char *const *)t->confirmed, real));
		free(real);
		if (confirmed)
			continue;
		g_autofree char *list = g_strjoinv(",", (char **)named);
		g_set_error(error, AB_ERROR, AB_ERROR_USAGE,
			    "a tune formats '%s' at every visit, over what the visit before left on it: give "
			    "--yes-destroy %s",
			    *n, list);
		return FALSE;
	}
	return TRUE;
}

char **ab_tune_target_mkfs_devices(const struct ab_target_spec *t, gboolean striped, gboolean btrfs_members)
{
	GPtrArray *devices = g_ptr_array_new();
	guint named = t->members ? g_strv_length(t->members) : 0;
	guint n = btrfs_members ? (t->loop_count ? t->loop_count : named) : 1;
	for (guint i = 0; i < n; i++) {
		if (striped)
			g_ptr_array_add(devices, g_strdup("/dev/mdX"));
		else if (t->device)
			g_ptr_array_add(devices, g_strdup(t->device));
		else if (i < named)
			g_ptr_array_add(devices, g_strdup(t->members[i]));
		else /* loop images: the visits' own, detached since */
			g_ptr_array_add(devices, g_strdup_printf("DEVICE%u", i + 1));
	}
	g_ptr_array_add(devices, NULL);
	return (char **)g_ptr_array_free(devices, FALSE);
}
