/* SPDX-License-Identifier: GPL-2.0-or-later */
/* The winner's /etc/fstab line and mkfs command (fstab.h). */
#include "fstab.h"
#include "../base/error.h"

int ab_fstab_pass(enum ab_fs_type fs)
{
	return fs == AB_FS_EXT3 || fs == AB_FS_EXT4 ? 2 : 0;
}

char *ab_fstab_escape(const char *field)
{
	GString *s = g_string_new(NULL);
	for (const char *c = field; *c; c++) {
		if (*c == ' ' || *c == '\t' || *c == '\n' || *c == '\\')
			g_string_append_printf(s, "\\%03o", (unsigned char)*c);
		else
			g_string_append_c(s, *c);
	}
	return g_string_free(s, FALSE);
}

char *ab_fstab_line(const char *source, const char *mount_point, enum ab_fs_type fs, const char *options,
		    GError **error)
{
	if (!source)
		source = AB_FSTAB_SOURCE_PLACEHOLDER;
	if (!*source) {
		g_set_error(error, AB_ERROR, AB_ERROR_USAGE, "invalid fstab source '': a device, UUID= or LABEL=");
		return NULL;
	}
	if (!mount_point || !g_path_is_absolute(mount_point)) {
		g_autofree char *safe = ab_one_line(mount_point ? mount_point : "");
		g_set_error(error, AB_ERROR, AB_ERROR_USAGE, "invalid mount point '%s': an absolute path", safe);
		return NULL;
	}
	g_autofree char *src = ab_fstab_escape(source);
	g_autofree char *dir = ab_fstab_escape(mount_point);
	g_autofree char *opts = ab_fstab_escape(options && *options ? options : "defaults");
	return g_strdup_printf("%s %s %s %s 0 %d\n", src, dir, ab_fs_type_name(fs), opts, ab_fstab_pass(fs));
}

char *ab_fstab_mkfs_command(enum ab_fs_type fs, const struct ab_array_geometry *geo, const char *btrfs_profile,
			    const char *const *devices, const struct ab_candidate *c, GError **error)
{
	guint n = devices ? g_strv_length((char **)devices) : 0;
	if (!n || (n > 1 && fs != AB_FS_BTRFS)) {
		g_set_error(error, AB_ERROR, AB_ERROR_USAGE, "%u devices for a %s file system: %s", n,
			    ab_fs_type_name(fs), fs == AB_FS_BTRFS ? "one or more" : "one");
		return NULL;
	}
	const char *mkfs_opts = c ? c->mkfs_opts : NULL;
	struct ab_plan plan;
	ab_plan_init(&plan);
	gboolean ok = fs == AB_FS_BTRFS
			      ? ab_btrfs_plan(&plan, btrfs_profile ? btrfs_profile : "single", devices, mkfs_opts, error)
			      : ab_mkfs_plan(&plan, fs, devices[0], geo, c && c->no_stripe_hint, mkfs_opts, error);
	char *command = ok ? ab_plan_step_command(g_ptr_array_index(plan.steps, 0)) : NULL;
	ab_plan_clear(&plan);
	return command;
}
