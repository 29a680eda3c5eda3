/* SPDX-License-Identifier: GPL-2.0-or-later */
/* The target spec: its lifecycle, --loop parsing, and the checks of its
 * options on their own, before anything is planned or made. */
#include "target.h"
#include "mount.h"
#include "optwords.h"
#include "trust.h"
#include "../src/base/parse.h"
#include "../src/base/error.h"

#include <errno.h>
#include <linux/magic.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/statfs.h>
#include <sys/sysmacros.h>

void ab_target_spec_init(struct ab_target_spec *spec)
{
	memset(spec, 0, sizeof(*spec));
}

void ab_target_spec_clear(struct ab_target_spec *spec)
{
	g_free(spec->dir);
	g_free(spec->device);
	g_free(spec->array_level);
	g_strfreev(spec->members);
	g_free(spec->layout);
	g_free(spec->fs);
	g_free(spec->mkfs_opts);
	g_free(spec->mount_opts);
	g_free(spec->loop_dir);
	g_free(spec->mount_parent);
	g_strfreev(spec->confirmed);
	memset(spec, 0, sizeof(*spec));
}

gboolean ab_target_spec_builds(const struct ab_target_spec *spec)
{
	return spec->device || spec->array_level || spec->loop_count;
}

gboolean ab_target_spec_parse_loop(const char *text, struct ab_target_spec *spec, GError **error)
{
	g_auto(GStrv) f = g_strsplit(text, ":", 3);
	guint64 n;
	uint64_t size;
	if (!f[0] || !f[1] || !g_ascii_string_to_unsigned(f[0], 10, 1, 64, &n, NULL)) {
		g_set_error(error, AB_ERROR, AB_ERROR_USAGE,
			    "invalid --loop '%s': expected N:SIZE[:DIR] with N from 1 to 64", text);
		return FALSE;
	}
	if (!ab_parse_size(f[1], AB_MIB, &size, error)) {
		g_prefix_error(error, "--loop: ");
		return FALSE;
	}
	if (size < 16 * AB_MIB) {
		g_set_error(error, AB_ERROR, AB_ERROR_USAGE, "invalid --loop size '%s': at least 16m", f[1]);
		return FALSE;
	}
	spec->loop_count = (uint32_t)n;
	spec->loop_size = size;
	g_free(spec->loop_dir);
	spec->loop_dir = g_strdup(f[2] && *f[2] ? f[2] : ab_target_default_image_dir());
	return TRUE;
}

const char *ab_target_default_image_dir(void)
{
	/* Not /tmp: it is tmpfs on Debian 13 and many other systems, where the
	 * "array" would be RAM.  A TMPDIR the user set is their choice. */
	const char *env = g_getenv("TMPDIR");
	return env && *env ? env : "/var/tmp";
}

const char *ab_target_ram_fs_name(const char *dir)
{
	struct statfs sfs;
	if (statfs(dir, &sfs) != 0)
		return NULL;
	if (sfs.f_type == TMPFS_MAGIC)
		return "tmpfs";
	if (sfs.f_type == RAMFS_MAGIC)
		return "ramfs";
	return NULL;
}

/* Replace *path with its canonical form when it exists; journals and
 * cleanup must not depend on the working directory. */
static void make_absolute(char **path)
{
	char *real = realpath(*path, NULL);
	if (real) {
		g_free(*path);
		*path = real;
	}
}

/* The device's directory in sysfs ("/sys/devices/.../sda/sda1"), or NULL. */
static char *sysfs_node(dev_t dev)
{
	g_autofree char *link = g_strdup_printf("/sys/dev/block/%u:%u", major(dev), minor(dev));
	return realpath(link, NULL);
}

/* Does one contain the other (a disk and its own partition)? */
static gboolean overlap(dev_t a, dev_t b)
{
	g_autofree char *na = sysfs_node(a), *nb = sysfs_node(b);
	if (!na || !nb)
		return FALSE;
	size_t la = strlen(na), lb = strlen(nb);
	return (la < lb && strncmp(na, nb, la) == 0 && nb[la] == '/') ||
	       (lb < la && strncmp(nb, na, lb) == 0 && na[lb] == '/');
}

static gboolean check_members(struct ab_target_spec *spec, GError **error)
{
	guint n = spec->members ? g_strv_length(spec->members) : 0;
	g_autofree dev_t *devs = g_new0(dev_t, n + 1);
	for (guint i = 0; i < n; i++) {
		g_autofree char *given = g_strdup(spec->members[i]);
		make_absolute(&spec->members[i]);
		struct stat st;
		if (stat(spec->members[i], &st) == 0 && S_ISBLK(st.st_mode))
			devs[i] = st.st_rdev;
		for (guint j = 0; j < i; j++) {
			if (g_str_equal(spec->members[i], spec->members[j]) || (devs[i] && devs[i] == devs[j])) {
				g_set_error(error, AB_ERROR, AB_ERROR_USAGE,
					    "invalid --members: '%s' is the same device as '%s', named before", given,
					    spec->members[j]);
				return FALSE;
			}
			if (devs[i] && devs[j] && overlap(devs[i], devs[j])) {
				g_set_error(error, AB_ERROR, AB_ERROR_USAGE,
					    "invalid --members: '%s' and '%s' overlap (a disk and its own partition)",
					    spec->members[j], given);
				return FALSE;
			}
		}
	}
	return TRUE;
}

static gboolean check_loop_dir(struct ab_target_spec *spec, GError **error)
{
	g_autofree char *real = realpath(spec->loop_dir, NULL);
	struct stat st;
	if (!real || stat(real, &st) != 0) {
		ab_set_error_errno(error, AB_ERROR_USAGE, errno, "invalid --loop directory '%s'", spec->loop_dir);
		return FALSE;
	}
	if (!S_ISDIR(st.st_mode)) {
		g_set_error(error, AB_ERROR, AB_ERROR_USAGE, "invalid --loop directory '%s': not a directory",
			    spec->loop_dir);
		return FALSE;
	}
	/* Root makes and removes the images there by name. */
	g_autofree char *given = ab_path_absolute(spec->loop_dir);
	g_autofree char *why = NULL;
	if (!ab_path_trusted(given, &why)) {
		g_set_error(error, AB_ERROR, AB_ERROR_UNSAFE,
			    "refusing --loop directory '%s': %s (others could move the images)", spec->loop_dir, why);
		return FALSE;
	}
	const char *ram_fs = ab_target_ram_fs_name(real);
	if (ram_fs && g_str_equal(ram_fs, "ramfs")) {
		g_set_error(error, AB_ERROR, AB_ERROR_USAGE,
			    "refusing --loop directory '%s': it is on ramfs, which cannot hold loop images (no direct "
			    "I/O) and would make the array RAM", spec->loop_dir);
		return FALSE;
	}
	if (ram_fs && !spec->images_in_ram) {
		g_set_error(error, AB_ERROR, AB_ERROR_USAGE,
			    "refusing --loop directory '%s': it is on %s, so the array would be RAM, not disks; "
			    "give a directory on a disk (--loop N:SIZE:DIR) or --images-in-ram",
			    spec->loop_dir, ram_fs);
		return FALSE;
	}
	if (!ab_path_has_room("--loop directory", real, error))
		return FALSE;
	g_free(spec->loop_dir);
	spec->loop_dir = g_steal_pointer(&real);
	return TRUE;
}

/* Root mounts there: nobody else may be able to move the mount point. */
static gboolean check_mount_parent(struct ab_target_spec *spec, GError **error)
{
	const char *tmp = g_get_tmp_dir();
	g_autofree char *real = realpath(tmp, NULL);
	struct stat st;
	if (!real || stat(real, &st) != 0 || !S_ISDIR(st.st_mode)) {
		ab_set_error_errno(error, AB_ERROR_USAGE, real ? ENOTDIR : errno,
				   "invalid TMPDIR '%s' for the mount point", tmp);
		return FALSE;
	}
	/* The path as given, symlinks and ".." and all: its canonical form
	 * could hide a symlink another user owns ("rootlink/.."). */
	g_autofree char *given = ab_path_absolute(tmp);
	g_autofree char *why = NULL;
	if (!ab_path_trusted(given, &why)) {
		g_set_error(error, AB_ERROR, AB_ERROR_UNSAFE,
			    "refusing TMPDIR '%s' for the mount point: %s (others could move it)", tmp, why);
		return FALSE;
	}
	if (!ab_path_has_room("TMPDIR", real, error))
		return FALSE;
	g_free(spec->mount_parent);
	spec->mount_parent = g_steal_pointer(&real);
	return TRUE;
}

static gboolean needs_target(const char *option, gboolean given, GError **error)
{
	if (!given)
		return TRUE;
	g_set_error(error, AB_ERROR, AB_ERROR_USAGE, "%s needs a target to build (--device, --array or --loop)",
		    option);
	return FALSE;
}

gboolean ab_target_spec_check_options(struct ab_target_spec *spec, GError **error)
{
	if (spec->images_in_ram && !spec->loop_count) {
		g_set_error(error, AB_ERROR, AB_ERROR_USAGE, "--images-in-ram needs --loop: it says where images may go");
		return FALSE;
	}
	if (!ab_target_spec_builds(spec))
		return needs_target("--members", spec->members != NULL, error) &&
		       needs_target("--fs", spec->fs != NULL, error) &&
		       needs_target("--mkfs-opts", spec->mkfs_opts != NULL, error) &&
		       needs_target("--mount-opts", spec->mount_opts != NULL, error) &&
		       needs_target("--chunk", spec->chunk_bytes != 0, error) &&
		       needs_target("--layout", spec->layout != NULL, error) &&
		       needs_target("--backend", spec->backend != NULL, error) &&
		       needs_target("--no-stripe-hint", spec->no_stripe_hint, error) &&
		       needs_target("--yes-destroy", spec->confirmed != NULL, error) &&
		       needs_target("--raw-baseline", spec->raw_baseline, error);
	if (spec->device && (spec->array_level || spec->members || spec->loop_count)) {
		g_set_error(error, AB_ERROR, AB_ERROR_USAGE,
			    "--device '%s' excludes --array, --members and --loop: it is the whole target",
			    spec->device);
		return FALSE;
	}
	if (spec->device)
		make_absolute(&spec->device);
	if (!check_members(spec, error) || (spec->loop_count && !check_loop_dir(spec, error)) ||
	    !check_mount_parent(spec, error))
		return FALSE;
	unsigned long flags;
	g_autofree char *data = NULL;
	return ab_option_string_check("--mkfs-opts", spec->mkfs_opts, error) &&
	       ab_option_string_check("--mount-opts", spec->mount_opts, error) &&
	       ab_mount_split_options(spec->mount_opts, &flags, &data, error);
}
