/* SPDX-License-Identifier: GPL-2.0-or-later */
/* A multi-device btrfs: mkfs.btrfs makes the array as it formats
 * (fs-setup/btrfs.c plans it), so nothing is assembled before, and the
 * mount names every member. */
#include "backend.h"
#include "../src/base/error.h"

/* "raid10", "10" -> "raid10"; "single" -> "single"; NULL for others. */
static const char *btrfs_profile(const char *level)
{
	static const char *const names[] = { "single", "raid0", "raid1", "raid10", "raid5", "raid6" };
	const char *bare = g_str_has_prefix(level, "raid") ? level + 4 : level;
	for (size_t i = 0; i < G_N_ELEMENTS(names); i++) {
		const char *nb = g_str_has_prefix(names[i], "raid") ? names[i] + 4 : names[i];
		if (g_str_equal(bare, nb))
			return names[i];
	}
	return NULL;
}

static gboolean make_btrfs(struct ab_build *b, GError **error)
{
	const struct ab_target_spec *spec = b->spec;
	struct ab_target *t = b->t;
	const char *const *members = (const char *const *)t->members->pdata;
	const char *profile = btrfs_profile(spec->array_level);
	if (b->fs != AB_FS_BTRFS || !profile) {
		g_set_error(error, AB_ERROR, AB_ERROR_USAGE,
			    "invalid --array '%s' for the btrfs backend: it takes --fs btrfs and one of "
			    "single, raid0, raid1, raid10, raid5, raid6", spec->array_level);
		return FALSE;
	}
	t->level = g_strdup(profile);
	t->source = g_strdup(members[0]);
	struct ab_plan plan;
	ab_plan_init(&plan);
	gboolean ok = ab_btrfs_plan(&plan, profile, members, spec->mkfs_opts, error);
	if (ok) {
		t->mkfs_command = ab_plan_step_command(g_ptr_array_index(plan.steps, 0));
		ok = ab_build_run_plan(b, &plan, "formatting", error);
	}
	ab_plan_clear(&plan);
	return ok;
}

/* Every member named: a multi-device btrfs mounts without a device scan. */
static gboolean mount_btrfs(struct ab_build *b, GError **error)
{
	return ab_build_mount(b, ab_btrfs_mount_data((const char *const *)b->t->members->pdata, NULL), error);
}

static void btrfs_label(GString *s, const struct ab_target *t)
{
	g_string_append_printf(s, "btrfs-%s-", t->level);
}

const struct ab_backend_ops ab_backend_btrfs = {
	.name = "btrfs",
	.shape = AB_BACKEND_ARRAY,
	.own_fs = "btrfs",
	.format = make_btrfs,
	.mount = mount_btrfs,
	.remount = ab_build_remount,
	.label = btrfs_label,
};
