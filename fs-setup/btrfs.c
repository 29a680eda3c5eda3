/* SPDX-License-Identifier: GPL-2.0-or-later */
#include "plan.h"
#include "../src/base/error.h"

#include <string.h>

/* Minimum devices per profile: the PROFILES table of mkfs.btrfs(8), btrfs-progs
 * 6.2 (raid0 on one and raid10 on two devices since kernel 5.15), checked
 * with mkfs.btrfs 6.2 on image files. */
static const struct {
	const char *name;
	guint min_devices;
} profiles[] = {
	{ "single", 1 }, { "raid0", 1 }, { "raid1", 2 }, { "raid10", 2 }, { "raid5", 2 }, { "raid6", 3 },
};

gboolean ab_btrfs_plan(struct ab_plan *plan, const char *profile, const char *const *members,
		       const char *extra_opts, GError **error)
{
	guint min = 0;
	for (size_t i = 0; i < G_N_ELEMENTS(profiles); i++)
		if (profile && g_str_equal(profile, profiles[i].name))
			min = profiles[i].min_devices;
	if (!min) {
		g_set_error(error, AB_ERROR, AB_ERROR_USAGE,
			    "invalid btrfs profile '%s': expected single, raid0, raid1, raid10, raid5 or raid6",
			    profile ? profile : "");
		return FALSE;
	}
	guint n = members ? g_strv_length((char **)members) : 0;
	if (n < min) {
		g_set_error(error, AB_ERROR, AB_ERROR_USAGE,
			    "too few devices for btrfs profile '%s': got '%u', need at least %u", profile, n, min);
		return FALSE;
	}
	for (guint i = 0; i < n; i++)
		if (strchr(members[i], ',')) {
			g_set_error(error, AB_ERROR, AB_ERROR_USAGE,
				    "cannot use '%s' in btrfs: a comma in a device path cannot be passed as a mount option",
				    members[i]);
			return FALSE;
		}
	g_auto(GStrv) user = NULL;
	if (!ab_plan_split_options("mkfs options", extra_opts, &user, error))
		return FALSE;

	g_autoptr(GPtrArray) argv = g_ptr_array_new_with_free_func(g_free);
	const char *const fixed[] = { "mkfs.btrfs", "-f", "-q", "-K", "-d", profile, "-m", profile };
	for (size_t i = 0; i < G_N_ELEMENTS(fixed); i++)
		g_ptr_array_add(argv, g_strdup(fixed[i]));
	for (char **u = user; *u; u++)
		g_ptr_array_add(argv, g_strdup(*u));
	for (guint i = 0; i < n; i++)
		g_ptr_array_add(argv, g_strdup(members[i]));
	g_ptr_array_add(argv, NULL);

	g_autofree char *what = g_strdup_printf("create btrfs %s file system on %u device%s", profile, n,
						n == 1 ? "" : "s");
	ab_plan_add(plan, what, (const char *const *)argv->pdata, AB_UNDO_KIND_COUNT, NULL, NULL);
	return TRUE;
}

char *ab_btrfs_mount_data(const char *const *members, const char *user_data)
{
	GString *data = g_string_new(NULL);
	for (const char *const *m = members; m && *m; m++)
		g_string_append_printf(data, "%sdevice=%s", data->len ? "," : "", *m);
	if (user_data && *user_data)
		g_string_append_printf(data, "%s%s", data->len ? "," : "", user_data);
	return g_string_free(data, FALSE);
}
