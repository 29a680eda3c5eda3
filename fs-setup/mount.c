/* SPDX-License-Identifier: GPL-2.0-or-later */
#include "mount.h"
#include "../src/base/error.h"

#include <errno.h>
#include <libmount.h>
#include <stdio.h>
#include <string.h>
#include <sys/mount.h>

gboolean ab_mount_split_options(const char *options, unsigned long *flags, char **data, GError **error)
{
	*flags = 0;
	*data = NULL;
	if (!options || !*options)
		return TRUE;
	char *user = NULL, *vfs = NULL, *fs = NULL;
	if (mnt_split_optstr(options, &user, &vfs, &fs, 0, 0) != 0 ||
	    mnt_optstr_get_flags(options, flags, mnt_get_builtin_optmap(MNT_LINUX_MAP)) != 0) {
		free(user), free(vfs), free(fs);
		g_set_error(error, AB_ERROR, AB_ERROR_USAGE, "invalid mount options '%s'", options);
		return FALSE;
	}
	if (user) {
		/* "user", "noauto" and friends mean something to mount(8) only. */
		g_set_error(error, AB_ERROR, AB_ERROR_USAGE, "invalid mount options '%s': '%s' is for fstab, not mount(2)",
			    options, user);
		free(user), free(vfs), free(fs);
		return FALSE;
	}
	*data = fs ? g_strdup(fs) : NULL;
	free(vfs);
	free(fs);
	return TRUE;
}

gboolean ab_mount(const char *source, int target_fd, const char *target, const char *fstype, const char *options,
		  const char *extra_data, GError **error)
{
	unsigned long flags;
	g_autofree char *data = NULL;
	if (!ab_mount_split_options(options, &flags, &data, error))
		return FALSE;
	g_autofree char *all = data && extra_data ? g_strdup_printf("%s,%s", extra_data, data)
			       : g_strdup(data ? data : extra_data);
	char at[64];
	snprintf(at, sizeof(at), "/proc/self/fd/%d", target_fd);
	if (mount(source, at, fstype, flags, all) != 0) {
		/* The kernel's reason is only in its log; say where to look. */
		ab_set_error_errno(error, AB_ERROR_USAGE, errno, "cannot mount '%s' (%s, options '%s') on '%s'%s",
				   source, fstype, options ? options : "", target,
				   errno == EINVAL ? " (see dmesg for the option it rejected)" : "");
		return FALSE;
	}
	return TRUE;
}

char *ab_mount_effective_options(const char *root, const char *target)
{
	g_autofree char *path = g_strdup_printf("%s/proc/self/mountinfo", root);
	g_autofree char *text = NULL;
	if (!g_file_get_contents(path, &text, NULL, NULL))
		return NULL;
	g_auto(GStrv) lines = g_strsplit(text, "\n", -1);
	char *found = NULL;
	for (char **l = lines; *l; l++) {
		/* id parent maj:min root mountpoint options ... - fstype source super */
		g_auto(GStrv) f = g_strsplit(*l, " ", -1);
		guint n = g_strv_length(f);
		if (n < 10)
			continue;
		g_autofree char *mp = g_strcompress(f[4]); /* \040 escapes */
		if (!g_str_equal(mp, target))
			continue;
		guint sep = 6;
		while (sep < n && !g_str_equal(f[sep], "-"))
			sep++;
		if (sep + 1 >= n)
			continue;
		/* Per-mount options, then the super block's, each once. */
		g_autofree char *both = g_strdup_printf("%s,%s", f[5], sep + 3 < n ? f[sep + 3] : "");
		g_auto(GStrv) opts = g_strsplit(both, ",", -1);
		GString *uniq = g_string_new(NULL);
		for (char **o = opts; *o; o++) {
			gboolean dup = !**o;
			for (char **p = opts; !dup && p < o; p++)
				dup = g_str_equal(*p, *o);
			if (!dup)
				g_string_append_printf(uniq, "%s%s", uniq->len ? "," : "", *o);
		}
		g_free(found); /* the last (top) mount on that point wins */
		found = g_string_free(uniq, FALSE);
	}
	return found;
}
